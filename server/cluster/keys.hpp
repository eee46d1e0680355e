// What the cluster keeps in Redis, and under which names. Every key starts with "campfire:", so
// a cluster can share a Redis with other programs (or take a database of its own: /DB in the URL).
//
//   campfire:node:ID           the lease of node ID: its incarnation, with an expiry (PX)
//   campfire:nodes             hash ID -> what the node said about itself when it joined
//   campfire:owned:ID          set of the codes of the rooms node ID owns
//   campfire:room:CODE         hash: the room's configuration, status, version, result, and its
//                              owner ("ID/INCARNATION") with the fencing epoch of that ownership
//   campfire:room:CODE:seats   hash seat -> {"name", "tokenHash", "bot"} (JSON)
//   campfire:room:CODE:log     list of accepted actions {"seat", "action", "at", "version"} (JSON)
//   campfire:code:CODE         a room code reserved by a node about to create the room (expires)
//   campfire:live              set of the codes of unfinished rooms
//   campfire:finished          sorted set: finished rooms by the time they ended (ms)
//   campfire:summaries         hash CODE -> the room as the lobby lists it (JSON)
//   campfire:bus:ID            pub/sub channel of node ID (requests, frames, answers)
//   campfire:bus               pub/sub channel every node listens to
#pragma once

#include <string>
#include <string_view>

namespace campfire::server::cluster::keys {

inline constexpr std::string_view kPrefix = "campfire:";

// The fixed names are written out whole: a literal appended to a short prefix trips GCC 12's
// string overread warning at -O3, a false alarm that -Werror would turn into a failed build.

inline std::string node_lease(std::string_view node) {
  return std::string(kPrefix) + "node:" + std::string(node);
}
inline std::string nodes() {
  return "campfire:nodes";
}
inline std::string owned(std::string_view node) {
  return std::string(kPrefix) + "owned:" + std::string(node);
}
inline std::string room(std::string_view code) {
  return std::string(kPrefix) + "room:" + std::string(code);
}
inline std::string seats(std::string_view code) {
  return room(code) + ":seats";
}
inline std::string log(std::string_view code) {
  return room(code) + ":log";
}
inline std::string code(std::string_view code) {
  return std::string(kPrefix) + "code:" + std::string(code);
}
inline std::string live() {
  return "campfire:live";
}
inline std::string finished() {
  return "campfire:finished";
}
inline std::string summaries() {
  return "campfire:summaries";
}
inline std::string bus(std::string_view node) {
  return std::string(kPrefix) + "bus:" + std::string(node);
}
inline std::string bus_all() {
  return "campfire:bus";
}

}  // namespace campfire::server::cluster::keys
