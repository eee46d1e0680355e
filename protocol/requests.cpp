#include "protocol/requests.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace campfire::protocol {

namespace {

// The longest room code a request may name before it is even looked at (codes are 6 letters;
// a few more let a typo through to the clearer "no such room").
constexpr std::size_t kMaxRoomField = 16;
constexpr std::size_t kMaxRawName = 256;
constexpr std::size_t kMaxGameId = 64;
constexpr std::size_t kMaxToken = 128;
constexpr long long kMaxVersion = 1ll << 53;  // what a JSON number holds exactly

Error bad_request(std::string message) {
  return make_error(ErrorCode::kBadRequest, std::move(message));
}

std::optional<int> as_seat(const std::optional<long long>& v) {
  if (!v) return std::nullopt;
  return static_cast<int>(*v);
}

// The `room` member every room request names.
Expected<std::string> room_of(const json& body) {
  return string_field(body, "room", kMaxRoomField);
}

Expected<ClientRequest> hello(const json& b) {
  auto version = int_field(b, "protocol", 0, 1000000);
  if (!version) return version.error();
  if (*version != kVersion) {
    return make_error(ErrorCode::kBadProtocol, "this server speaks protocol version 1");
  }
  auto raw = string_field(b, "name", kMaxRawName);
  if (!raw) return raw.error();
  auto name = clean_name(*raw);
  if (!name) return name.error();
  Hello h{std::move(*name), UpdateMode::kState};
  if (b.contains("updates")) {
    const auto mode = optional_string(b, "updates");
    if (mode == "combined") {
      h.updates = UpdateMode::kCombined;
    } else if (mode == "patch") {
      h.updates = UpdateMode::kPatch;
    } else if (mode == "delta") {
      h.updates = UpdateMode::kDelta;
    } else if (mode != "state") {
      return bad_request(
          "\"updates\" must be \"state\", \"combined\", \"patch\" or \"delta\"");
    }
  }
  auto texts = optional_bool(b, "texts", true);
  if (!texts) return texts.error();
  h.texts = *texts;
  return ClientRequest(std::move(h));
}

Expected<ClientRequest> create_room(const json& b) {
  CreateRoom c;
  auto join = optional_bool(b, "join", true);
  if (!join) return join.error();
  c.join = *join;
  auto game = string_field(b, "game", kMaxGameId);
  if (!game) return game.error();
  c.game = std::move(*game);
  auto seats = int_field(b, "seats", 0, 64);
  if (!seats) return seats.error();
  c.seats = static_cast<int>(*seats);
  auto hidden = optional_bool(b, "private", false);
  if (!hidden) return hidden.error();
  c.is_private = *hidden;
  c.options = b.value("options", json::object());
  c.timers = b.value("timers", json());
  c.seed = b.value("seed", json());
  c.deck_order = b.value("deckOrder", json());
  return ClientRequest(std::move(c));
}

Expected<ClientRequest> join(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto seat = optional_int(b, "seat", 0, kMaxSeats - 1);
  if (!seat) return seat.error();
  return ClientRequest(Join{std::move(*room), as_seat(*seat)});
}

Expected<ClientRequest> rejoin(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto token = string_field(b, "token", kMaxToken);
  if (!token) return token.error();
  return ClientRequest(Rejoin{std::move(*room), std::move(*token)});
}

// A request that names only its room.
template <class T>
Expected<ClientRequest> room_only(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  return ClientRequest(T{std::move(*room)});
}

Expected<ClientRequest> add_bot(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto seat = optional_int(b, "seat", 0, kMaxSeats - 1);
  if (!seat) return seat.error();
  return ClientRequest(AddBot{std::move(*room), as_seat(*seat), optional_string(b, "strategy")});
}

Expected<ClientRequest> action(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto move = b.find("action");
  if (move == b.end() || !move->is_object()) {
    return bad_request("an action request needs an \"action\" object");
  }
  auto version = optional_int(b, "version", 0, kMaxVersion);
  if (!version) return version.error();
  return ClientRequest(Act{std::move(*room), *move, *version});
}

Expected<ClientRequest> chat(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto raw = string_field(b, "text", 4 * kMaxChatLength);
  if (!raw) return raw.error();
  auto text = clean_chat(*raw);
  if (!text) return text.error();
  return ClientRequest(Chat{std::move(*room), std::move(*text)});
}

Expected<ClientRequest> contribute(const json& b) {
  auto room = room_of(b);
  if (!room) return room.error();
  auto entropy = clean_entropy(b.contains("entropy") ? b["entropy"] : json());
  if (!entropy) return entropy.error();
  return ClientRequest(Contribute{std::move(*room), std::move(*entropy)});
}

using Reader = Expected<ClientRequest> (*)(const json&);

// One reader per type, in ClientRequest's order (so type_name can index the same table).
struct Kind {
  std::string_view name;
  Reader read;
};
constexpr std::array<Kind, std::variant_size_v<ClientRequest>> kKinds = {{
    {"hello", hello},
    {"ping", [](const json&) { return Expected<ClientRequest>(Ping{}); }},
    {"list_games", [](const json&) { return Expected<ClientRequest>(ListGames{}); }},
    {"list_rooms", [](const json&) { return Expected<ClientRequest>(ListRooms{}); }},
    {"create_room", create_room},
    {"join", join},
    {"rejoin", rejoin},
    {"spectate", room_only<Spectate>},
    {"leave", room_only<Leave>},
    {"add_bot", add_bot},
    {"start", room_only<Start>},
    {"action", action},
    {"chat", chat},
    {"sync", room_only<Sync>},
    {"history", room_only<History>},
    {"contribute", contribute},
}};

// A request's own members (the type and id are written by encode).
struct Members {
  json& out;
  void operator()(const Hello& h) const {
    out["protocol"] = kVersion;
    out["name"] = h.name;
    if (h.updates != UpdateMode::kState) out["updates"] = to_string(h.updates);
    if (!h.texts) out["texts"] = false;
  }
  void operator()(const Ping&) const {}
  void operator()(const ListGames&) const {}
  void operator()(const ListRooms&) const {}
  void operator()(const CreateRoom& c) const {
    out["game"] = c.game;
    out["seats"] = c.seats;
    if (!c.options.empty()) out["options"] = c.options;
    if (c.is_private) out["private"] = true;
    if (!c.join) out["join"] = false;
    if (!c.timers.is_null()) out["timers"] = c.timers;
    if (!c.seed.is_null()) out["seed"] = c.seed;
    if (!c.deck_order.is_null()) out["deckOrder"] = c.deck_order;
  }
  void operator()(const Join& j) const {
    out["room"] = j.room;
    if (j.seat) out["seat"] = *j.seat;
  }
  void operator()(const Rejoin& r) const {
    out["room"] = r.room;
    out["token"] = r.token;
  }
  void operator()(const Spectate& s) const { out["room"] = s.room; }
  void operator()(const Leave& l) const { out["room"] = l.room; }
  void operator()(const AddBot& a) const {
    out["room"] = a.room;
    if (a.seat) out["seat"] = *a.seat;
    if (a.strategy) out["strategy"] = *a.strategy;
  }
  void operator()(const Start& s) const { out["room"] = s.room; }
  void operator()(const Act& a) const {
    out["room"] = a.room;
    out["action"] = a.action;
    if (a.version) out["version"] = *a.version;
  }
  void operator()(const Chat& c) const {
    out["room"] = c.room;
    out["text"] = c.text;
  }
  void operator()(const Sync& s) const { out["room"] = s.room; }
  void operator()(const History& h) const { out["room"] = h.room; }
  void operator()(const Contribute& c) const {
    out["room"] = c.room;
    out["entropy"] = c.entropy;
  }
};

}  // namespace

std::string_view to_string(UpdateMode mode) {
  switch (mode) {
    case UpdateMode::kCombined:
      return "combined";
    case UpdateMode::kPatch:
      return "patch";
    case UpdateMode::kDelta:
      return "delta";
    case UpdateMode::kState:
      break;
  }
  return "state";
}

Expected<std::string> clean_entropy(const json& value) {
  const std::string what = "\"entropy\" must be a string of " + std::to_string(kMinEntropyDigits) +
                           " to " + std::to_string(kMaxEntropyDigits) + " hex digits";
  if (!value.is_string()) return bad_request(what);
  std::string s = value.get<std::string>();
  if (s.size() < kMinEntropyDigits || s.size() > kMaxEntropyDigits) {
    return bad_request(what + " (it has " + std::to_string(s.size()) + ")");
  }
  for (char& c : s) {
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
  }
  const bool hex = std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (!hex) return bad_request(what + " (0-9, a-f)");
  return s;
}

std::string_view type_name(const ClientRequest& request) {
  return kKinds[request.index()].name;
}

Expected<ClientRequest> parse_request(const Request& request) {
  for (const Kind& k : kKinds) {
    if (k.name == request.type) return k.read(request.body);
  }
  return bad_request("unknown message type '" + request.type + "'");
}

json encode(const ClientRequest& request, const json& id) {
  json out = {{"type", type_name(request)}};
  if (!id.is_null()) out["id"] = id;
  std::visit(Members{out}, request);
  return out;
}

}  // namespace campfire::protocol
