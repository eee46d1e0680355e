#include "server/updates.hpp"

#include <nlohmann/json.hpp>

#include <optional>

#include "protocol/messages.hpp"
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
  namespace message = protocol::message;
  if (c.updates() != UpdateMode::kPatch) {
    sent_.erase(&c);
    return message::update_with_state(room, version, events, state);
  }
  // A patch against the last state this member holds, when there is one and it is smaller.
  Sent& sent = sent_[&c];
  std::optional<std::string> patch;
  if (!sent.state.empty()) patch = protocol::merge_patch(sent.state, state);
  std::string out = patch && patch->size() < state.size()
                        ? message::update_with_patch(room, version, events, sent.version, *patch)
                        : message::update_with_state(room, version, events, state);
  sent.version = version;
  sent.state = std::move(state);
  return out;
}

}  // namespace campfire::server
