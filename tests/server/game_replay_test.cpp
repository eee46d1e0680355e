// A stored game replayed step by step for the replay viewer and for the events a reloaded page
// gets back: every step's views and events are exactly what the players saw when it was played.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "server/game_replay.hpp"

namespace campfire {
namespace {

const std::vector<std::string> kNames = {"Ann", "Bob", "Cleo", "Dan"};

// What the players saw while the game was played: per step, every event with its audience and
// every seat's view afterwards.
struct Played {
  json saved;
  std::vector<std::vector<Event>> events;  // per step (step 0: none)
  std::vector<std::vector<json>> views;    // per step, per seat
  std::vector<json> public_views;
};

Played play_out(const Game& g, int seats, std::uint64_t seed, int max_moves) {
  auto m = Match::create(g, seats, json::object(), seed);
  EXPECT_TRUE(m.ok());
  Played p;
  auto record = [&](std::vector<Event> ev) {
    p.events.push_back(std::move(ev));
    std::vector<json> v;
    for (Seat s = 0; s < seats; ++s) v.push_back(m->state().view(s));
    p.views.push_back(std::move(v));
    p.public_views.push_back(m->state().view(kSpectator));
  };
  record({});
  Rng rng(seed);
  for (int n = 0; n < max_moves && !m->state().over(); ++n) {
    std::vector<Seat> acting;
    m->state().to_act().for_each([&](Seat s) { acting.push_back(s); });
    Seat s = kSystem;
    std::vector<Action> legal;
    if (!acting.empty()) {
      s = acting[rng.below(acting.size())];
      legal = m->state().legal_actions(s);
    }
    Events ev;
    if (legal.empty()) {
      // A window nobody acts in: the room closes it with a timeout, as it would.
      const auto w = m->state().window();
      EXPECT_TRUE(w.has_value());
      if (!w) break;
      EXPECT_FALSE(m->apply(kSystem, Action::timeout(w->id), ev).has_value());
    } else {
      EXPECT_FALSE(m->apply(s, legal[rng.below(legal.size())], ev).has_value());
    }
    record(ev.list());
  }
  p.saved = m->save();
  return p;
}

std::vector<std::string> names(int seats) {
  return std::vector<std::string>(kNames.begin(), kNames.begin() + seats);
}

TEST(GameReplay, EveryStepShowsWhatThePlayersSaw) {
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    const int seats = std::max(g->info().min_seats, std::min(3, g->info().max_seats));
    const Played p = play_out(*g, seats, 17, 120);
    auto replay = GameReplay::open(Registry::builtin(), p.saved, names(seats));
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    ASSERT_EQ(replay->steps(), static_cast<int>(p.events.size()));
    const json steps = replay->steps_json(0, replay->steps());
    ASSERT_EQ(steps.size(), p.events.size());
    for (std::size_t k = 0; k < steps.size(); ++k) {
      SCOPED_TRACE("step " + std::to_string(k));
      const json& step = steps[k];
      EXPECT_EQ(step["step"], k);
      for (Seat s = 0; s < seats; ++s) EXPECT_EQ(step["views"][s], p.views[k][s]);
      EXPECT_EQ(step["public"], p.public_views[k]);
      ASSERT_EQ(step["events"].size(), p.events[k].size());
      for (std::size_t i = 0; i < p.events[k].size(); ++i) {
        const Event& e = p.events[k][i];
        const json& got = step["events"][i];
        EXPECT_EQ(got["type"], e.body["type"]);
        const std::string text = got["text"];
        EXPECT_EQ(text, with_names(e.body["text"], names(seats)));
        EXPECT_EQ(text.find("{seat:"), std::string::npos) << text;
        if (e.to.everyone) {
          EXPECT_TRUE(got["to"].is_null());
        } else {
          json to = json::array();
          e.to.seats.for_each([&](Seat s) { to.push_back(s); });
          EXPECT_EQ(got["to"], to);
        }
      }
    }
    // A page of steps is the same as those steps out of the whole.
    const json page = replay->steps_json(3, 4);
    ASSERT_EQ(page.size(), 4u);
    for (std::size_t i = 0; i < page.size(); ++i) EXPECT_EQ(page[i], steps[3 + i]);
  }
}

TEST(GameReplay, RecentEventsAreTheOnesTheSeatRead) {
  const Game& g = *Registry::builtin().find("spider-monkey");
  const Played p = play_out(g, 3, 5, 80);
  auto replay = GameReplay::open(Registry::builtin(), p.saved, names(3));
  ASSERT_TRUE(replay.ok());
  for (Seat viewer : {0, 2, kSpectator}) {
    std::deque<std::string> seen;
    bool private_seen = false;
    for (const auto& step : p.events) {
      for (const Event& e : step) {
        if (viewer >= 0 ? !e.to.includes(viewer) : !e.to.everyone) continue;
        private_seen = private_seen || !e.to.everyone;
        seen.push_back(with_names(e.body["text"], names(3)));
        if (seen.size() > 12) seen.pop_front();
      }
    }
    const json recent = replay->recent_events(viewer, 12);
    ASSERT_EQ(recent.size(), seen.size());
    for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(recent[i]["text"], seen[i]);
    for (const json& e : recent) EXPECT_FALSE(e.contains("to"));
    if (viewer == kSpectator) {
      EXPECT_FALSE(private_seen);
    } else {
      EXPECT_TRUE(private_seen) << "a seat's own peek is among what it read";
    }
  }
}

TEST(GameReplay, NamesTakeThePlaceOfSeats) {
  EXPECT_EQ(with_names("{seat:0} doubts {seat:2}", {"Ann", "Bob", "Cleo"}), "Ann doubts Cleo");
  EXPECT_EQ(with_names("{seat:1} waits", {"Ann", ""}), "seat 2 waits");
  EXPECT_EQ(with_names("{seat:7} and {seat:x", {"Ann"}), "{seat:7} and {seat:x");
}

// A seat renamed during the game keeps its old name in the steps before the rename: each step
// reads as it did when it was played.
TEST(GameReplay, EachStepNamesTheSeatsAsTheyWereThen) {
  const Game& g = *Registry::builtin().find("pinocchio");
  const Played p = play_out(g, 3, 11, 40);
  ASSERT_GT(p.events.size(), 12u);
  // Seat 0 was Ann until move 6 (the 7th action), then Annie.
  const NameHistory history = {{{0, "Ann"}, {6, "Annie"}}, {{0, "Bob"}}, {{0, "Cleo"}}};
  auto replay = GameReplay::open(Registry::builtin(), p.saved, history);
  ASSERT_TRUE(replay.ok()) << replay.error().message;
  const json steps = replay->steps_json(0, replay->steps());
  const std::vector<std::string> before = {"Ann", "Bob", "Cleo"};
  const std::vector<std::string> after = {"Annie", "Bob", "Cleo"};
  bool old_name_seen = false;
  bool new_name_seen = false;
  for (std::size_t k = 1; k < steps.size(); ++k) {
    const auto& then = k - 1 < 6 ? before : after;
    for (std::size_t i = 0; i < p.events[k].size(); ++i) {
      const std::string raw = p.events[k][i].body["text"];
      const std::string text = steps[k]["events"][i]["text"];
      EXPECT_EQ(text, with_names(raw, then)) << "step " << k;
      if (raw.find("{seat:0}") != std::string::npos) {
        (k - 1 < 6 ? old_name_seen : new_name_seen) = true;
      }
    }
  }
  EXPECT_TRUE(old_name_seen);
  EXPECT_TRUE(new_name_seen);
  // The recent events a reloaded page gets back read the same way.
  const json recent = replay->recent_events(kSpectator, 1000);
  std::vector<std::string> expected;
  for (std::size_t k = 1; k < p.events.size(); ++k) {
    for (const Event& e : p.events[k]) {
      if (e.to.everyone) expected.push_back(with_names(e.body["text"], k - 1 < 6 ? before : after));
    }
  }
  ASSERT_EQ(recent.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(recent[i]["text"], expected[i]);
}

TEST(GameReplay, BadInputGetsAClearErrorOrNothing) {
  auto bad = GameReplay::open(Registry::builtin(),
                              json{{"game", "chess"}, {"seats", 2}, {"seed", "1"}}, NameHistory{});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_save");
  json saved = play_out(*Registry::builtin().find("pinocchio"), 2, 3, 6).saved;
  saved["log"][2]["action"] = json{{"move", "announce"}, {"colour", "green"}, {"clothing", "hat"}};
  EXPECT_FALSE(GameReplay::open(Registry::builtin(), saved, NameHistory{}).ok());
  auto replay = GameReplay::open(Registry::builtin(),
                                 play_out(*Registry::builtin().find("pinocchio"), 2, 3, 6).saved,
                                 NameHistory{});
  ASSERT_TRUE(replay.ok());
  EXPECT_TRUE(replay->steps_json(-1, 5).empty());
  EXPECT_TRUE(replay->steps_json(replay->steps(), 5).empty());
  EXPECT_TRUE(replay->steps_json(0, 0).empty());
  EXPECT_EQ(replay->steps_json(replay->steps() - 1, 50).size(), 1u);
  EXPECT_TRUE(replay->recent_events(0, 0).empty());
}

}  // namespace
}  // namespace campfire
