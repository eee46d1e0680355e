#include "server/cluster/scripts.hpp"

namespace campfire::server::cluster {

namespace {

// An owner is written "NODE/INCARNATION"; a node id has no '/'.
constexpr std::string_view kJournalLua = R"lua(
local P = 'campfire:'
local kind, code, node, inc, epoch = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local version = tonumber(ARGV[6])
local room = P .. 'room:' .. code
local me = node .. '/' .. inc
if kind == 'remove' and redis.call('EXISTS', room) == 0 then return 0 end
if redis.call('GET', P .. 'node:' .. node) ~= inc then
  return redis.error_reply('FENCED the lease of node ' .. node .. ' has lapsed')
end
if kind == 'create' then
  local held = redis.call('HMGET', room, 'owner', 'epoch', 'created_ms')
  if held[1] then
    -- The same creation sent again (the same owner, epoch and moment) is answered as done.
    local created
    for i = 7, #ARGV - 1, 2 do
      if ARGV[i] == 'created_ms' then created = ARGV[i + 1] end
    end
    if held[1] == me and held[2] == epoch and held[3] == created then return 0 end
    return redis.error_reply('EXISTS room ' .. code .. ' exists')
  end
  redis.call('HSET', room, 'owner', me, 'epoch', epoch, unpack(ARGV, 7))
  redis.call('SADD', P .. 'owned:' .. node, code)
  redis.call('SADD', P .. 'live', code)
  return 1
end
local held = redis.call('HMGET', room, 'owner', 'epoch', 'version')
if held[1] ~= me or held[2] ~= epoch then
  return redis.error_reply('FENCED room ' .. code .. ' belongs to ' .. tostring(held[1]) ..
                           ' at epoch ' .. tostring(held[2]) .. ', not ' .. me .. ' at ' .. epoch)
end
local function bump()
  if version > (tonumber(held[3]) or 0) then redis.call('HSET', room, 'version', version) end
end
if kind == 'seat' then
  redis.call('HSET', room .. ':seats', ARGV[7], ARGV[8])
  bump()
  return 1
elseif kind == 'free' then
  redis.call('HDEL', room .. ':seats', ARGV[7])
  bump()
  return 1
elseif kind == 'action' then
  local index = tonumber(ARGV[7])
  local n = redis.call('LLEN', room .. ':log')
  if n == index then
    redis.call('RPUSH', room .. ':log', ARGV[8])
    bump()
    return 1
  end
  if n > index and redis.call('LINDEX', room .. ':log', index) == ARGV[8] then return 0 end
  return redis.error_reply('GAP room ' .. code .. ' has ' .. n .. ' actions, not ' .. index)
elseif kind == 'status' then
  redis.call('HSET', room, 'status', ARGV[7])
  if ARGV[8] ~= '' then
    redis.call('HSET', room, 'result', ARGV[8])
  else
    redis.call('HDEL', room, 'result')
  end
  if ARGV[9] ~= '' then
    redis.call('HSET', room, 'finished_ms', ARGV[9])
    redis.call('SREM', P .. 'live', code)
    redis.call('ZADD', P .. 'finished', ARGV[9], code)
    if ARGV[7] == 'abandoned' then redis.call('SREM', P .. 'owned:' .. node, code) end
  else
    redis.call('HDEL', room, 'finished_ms')
    redis.call('SADD', P .. 'live', code)
  end
  bump()
  return 1
elseif kind == 'version' then
  bump()
  return 1
elseif kind == 'remove' then
  redis.call('DEL', room, room .. ':seats', room .. ':log')
  redis.call('SREM', P .. 'live', code)
  redis.call('ZREM', P .. 'finished', code)
  redis.call('SREM', P .. 'owned:' .. node, code)
  redis.call('HDEL', P .. 'summaries', code)
  return 1
end
return redis.error_reply('BAD unknown record kind ' .. tostring(kind))
)lua";

constexpr std::string_view kLoadLua = R"lua(
local room = 'campfire:room:' .. ARGV[1]
return {redis.call('HGETALL', room), redis.call('HGETALL', room .. ':seats'),
        redis.call('LRANGE', room .. ':log', 0, -1)}
)lua";

constexpr std::string_view kRenewLua = R"lua(
local key = 'campfire:node:' .. ARGV[1]
local held = redis.call('GET', key)
if held == ARGV[2] then
  if ARGV[3] == '0' then
    redis.call('DEL', key)
  else
    redis.call('PEXPIRE', key, ARGV[3])
  end
  return 1
end
if not held then return 0 end
return -1
)lua";

constexpr std::string_view kOrphansLua = R"lua(
local P = 'campfire:'
local node = ARGV[1]
local lease = redis.call('GET', P .. 'node:' .. node)
local alive = node .. '/' .. tostring(lease)
local out = {lease and 1 or 0}
for _, code in ipairs(redis.call('SMEMBERS', P .. 'owned:' .. node)) do
  local owner = redis.call('HGET', P .. 'room:' .. code, 'owner')
  if not owner then
    redis.call('SREM', P .. 'owned:' .. node, code)
  elseif owner ~= alive then
    local id = string.match(owner, '^(.*)/[^/]*$')
    if id ~= node then
      -- Filed under the wrong node: put it where its owner is.
      redis.call('SREM', P .. 'owned:' .. node, code)
      if id then redis.call('SADD', P .. 'owned:' .. id, code) end
    else
      out[#out + 1] = code
    end
  end
end
return out
)lua";

constexpr std::string_view kClaimLua = R"lua(
local P = 'campfire:'
local code, node, inc, mine = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local room = P .. 'room:' .. code
if redis.call('GET', P .. 'node:' .. node) ~= inc then
  return redis.error_reply('FENCED the lease of node ' .. node .. ' has lapsed')
end
local owner = redis.call('HGET', room, 'owner')
if not owner then return redis.error_reply('MISSING room ' .. code .. ' is not in the journal') end
local me = node .. '/' .. inc
if owner == me then
  if mine ~= '1' then return 0 end
else
  local id, owner_inc = string.match(owner, '^(.*)/([^/]*)$')
  if id and redis.call('GET', P .. 'node:' .. id) == owner_inc then return 0 end
  if id then redis.call('SREM', P .. 'owned:' .. id, code) end
end
redis.call('SADD', P .. 'owned:' .. node, code)
redis.call('HSET', room, 'owner', me)
return redis.call('HINCRBY', room, 'epoch', 1)
)lua";

constexpr std::string_view kReleaseLua = R"lua(
local P = 'campfire:'
local code, node, inc = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HGET', P .. 'room:' .. code, 'owner') ~= node .. '/' .. inc then return 0 end
redis.call('SREM', P .. 'owned:' .. node, code)
redis.call('HDEL', P .. 'summaries', code)
return 1
)lua";

constexpr std::string_view kPruneLua = R"lua(
local P = 'campfire:'
local codes = redis.call('ZRANGEBYSCORE', P .. 'finished', '-inf', '(' .. ARGV[1], 'LIMIT', 0,
                         tonumber(ARGV[2]))
for _, code in ipairs(codes) do
  local room = P .. 'room:' .. code
  local owner = redis.call('HGET', room, 'owner')
  if owner then
    local id = string.match(owner, '^(.*)/[^/]*$')
    if id then redis.call('SREM', P .. 'owned:' .. id, code) end
  end
  redis.call('DEL', room, room .. ':seats', room .. ':log')
  redis.call('ZREM', P .. 'finished', code)
  redis.call('HDEL', P .. 'summaries', code)
end
return #codes
)lua";

constexpr std::string_view kReserveLua = R"lua(
local P = 'campfire:'
local code, node, ttl = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', P .. 'room:' .. code) == 1 then return 0 end
if not redis.call('SET', P .. 'code:' .. code, node, 'NX', 'PX', ttl) then return 0 end
return 1
)lua";

}  // namespace

const std::array<ScriptSource, static_cast<std::size_t>(Script::kCount)>& scripts() {
  static const std::array<ScriptSource, static_cast<std::size_t>(Script::kCount)> all = {{
      {Script::kJournal, "journal", kJournalLua},
      {Script::kLoad, "load", kLoadLua},
      {Script::kRenew, "renew", kRenewLua},
      {Script::kOrphans, "orphans", kOrphansLua},
      {Script::kClaim, "claim", kClaimLua},
      {Script::kRelease, "release", kReleaseLua},
      {Script::kPrune, "prune", kPruneLua},
      {Script::kReserve, "reserve", kReserveLua},
  }};
  return all;
}

}  // namespace campfire::server::cluster
