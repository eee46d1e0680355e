// Room, part two: what members are sent. A state message is assembled from parts serialised once
// per change; events name the seats as they are called now; the players, window and turn
// clocks as the state frames show them. Nothing here changes the room.
#include "protocol/json_text.hpp"
#include "protocol/messages.hpp"
#include "server/room.hpp"

namespace campfire::server {

namespace {

// Every frame's text: what nlohmann's dump gives, written faster.
std::string dump(const json& j) {
  return protocol::json_text(j);
}

}  // namespace

std::string Room::render(const std::string& text) const {
  // Most texts (every label of a move that names no seat) have nothing to fill in.
  if (text.find('{') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "{{") == 0) {
      out += '{';
      i += 2;
      continue;
    }
    if (text.compare(i, 6, "{seat:") == 0) {
      const auto end = text.find('}', i);
      if (end != std::string::npos) {
        const int s = std::atoi(text.c_str() + i + 6);
        if (s >= 0 && s < seats_.size()) {
          out += seats_[s].taken() ? seats_[s].name : "seat " + std::to_string(s + 1);
          i = end + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string Room::literal(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    out += ch;
    if (ch == '{') out += '{';
  }
  return out;
}

json Room::render_event(const json& body) const {
  json e = body;
  if (e.contains("text") && e["text"].is_string()) e["text"] = render(e["text"].get<std::string>());
  return e;
}

json Room::players() const {
  json list = json::array();
  for (int s = 0; s < seats_.size(); ++s) {
    const Seats::Info& info = seats_[s];
    if (!info.taken()) {
      list.push_back(nullptr);
      continue;
    }
    const bool bot = info.occupant == Occupant::kBot;
    json player = {{"seat", s},
                   {"name", info.name},
                   {"connected", info.connected()},
                   {"bot", bot},
                   {"away", info.occupant == Occupant::kAway}};
    if (bot) player["strategy"] = info.bot_name;
    list.push_back(std::move(player));
  }
  return list;
}

void Room::append_players(std::string& out) const {
  // The members in the order players() has them (sorted, as dump writes an object).
  out += '[';
  for (int s = 0; s < seats_.size(); ++s) {
    if (s > 0) out += ',';
    const Seats::Info& info = seats_[s];
    if (!info.taken()) {
      out += "null";
      continue;
    }
    const bool bot = info.occupant == Occupant::kBot;
    out += "{\"away\":";
    out += info.occupant == Occupant::kAway ? "true" : "false";
    out += ",\"bot\":";
    out += bot ? "true" : "false";
    out += ",\"connected\":";
    out += info.connected() ? "true" : "false";
    out += ",\"name\":";
    protocol::append_json_string(info.name, out);
    out += ",\"seat\":";
    out += std::to_string(s);
    if (bot) {
      out += ",\"strategy\":";
      protocol::append_json_string(info.bot_name, out);
    }
    out += '}';
  }
  out += ']';
}

const std::string& Room::options_text() const {
  if (options_text_.empty()) {
    options_text_ = dump(match_.options().to_json());
    // Kept for the room's life: without the room dump leaves for a whole frame.
    options_text_.shrink_to_fit();
  }
  return options_text_;
}

const std::string& Room::fairness_text() const {
  if (fairness_text_.empty()) {
    fairness_text_ = fairness_ ? dump(fairness_->public_json()) : std::string("null");
    fairness_text_.shrink_to_fit();
  }
  return fairness_text_;
}

json Room::window_json() const {
  if (status_ != RoomStatus::kPlaying) return nullptr;
  return clocks_.window_json(match_.state().window());
}

// A state message differs between recipients only in the seat, its view and its legal moves, so
// the rest is serialised once per change. The keys are written in the order nlohmann's dump
// writes an object's keys (sorted), so a frame is exactly what dumping the whole object gives.
Room::StateParts Room::state_parts() const {
  const State& st = match_.state();
  protocol::message::SharedState s;
  s.fairness = fairness_text();
  s.game = match_.game().info().id;
  s.moves = match_.log().size();
  s.options = options_text();
  std::string players;
  players.reserve(64 * static_cast<std::size_t>(seats_.size()));
  append_players(players);
  s.players = players;
  if (status_ == RoomStatus::kOver) s.result = st.result().to_json();
  s.room = code_;
  s.status = status_name(status_);
  s.to_act = json::array();
  if (status_ != RoomStatus::kWaiting) st.to_act().for_each([&](Seat t) { s.to_act.push_back(t); });
  s.turn = turn_json();
  s.version = version_;
  s.window = window_json();
  return StateParts(s);
}

void Room::own_state(int seat, bool texts, bool rows, OwnState& own) const {
  const State& st = match_.state();
  const bool waiting = status_ == RoomStatus::kWaiting;
  // A seat's choices are written once per change and shared with the turn timer and the bots.
  static const UpdateFrames::Text kNone = std::make_shared<const std::string>("[]");
  const LegalMoves::Choices* choices = !waiting && seat >= 0 ? &legal_.of(seat, version_) : nullptr;
  own.seat = seat;
  own.legal = choices ? &choices->text : &kNone;
  // The words are written only for a member who reads them.
  own.labels = choices && texts ? &legal_.labels(seat, version_) : &kNone;
  own.legal_hash = choices ? choices->hash : std::hash<std::string>{}(*kNone);
  own.rows = !rows ? nullptr : choices ? &legal_.rows(seat, version_) : &kNone;
  // The view, the largest part, is written into a buffer that keeps its capacity from frame to
  // frame.
  own.view.clear();
  if (waiting) {
    own.view = "null";
  } else {
    st.view_text(seat >= 0 ? seat : kSpectator, own.view);
  }
}

std::string Room::event_body(const Event& e, bool texts) const {
  // The text of render_event(e.body), written without copying the event: only `text` changes
  // (or goes).
  if (!e.body.is_object()) return dump(render_event(e.body));
  std::string out;
  out.reserve(256);
  out += '{';
  bool first = true;
  for (const auto& [key, value] : e.body.items()) {
    if (!texts && key == "text") continue;
    if (!first) out += ',';
    first = false;
    protocol::append_json_string(key, out);
    out += ':';
    if (key == "text" && value.is_string()) {
      protocol::append_json_string(render(value.get_ref<const std::string&>()), out);
    } else {
      protocol::append_json(value, out);
    }
  }
  out += '}';
  return out;
}

std::string Room::event_frame(const std::string& body) const {
  return protocol::message::event(code_, version_, body);
}

void Room::send_state(const std::shared_ptr<Client>& c, int seat) {
  OwnState own;
  own_state(seat, c->texts(), false, own);  // a whole state carries no rows
  out(c, make_frame(updates_.sent_state(*c, version_, state_parts(), own.parts(c->texts()))));
}

json Room::turn_json() const {
  return clocks_.turn_json();
}

}  // namespace campfire::server
