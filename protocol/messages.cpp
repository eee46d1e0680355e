#include "protocol/messages.hpp"

#include <atomic>
#include <charconv>
#include <utility>

#include "protocol/json_text.hpp"

namespace campfire::protocol::message {

namespace {

json typed(std::string_view type) {
  return json{{"type", type}};
}

json in_room(std::string_view type, std::string_view room) {
  return json{{"type", type}, {"room", room}};
}

// A text that is kept (every member of a room holds its last state's shared texts while idle):
// no larger than it needs to be, where json_text leaves room for a whole frame.
std::string text_of(const json& j) {
  std::string out;
  append_json(j, out);
  if (out.capacity() > out.size() + 15) out.shrink_to_fit();
  return out;
}

void append_int(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

json with_id(json message, const json& id) {
  if (!id.is_null()) message["id"] = id;
  return message;
}

json welcome(std::string_view server, std::string_view name, UpdateMode updates, bool texts) {
  return json{{"type", "welcome"},
              {"protocol", kVersion},
              {"server", server},
              {"name", name},
              {"updates", to_string(updates)},
              {"texts", texts}};
}

json pong() {
  return typed("pong");
}

json games(json list) {
  json m = typed("games");
  m["games"] = std::move(list);
  return m;
}

json rooms(json list) {
  json m = typed("rooms");
  m["rooms"] = std::move(list);
  return m;
}

json created(std::string_view room) {
  return in_room("created", room);
}

json joined(std::string_view room, int seat, std::string_view token) {
  json m = in_room("joined", room);
  m["seat"] = seat;
  m["token"] = token;
  return m;
}

json spectating(std::string_view room) {
  return in_room("spectating", room);
}

json left(std::string_view room) {
  return in_room("left", room);
}

json ok() {
  return typed("ok");
}

json ok_at(long long version) {
  json m = typed("ok");
  m["version"] = version;
  return m;
}

json ok_move(long long version, std::size_t move) {
  json m = ok_at(version);
  m["move"] = move;
  return m;
}

json ok_history(long long version, json events) {
  json m = ok_at(version);
  m["events"] = std::move(events);
  return m;
}

json chat(std::string_view room, std::optional<int> seat, std::string_view name,
          std::string_view text) {
  json m = in_room("chat", room);
  m["seat"] = seat ? json(*seat) : json(nullptr);
  m["name"] = name;
  m["text"] = text;
  return m;
}

json notice(std::string_view reason, std::string_view text) {
  return json{{"type", "notice"}, {"reason", reason}, {"text", text}};
}

json game_over(std::string_view room, json result) {
  json m = in_room("game_over", room);
  m["result"] = std::move(result);
  return m;
}

json room_closed(std::string_view room, std::string_view reason) {
  json m = in_room("room_closed", room);
  m["reason"] = reason;
  return m;
}

const std::array<std::string_view, SharedTexts::kCount> SharedTexts::kKeys = {
    "\"fairness\"", "\"game\"",    "\"moves\"",  "\"options\"", "\"players\"",
    "\"result\"",   "\"room\"",    "\"status\"", "\"toAct\"",   "\"turn\"",
    "\"type\"",     "\"version\"", "\"window\""};

StateText::StateText(const SharedState& s) {
  static std::atomic<std::uint64_t> next_id{0};
  auto texts = std::make_shared<SharedTexts>();
  texts->id = next_id.fetch_add(1, std::memory_order_relaxed) + 1;
  auto& v = texts->values;
  v[SharedTexts::kFairness] = s.fairness;
  append_json_string(s.game, v[SharedTexts::kGame]);
  append_int(v[SharedTexts::kMoves], static_cast<long long>(s.moves));
  v[SharedTexts::kOptions] = s.options;
  v[SharedTexts::kPlayers] = s.players;
  if (!s.result.is_null()) v[SharedTexts::kResult] = text_of(s.result);
  append_json_string(s.room, v[SharedTexts::kRoom]);
  append_json_string(s.status, v[SharedTexts::kStatus]);
  v[SharedTexts::kToAct] = text_of(s.to_act);
  v[SharedTexts::kTurn] = text_of(s.turn);
  v[SharedTexts::kType] = "\"state\"";
  append_int(v[SharedTexts::kVersion], s.version);
  v[SharedTexts::kWindow] = text_of(s.window);
  // The frame's pieces around the recipient's own members, which sort between the shared ones.
  const auto member = [&](std::string& out, SharedTexts::Member m) {
    if (v[m].empty()) return;
    out += ',';
    out += SharedTexts::kKeys[m];
    out += ':';
    out += v[m];
  };
  head_ = "{\"fairness\":" + v[SharedTexts::kFairness];
  member(head_, SharedTexts::kGame);
  for (const auto m : {SharedTexts::kMoves, SharedTexts::kOptions, SharedTexts::kPlayers,
                       SharedTexts::kResult, SharedTexts::kRoom}) {
    member(middle_, m);
  }
  middle_ += ",\"seat\":";
  for (const auto m : {SharedTexts::kStatus, SharedTexts::kToAct, SharedTexts::kTurn,
                       SharedTexts::kType, SharedTexts::kVersion}) {
    member(after_seat_, m);
  }
  after_seat_ += ",\"view\":";
  member(tail_, SharedTexts::kWindow);
  tail_ += '}';
  shared_ = std::move(texts);
}

std::size_t StateText::frame_size(std::string_view seat, std::string_view labels,
                                  std::string_view legal, std::string_view view) const {
  return head_.size() + (labels.empty() ? 0 : 10 + labels.size()) + 9 + legal.size() +
         middle_.size() + seat.size() + after_seat_.size() + view.size() + tail_.size();
}

std::string StateText::seat_json(int seat) {
  return seat >= 0 ? std::to_string(seat) : "null";
}

void StateText::append_frame(std::string& out, int seat, std::string_view labels,
                             std::string_view legal, std::string_view view) const {
  out += head_;
  if (!labels.empty()) {
    out += ",\"labels\":";
    out += labels;
  }
  out += ",\"legal\":";
  out += legal;
  out += middle_;
  if (seat >= 0) {
    append_int(out, seat);
  } else {
    out += "null";
  }
  out += after_seat_;
  out += view;
  out += tail_;
}

std::string StateText::frame(int seat, std::string_view labels, std::string_view legal,
                             std::string_view view) const {
  std::string out;
  out.reserve(frame_size(seat_json(seat), labels, legal, view));
  append_frame(out, seat, labels, legal, view);
  return out;
}

std::string event(std::string_view room, long long version, std::string_view body) {
  std::string out = "{\"event\":";
  out += body;
  out += ",\"room\":";
  append_json_string(room, out);
  out += ",\"type\":\"event\",\"version\":";
  append_int(out, version);
  out += '}';
  return out;
}

// The members an update frame starts with: "type", "room", "version", "events" (in the order
// PROTOCOL.md shows them, which clients read by name).
void append_update_head(std::string& out, std::string_view room, long long version,
                        const std::vector<const std::string*>& events) {
  out += "{\"type\":\"update\",\"room\":";
  append_json_string(room, out);
  out += ",\"version\":";
  append_int(out, version);
  out += ",\"events\":[";
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ',';
    out += *events[i];
  }
  out += ']';
}

std::string update_with_state(std::string_view room, long long version,
                              const std::vector<const std::string*>& events,
                              std::string_view state) {
  std::string out;
  append_update_head(out, room, version, events);
  out += ",\"state\":";
  out += state;
  out += '}';
  return out;
}

std::string update_with_patch(std::string_view room, long long version,
                              const std::vector<const std::string*>& events, long long base,
                              std::string_view patch) {
  std::string out;
  append_update_head(out, room, version, events);
  out += ",\"base\":";
  append_int(out, base);
  out += ",\"patch\":";
  out += patch;
  out += '}';
  return out;
}

}  // namespace campfire::protocol::message
