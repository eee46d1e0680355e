#include "server/updates.hpp"

#include <nlohmann/json.hpp>

#include <optional>

#include "protocol/json_text.hpp"
#include "protocol/merge_patch.hpp"

namespace campfire::server {

void UpdateFrames::sent_state(const Client& c, long long version, const std::string& state) {
  if (c.updates() == UpdateMode::kPatch) {
    sent_[&c] = {version, state};
  } else {
    sent_.erase(&c);
  }
}

std::string UpdateFrames::update(const Client& c, std::string_view room, long long version,
                                 const std::vector<const std::string*>& events,
                                 std::string state) {
  std::string out = "{\"type\":\"update\",\"room\":" + protocol::json_text(nlohmann::json(std::string(room))) +
                    ",\"version\":" + std::to_string(version) + ",\"events\":[";
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (i > 0) out += ',';
    out += *events[i];
  }
  out += ']';
  if (c.updates() != UpdateMode::kPatch) {
    sent_.erase(&c);
    out += ",\"state\":";
    out += state;
    out += '}';
    return out;
  }
  // A patch against the last state this member holds, when there is one and it is smaller.
  Sent& sent = sent_[&c];
  std::optional<std::string> patch;
  if (!sent.state.empty()) patch = protocol::merge_patch(sent.state, state);
  if (patch && patch->size() < state.size()) {
    out += ",\"base\":" + std::to_string(sent.version) + ",\"patch\":";
    out += *patch;
  } else {
    out += ",\"state\":";
    out += state;
  }
  out += '}';
  sent.version = version;
  sent.state = std::move(state);
  return out;
}

}  // namespace campfire::server
