// The Lua scripts the cluster runs inside Redis. A script runs atomically, which is what makes a
// claim on a room, a lease renewal and a fenced journal write each one indivisible step. They
// derive keys from their arguments (see keys.hpp): fine for a single Redis with replicas, not for
// Redis Cluster's sharding.
#pragma once

#include <array>
#include <string_view>

namespace campfire::server::cluster {

enum class Script {
  // ARGV: kind, code, node, incarnation, epoch, version, then by kind:
  //   create: field, value, ...      seat: seat, json      free: seat
  //   action: index, json            status: status, result json or "", finished ms or ""
  //   version: -                     remove: -
  // Refuses (error "FENCED ...") unless `node` holds its lease with `incarnation` and, for all
  // but create, owns the room at `epoch`. Idempotent, so a record may be sent again after a
  // connection broke before its answer came.
  kJournal,
  // ARGV: code. Returns {room fields and values, seat fields and values, log entries}.
  kLoad,
  // ARGV: node, incarnation, ttl ms (0: give the lease up). 1: renewed (or given up); 0: the
  // lease is gone; -1: another incarnation holds it.
  kRenew,
  // ARGV: node. The codes in the node's owned set whose owner is no longer alive (a missing or
  // different lease), after dropping codes whose room is gone. Returns {lease alive (0/1),
  // codes...}.
  kOrphans,
  // ARGV: code, node, incarnation, mine ("1": also when the room is already this incarnation's).
  // Makes `node` the owner when the current owner is not alive: returns the new epoch, 0 when
  // the owner is alive, an error when the room does not exist or `node`'s own lease has lapsed.
  kClaim,
  // ARGV: code, node, incarnation. Takes the room out of the node's owned set (it stays in the
  // journal); 1 when it was this incarnation's.
  kRelease,
  // ARGV: before ms, limit. Deletes finished rooms that ended before the given time.
  kPrune,
  // ARGV: code, node, ttl ms. Reserves a fresh room code for `node` for `ttl`: 1 when reserved,
  // 0 when a room of that code is journalled or the code is reserved already.
  kReserve,
  kCount
};

struct ScriptSource {
  Script id;
  std::string_view name;
  std::string_view lua;
};

const std::array<ScriptSource, static_cast<std::size_t>(Script::kCount)>& scripts();

}  // namespace campfire::server::cluster
