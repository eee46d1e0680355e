#include "clients/common/updates.hpp"

#include <utility>

#include "protocol/requests.hpp"

namespace campfire::client {

namespace {

// The most numbered legal lists a delta may refer to (PROTOCOL.md, "update").
constexpr std::size_t kRemembered = 16;

// A delta's legal list back as the objects it stands for (PROTOCOL.md, "delta"): each array is
// the action with the member names of the nearest object before it, in their order, and the
// array's elements as their values. nlohmann keeps an object's names in name order, the order
// the server writes them in, so the names read back come in the order the row's values do.
// False for a row with no object before it or of another length: the list cannot be read.
bool expand_rows(json& legal) {
  const json* named = nullptr;
  for (json& action : legal) {
    if (action.is_object()) {
      named = &action;
    } else if (action.is_array()) {
      if (named == nullptr || action.size() != named->size()) return false;
      json object = json::object();
      std::size_t i = 0;
      for (auto it = named->begin(); it != named->end(); ++it) {
        object[it.key()] = std::move(action[i++]);
      }
      action = std::move(object);
    }
  }
  return true;
}

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
    const bool delta = base == message.end();
    if (patch != message.end() && patch->is_object() && follows) {
      auto legal = patch->find("legal");
      // Rows are read back first: from here on the list is what a whole state would hold.
      const bool rows_read =
          !delta || legal == patch->end() || !legal->is_array() || expand_rows(*legal);
      const bool by_number = legal != patch->end() && legal->is_number_integer();
      const long long n = by_number ? legal->get<long long>() : 0;
      const long long oldest = held.next - static_cast<long long>(held.numbered.size());
      if (rows_read && (!by_number || (n >= oldest && n < held.next))) {
        held.state.merge_patch(*patch);
        held.state["version"] = version;
        if (by_number) {
          const json& list = held.numbered[static_cast<std::size_t>(n - oldest)];
          held.state["legal"] = list["legal"];
          if (list.contains("labels")) held.state["labels"] = list["labels"];
        } else if (legal != patch->end() && delta) {
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
