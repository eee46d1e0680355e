// Each seat's choices at one version of a room: its legal actions as the engine gives them, their
// JSON text as state frames list them, and their words. They are computed once per change, when
// first asked for (the words only for a seat whose member reads them), and shared by everyone who
// needs them: the state frames, the turn timer (which
// restarts when a player's choices change) and the bots. The next version computes them afresh,
// but a seat whose choices and words did not change keeps the very texts it had, so that a patch
// needs no comparing to see they are the same; and each action's JSON text is written once per
// game and thread, since it depends on the action alone. LegalMoves only reads the match; it
// decides nothing and sends nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/match.hpp"

namespace campfire::server {

class LegalMoves {
 public:
  struct Choices {
    // Empty once let go of (see let_go_of_actions): actions() gives them at any time.
    std::vector<Action> actions;
    // The actions as a JSON array, as frames carry them, and their words (seat names filled in)
    // as one: shared, so that a member's last frame can keep them without a copy. The words are
    // kept only as that text (every seat holds its choices while the room lives), and only once
    // labels() asked for them at this version: null until then.
    std::shared_ptr<const std::string> text;
    std::shared_ptr<const std::string> labels_text;
    // The same actions as a delta's patch writes them (PROTOCOL.md, "delta"): an action whose
    // members have the names of the object before it as the array of its values. Null until
    // rows() asked for them at this version, and let go of with the actions.
    std::shared_ptr<const std::string> rows_text;
    std::size_t hash = 0;             // of `text`: what the seat may do, in one number
  };
  // The words for `seat`'s `action` as its player reads them.
  using Label = std::function<std::string(Seat seat, const Action& action)>;

  LegalMoves(const Match& match, Label label) : match_(match), label_(std::move(label)) {}

  // `seat`'s choices at `version` of the room (empty when the seat may not act): computed on
  // the first ask at a version, then shared until a later version is asked for. The reference
  // holds until that seat is asked about a later version.
  const Choices& of(Seat seat, long long version);
  // `seat`'s legal actions at `version`: those of of(), computed again if let go since.
  const std::vector<Action>& actions(Seat seat, long long version);
  // The words of `seat`'s choices at `version` as one JSON array (of()'s labels_text), written
  // on the first ask at that version. Most programs read no words: a seat whose member does not
  // ask has none written or kept.
  const std::shared_ptr<const std::string>& labels(Seat seat, long long version);
  // `seat`'s choices at `version` as rows (of()'s rows_text), written on the first ask at that
  // version: only members that read deltas need them, and only while the change is sent.
  const std::shared_ptr<const std::string>& rows(Seat seat, long long version);
  // Lets go of every seat's list of actions, keeping the texts: a room idles with its frames
  // sent, and a list of actions is several times the size of its text (52 bytes an action).
  // The next version's choices then compare texts to know whether a seat's are the same. Words
  // of an earlier version that nobody asked for again are let go of too, and so are the rows.
  void let_go_of_actions();
  // How many seats' choices have been computed, for tests.
  std::size_t computed() const { return computed_; }

 private:
  struct ActionHash {
    std::size_t operator()(const Action& a) const;
  };
  // An action as frames carry it: its JSON text and, when it is an object (every game's actions
  // are), the text of its member names and of the array of its values, as a row writes them.
  struct ActionText {
    std::string text;
    std::string names;
    std::string row;
    bool object = false;
  };
  // `a`'s texts, from the cache when they were written before.
  const ActionText& action_text(const Action& a);

  // A seat's choices at the version they were computed for. The slot keeps them until the seat
  // is asked about a later version, whose choices take the texts of these when the same: one
  // set per seat, never a second copy of the version before.
  struct Slot {
    long long version = -1;
    std::optional<Choices> choices;
    // The words of the last version they were written at, until this version's are: the same
    // words keep the very text.
    std::shared_ptr<const std::string> last_labels;
    bool actions_gone = false;  // choices->actions was let go of (see let_go_of_actions)
  };
  // The slot's actions: its own, or listed again into `again` when they were let go of (for the
  // words or the rows, which do not keep them).
  const std::vector<Action>& listed(Seat seat, const Slot& slot, std::vector<Action>& again) const;

  const Match& match_;
  Label label_;
  std::vector<Slot> seats_;
  std::size_t computed_ = 0;
};

}  // namespace campfire::server
