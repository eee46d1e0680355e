// The one frame per change for members who asked for updates in `hello` (PROTOCOL.md, "Update
// frames"): the change's events and the member's new state together, the state whole or, for
// `patch`, as a merge patch against the last state that member was sent. This part keeps that
// last state per member; the room tells it what it sent and asks it for each update.
//
// A state is kept in two pieces: the members every recipient of a change shares, held once per
// change by all who received it, and the member's own (seat, labels, legal and view). The shared
// part's patch is worked out once per change and given to every member that holds the same base;
// only the member's own part is compared member by member.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "protocol/messages.hpp"
#include "server/client.hpp"

namespace campfire::server {

class UpdateFrames {
 public:
  using StateText = protocol::message::StateText;
  // One member's own part of a state: its seat (negative for a spectator) and the JSON texts of
  // its labels, legal actions and view.
  struct Own {
    int seat = -1;
    std::string_view labels;
    std::string_view legal;
    std::string_view view;
  };

  // The whole state `parts` + `own` at `version` is sent to `c` on its own (after spectate or
  // sync): returns its text; it is the base of that member's next patch.
  std::string sent_state(const Client& c, long long version, const StateText& parts,
                         const Own& own);
  // The update frame for `c` after the change to `version`: `events` are the event bodies it is
  // told (JSON texts, in order), `parts` + `own` its new state.
  std::string update(const Client& c, std::string_view room, long long version,
                     const std::vector<const std::string*>& events, const StateText& parts,
                     const Own& own);
  // The member left or was replaced: its next state is sent whole.
  void forget(const Client* c) { sent_.erase(c); }
  // How many members have a base kept (for tests).
  std::size_t kept() const { return sent_.size(); }

 private:
  struct Sent {
    long long version = 0;
    std::shared_ptr<const std::string> shared;
    std::string seat;
    std::string labels;
    std::string legal;
    std::string view;
  };
  void keep(Sent& sent, long long version, const StateText& parts, const Own& own);
  std::optional<std::string> patch(const Sent& was, const StateText& now, const Own& own);

  std::unordered_map<const Client*, Sent> sent_;
  // The last shared patch worked out, and the two shared texts it lies between (held, so that
  // a text at the same address is never taken for another).
  std::shared_ptr<const std::string> patch_from_;
  std::shared_ptr<const std::string> patch_to_;
  std::optional<std::string> shared_patch_;
};

}  // namespace campfire::server
