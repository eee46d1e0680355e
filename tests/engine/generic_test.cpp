// The generic game suite: every registered game, every seat count and a spread of option
// combinations, thousands of seeded random playouts checked at every step against the engine
// contract. A new game gets all of this by being registered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/schema.hpp"
#include "tests/engine/schema_check.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire {
namespace {

using testing::observation;
using testing::scaled;

struct Case {
  const Game* game;
  int seats;
  json options;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name << " " << c.options.dump(); }

std::string sanitize(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

// Option combinations from the declaration: all defaults, then each option on its own at each
// of its interesting values (the other bool value, every choice, an int's min, max and middle),
// then a few seeded mixtures. Combinations the game refuses for a seat count are dropped.
std::vector<json> option_spread(const Game& game, int seats) {
  std::vector<json> spread = {json::object()};
  const auto& specs = game.info().options;
  for (const OptionSpec& s : specs) {
    std::vector<json> values;
    switch (s.type) {
      case OptionSpec::Type::kBool:
        values = {!s.default_value.get<bool>()};
        break;
      case OptionSpec::Type::kInt:
        values = {s.min, s.max, (s.min + s.max) / 2};
        break;
      case OptionSpec::Type::kChoice:
        for (const auto& c : s.choices) values.push_back(c);
        break;
    }
    for (const json& v : values) {
      if (v == s.default_value) continue;
      spread.push_back({{s.key, v}});
    }
  }
  Rng rng(0xC0FFEE + static_cast<std::uint64_t>(seats));
  for (int mix = 0; mix < 4 && specs.size() > 1; ++mix) {
    json o = json::object();
    for (const OptionSpec& s : specs) {
      switch (s.type) {
        case OptionSpec::Type::kBool:
          o[s.key] = rng.below(2) == 1;
          break;
        case OptionSpec::Type::kInt:
          o[s.key] = s.min + static_cast<int>(rng.below(static_cast<std::uint64_t>(s.max - s.min) + 1));
          break;
        case OptionSpec::Type::kChoice:
          o[s.key] = s.choices[rng.below(s.choices.size())];
          break;
      }
    }
    spread.push_back(o);
  }
  std::vector<json> valid;
  std::set<std::string> seen;
  for (const json& o : spread) {
    auto parsed = game.parse_options(o, seats);
    if (!parsed) continue;
    if (seen.insert(parsed->to_json().dump()).second) valid.push_back(o);
  }
  return valid;
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (const Game* g : Registry::builtin().games()) {
    for (int seats = g->info().min_seats; seats <= g->info().max_seats; ++seats) {
      int i = 0;
      for (const json& o : option_spread(*g, seats)) {
        cases.push_back({g, seats, o,
                         sanitize(g->info().id) + "_" + std::to_string(seats) + "seats_opts" +
                             std::to_string(i++)});
      }
    }
  }
  return cases;
}

std::vector<Card> sorted_cards(const State& s) {
  std::vector<Card> c;
  s.cards(c);
  std::sort(c.begin(), c.end());
  return c;
}

std::vector<std::string> all_observations(const Game& game, const State& s) {
  std::vector<std::string> out;
  for (Seat v = kSpectator; v < s.seats(); ++v) out.push_back(observation(game, s, v));
  return out;
}

// Statistics a whole case must satisfy, so the no-leak check cannot pass vacuously.
struct LeakStats {
  long steps = 0;             // actions applied over the whole case
  long checked = 0;           // (state, viewer) pairs re-dealt
  long states = 0;            // states deep-checked
  long changed_other = 0;     // states where re-dealing for some seat changed another's view
  long exposures = 0;         // (state, viewer, other) where other sees a card viewer cannot
  long exposures_changed = 0; // ...and re-dealing viewer's hidden cards changed other's view
  long text_views = 0;        // views written as text and compared with the tree
  long events_compared = 0;   // (input, viewer) pairs whose events were compared after a re-deal
  long hidden_endings = 0;    // ...of which a re-deal made or unmade an ending on hidden cards
};

// The events `viewer` receives from one input, in order, up to event number `end`; a spectator
// gets the public ones.
std::string events_seen(const Events& events, Seat viewer,
                        std::size_t end = std::numeric_limits<std::size_t>::max()) {
  std::string out;
  const auto& list = events.list();
  for (std::size_t i = 0; i < list.size() && i < end; ++i) {
    if (list[i].to.includes(viewer)) out += list[i].body.dump() + "\n";
  }
  return out;
}

// Endings that a game's own rules make depend on cards a spectator cannot see, by game id and
// the "ending" of the game's public "game-over" event. Fib-Fibonacci's third repetition (FF-14)
// compares both hands: each player can work them out once the pile is empty, a spectator cannot,
// and the end of the game is public all the same (FF-20). Re-dealing the hands for a spectator
// can make or unmake the repetition, and with it the rest of the game; that is the rule itself,
// not a leak. The players' re-deals keep both hands as sets, so for them it is compared as usual.
const std::set<std::pair<std::string, std::string>> kEndingsOnHiddenCards = {
    {"fib-fibonacci", "repetition"},
};

// Where among `events` an ending of kEndingsOnHiddenCards is announced; the list's size if none.
std::size_t ending_on_hidden_cards(const std::string& game, const Events& events) {
  const auto& list = events.list();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& body = list[i].body;
    if (!list[i].to.everyone || body.value("type", "") != "game-over") continue;
    if (kEndingsOnHiddenCards.count({game, body.value("ending", "")}) > 0) return i;
  }
  return list.size();
}

// Every string in an event body but its words ("text"): the card codes it names, among others.
void named_strings(const json& j, std::set<std::string>& out) {
  if (j.is_string()) {
    out.insert(j.get<std::string>());
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      if (key != "text") named_strings(value, out);
    }
  } else if (j.is_array()) {
    for (const json& x : j) named_strings(x, out);
  }
}

// What a viewer sees of a state: its view, who acts and the open window.
std::string picture(const State& s, Seat viewer) {
  std::string out = s.view(viewer).dump();
  out += " toAct " + std::to_string(s.to_act().bits());
  if (auto w = s.window()) {
    out += " window " + std::to_string(w->id) + " " + std::to_string(w->millis) + " " + w->name +
           " " + std::to_string(w->seats.bits());
  }
  return out;
}

class GenericGameTest : public ::testing::TestWithParam<Case> {
 protected:
  const Game& game() const { return *GetParam().game; }

  Match new_match(std::uint64_t seed) {
    auto m = Match::create(game(), GetParam().seats, GetParam().options, seed);
    EXPECT_TRUE(m.ok()) << m.error().message;
    return std::move(*m);
  }

  void check_step_invariants(const State& s, const std::vector<Card>& deck) {
    const SeatSet acting = s.to_act();
    if (s.over()) {
      EXPECT_TRUE(acting.empty()) << "a finished game still has seats to act";
      EXPECT_FALSE(s.window().has_value()) << "a finished game has an open window";
    } else {
      EXPECT_TRUE(!acting.empty() || s.window().has_value())
          << "nobody can act and no window is open: the game is stuck";
    }
    for (Seat seat = 0; seat < s.seats(); ++seat) {
      const auto legal = s.legal_actions(seat);
      if (acting.contains(seat)) {
        EXPECT_FALSE(legal.empty()) << "seat " << seat << " must act but has no legal action";
      } else {
        EXPECT_TRUE(legal.empty()) << "seat " << seat << " may not act but has legal actions";
      }
      // Legal lists are sets: a bot picking uniformly must not be biased by duplicates.
      for (std::size_t i = 0; i < legal.size(); ++i) {
        for (std::size_t j = i + 1; j < legal.size(); ++j) {
          EXPECT_FALSE(legal[i] == legal[j]) << "duplicate legal action for seat " << seat;
        }
      }
      // Every legal action survives the JSON round trip unchanged.
      for (const Action& a : legal) {
        auto back = game().action_from_json(game().action_to_json(a));
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_TRUE(*back == a) << game().action_to_json(a).dump() << " does not round-trip";
      }
      // The move a turn timer would play is one of the legal ones (mid-swap included).
      if (acting.contains(seat)) {
        const Action fallback = s.fallback_action(seat);
        EXPECT_TRUE(std::find(legal.begin(), legal.end(), fallback) != legal.end())
            << "seat " << seat << ": the fallback " << game().action_to_json(fallback).dump()
            << " is not legal";
      }
    }
    EXPECT_EQ(sorted_cards(s), deck) << "cards are not conserved";
  }

  // Every legal action applies; every illegal or malformed one is refused and changes nothing.
  void check_actions(const State& s, Rng& rng) {
    const SeatSet acting = s.to_act();
    std::vector<json> legal_json_all;
    for (Seat seat = 0; seat < s.seats(); ++seat) {
      const auto legal = s.legal_actions(seat);
      for (const Action& a : legal) {
        auto c = s.clone();
        Events ev;
        auto err = c->apply(seat, a, ev);
        EXPECT_FALSE(err.has_value())
            << "legal " << game().action_to_json(a).dump() << " refused: " << err->message;
        legal_json_all.push_back(game().action_to_json(a));
      }
    }
    auto refused_unchanged = [&](Seat seat, const Action& a, const char* what) {
      auto c = s.clone();
      Events ev;
      auto err = c->apply(seat, a, ev);
      const auto legal = s.legal_actions(seat);
      const bool is_legal = std::find(legal.begin(), legal.end(), a) != legal.end();
      if (is_legal) {
        EXPECT_FALSE(err.has_value());
        return;
      }
      EXPECT_TRUE(err.has_value()) << what << ": seat " << seat << " got "
                                   << game().action_to_json(a).dump()
                                   << " accepted although it is not in its legal list";
      if (err) {
        EXPECT_FALSE(err->code.empty());
        EXPECT_FALSE(err->message.empty());
        EXPECT_TRUE(c->equals(s)) << what << ": a refused action changed the state";
        EXPECT_TRUE(ev.list().empty()) << what << ": a refused action emitted events";
      }
    };
    // Someone else's legal action, sent by every seat that may not act.
    for (const json& aj : legal_json_all) {
      auto a = game().action_from_json(aj);
      for (Seat seat = 0; seat < s.seats(); ++seat) {
        if (!acting.contains(seat)) refused_unchanged(seat, *a, "out of turn");
      }
      refused_unchanged(kSpectator, *a, "spectator");
      refused_unchanged(kSystem, *a, "system move");
      refused_unchanged(s.seats(), *a, "seat out of range");
    }
    // Timeouts: never from a player, never for a window that is not open.
    const auto w = s.window();
    for (Seat seat = 0; seat < s.seats(); ++seat) {
      refused_unchanged(seat, Action::timeout(w ? w->id : 0), "player timeout");
    }
    refused_unchanged(kSystem, Action::timeout(w ? w->id + 1 : 12345), "stale timeout");
    // Mutations of legal actions: every field replaced by another value of another or the same
    // type, removed, or joined by an unknown field. Those that still parse must be refused unless
    // they are legal.
    const json replacements[] = {json(nullptr), json(-1), json(0), json(1), json(7), json(99999),
                                 json(2147483648LL), json("x"), json(""), json("red"),
                                 json::array(), json::object(), json(true), json(1.5)};
    for (const json& aj : legal_json_all) {
      for (const auto& [key, value] : aj.items()) {
        for (int r = 0; r < 3; ++r) {
          json m = aj;
          m[key] = replacements[rng.below(std::size(replacements))];
          auto a = game().action_from_json(m);
          if (!a) {
            EXPECT_FALSE(a.error().message.empty());
            continue;
          }
          for (Seat seat : {Seat(0), Seat(s.seats() - 1)}) refused_unchanged(seat, *a, "mutated");
        }
        json removed = aj;
        removed.erase(key);
        auto a = game().action_from_json(removed);
        if (key == "move") {
          EXPECT_FALSE(a.ok()) << "an action without a move parsed";
        }
        if (a) refused_unchanged(acting.empty() ? 0 : acting.first(), *a, "field removed");
      }
      // Values of one legal action's fields moved into another's.
      const json& other = legal_json_all[rng.below(legal_json_all.size())];
      json mixed = aj;
      for (const auto& [key, value] : other.items()) {
        if (key != "move" && rng.below(2)) mixed[key] = value;
      }
      if (auto a = game().action_from_json(mixed)) {
        refused_unchanged(acting.empty() ? 0 : acting.first(), *a, "mixed");
      }
    }
    // Garbage that is not an action at all.
    for (const json& g : {json(nullptr), json(3), json("challenge"), json::array({1, 2}),
                          json::object(), json({{"move", 1}}), json({{"move", "no-such-move"}}),
                          json({{"move", ""}}), json({{"move", "timeout"}}),
                          json({{"move", "timeout"}, {"window", "1"}})}) {
      auto a = game().action_from_json(g);
      EXPECT_FALSE(a.ok()) << g.dump() << " parsed as an action";
      if (!a) {
        EXPECT_EQ(a.error().code, "bad_action");
        EXPECT_FALSE(a.error().message.empty());
      }
    }
  }

  // Clone, then no-leak: re-dealing what a viewer cannot see must not change what it observes.
  void check_views(const State& s, Rng& rng, LeakStats& stats) {
    // Both forms of a view come from the game's one writer: the text is the tree, byte for
    // byte as the room sends it (members in name order, as dump() writes them), with no member
    // named twice.
    for (Seat v = kSpectator; v < s.seats(); ++v) {
      std::string text;
      s.view_text(v, text);
      ++stats.text_views;
      const json tree = s.view(v);
      EXPECT_EQ(json::parse(text), tree) << "view_text differs from view() for viewer " << v;
      EXPECT_EQ(text, tree.dump())
          << "view_text is not the bytes of view().dump() for viewer " << v;
      EXPECT_EQ(testing::member_order_fault(text), "") << "viewer " << v << ": " << text;
    }
    const auto before = all_observations(game(), s);
    auto copy = s.clone();
    EXPECT_TRUE(copy->equals(s)) << "a clone differs from its original";
    EXPECT_EQ(all_observations(game(), *copy), before) << "a clone's views differ";

    auto probe = s.clone();
    std::vector<std::set<const Card*>> hidden(s.seats() + 1);
    for (Seat v = kSpectator; v < s.seats(); ++v) {
      std::vector<Card*> slots;
      probe->hidden_from(v, slots);
      hidden[v + 1] = std::set<const Card*>(slots.begin(), slots.end());
      EXPECT_EQ(hidden[v + 1].size(), slots.size()) << "a hidden slot is listed twice";
    }
    for (Seat v = 0; v < s.seats(); ++v) {
      EXPECT_TRUE(std::includes(hidden[0].begin(), hidden[0].end(), hidden[v + 1].begin(),
                                hidden[v + 1].end()))
          << "seat " << v << " cannot see a card that spectators can";
    }

    bool some_other_changed = false;
    for (Seat v = kSpectator; v < s.seats(); ++v) {
      ++stats.checked;
      bool exposed_any = false;
      std::vector<bool> exposed(s.seats(), false);
      for (Seat q = 0; q < s.seats(); ++q) {
        if (q == v) continue;
        for (const Card* slot : hidden[v + 1]) {
          if (!hidden[q + 1].count(slot)) {
            exposed[q] = true;
            exposed_any = true;
            break;
          }
        }
      }
      std::vector<bool> changed(s.seats(), false);
      // Up to three re-deals: one could, by chance, only swap equal cards.
      for (int attempt = 0; attempt < 3; ++attempt) {
        auto redealt = s.clone();
        std::vector<Card*> slots;
        redealt->hidden_from(v, slots);
        std::vector<Card> values;
        for (Card* c : slots) values.push_back(*c);
        rng.shuffle(values);
        for (std::size_t i = 0; i < slots.size(); ++i) *slots[i] = values[i];
        EXPECT_EQ(sorted_cards(*redealt), sorted_cards(s));
        const std::string mine = observation(game(), *redealt, v);
        EXPECT_EQ(mine, before[v + 1])
            << "LEAK: re-dealing the cards " << (v < 0 ? std::string("a spectator")
                                                       : "seat " + std::to_string(v))
            << " cannot see changed what it observes";
        if (mine != before[v + 1]) return;
        for (Seat q = 0; q < s.seats(); ++q) {
          if (q != v && !changed[q] && observation(game(), *redealt, q) != before[q + 1]) {
            changed[q] = true;
          }
        }
        if (!exposed_any) break;
        bool all_seen = true;
        for (Seat q = 0; q < s.seats(); ++q) all_seen &= !exposed[q] || changed[q];
        if (all_seen) break;
      }
      for (Seat q = 0; q < s.seats(); ++q) {
        if (changed[q]) some_other_changed = true;
        if (exposed[q]) {
          ++stats.exposures;
          if (changed[q]) ++stats.exposures_changed;
        }
      }
    }
    ++stats.states;
    if (some_other_changed) ++stats.changed_other;
  }

  // No leak through events: re-dealing the cards a viewer cannot see must change neither the
  // events it receives from an input nor what it sees afterwards, except through the cards the
  // input shows it.
  //   - The cards the input shows stay where they are: those named by its public events (a card
  //     played face up, a panic jump's card, a trick's reveal, a challenged card), even where no
  //     view keeps them (the crashed fire is discarded, a round's last trick gives way to the
  //     next deal), and those the viewer sees afterwards (the next Pinocchio player's top card).
  //     Whether a game's public events name only the cards its rules turn up is held by its own
  //     rule tests; here every other dependence on hidden cards is caught: a private event to the
  //     wrong seat, an event that changes without naming the card, a window or a turn that
  //     depends on cards.
  //   - The actor's cards are re-dealt too, so an input that names one of its cards (a card
  //     answered face down, a back flip) may no longer be legal as it stands. It is then sent
  //     with the card that now lies where the named one lay: the same move as far as the viewer
  //     can tell. An input that is still refused depends on the actor's cards for its very
  //     legality (Fib-Fibonacci's pass says the actor has no play): the viewer learns that from
  //     the move itself, and it is not compared.
  //   - A timeout acts for the seats its window waits for.
  //   - The actor's own events are not compared: an input may show its actor cards in one-time
  //     events that no view shows, by design (Spider Monkey's first look and Queen, the card it
  //     places). Each game's rule tests hold what an actor is told; what the input tells every
  //     other seat and the spectator is checked here.
  void check_events(const State& s, Seat seat, const Action& a, Rng& rng, LeakStats& stats) {
    SeatSet actors;
    if (seat >= 0) {
      actors.insert(seat);
    } else if (auto w = s.window()) {
      actors = w->seats;
    }
    auto base = s.clone();
    Events base_events;
    if (base->apply(seat, a, base_events)) return;  // inputs chosen to be refused are not events
    std::set<std::string> shown;
    for (const Event& e : base_events.list()) {
      if (e.to.everyone) named_strings(e.body, shown);
    }
    const json move = game().action_to_json(a);
    std::vector<Card> all;
    base->cards(all);
    for (Seat v = kSpectator; v < s.seats(); ++v) {
      if (actors.contains(v)) continue;
      // The cards v sees once the input is applied: every card but those hidden from it.
      std::multiset<Card> sees_after(all.begin(), all.end());
      {
        auto probe = base->clone();
        std::vector<Card*> hidden;
        probe->hidden_from(v, hidden);
        for (Card* c : hidden) sees_after.erase(sees_after.find(*c));
      }
      auto redealt = s.clone();
      std::vector<Card*> slots;
      redealt->hidden_from(v, slots);
      std::erase_if(slots, [&](Card* c) {
        return sees_after.count(*c) > 0 || shown.count(game().card_code(*c)) > 0;
      });
      std::vector<Card> values;
      for (Card* c : slots) values.push_back(*c);
      const std::vector<Card> was = values;
      rng.shuffle(values);
      if (values == was) continue;
      for (std::size_t i = 0; i < slots.size(); ++i) *slots[i] = values[i];
      Action sent = a;
      {
        auto trial = redealt->clone();
        Events ignored(false);
        if (trial->apply(seat, a, ignored)) {
          // The same move with the card now lying where each named card lay.
          json renamed = move;
          for (auto& [key, value] : renamed.items()) {
            if (key == "move" || !value.is_string()) continue;
            for (std::size_t i = 0; i < slots.size(); ++i) {
              if (game().card_code(was[i]) == value.get<std::string>()) {
                value = game().card_code(values[i]);
                break;
              }
            }
          }
          auto parsed = game().action_from_json(renamed);
          if (!parsed) continue;
          sent = *parsed;
        }
      }
      Events events;
      if (redealt->apply(seat, sent, events)) continue;  // its legality depends on the cards
      ++stats.events_compared;
      const std::string who = v < 0 ? std::string("a spectator") : "seat " + std::to_string(v);
      const std::string what = move.dump() + " by " + std::to_string(seat);
      if (v == kSpectator) {
        // An ending the rules base on hidden cards that the re-deal made or unmade: everything
        // the spectator receives before it must still be the same; what follows is the rule's.
        const std::string& id = game().info().id;
        const std::size_t end = ending_on_hidden_cards(id, events);
        const std::size_t base_end = ending_on_hidden_cards(id, base_events);
        if ((end < events.list().size()) != (base_end < base_events.list().size())) {
          ++stats.hidden_endings;
          EXPECT_EQ(events_seen(events, v, end), events_seen(base_events, v, base_end))
              << "LEAK: re-dealing cards " << who
              << " cannot see changed the events it receives before the ending, from " << what;
          if (HasFailure()) return;
          continue;
        }
      }
      EXPECT_EQ(events_seen(events, v), events_seen(base_events, v))
          << "LEAK: re-dealing cards " << who << " cannot see changed the events it receives from "
          << what;
      EXPECT_EQ(picture(*redealt, v), picture(*base, v))
          << "LEAK: re-dealing cards " << who << " cannot see changed what it sees after " << what;
      if (HasFailure()) return;
    }
  }

  void check_replay(const Match& m) {
    const json saved = m.save();
    auto restored = Match::restore(Registry::builtin(), json::parse(saved.dump()));
    ASSERT_TRUE(restored.ok()) << restored.error().message;
    EXPECT_TRUE(restored->state().equals(m.state())) << "replay from the log differs";
    EXPECT_EQ(all_observations(game(), restored->state()), all_observations(game(), m.state()))
        << "replay from the log gives different views";
    EXPECT_EQ(restored->save(), saved);
  }

  static Seat random_seat(SeatSet acting, Rng& rng) {
    std::vector<Seat> seats;
    acting.for_each([&](Seat x) { seats.push_back(x); });
    return seats[rng.below(seats.size())];
  }

  // One seeded random playout; deep checks run on every step when `deep`, else on a sample.
  // The game's JSON Schema (/api/games/<id>/schema), made once per game.
  const testing::SchemaCheck& schema_check() const {
    static std::map<const Game*, testing::SchemaCheck> checks;
    auto it = checks.find(&game());
    if (it == checks.end()) {
      it = checks.emplace(&game(), testing::SchemaCheck(schema::to_json_schema(game()))).first;
    }
    return it->second;
  }

  // Every viewer's view and every seat's legal moves match the game's schema.
  void check_schema(const State& s) {
    for (Seat v = kSpectator; v < s.seats(); ++v) {
      const auto wrong = schema_check().check(s.view(v), "view");
      ASSERT_FALSE(wrong.has_value())
          << "viewer " << v << "'s view is outside the schema: " << *wrong;
    }
    for (Seat seat = 0; seat < s.seats(); ++seat) {
      for (const Action& a : s.legal_actions(seat)) {
        const auto wrong = schema_check().check(game().action_to_json(a), "action");
        ASSERT_FALSE(wrong.has_value()) << "a legal move outside the schema: " << *wrong;
      }
    }
  }

  // Whatever the scale, a case checks at least this many states deeply, playing more games if
  // it must: a short game played a few times at a small scale would otherwise leave the no-leak
  // checks too little to look at (in Spider Monkey one state in twenty shows a card to one seat
  // that another cannot see).
  static constexpr long kMinDeepStates = 200;

  void playout(std::uint64_t seed, bool deep, LeakStats& stats) {
    Match m = new_match(seed);
    if (HasFailure()) return;
    Rng rng(seed ^ 0x5EED5EEDull);
    std::vector<Card> deck = sorted_cards(m.state());
    {
      std::vector<Card> declared = game().deck(m.options(), m.seats());
      std::sort(declared.begin(), declared.end());
      ASSERT_EQ(deck, declared) << "the starting state does not hold the declared deck";
    }
    const int limit = game().info().max_actions;
    const std::uint64_t replay_at = rng.below(60);
    for (int step = 0;; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const State& s = m.state();
      check_step_invariants(s, deck);
      if (s.over()) {
        check_schema(s);
        if (deep || stats.states < kMinDeepStates || rng.below(10) == 0) {
          check_actions(s, rng);
          check_views(s, rng, stats);
        }
        if (step == static_cast<int>(replay_at)) check_replay(m);
        if (HasFailure()) return;
        break;
      }
      ASSERT_LT(step, limit) << "the game did not end within " << limit << " actions";

      // Pick the next input: a random acting seat's random legal action, or the timeout of the
      // open window (always when nobody may act, sometimes otherwise).
      const SeatSet acting = s.to_act();
      const auto w = s.window();
      Seat seat = kSystem;
      Action a;
      if (w && (acting.empty() || rng.below(4) == 0)) {
        a = Action::timeout(w->id);
      } else {
        seat = random_seat(acting, rng);
        const auto legal = s.legal_actions(seat);
        a = legal[rng.below(legal.size())];
      }
      if (deep || stats.states < kMinDeepStates || rng.below(10) == 0) {
        // Every view and legal move of this state against the game's schema.
        check_schema(s);
        if (HasFailure()) return;
        check_actions(s, rng);
        check_views(s, rng, stats);
        // The events of the input about to be applied, of another seat's legal action and of
        // the open window's timeout.
        check_events(s, seat, a, rng, stats);
        if (!acting.empty()) {
          const Seat other = random_seat(acting, rng);
          const auto legal = s.legal_actions(other);
          check_events(s, other, legal[rng.below(legal.size())], rng, stats);
        }
        if (w && seat != kSystem) check_events(s, kSystem, Action::timeout(w->id), rng, stats);
      }
      if (step == static_cast<int>(replay_at)) check_replay(m);
      if (HasFailure()) return;

      Events ev;
      auto err = m.apply(seat, a, ev);
      ++stats.steps;
      ASSERT_FALSE(err.has_value()) << "chosen action refused: " << err->message;
      for (const Event& e : ev.list()) {
        const auto wrong = schema_check().check(e.body, "event");
        ASSERT_FALSE(wrong.has_value()) << "an event outside the game's schema: " << *wrong;
        ASSERT_TRUE(e.body.contains("type") && e.body["type"].is_string()) << e.body.dump();
        ASSERT_TRUE(e.body.contains("text") && e.body["text"].is_string()) << e.body.dump();
        EXPECT_TRUE(e.to.everyone || !e.to.seats.empty()) << "an event addressed to nobody";
        EXPECT_EQ(e.to.seats.bits() >> m.seats(), 0u) << "an event addressed to a missing seat";
      }
    }
    const Result r = m.state().result();
    EXPECT_FALSE(r.winners.empty()) << "a finished game has no winner";
    EXPECT_EQ(r.places.size(), static_cast<std::size_t>(m.seats()));
    for (Seat w : r.winners) EXPECT_EQ(r.places.at(w), 1);
    for (Seat l : r.losers) {
      EXPECT_TRUE(std::find(r.winners.begin(), r.winners.end(), l) == r.winners.end())
          << "seat " << l << " both won and lost";
    }
    check_replay(m);
  }
};

TEST_P(GenericGameTest, RandomPlayouts) {
  const Case& c = GetParam();
  const char* only = std::getenv("CAMPFIRE_SEED");
  // 200 playouts per case, fewer for long games: a case stops early once it has checked a step
  // budget, but never before 30 playouts (20 of them checked deeply at every step, the others at
  // one step in ten). At a reduced scale (the sanitizer run) there may be no deep playout: the
  // first kMinDeepStates states and the one-in-ten sample still reach every phase of the game.
  const int max_playouts = scaled(200);
  const int min_playouts = scaled(30);
  const int deep_playouts = static_cast<int>(20 * testing::test_scale());
  const long step_budget = static_cast<long>(40000 * testing::test_scale());
  LeakStats stats;
  int playouts = 0;
  for (int i = 0;; ++i) {
    const bool enough = i >= max_playouts || (i >= min_playouts && stats.steps >= step_budget);
    if (enough && stats.states >= kMinDeepStates) break;
    ++playouts;
    const std::uint64_t seed =
        only ? std::strtoull(only, nullptr, 10) : 1000003ull * static_cast<std::uint64_t>(i) + 17;
    SCOPED_TRACE("replay with CAMPFIRE_SEED=" + std::to_string(seed) +
                 " --gtest_filter='*" + c.name + "'");
    playout(seed, i < deep_playouts, stats);
    if (HasFailure() || only) break;
  }
  std::cout << "[ stats    ] " << c.name << ": " << playouts << " playouts, " << stats.steps
            << " actions, " << stats.states << " states deep-checked, " << stats.checked
            << " re-deals; another seat's view "
            << "changed in " << stats.changed_other << " states; " << stats.exposures_changed << "/"
            << stats.exposures << " exposures visible; " << stats.text_views
            << " text views compared; " << stats.events_compared << " inputs' events compared ("
            << stats.hidden_endings << " up to an ending on hidden cards)\n";
  if (HasFailure() || only) return;
  // Non-vacuity: where another seat sees a card this viewer cannot, re-dealing must show.
  if (stats.exposures >= 20) {
    EXPECT_GE(stats.exposures_changed * 10, stats.exposures * 9)
        << "a card listed as visible to a seat rarely shows in that seat's view";
  }
  EXPECT_GT(stats.changed_other, 0) << "re-dealing never changed anybody's view: the no-leak "
                                       "check would pass vacuously";
  EXPECT_GT(stats.events_compared, stats.states) << "events were rarely compared after a re-deal";
}

TEST_P(GenericGameTest, SameSeedSameGame) {
  Match a = new_match(42);
  Match b = new_match(42);
  EXPECT_TRUE(a.state().equals(b.state()));
  EXPECT_EQ(all_observations(game(), a.state()), all_observations(game(), b.state()));
  // A seed picks the deal: over a handful of seeds the starting states are not all the same.
  bool differs = false;
  for (std::uint64_t seed = 43; seed < 53 && !differs; ++seed) {
    differs = !new_match(seed).state().equals(a.state());
  }
  EXPECT_TRUE(differs) << "the seed does not influence the deal";
}

TEST_P(GenericGameTest, DeckOrderIsHonoured) {
  Match a = new_match(7);
  std::vector<Card> deck = game().deck(a.options(), a.seats());
  json codes = json::array();
  for (Card c : deck) {
    codes.push_back(game().card_code(c));
    EXPECT_EQ(game().parse_card(game().card_code(c)), c);
  }
  auto m1 = Match::create(game(), GetParam().seats, GetParam().options, 1, codes);
  auto m2 = Match::create(game(), GetParam().seats, GetParam().options, 1, codes);
  ASSERT_TRUE(m1.ok()) << m1.error().message;
  ASSERT_TRUE(m2.ok());
  // A deck order and a seed fix the start (the seed drives only later shuffles and random picks,
  // like Spider Monkey's cut, docs/rules/README.md C3); the deck order given is the one dealt.
  EXPECT_TRUE(m1->state().equals(m2->state()));
  EXPECT_EQ(all_observations(game(), m1->state()), all_observations(game(), m2->state()));
  json reversed = json::array();
  for (auto it = codes.rbegin(); it != codes.rend(); ++it) reversed.push_back(*it);
  auto m3 = Match::create(game(), GetParam().seats, GetParam().options, 1, reversed);
  ASSERT_TRUE(m3.ok());
  EXPECT_FALSE(m3->state().equals(m1->state())) << "the deck order given is not dealt";
  json short_deck = codes;
  short_deck.erase(short_deck.size() - 1);
  auto bad = Match::create(game(), GetParam().seats, GetParam().options, 1, short_deck);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_deck_order");
  json unknown = codes;
  unknown[0] = "no-such-card";
  bad = Match::create(game(), GetParam().seats, GetParam().options, 1, unknown);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_deck_order");
}

INSTANTIATE_TEST_SUITE_P(AllGames, GenericGameTest, ::testing::ValuesIn(all_cases()),
                         [](const auto& p) { return p.param.name; });

// Option and seat validation, for every game.
TEST(GameOptions, EveryGameValidatesItsOptions) {
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    const int seats = g->info().min_seats;
    EXPECT_TRUE(g->parse_options(json::object(), seats).ok()) << "defaults must be valid";
    EXPECT_TRUE(g->parse_options(nullptr, seats).ok());
    auto r = g->parse_options({{"noSuchOption", 1}}, seats);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "bad_options");
    EXPECT_NE(r.error().message.find("noSuchOption"), std::string::npos);
    EXPECT_FALSE(g->parse_options(json::array(), seats).ok());
    EXPECT_EQ(g->parse_options({}, g->info().min_seats - 1).error().code, "bad_seats");
    EXPECT_EQ(g->parse_options({}, g->info().max_seats + 1).error().code, "bad_seats");
    for (const OptionSpec& s : g->info().options) {
      EXPECT_FALSE(g->parse_options({{s.key, "not-a-valid-value"}}, seats).ok()) << s.key;
      EXPECT_FALSE(g->parse_options({{s.key, json::array()}}, seats).ok()) << s.key;
      if (s.type == OptionSpec::Type::kInt) {
        EXPECT_FALSE(g->parse_options({{s.key, s.max + 1}}, seats).ok()) << s.key;
        EXPECT_FALSE(g->parse_options({{s.key, s.min - 1}}, seats).ok()) << s.key;
      }
      EXPECT_FALSE(s.description.empty()) << s.key << " needs a description for the lobby";
    }
    const json described = g->info().to_json();
    EXPECT_EQ(described["id"], g->info().id);
    EXPECT_EQ(described["options"].size(), g->info().options.size());
  }
}

TEST(Registry, IdsAreUniqueAndFindable) {
  std::set<std::string> ids;
  for (const Game* g : Registry::builtin().games()) {
    EXPECT_TRUE(ids.insert(g->info().id).second) << g->info().id;
    EXPECT_EQ(Registry::builtin().find(g->info().id), g);
  }
  EXPECT_EQ(Registry::builtin().find("no-such-game"), nullptr);
}

TEST(Restore, RefusesDamagedSaves) {
  const Game& g = *Registry::builtin().games().front();
  auto m = Match::create(g, g.info().min_seats, json::object(), 5);
  ASSERT_TRUE(m.ok());
  json saved = m->save();
  for (const char* field : {"game", "seats", "seed"}) {
    json broken = saved;
    broken.erase(field);
    EXPECT_FALSE(Match::restore(Registry::builtin(), broken).ok()) << field;
  }
  json unknown_game = saved;
  unknown_game["game"] = "chess";
  EXPECT_FALSE(Match::restore(Registry::builtin(), unknown_game).ok());
  json bad_log = saved;
  bad_log["log"] = json::array({{{"seat", 99}, {"action", {{"move", "nothing"}}}}});
  auto r = Match::restore(Registry::builtin(), bad_log);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "bad_save");
}

}  // namespace
}  // namespace campfire
