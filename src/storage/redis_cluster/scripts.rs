//! The Lua scripts the `redis-cluster` engine runs on the primaries. Each touches the keys of
//! one hash tag only (one row, or the meta place), so Redis Cluster runs it atomically on the
//! slot's primary; with `appendfsync always` its effects reach the primary's AOF as one
//! `MULTI`/`EXEC`-like unit before the reply.

/// Applies one place's writes. KEYS: sorted set, hash, lease. ARGV: the lease token (empty
/// for none), `1` when the new row prefixes have been added to their index buckets, the
/// count of row prefixes written to and those prefixes, the count of row prefixes deleted
/// from and for each that prefix and the `ZRANGEBYLEX` bound just past it, then the writes
/// as (`p`, key, value) or (`d`, key, ``).
///
/// Refuses (error `ILIONLEASE`) when a lease is given and is not the current one: another
/// process took the row after this one's lease expired, so what it read may be stale. Returns
/// `{"index", prefix...}` without writing when some written prefix is not yet marked as
/// indexed (the caller adds them to their buckets and runs the script again), else
/// `{"ok", prefix...}` listing the prefixes left without any entry (the caller removes them
/// from their buckets).
pub(super) const WRITE: &str = r#"
local token = ARGV[1]
if token ~= '' and redis.call('GET', KEYS[3]) ~= token then
  return redis.error_reply('ILIONLEASE the lease on this row expired before its write')
end
local marker = '\0\0\0\0'
local fresh = tonumber(ARGV[3])
if ARGV[2] == '1' then
  for i = 1, fresh do redis.call('HSET', KEYS[2], marker .. ARGV[3 + i], '1') end
else
  local missing = {'index'}
  for i = 1, fresh do
    if redis.call('HEXISTS', KEYS[2], marker .. ARGV[3 + i]) == 0 then
      missing[#missing + 1] = ARGV[3 + i]
    end
  end
  if #missing > 1 then return missing end
end
local at = 4 + fresh
local gone = tonumber(ARGV[at])
local gone_at = at + 1
local i = gone_at + 2 * gone
while i <= #ARGV do
  local key = ARGV[i + 1]
  if ARGV[i] == 'p' then
    redis.call('ZADD', KEYS[1], 0, key)
    redis.call('HSET', KEYS[2], key, ARGV[i + 2])
  else
    redis.call('ZREM', KEYS[1], key)
    redis.call('HDEL', KEYS[2], key)
  end
  i = i + 3
end
local emptied = {'ok'}
for j = 0, gone - 1 do
  local prefix = ARGV[gone_at + 2 * j]
  local left = redis.call('ZRANGEBYLEX', KEYS[1], '[' .. prefix, ARGV[gone_at + 2 * j + 1], 'LIMIT', 0, 1)
  if #left == 0 and redis.call('HDEL', KEYS[2], marker .. prefix) == 1 then
    emptied[#emptied + 1] = prefix
  end
end
return emptied
"#;

/// Reads one place's entries between two `ZRANGEBYLEX` bounds. KEYS: sorted set, hash.
/// ARGV: min, max, `1` for descending order, the most entries to return. Returns
/// `{key, value, key, value...}`.
pub(super) const READ: &str = r#"
local keys
if ARGV[3] == '1' then
  keys = redis.call('ZREVRANGEBYLEX', KEYS[1], ARGV[2], ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
else
  keys = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2], 'LIMIT', 0, tonumber(ARGV[4]))
end
if #keys == 0 then return {} end
local values = redis.call('HMGET', KEYS[2], unpack(keys))
local out = {}
for i = 1, #keys do
  out[#out + 1] = keys[i]
  out[#out + 1] = values[i]
end
return out
"#;

/// Gives a lease up if it is still the caller's. KEYS: the lease. ARGV: the token.
pub(super) const RELEASE: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"#;

/// Every script, for loading on a node that lacks them.
pub(super) const ALL: [&str; 4] = [WRITE, READ, RELEASE, RING];

/// The front-end registry. KEYS: its sorted set (member endpoint, score expiry in ms by the
/// cluster's clock). ARGV: an endpoint to register (or remove) or empty, its lifetime in ms,
/// `1` to remove it. Drops expired entries and returns the live endpoints.
pub(super) const RING: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] ~= '' then
  if ARGV[3] == '1' then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  end
end
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"#;
