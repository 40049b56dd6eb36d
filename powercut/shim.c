/*
 * ilion's power-cut recorder (docs/powercut.md): an LD_PRELOAD library that records every
 * file-system change a process makes under one directory, with the bytes written and every
 * sync, to an append-only log the image builder (tests/powercut) replays.
 *
 * Why seccomp and not plain symbol interposition: fjall writes its version files through the
 * tempfile crate, which renames with raw system calls (rustix), never through libc. So the
 * constructor installs a seccomp filter that traps the listed system calls (SIGSYS) unless they
 * come from this library's own `syscall` instruction; the SIGSYS handler records the call and
 * performs it through that instruction. Every path is covered, libc or raw.
 *
 * Environment: POWERCUT_DIR (absolute directory to watch), POWERCUT_LOG (log file, opened
 * O_APPEND so other processes may append their own records). Without both, it does nothing.
 * Record: u32 total length, u8 kind, fields (little endian); see tests/powercut/log.rs.
 * x86_64 Linux only. Build: gcc -O2 -shared -fPIC -o libpowercut.so shim.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

#if !defined(__x86_64__)
#error "the power-cut shim supports x86_64 only"
#endif

/* The one syscall instruction the filter lets through: pc_sys(nr, a1..a6). */
long pc_sys(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
extern char pc_sys_after[];
__asm__(".text\n"
        ".globl pc_sys\n"
        ".type pc_sys,@function\n"
        "pc_sys:\n"
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  movq %rdx, %rsi\n"
        "  movq %rcx, %rdx\n"
        "  movq %r8, %r10\n"
        "  movq %r9, %r8\n"
        "  movq 8(%rsp), %r9\n"
        "  syscall\n"
        ".globl pc_sys_after\n"
        "pc_sys_after:\n"
        "  ret\n");

enum {
    K_OPEN = 1, K_CLOSE = 2, K_DUP = 3, K_WRITE = 4, K_TRUNC = 5, K_TRUNC_PATH = 6,
    K_FALLOC = 7, K_SYNC_BEGIN = 8, K_SYNC_END = 9, K_RENAME = 10, K_UNLINK = 11,
    K_MKDIR = 12, K_UNSUPPORTED = 13,
};
enum { S_FSYNC = 1, S_FDATASYNC = 2, S_RANGE = 3, S_SYNCFS = 4, S_SYNC = 5 };

#define MAXFD 16384
#define PATHMAX 1024
#define OUTSIDE 0xFFFF

static int log_fd = -1;
static char root[PATHMAX];
static size_t root_len;
static char cwd[PATHMAX];
/* Every open fd's absolute path (for dirfd-relative calls); watched[fd] if under root. */
static char fd_path[MAXFD][PATHMAX];
static unsigned char known[MAXFD], watched[MAXFD];
static volatile int lock_word;
static uint64_t sync_ids;

static void lock(void) {
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
        pc_sys(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
}
static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

static void die(const char *msg) {
    pc_sys(SYS_write, 2, (long)"powercut shim: ", 15, 0, 0, 0);
    pc_sys(SYS_write, 2, (long)msg, (long)strlen(msg), 0, 0, 0);
    pc_sys(SYS_write, 2, (long)"\n", 1, 0, 0, 0);
    pc_sys(SYS_exit_group, 99, 0, 0, 0, 0, 0);
}

/* Appends one record: header fields, then `n` extra buffers, as one O_APPEND writev. */
static void emit(unsigned char kind, const void *fields, size_t flen, const struct iovec *extra,
                 int n) {
    struct iovec iov[1026];
    unsigned char head[5];
    uint32_t total = 5 + (uint32_t)flen;
    int i;
    if (n > 1024) die("too many buffers in one write");
    for (i = 0; i < n; i++) total += (uint32_t)extra[i].iov_len;
    memcpy(head, &total, 4);
    head[4] = kind;
    iov[0].iov_base = head;
    iov[0].iov_len = 5;
    iov[1].iov_base = (void *)fields;
    iov[1].iov_len = flen;
    for (i = 0; i < n; i++) iov[2 + i] = extra[i];
    if (pc_sys(SYS_writev, log_fd, (long)iov, 2 + n, 0, 0, 0) != (long)total)
        die("cannot append to the log");
}

/* Field buffer helpers. */
struct buf { unsigned char b[2 * PATHMAX + 64]; size_t n; };
static void put(struct buf *f, const void *p, size_t n) { memcpy(f->b + f->n, p, n); f->n += n; }
static void put32(struct buf *f, int32_t v) { put(f, &v, 4); }
static void put64(struct buf *f, int64_t v) { put(f, &v, 8); }
/* A path relative to root, or OUTSIDE. */
static void put_rel(struct buf *f, const char *abs) {
    uint16_t len = OUTSIDE;
    if (abs && strncmp(abs, root, root_len) == 0 && (abs[root_len] == '/' || abs[root_len] == 0)) {
        const char *rel = abs + root_len + (abs[root_len] == '/');
        len = (uint16_t)strlen(rel);
        put(f, &len, 2);
        put(f, rel, len);
        return;
    }
    put(f, &len, 2);
}
static int under_root(const char *abs) {
    return abs && strncmp(abs, root, root_len) == 0 &&
           (abs[root_len] == '/' || abs[root_len] == 0);
}

static void unsupported(const char *what) {
    struct buf f = {.n = 0};
    put(&f, what, strlen(what));
    emit(K_UNSUPPORTED, f.b, f.n, 0, 0);
}

/* Resolves `path` against dirfd into out (absolute, lexically normalised); 0 if unknown. */
static int resolve(int dirfd, const char *path, char *out) {
    char tmp[2 * PATHMAX];
    size_t n = 0, i;
    if (!path) return 0;
    if (path[0] == '/') {
        tmp[0] = 0;
    } else {
        const char *base;
        if (dirfd == AT_FDCWD) base = cwd;
        else if (dirfd >= 0 && dirfd < MAXFD && known[dirfd]) base = fd_path[dirfd];
        else return 0;
        if (strlen(base) >= PATHMAX) return 0;
        strcpy(tmp, base);
        strcat(tmp, "/");
    }
    if (strlen(tmp) + strlen(path) >= sizeof tmp) return 0;
    strcat(tmp, path);
    /* Normalise: split on '/', drop "." and empty parts, pop on "..". */
    out[0] = 0;
    for (i = 0; tmp[i];) {
        size_t j = i, len;
        while (tmp[j] && tmp[j] != '/') j++;
        len = j - i;
        if (len == 0 || (len == 1 && tmp[i] == '.')) {
        } else if (len == 2 && tmp[i] == '.' && tmp[i + 1] == '.') {
            while (n > 0 && out[n - 1] != '/') n--;
            if (n > 0) n--;
            out[n] = 0;
        } else {
            if (n + 1 + len >= PATHMAX) return 0;
            out[n++] = '/';
            memcpy(out + n, tmp + i, len);
            n += len;
            out[n] = 0;
        }
        i = tmp[j] ? j + 1 : j;
    }
    if (n == 0) strcpy(out, "/");
    return 1;
}

static int is_watched(long fd) { return fd >= 0 && fd < MAXFD && watched[fd]; }

static void forget(long fd, int logged) {
    if (fd < 0 || fd >= MAXFD) return;
    if (watched[fd] && logged) {
        struct buf f = {.n = 0};
        put32(&f, (int32_t)fd);
        emit(K_CLOSE, f.b, f.n, 0, 0);
    }
    known[fd] = watched[fd] = 0;
}

static long do_open(long nr, long *a, int dirfd, const char *path, long flags) {
    char abs[PATHMAX];
    int ok = resolve(dirfd, path, abs);
    long ret;
    lock();
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret >= 0) {
        if (ret < MAXFD) {
            forget(ret, 1);
            known[ret] = (unsigned char)ok;
            if (ok) strcpy(fd_path[ret], abs);
        }
        if (!ok && path && path[0] != '/') {
            /* Unknown base: it may or may not be ours; only complain if it is written. */
        } else if (ok && under_root(abs)) {
            struct buf f = {.n = 0};
            if (ret >= MAXFD) die("file descriptor beyond the shim's table");
            if ((flags & O_TMPFILE) == O_TMPFILE) unsupported("O_TMPFILE under the directory");
            watched[ret] = 1;
            put32(&f, (int32_t)ret);
            put32(&f, (int32_t)flags);
            put_rel(&f, abs);
            emit(K_OPEN, f.b, f.n, 0, 0);
        }
    }
    unlock();
    return ret;
}

static long do_dup(long nr, long *a, long old, long target) {
    long ret;
    lock();
    if (target >= 0) forget(target, 1);
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret >= 0 && old >= 0 && old < MAXFD && known[old]) {
        if (ret >= MAXFD) die("file descriptor beyond the shim's table");
        forget(ret, 1);
        known[ret] = 1;
        memmove(fd_path[ret], fd_path[old], PATHMAX);
        if (watched[old]) {
            struct buf f = {.n = 0};
            watched[ret] = 1;
            put32(&f, (int32_t)old);
            put32(&f, (int32_t)ret);
            emit(K_DUP, f.b, f.n, 0, 0);
        }
    }
    unlock();
    return ret;
}

/* A write of `iov` at `off` (-1: the fd's position, read back after the write). */
static long do_write(long nr, long *a, long fd, const struct iovec *iov, int cnt, long off) {
    long ret;
    lock();
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret > 0) {
        struct iovec parts[1024];
        struct buf f = {.n = 0};
        long left = ret;
        int n = 0, i;
        if (off < 0) off = pc_sys(SYS_lseek, fd, 0, SEEK_CUR, 0, 0, 0) - ret;
        for (i = 0; i < cnt && left > 0 && n < 1024; i++) {
            size_t take = iov[i].iov_len < (size_t)left ? iov[i].iov_len : (size_t)left;
            parts[n].iov_base = iov[i].iov_base;
            parts[n++].iov_len = take;
            left -= (long)take;
        }
        if (left > 0) die("cannot record a write of more than 1024 buffers");
        put32(&f, (int32_t)fd);
        put64(&f, off);
        emit(K_WRITE, f.b, f.n, parts, n);
    }
    unlock();
    return ret;
}

static long do_sync(long nr, long *a, unsigned char what, long fd) {
    long ret;
    uint64_t id;
    struct buf f = {.n = 0};
    lock();
    id = ++sync_ids;
    put64(&f, (int64_t)id);
    put(&f, &what, 1);
    put32(&f, (int32_t)fd);
    put32(&f, (int32_t)pc_sys(SYS_gettid, 0, 0, 0, 0, 0, 0));
    /* The thread's name: the checker tells ilion's syncer ("ilion-sync") from engine threads. */
    {
        char name[16] = {0};
        pc_sys(SYS_prctl, PR_GET_NAME, (long)name, 0, 0, 0, 0);
        put(&f, name, sizeof name);
    }
    emit(K_SYNC_BEGIN, f.b, f.n, 0, 0);
    unlock();
    /* The sync itself runs unlocked: writes issued meanwhile land after BEGIN, uncovered. */
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    f.n = 0;
    put64(&f, (int64_t)id);
    put64(&f, ret);
    lock();
    emit(K_SYNC_END, f.b, f.n, 0, 0);
    unlock();
    return ret;
}

/* A call naming one path (unlink, rmdir, mkdir): recorded when it succeeds under root. */
static long do_path_op(long nr, long *a, unsigned char kind, int dirfd, const char *path) {
    char abs[PATHMAX];
    int ok = resolve(dirfd, path, abs);
    long ret;
    lock();
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret >= 0 && (!ok || under_root(abs))) {
        struct buf f = {.n = 0};
        if (!ok) {
            unsupported("a path relative to an unknown directory");
        } else {
            put_rel(&f, abs);
            emit(kind, f.b, f.n, 0, 0);
        }
    }
    unlock();
    return ret;
}

static long do_rename(long nr, long *a, int od, const char *op, int nd, const char *np,
                      long flags) {
    char from[PATHMAX], to[PATHMAX];
    int ok1 = resolve(od, op, from), ok2 = resolve(nd, np, to);
    long ret;
    lock();
    ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (ret >= 0 && (!ok1 || !ok2 || under_root(from) || under_root(to))) {
        struct buf f = {.n = 0};
        if (!ok1 || !ok2) unsupported("a rename relative to an unknown directory");
        else if (flags & RENAME_EXCHANGE) unsupported("rename with RENAME_EXCHANGE");
        else {
            put32(&f, (int32_t)flags);
            put_rel(&f, from);
            put_rel(&f, to);
            emit(K_RENAME, f.b, f.n, 0, 0);
        }
    }
    unlock();
    return ret;
}

static long handle(long nr, long *a) {
    switch (nr) {
    case SYS_open: return do_open(nr, a, AT_FDCWD, (const char *)a[0], a[1]);
    case SYS_creat: return do_open(nr, a, AT_FDCWD, (const char *)a[0], O_CREAT | O_WRONLY | O_TRUNC);
    case SYS_openat: return do_open(nr, a, (int)a[0], (const char *)a[1], a[2]);
    case SYS_openat2: return do_open(nr, a, (int)a[0], (const char *)a[1], (long)*(uint64_t *)a[2]);
    case SYS_close: {
        long ret;
        lock();
        ret = pc_sys(nr, a[0], 0, 0, 0, 0, 0);
        if (ret == 0 || ret == -EINTR) forget(a[0], 1);
        unlock();
        return ret;
    }
    case SYS_close_range: {
        long ret, fd;
        lock();
        ret = pc_sys(nr, a[0], a[1], a[2], 0, 0, 0);
        if (ret == 0 && !(a[2] & 4 /* CLOSE_RANGE_CLOEXEC */))
            for (fd = a[0]; fd < MAXFD && (unsigned long)fd <= (unsigned long)a[1]; fd++)
                forget(fd, 1);
        unlock();
        return ret;
    }
    case SYS_dup: return do_dup(nr, a, a[0], -1);
    case SYS_dup2: return a[0] == a[1] ? pc_sys(nr, a[0], a[1], 0, 0, 0, 0) : do_dup(nr, a, a[0], a[1]);
    case SYS_dup3: return do_dup(nr, a, a[0], a[1]);
    case SYS_fcntl:
        if (a[1] == F_DUPFD || a[1] == F_DUPFD_CLOEXEC) return do_dup(nr, a, a[0], -1);
        return pc_sys(nr, a[0], a[1], a[2], 0, 0, 0);
    case SYS_write:
    case SYS_pwrite64: {
        struct iovec one = {(void *)a[1], (size_t)a[2]};
        if (!is_watched(a[0])) break;
        return do_write(nr, a, a[0], &one, 1, nr == SYS_write ? -1 : a[3]);
    }
    case SYS_writev:
    case SYS_pwritev:
    case SYS_pwritev2: {
        long off = nr == SYS_writev ? -1 : a[3];
        if (!is_watched(a[0])) break;
        return do_write(nr, a, a[0], (const struct iovec *)a[1], (int)a[2], off);
    }
    case SYS_ftruncate:
    case SYS_fallocate: {
        long ret;
        struct buf f = {.n = 0};
        if (!is_watched(a[0])) break;
        lock();
        ret = pc_sys(nr, a[0], a[1], a[2], a[3], 0, 0);
        if (ret == 0) {
            put32(&f, (int32_t)a[0]);
            if (nr == SYS_ftruncate) {
                put64(&f, a[1]);
                emit(K_TRUNC, f.b, f.n, 0, 0);
            } else {
                put32(&f, (int32_t)a[1]);
                put64(&f, a[2]);
                put64(&f, a[3]);
                emit(K_FALLOC, f.b, f.n, 0, 0);
            }
        }
        unlock();
        return ret;
    }
    case SYS_truncate: {
        char abs[PATHMAX];
        long ret;
        int ok = resolve(AT_FDCWD, (const char *)a[0], abs);
        if (ok && !under_root(abs)) break;
        lock();
        ret = pc_sys(nr, a[0], a[1], 0, 0, 0, 0);
        if (ret == 0) {
            struct buf f = {.n = 0};
            if (!ok) unsupported("truncate of an unresolvable path");
            put64(&f, a[1]);
            put_rel(&f, abs);
            emit(K_TRUNC_PATH, f.b, f.n, 0, 0);
        }
        unlock();
        return ret;
    }
    case SYS_fsync:
    case SYS_fdatasync:
    case SYS_sync_file_range:
        if (!is_watched(a[0])) break;
        return do_sync(nr, a, nr == SYS_fsync ? S_FSYNC : nr == SYS_fdatasync ? S_FDATASYNC : S_RANGE, a[0]);
    case SYS_syncfs: return do_sync(nr, a, S_SYNCFS, a[0]);
    case SYS_sync: return do_sync(nr, a, S_SYNC, -1);
    case SYS_rename: return do_rename(nr, a, AT_FDCWD, (const char *)a[0], AT_FDCWD, (const char *)a[1], 0);
    case SYS_renameat: return do_rename(nr, a, (int)a[0], (const char *)a[1], (int)a[2], (const char *)a[3], 0);
    case SYS_renameat2: return do_rename(nr, a, (int)a[0], (const char *)a[1], (int)a[2], (const char *)a[3], a[4]);
    case SYS_unlink: return do_path_op(nr, a, K_UNLINK, AT_FDCWD, (const char *)a[0]);
    case SYS_rmdir: return do_path_op(nr, a, K_UNLINK, AT_FDCWD, (const char *)a[0]);
    case SYS_unlinkat: return do_path_op(nr, a, K_UNLINK, (int)a[0], (const char *)a[1]);
    case SYS_mkdir: return do_path_op(nr, a, K_MKDIR, AT_FDCWD, (const char *)a[0]);
    case SYS_mkdirat: return do_path_op(nr, a, K_MKDIR, (int)a[0], (const char *)a[1]);
    case SYS_link:
    case SYS_linkat:
    case SYS_symlink:
    case SYS_symlinkat:
    case SYS_copy_file_range:
    case SYS_sendfile:
    case SYS_splice:
    case SYS_msync:
    case SYS_io_uring_setup:
    case SYS_chdir:
    case SYS_fchdir: {
        /* Not modelled; none of these is expected (checked with strace). Say so if seen. */
        long ret = pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
        char msg[64] = "system call ";
        long v = nr;
        size_t n = strlen(msg);
        char digits[24];
        int d = 0;
        do { digits[d++] = (char)('0' + v % 10); v /= 10; } while (v);
        while (d) msg[n++] = digits[--d];
        msg[n] = 0;
        lock();
        unsupported(msg);
        unlock();
        return ret;
    }
    }
    return pc_sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void on_sigsys(int sig, siginfo_t *info, void *vctx) {
    ucontext_t *uc = vctx;
    greg_t *g = uc->uc_mcontext.gregs;
    long a[6] = {g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9]};
    (void)sig;
    g[REG_RAX] = handle(info->si_syscall, a);
}

static const int trapped[] = {
    SYS_open, SYS_creat, SYS_openat, SYS_openat2, SYS_close, SYS_close_range, SYS_dup,
    SYS_dup2, SYS_dup3, SYS_fcntl, SYS_write, SYS_pwrite64, SYS_writev, SYS_pwritev,
    SYS_pwritev2, SYS_ftruncate, SYS_fallocate, SYS_truncate, SYS_fsync, SYS_fdatasync,
    SYS_sync_file_range, SYS_syncfs, SYS_sync, SYS_rename, SYS_renameat, SYS_renameat2,
    SYS_unlink, SYS_rmdir, SYS_unlinkat, SYS_mkdir, SYS_mkdirat, SYS_link, SYS_linkat,
    SYS_symlink, SYS_symlinkat, SYS_copy_file_range, SYS_sendfile, SYS_splice, SYS_msync,
    SYS_io_uring_setup, SYS_chdir, SYS_fchdir,
};
#define NTRAP (sizeof trapped / sizeof trapped[0])

__attribute__((constructor)) static void powercut_init(void) {
    const char *dir = getenv("POWERCUT_DIR"), *logp = getenv("POWERCUT_LOG");
    struct sigaction sa;
    struct sock_filter prog[NTRAP + 12];
    struct sock_fprog fprog;
    uint64_t ip = (uint64_t)pc_sys_after;
    size_t i, n = 0;
    int fd;
    if (!dir || !logp || !*dir) return;
    if (dir[0] != '/' || !resolve(AT_FDCWD, dir, root)) die("POWERCUT_DIR must be an absolute path");
    root_len = strlen(root);
    if (!getcwd(cwd, sizeof cwd)) die("getcwd failed");
    fd = open(logp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) die("cannot open POWERCUT_LOG");
    log_fd = fcntl(fd, F_DUPFD_CLOEXEC, 900);
    close(fd);
    if (log_fd < 0) die("cannot move the log descriptor");

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask); /* nothing interrupts the handler while it holds the lock */
    if (sigaction(SIGSYS, &sa, 0) != 0) die("sigaction(SIGSYS) failed");

    /* arch check; then: a listed call from anywhere but pc_sys traps, the rest pass. */
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (i = 0; i < NTRAP; i++)
        prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)trapped[i],
                                                 (uint8_t)(NTRAP - i), 0);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer));
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ip, 0, 3);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4);
    prog[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(ip >> 32), 0, 1);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    prog[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    fprog.len = (unsigned short)n;
    fprog.filter = prog;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("PR_SET_NO_NEW_PRIVS failed");
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) die("seccomp filter refused");
}
