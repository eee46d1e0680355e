#include "protocol/messages.hpp"

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

std::string text_of(const json& j) {
  return json_text(j);
}

// The members an update frame starts with: "type", "room", "version", "events" (in the order
// PROTOCOL.md shows them, which clients read by name).
std::string update_head(std::string_view room, long long version,
                        const std::vector<const std::string*>& events) {
  std::string out = "{\"type\":\"update\",\"room\":" + text_of(json(room)) +
                    ",\"version\":" + std::to_string(version) + ",\"events\":[";
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ',';
    out += *events[i];
  }
  out += ']';
  return out;
}

}  // namespace

json with_id(json message, const json& id) {
  if (!id.is_null()) message["id"] = id;
  return message;
}

json welcome(std::string_view server, std::string_view name, UpdateMode updates) {
  return json{{"type", "welcome"},
              {"protocol", kVersion},
              {"server", server},
              {"name", name},
              {"updates", to_string(updates)}};
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

StateText::StateText(const SharedState& s) {
  const std::string fairness = "{\"fairness\":" + text_of(s.fairness);
  const std::string game = ",\"game\":" + text_of(json(s.game));
  std::string moves_to_room = ",\"moves\":" + std::to_string(s.moves) +
                              ",\"options\":" + text_of(s.options) +
                              ",\"players\":" + text_of(s.players);
  if (!s.result.is_null()) moves_to_room += ",\"result\":" + text_of(s.result);
  moves_to_room += ",\"room\":" + text_of(json(s.room));
  const std::string status_to_version =
      ",\"status\":" + text_of(json(s.status)) + ",\"toAct\":" + text_of(s.to_act) +
      ",\"turn\":" + text_of(s.turn) + ",\"type\":\"state\",\"version\":" +
      std::to_string(s.version);
  const std::string window = ",\"window\":" + text_of(s.window) + "}";
  head_ = fairness + game + ",\"labels\":";
  middle_ = moves_to_room + ",\"seat\":";
  after_seat_ = status_to_version + ",\"view\":";
  tail_ = window;
  shared_ = std::make_shared<const std::string>(fairness + game + moves_to_room +
                                                status_to_version + window);
}

std::size_t StateText::frame_size(std::string_view seat, std::string_view labels,
                                  std::string_view legal, std::string_view view) const {
  return head_.size() + labels.size() + 9 + legal.size() + middle_.size() + seat.size() +
         after_seat_.size() + view.size() + tail_.size();
}

std::string StateText::seat_json(int seat) {
  return seat >= 0 ? std::to_string(seat) : "null";
}

std::string StateText::frame(int seat, std::string_view labels, std::string_view legal,
                             std::string_view view) const {
  const std::string seat_text = seat_json(seat);
  std::string out;
  out.reserve(frame_size(seat_text, labels, legal, view));
  out += head_;
  out += labels;
  out += ",\"legal\":";
  out += legal;
  out += middle_;
  out += seat_text;
  out += after_seat_;
  out += view;
  out += tail_;
  return out;
}

std::string event(std::string_view room, long long version, std::string_view body) {
  std::string out = "{\"event\":";
  out += body;
  out += ",\"room\":" + text_of(json(room)) + ",\"type\":\"event\",\"version\":" +
         std::to_string(version) + "}";
  return out;
}

std::string update_with_state(std::string_view room, long long version,
                              const std::vector<const std::string*>& events,
                              std::string_view state) {
  std::string out = update_head(room, version, events);
  out += ",\"state\":";
  out += state;
  out += '}';
  return out;
}

std::string update_with_patch(std::string_view room, long long version,
                              const std::vector<const std::string*>& events, long long base,
                              std::string_view patch) {
  std::string out = update_head(room, version, events);
  out += ",\"base\":" + std::to_string(base) + ",\"patch\":";
  out += patch;
  out += '}';
  return out;
}

}  // namespace campfire::protocol::message
