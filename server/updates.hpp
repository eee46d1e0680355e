// The one frame per change for members who asked for updates in `hello` (PROTOCOL.md, "Update
// frames"): the change's events and the member's new state together, the state whole or, for
// `patch`, as a merge patch against the last state that member was sent. This part keeps that
// last state per member; the room tells it what it sent and asks it for each update.
//
// A state is kept in two pieces: the members every recipient of a change shares, held once per
// change by all who received it, and the member's own (seat, labels, legal and view; the labels
// and legal texts shared with the room, not copied). The shared part's patch is worked out once
// per change, member by member, and given to every member that holds the same base; the member's
// own part is compared on its own. The frame is written in one piece.
//
// `delta` is `patch` made smaller: no `base` (a member's frames carry consecutive versions), no
// `version` in the patch (the frame's is the state's), a legal list the member was sent whole
// before, since its last whole state, comes back as its number, and one sent whole goes as rows
// (an action with the member names of the object before it as the array of its values). Each
// member's numbered lists are kept here, the last kRemembered of them, as the objects they stand
// for: a list is compared and numbered by what it says, whichever way it travelled.
#pragma once

#include <cstdint>
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
  using SharedTexts = protocol::message::SharedTexts;
  using Text = std::shared_ptr<const std::string>;
  // One member's own part of a state: its seat (negative for a spectator), the JSON texts of its
  // labels and legal actions (shared by everyone who holds them: they are kept without a copy),
  // and of its view.
  struct Own {
    int seat = -1;
    const Text* labels = nullptr;  // the empty text for a member that asked for no words
    const Text* legal = nullptr;
    std::string_view view;
    std::size_t legal_hash = 0;  // of the legal text
    // For a `delta` member: the same legal actions written as rows, as a delta's patch carries
    // them (null: as objects, which every reader takes too).
    const Text* rows = nullptr;
  };
  // How many of its last numbered legal lists a `delta` member may be referred to.
  static constexpr std::size_t kRemembered = 16;
  // The labels of a member that reads no words: none (the member is left out).
  static const Text& no_labels();

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
  // A legal list a `delta` member was sent whole, with the labels that came with it.
  struct Numbered {
    Text legal;
    Text labels;
    std::size_t hash = 0;
  };
  struct Sent {
    long long version = 0;
    std::shared_ptr<const SharedTexts> shared;
    int seat = -1;
    Text labels;
    Text legal;
    // Copied into a buffer that keeps its capacity from change to change.
    std::string view;
    // `delta` only: the last lists numbered, oldest first; the newest has number `next` - 1.
    std::vector<Numbered> numbered;
    long long next = 0;
    bool delta = false;  // the mode the member was last sent in
  };
  // What a patch did with the member's legal list.
  enum class Legal { kSame, kWhole, kNumber };
  void keep(Sent& sent, long long version, const StateText& parts, const Own& own);
  // A whole state was sent to a `delta` member: its numbering starts again.
  static void restart_numbers(Sent& sent, const Own& own);
  static void number(Sent& sent, const Own& own);
  // Appends to `out` the patch from `was` to `now` + `own` (for `delta` without the version, and
  // with a legal list `was` has numbered as that number; `legal` says what became of it); false
  // when a merge patch cannot say it (`out` is then not to be used).
  bool append_patch(std::string& out, const Sent& was, const StateText& now, const Own& own,
                    bool delta, Legal& legal);

  std::unordered_map<const Client*, Sent> sent_;
  // The last shared patch worked out (its members, without braces; unset when none can say the
  // change), and the ids of the two shared parts it lies between. Ids, not the parts: an idle
  // room would otherwise keep the version before its last alive for nothing.
  std::uint64_t patch_from_ = 0;
  std::uint64_t patch_to_ = 0;
  std::optional<std::string> shared_patch_;
  std::string shared_delta_;  // the same without the version, when shared_patch_ is set
};

}  // namespace campfire::server
