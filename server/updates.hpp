// The one frame per change for members who asked for updates in `hello` (PROTOCOL.md, "Update
// frames"): the change's events and the member's new state together, the state whole or, for
// `patch`, as a merge patch against the last state that member was sent. This part keeps that
// last state per member; the room tells it what it sent and asks it for each update.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/client.hpp"

namespace campfire::server {

class UpdateFrames {
 public:
  // `state` (a whole state message at `version`) went to `c` on its own (after spectate or sync):
  // it is the base of that member's next patch.
  void sent_state(const Client& c, long long version, const std::string& state);
  // The update frame for `c` after the change to `version`: `events` are the event bodies it is
  // told (JSON texts, in order), `state` its whole new state message.
  std::string update(const Client& c, std::string_view room, long long version,
                     const std::vector<const std::string*>& events, std::string state);
  // The member left or was replaced: its next state is sent whole.
  void forget(const Client* c) { sent_.erase(c); }
  // How many members have a base kept (for tests).
  std::size_t kept() const { return sent_.size(); }

 private:
  struct Sent {
    long long version = 0;
    std::string state;
  };
  std::unordered_map<const Client*, Sent> sent_;
};

}  // namespace campfire::server
