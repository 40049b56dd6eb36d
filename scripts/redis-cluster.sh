#!/usr/bin/env bash
# Starts or stops a local Redis Cluster for ilion's redis-cluster backend: 6 nodes (3
# primaries, 3 replicas) on loopback ports BASEPORT..BASEPORT+5 (default 7100), each with
# `appendonly yes` and `appendfsync always`, in a temporary directory. `up` waits until the
# cluster is healthy and prints the node addresses, `127.0.0.1:PORT` one a line (and nothing
# else on stdout); `down` stops the nodes and removes the directory. See docs/redis.md.
#
#   scripts/redis-cluster.sh up [BASEPORT]
#   scripts/redis-cluster.sh down [BASEPORT]
set -euo pipefail

cmd=${1:-}
base=${2:-7100}
state_root=${TMPDIR:-/tmp}
dir="$state_root/ilion-redis-cluster-$base"
ports=()
for i in 0 1 2 3 4 5; do ports+=($((base + i))); done

log() { echo "redis-cluster: $*" >&2; }

install_redis() {
    command -v redis-server >/dev/null && command -v redis-cli >/dev/null && return
    log "installing redis-server (Debian package)"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq redis-server >&2
}

cli() { redis-cli -h 127.0.0.1 -p "$1" "${@:2}"; }

down() {
    for p in "${ports[@]}"; do
        if [ -f "$dir/$p/redis.pid" ]; then
            cli "$p" shutdown nosave >/dev/null 2>&1 || kill "$(cat "$dir/$p/redis.pid")" 2>/dev/null || true
        fi
    done
    # Wait for the processes to go, so the ports are free for the next `up`.
    for p in "${ports[@]}"; do
        if [ -f "$dir/$p/redis.pid" ]; then
            pid=$(cat "$dir/$p/redis.pid")
            for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        fi
    done
    rm -rf "$dir"
}

healthy() {
    local info nodes
    info=$(cli "${ports[0]}" cluster info 2>/dev/null) || return 1
    grep -q '^cluster_state:ok' <<<"$info" || return 1
    grep -q '^cluster_slots_assigned:16384' <<<"$info" || return 1
    grep -q '^cluster_slots_ok:16384' <<<"$info" || return 1
    # Every replica attached and every node agreeing on the cluster size.
    nodes=$(cli "${ports[0]}" cluster nodes 2>/dev/null) || return 1
    [ "$(grep -c 'master' <<<"$nodes")" -eq 3 ] || return 1
    [ "$(grep -c 'slave' <<<"$nodes")" -eq 3 ] || return 1
    for p in "${ports[@]}"; do
        cli "$p" cluster info 2>/dev/null | grep -q '^cluster_known_nodes:6' || return 1
        cli "$p" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
    done
    # Replicas have finished their first sync.
    for p in "${ports[@]}"; do
        if cli "$p" role 2>/dev/null | head -1 | grep -q slave; then
            cli "$p" info replication | grep -q 'master_link_status:up' || return 1
        fi
    done
}

up() {
    install_redis
    if [ -d "$dir" ]; then
        log "$dir exists: stopping the old cluster first"
        down
    fi
    mkdir -p "$dir"
    for p in "${ports[@]}"; do
        mkdir -p "$dir/$p"
        cat >"$dir/$p/redis.conf" <<CONF
port $p
bind 127.0.0.1
dir $dir/$p
daemonize yes
pidfile $dir/$p/redis.pid
logfile $dir/$p/redis.log
cluster-enabled yes
cluster-config-file nodes.conf
cluster-node-timeout 2000
cluster-replica-validity-factor 0
appendonly yes
appendfsync always
save ""
protected-mode no
CONF
        redis-server "$dir/$p/redis.conf" >&2
    done
    for p in "${ports[@]}"; do
        for _ in $(seq 100); do cli "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
        cli "$p" ping >/dev/null || { log "node $p did not start (see $dir/$p/redis.log)"; exit 1; }
    done
    local addrs=()
    for p in "${ports[@]}"; do addrs+=("127.0.0.1:$p"); done
    redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >&2
    for _ in $(seq 300); do
        if healthy; then
            printf '%s\n' "${addrs[@]}"
            return
        fi
        sleep 0.2
    done
    log "the cluster did not become healthy within 60 s"
    exit 1
}

case "$cmd" in
up) up ;;
down) down ;;
*)
    echo "usage: $0 up|down [BASEPORT]" >&2
    exit 2
    ;;
esac
