#include "clients/common/updates.hpp"

#include <utility>

#include "protocol/requests.hpp"

namespace campfire::client {

namespace {

// The most numbered legal lists a delta may refer to (PROTOCOL.md, "update").
constexpr std::size_t kRemembered = 16;

}  // namespace

json hello(const std::string& name, bool texts) {
  protocol::Hello h{name, protocol::UpdateMode::kDelta};
  h.texts = texts;
  return protocol::encode(h);
}

void UpdateReader::number(Held& held) {
  const auto legal = held.state.find("legal");
  if (legal == held.state.end() || !legal->is_array() || legal->empty()) return;
  json list = {{"legal", *legal}};
  if (auto labels = held.state.find("labels"); labels != held.state.end()) {
    list["labels"] = *labels;
  }
  held.numbered.push_back(std::move(list));
  if (held.numbered.size() > kRemembered) held.numbered.erase(held.numbered.begin());
  ++held.next;
}

void UpdateReader::whole(Held& held, json state) {
  held.state = std::move(state);
  held.numbered.clear();
  held.next = 0;
  number(held);
}

UpdateReader::Read UpdateReader::read(json message) {
  Read out;
  const auto type = message.find("type");
  const auto room_field = message.find("room");
  const bool has_room = room_field != message.end() && room_field->is_string();
  const bool is_state = type != message.end() && *type == "state";
  const bool is_update = type != message.end() && *type == "update";
  if (!has_room || (!is_state && !is_update)) {
    out.messages.push_back(std::move(message));
    return out;
  }
  const std::string room = room_field->get<std::string>();
  if (is_state) {
    whole(held_[room], message);
    syncing_.erase(room);
    out.messages.push_back(std::move(message));
    return out;
  }

  const json version = message.value("version", json());
  if (auto events = message.find("events"); events != message.end() && events->is_array()) {
    for (json& event : *events) {
      out.messages.push_back(
          {{"type", "event"}, {"room", room}, {"version", version}, {"event", std::move(event)}});
    }
  }
  bool applied = false;
  if (auto whole_state = message.find("state");
      whole_state != message.end() && whole_state->is_object()) {
    whole(held_[room], std::move(*whole_state));
    applied = true;
  } else if (auto it = held_.find(room); it != held_.end() && version.is_number_integer()) {
    Held& held = it->second;
    const auto base = message.find("base");
    const auto patch = message.find("patch");
    const json was = held.state.value("version", json());
    const bool follows =
        base != message.end()
            ? was == *base
            : was.is_number_integer() && was.get<long long>() + 1 == version.get<long long>();
    if (patch != message.end() && patch->is_object() && follows) {
      const auto legal = patch->find("legal");
      const bool by_number = legal != patch->end() && legal->is_number_integer();
      const long long n = by_number ? legal->get<long long>() : 0;
      const long long oldest = held.next - static_cast<long long>(held.numbered.size());
      if (!by_number || (n >= oldest && n < held.next)) {
        held.state.merge_patch(*patch);
        held.state["version"] = version;
        if (by_number) {
          const json& list = held.numbered[static_cast<std::size_t>(n - oldest)];
          held.state["legal"] = list["legal"];
          if (list.contains("labels")) held.state["labels"] = list["labels"];
        } else if (legal != patch->end() && base == message.end()) {
          number(held);
        }
        applied = true;
      }
    }
  }
  if (!applied) {
    held_.erase(room);
    if (syncing_.insert(room).second) out.sync = room;
    return out;
  }
  syncing_.erase(room);
  out.messages.push_back(held_[room].state);
  return out;
}

void UpdateReader::reset() {
  held_.clear();
  syncing_.clear();
}

}  // namespace campfire::client
