#include "clients/common/updates.hpp"

#include <utility>

#include "protocol/requests.hpp"

namespace campfire::client {

json hello(const std::string& name) {
  return protocol::encode(protocol::Hello{name, protocol::UpdateMode::kPatch});
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
    held_[room] = message;
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
  std::optional<json> state;
  if (auto whole = message.find("state"); whole != message.end() && whole->is_object()) {
    state = std::move(*whole);
  } else if (auto held = held_.find(room); held != held_.end()) {
    const auto base = message.find("base");
    const auto patch = message.find("patch");
    if (base != message.end() && patch != message.end() && patch->is_object() &&
        held->second.value("version", json()) == *base) {
      state = held->second;
      state->merge_patch(*patch);
    }
  }
  if (!state) {
    held_.erase(room);
    if (syncing_.insert(room).second) out.sync = room;
    return out;
  }
  held_[room] = *state;
  syncing_.erase(room);
  out.messages.push_back(std::move(*state));
  return out;
}

void UpdateReader::reset() {
  held_.clear();
  syncing_.clear();
}

}  // namespace campfire::client
