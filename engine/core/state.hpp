// The engine contract: a game state is a deterministic state machine with per-seat views.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/action.hpp"
#include "engine/core/event.hpp"
#include "engine/core/rng.hpp"
#include "engine/core/types.hpp"
#include "engine/core/view_writer.hpp"

namespace campfire {

using json = nlohmann::json;

// A timed window (slap window, simultaneous peek, exchange) is a state, not a clock: the engine
// says it is open and how long it should last; the room sends Action::timeout(id) when it elapses.
struct Window {
  std::int32_t id = 0;
  std::uint32_t millis = 0;
  std::string name;
  SeatSet seats;
};

// How a finished game ended (docs/rules/README.md C9). Ties are allowed: places may repeat.
struct Result {
  std::vector<Seat> winners;
  std::vector<Seat> losers;
  std::vector<int> places;  // places[seat]: 1 for the best, equal for tied seats
  std::vector<int> scores;  // per seat, where the game keeps score
  void write(ViewWriter& out) const;
  json to_json() const;
  // Places from per-seat numbers where lower is better (noses, penalty points).
  static std::vector<int> places_ascending(const std::vector<int>& values);
  static std::vector<int> places_descending(const std::vector<int>& values);
};

class State {
 public:
  virtual ~State() = default;

  // --- What a game implements ---------------------------------------------------------------
  virtual std::unique_ptr<State> clone() const = 0;
  virtual bool equals(const State& other) const = 0;
  virtual int seats() const = 0;
  virtual bool over() const = 0;
  virtual Result result() const = 0;
  // Seats that may act now; several at once in simultaneous phases. Empty once over.
  virtual SeatSet to_act() const = 0;
  // The open timed window, if any.
  virtual std::optional<Window> window() const { return std::nullopt; }
  // Words for an action as it would be offered now ("challenge Bella's Red Trousers").
  virtual std::string describe(Seat seat, const Action& action) const = 0;
  // The viewer's picture of the game, built from an allow-list of what that seat (or a
  // spectator) may see. Hidden cards are named by position, never by identity. Written once
  // here; view() and view_text() are its two forms.
  virtual void write_view(Seat viewer, ViewWriter& out) const = 0;
  // The move a turn timer plays for a seat that let its time run out; by default the first
  // legal action. Games with a rule for it override.
  virtual Action fallback_action(Seat seat) const;

  // For the generic tests: every card in every zone (conservation), and every card slot whose
  // identity `viewer` cannot see (re-dealing those must leave the viewer's view unchanged).
  virtual void cards(std::vector<Card>& out) const = 0;
  virtual void hidden_from(Seat viewer, std::vector<Card*>& out) = 0;

  // --- Determinization, for search bots ----------------------------------------------------
  // The slots of hidden_from whose card `viewer` has never been shown, or was shown but can no
  // longer place (a seat remembers the Spider Monkey cards it peeked even though its view never
  // shows them). The order is the state's own layout, never the cards'. By default every slot
  // of hidden_from: games where a seat learns cards that its view does not keep override it.
  virtual void unknown_to(Seat viewer, std::vector<Card*>& out) { hidden_from(viewer, out); }
  // A copy of this state that `viewer` cannot tell from the real one, drawn at random from all
  // such states: the cards of unknown_to are put in a canonical order (sorted), shuffled with
  // `rng` and dealt back into those slots, then any generator of future shuffles is reseeded
  // from `rng`. So the copy depends only on what the viewer knows and on `rng`, never on where
  // the unknown cards really are, nor on how the real deck will be reshuffled. Cards the viewer
  // sees or remembers stay where they are; the viewer's observation (view, legal actions, who
  // acts, window) is unchanged.
  std::unique_ptr<State> determinize(Seat viewer, Rng& rng) const;
  // What `viewer` was shown earlier and may remember although its view no longer shows it (the
  // cards it peeked in Spider Monkey, by seat and slot), for bots that remember perfectly. It
  // names every card that unknown_to leaves out of hidden_from (and may repeat some the view
  // shows). Games whose views keep all a seat was shown return an empty object (the default).
  virtual json recall(Seat viewer) const;

  // --- The checked entry points -------------------------------------------------------------
  // The view as a tree, and as JSON text appended to `out` (what the room sends).
  json view(Seat viewer) const;
  void view_text(Seat viewer, std::string& out) const;
  // The complete list of actions `seat` may send now (empty when it need not act).
  std::vector<Action> legal_actions(Seat seat) const;
  void legal_actions(Seat seat, std::vector<Action>& out) const;
  // Validates and applies; on error nothing changes. Turn order, game over and timeout checks are
  // done here once for every game, the rest by the game's do_apply.
  Status apply(Seat seat, const Action& action, Events& events);

 protected:
  // Called only for a seat in to_act(); appends to `out`.
  virtual void do_legal_actions(Seat seat, std::vector<Action>& out) const = 0;
  // Called for a seat in to_act() or for a timeout of the open window. Must validate fully and
  // change nothing when returning an error.
  virtual Status do_apply(Seat seat, const Action& action, Events& events) = 0;
  // Called on a determinized copy after its unknown cards were dealt again: restore whatever
  // order a zone keeps (sorted hands) and reseed every generator of future shuffles from `rng`.
  // The default does nothing (a game without either).
  virtual void after_redeal(Rng& rng);
};

// Gives a state value type clone() and equals() from its copy constructor and a defaulted ==.
template <class Derived>
class StateBase : public State {
 public:
  std::unique_ptr<State> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  bool equals(const State& other) const override {
    const auto* o = dynamic_cast<const Derived*>(&other);
    return o != nullptr && static_cast<const Derived&>(*this) == *o;
  }
  bool operator==(const StateBase&) const { return true; }
};

}  // namespace campfire
