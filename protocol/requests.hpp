// Protocol v1's client requests as typed values (PROTOCOL.md, "Client → server"). The server
// reads a decoded frame into one of them, every field checked with the error PROTOCOL.md names;
// clients write theirs from the same types, so both sides spell a request one way.
//
// What only a server can judge stays for the server: whether a game exists, a room's seats
// against the game's range, options against the game, timers against the server's limits, and
// whether a test-mode seed or deck order is allowed at all.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/protocol.hpp"

namespace campfire::protocol {

// What `hello` asks the server to send after a change (PROTOCOL.md, "update"): events and state
// as frames of their own, one update frame with the whole state, one with a merge patch, or one
// with a leaner patch (no base, the version said once, legal lists already sent given by number).
enum class UpdateMode { kState, kCombined, kPatch, kDelta };
std::string_view to_string(UpdateMode mode);

// What a seat contributes to a fair shuffle: 16 to 128 hex digits (8 to 64 bytes), either case.
inline constexpr std::size_t kMinEntropyDigits = 16;
inline constexpr std::size_t kMaxEntropyDigits = 128;
// `entropy` as the protocol takes it, in lower case, or a bad_request saying what is wrong.
Expected<std::string> clean_entropy(const json& value);

struct Hello {
  std::string name;
  UpdateMode updates = UpdateMode::kState;
  // False for a program that reads no words: events come without `text`, states without
  // `labels`.
  bool texts = true;
};
struct Ping {};
struct ListGames {};
struct ListRooms {};
struct CreateRoom {
  std::string game;
  int seats = 0;
  json options = json::object();
  bool is_private = false;
  bool join = true;   // take seat 0 at once
  json timers;        // null when absent
  json seed;          // null when absent (test mode only)
  json deck_order;    // null when absent (test mode only)
};
struct Join {
  std::string room;
  std::optional<int> seat;
};
struct Rejoin {
  std::string room;
  std::string token;
};
struct Spectate {
  std::string room;
};
struct Leave {
  std::string room;
};
struct AddBot {
  std::string room;
  std::optional<int> seat;
  std::optional<std::string> strategy;  // the server's default when absent
};
struct Start {
  std::string room;
};
struct Act {  // "action"
  std::string room;
  json action = json::object();
  std::optional<long long> version;  // the state version the move was chosen on
};
struct Chat {
  std::string room;
  std::string text;
};
struct Sync {
  std::string room;
};
struct History {
  std::string room;
};
struct Contribute {
  std::string room;
  std::string entropy;
};

using ClientRequest = std::variant<Hello, Ping, ListGames, ListRooms, CreateRoom, Join, Rejoin,
                                   Spectate, Leave, AddBot, Start, Act, Chat, Sync, History,
                                   Contribute>;

// The wire name of a request's type ("hello", "create_room", "action", ...).
std::string_view type_name(const ClientRequest& request);

// Reads a decoded frame into its typed request: an unknown type, a missing field or one of the
// wrong type or size is a bad_request naming it; a hello on another protocol version is
// bad_protocol, a bad name bad_name. Fields are checked in the order PROTOCOL.md lists them.
Expected<ClientRequest> parse_request(const Request& request);

// The request as a frame's JSON object, with `id` unless it is null.
json encode(const ClientRequest& request, const json& id = nullptr);

}  // namespace campfire::protocol
