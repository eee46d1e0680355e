// Update frames (PROTOCOL.md, "Update frames"): a member that asked for `combined` gets one frame
// per change with exactly the events and the state the default frames carry, and one that asked
// for `patch` or `delta` rebuilds, from the patches, exactly the state a full frame would have
// given it, at every step of a game, for every game; with or without texts.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "engine/core/rng.hpp"
#include "tests/server/room_harness.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

// What the clocks say changes while a state is on its way; the rest must be equal.
json steady(json state) {
  if (state["window"].is_object()) state["window"].erase("remainingMs");
  if (state["turn"].is_object()) state["turn"].erase("remainingMs");
  return state;
}

class UpdateFramesTest : public RoomHarness, public ::testing::WithParamInterface<const Game*> {
 protected:
  // Plays random legal moves until the game ends or `steps` moves were made. After each change
  // `check` runs.
  void play(int steps, std::uint64_t seed, const std::function<void()>& check) {
    Rng rng(seed);
    long long id = 1000;
    for (int step = 0; step < steps; ++step) {
      poll();
      const json st = players_.front()->held.is_null() ? players_.front()->last_state()
                                                       : players_.front()->held;
      if (st["status"] != "playing") return;
      std::vector<std::size_t> acting;
      for (std::size_t s = 0; s < players_.size(); ++s) {
        const json& mine = players_[s]->held.is_null() ? players_[s]->last_state() : players_[s]->held;
        if (!mine["legal"].empty()) acting.push_back(s);
      }
      const long long before = st["version"].get<long long>();
      if (acting.empty()) {
        // Only a window's end can move the game on: let the room's clock run.
        run_until([&] {
          const json& now = players_.front()->held.is_null() ? players_.front()->last_state()
                                                              : players_.front()->held;
          return now["version"].get<long long>() > before;
        });
      } else {
        const std::size_t s = acting[rng.below(acting.size())];
        const json& mine = players_[s]->held.is_null() ? players_[s]->last_state() : players_[s]->held;
        const json& legal = mine["legal"];
        room_->action(players_[s], ++id, legal[rng.below(legal.size())], mine["version"]);
        poll();
      }
      if (HasFatalFailure()) return;
      check();
      if (HasFatalFailure()) return;
    }
  }

  // Each member's patched state is the state a sync sends at the same moment, after every
  // change: a sync makes the next patch start from that whole state, so every patch is checked
  // alone.
  void every_patched_state_is_the_whole_state(UpdateMode mode, bool texts);
  // Without syncs, patches build on each other from the first state to the end of the game.
  // Returns how many legal lists came as numbers.
  std::size_t patches_build_on_each_other(UpdateMode mode, bool texts);
};

// Whether an event or state carries words.
void expect_words(const json& m, bool texts) {
  if (m["type"] == "event") {
    EXPECT_EQ(m["event"].contains("text"), texts) << m.dump();
  } else if (m["type"] == "state") {
    EXPECT_EQ(m.contains("labels"), texts) << m.dump();
  }
}

void UpdateFramesTest::every_patched_state_is_the_whole_state(UpdateMode mode, bool texts) {
  const Game& g = *GetParam();
  const int seats = std::min(4, g.info().max_seats);
  open(g.info().id.c_str(), seats, RoomSettings{});
  for (auto& p : players_) {
    p->mode = mode;
    p->with_texts = texts;
  }
  spectator_->mode = mode;
  spectator_->with_texts = texts;
  std::vector<std::shared_ptr<RecordingClient>> members = players_;
  members.push_back(spectator_);
  // Each member's messages from the moment it asked for the mode under test.
  std::vector<std::size_t> checked;
  for (const auto& c : members) checked.push_back(c->messages.size());
  std::size_t updates = 0;
  std::size_t patches = 0;
  std::size_t patch_bytes = 0;
  std::size_t state_bytes = 0;
  play(250, 7, [&] {
    for (std::size_t m = 0; m < members.size(); ++m) {
      SCOPED_TRACE("member " + std::to_string(m));
      RecordingClient& c = *members[m];
      ASSERT_FALSE(c.update_frames.empty());
      const json& update = c.update_frames.back();
      ++updates;
      if (update.contains("patch")) {
        ++patches;
        patch_bytes += update["patch"].dump().size();
      }
      const json rebuilt = c.held;
      room_->sync(members[m], nullptr);
      poll();
      const json whole = c.messages.back();
      ASSERT_EQ(whole["type"], "state");
      for (; checked[m] < c.messages.size(); ++checked[m]) {
        expect_words(c.messages[checked[m]], texts);
      }
      state_bytes += whole.dump().size();
      ASSERT_EQ(steady(rebuilt), steady(whole)) << "after update " << update.dump();
    }
  });
  EXPECT_GT(updates, 20u);
  // A member that turns null (a window closing) cannot be said by a merge patch: that change
  // comes whole.
  EXPECT_GT(patches, updates / 2) << "most changes travel as patches";
  EXPECT_LT(patch_bytes, state_bytes / 2) << "patches are much smaller than the states";
}

TEST_P(UpdateFramesTest, EveryPatchedStateIsTheWholeState) {
  every_patched_state_is_the_whole_state(UpdateMode::kPatch, true);
}

TEST_P(UpdateFramesTest, EveryDeltaStateWithoutTextsIsTheWholeState) {
  every_patched_state_is_the_whole_state(UpdateMode::kDelta, false);
}

std::size_t UpdateFramesTest::patches_build_on_each_other(UpdateMode mode, bool texts) {
  const Game& g = *GetParam();
  const int seats = std::min(3, g.info().max_seats);
  open(g.info().id.c_str(), seats, RoomSettings{}, 0, 21);
  for (auto& p : players_) {
    p->mode = mode;
    p->with_texts = texts;
  }
  play(std::min(g.info().max_actions, 3000), 9, [] {});
  poll();
  std::size_t numbers = 0;
  for (std::size_t s = 0; s < players_.size(); ++s) {
    SCOPED_TRACE("seat " + std::to_string(s));
    const json rebuilt = players_[s]->held;
    room_->sync(players_[s], nullptr);
    poll();
    EXPECT_EQ(steady(rebuilt), steady(players_[s]->messages.back()));
    numbers += players_[s]->numbered_used;
  }
  return numbers;
}

TEST_P(UpdateFramesTest, PatchesBuildOnEachOtherToTheEnd) {
  EXPECT_EQ(patches_build_on_each_other(UpdateMode::kPatch, true), 0u);
}

// Numbered legal lists are what a delta saves most in Pinocchio, where a player's fifteen
// announcements come back at every turn; the labels come with them.
TEST_P(UpdateFramesTest, DeltasBuildOnEachOtherToTheEnd) {
  const std::size_t numbers = patches_build_on_each_other(UpdateMode::kDelta, true);
  if (GetParam()->info().id == "pinocchio") {
    EXPECT_GT(numbers, 10u);
  }
}

TEST_P(UpdateFramesTest, DeltasWithoutTextsBuildOnEachOtherToTheEnd) {
  const std::size_t numbers = patches_build_on_each_other(UpdateMode::kDelta, false);
  if (GetParam()->info().id == "pinocchio") {
    EXPECT_GT(numbers, 10u);
  }
}

// A legal list a delta sends whole travels as rows: an object where the member names change
// (the harness fails any other), an array of values for each action after it with the same
// names. Pinocchio's and Tricky Tribes' lists come at less than two thirds of their bytes: a
// row is about half its object, and a list's first action stays whole.
TEST_P(UpdateFramesTest, DeltaLegalListsTravelAsRows) {
  patches_build_on_each_other(UpdateMode::kDelta, false);
  std::size_t rows = 0;
  std::size_t sent = 0;
  std::size_t objects = 0;
  for (const auto& p : players_) {
    rows += p->rows;
    sent += p->legal_bytes;
    objects += p->legal_object_bytes;
  }
  EXPECT_GT(rows, 0u) << "every game has turns with several actions of one shape";
  EXPECT_LT(sent, objects);
  const std::string& id = GetParam()->info().id;
  if (id == "pinocchio" || id == "tricky_tribes") {
    EXPECT_LT(sent * 3, objects * 2) << sent << " bytes as rows, " << objects << " as objects";
  }
}

// A list mixing actions of different shapes (Spider Monkey's draw, take-discard and slap, Naked
// Gibbon's moves) names each shape with an object again, and every member rebuilds exactly the
// state a sync sends, after every change.
TEST_P(UpdateFramesTest, DeltaListsMixingShapesComeBackAsTheyWere) {
  every_patched_state_is_the_whole_state(UpdateMode::kDelta, true);
  std::size_t mixed = 0;
  for (const auto& p : players_) mixed += p->objects_after_first;
  const std::string& id = GetParam()->info().id;
  if (id == "spider_monkey" || id == "naked_gibbon") {
    EXPECT_GT(mixed, 0u) << "no list mixed actions of different shapes";
  }
}

// A room writes the words of a seat's choices only for a member who reads them. Two rooms play the
// same game move for move: in one every player reads words from the start, in the other nobody
// does until, midway, one player comes back on a new connection that reads them and another says
// in a new hello that it now does. From then on both get the very labels the first room's players
// get.
TEST_P(UpdateFramesTest, MembersWhoTurnToWordsGetTheWordsOfThoseWhoAlwaysReadThem) {
  const Game& g = *GetParam();
  const int seats = std::min(3, g.info().max_seats);
  struct Table {
    std::shared_ptr<Room> room;
    std::vector<std::shared_ptr<RecordingClient>> players;
    RecordingJournal journal;
  };
  Table tables[2];  // with words from the start, and without
  for (int t = 0; t < 2; ++t) {
    Table& table = tables[t];
    table.room = std::make_shared<Room>(ioc_, config_, table.journal, metrics_,
                                        t == 0 ? "WORDSA" : "WORDSB",
                                        std::move(*Match::create(g, seats, json::object(), 21)),
                                        false, RoomSettings{});
    table.room->record_creation();
    for (int s = 0; s < seats; ++s) {
      auto p = std::make_shared<RecordingClient>();
      p->mode = UpdateMode::kPatch;
      p->with_texts = t == 0;
      table.players.push_back(p);
      table.room->join(p, "P" + std::to_string(s), s + 1, s);
    }
    table.room->start(table.players.front(), 99);
  }
  poll();
  const auto state_of = [](const RecordingClient& c) -> const json& { return c.held; };
  const auto moves_of = [&](const Table& table) {
    return state_of(*table.players.front())["moves"].get<long long>();
  };
  long long id = 1000;
  bool turned = false;
  int compared = 0;
  for (int step = 0; step < 60; ++step) {
    if (step == 6) {
      // Seat 0 comes back on a connection that reads words (in both rooms, so that their
      // versions stay alike); seat 1 of the second room starts reading them.
      for (Table& table : tables) {
        auto back = std::make_shared<RecordingClient>();
        back->mode = UpdateMode::kPatch;
        const std::string token =
            table.players.front()->of_type("joined").front()["token"].get<std::string>();
        table.room->rejoin(back, "P0", 7, token);
        table.players.front() = back;
      }
      tables[1].players[1]->with_texts = true;
      turned = true;
      poll();
    }
    const json& now = state_of(*tables[1].players.front());
    ASSERT_EQ(now["status"], state_of(*tables[0].players.front())["status"]);
    if (now["status"] != "playing") break;
    ASSERT_EQ(moves_of(tables[0]), moves_of(tables[1]));
    if (turned) {
      for (int s = 0; s < 2; ++s) {
        SCOPED_TRACE("seat " + std::to_string(s) + ", step " + std::to_string(step));
        const json& read = state_of(*tables[0].players[static_cast<std::size_t>(s)]);
        const json& turned_to = state_of(*tables[1].players[static_cast<std::size_t>(s)]);
        ASSERT_TRUE(turned_to.contains("labels"));
        EXPECT_EQ(turned_to["labels"], read["labels"]);
        EXPECT_EQ(turned_to["legal"], read["legal"]);
        EXPECT_EQ(turned_to["labels"].size(), turned_to["legal"].size());
        if (!turned_to["labels"].empty()) ++compared;
      }
    } else {
      for (const auto& p : tables[1].players) EXPECT_FALSE(p->held.contains("labels"));
    }
    // The first seat that may act makes its first move, in both rooms.
    std::optional<std::size_t> acting;
    for (std::size_t s = 0; s < tables[0].players.size() && !acting; ++s) {
      if (!state_of(*tables[0].players[s])["legal"].empty()) acting = s;
    }
    const long long before = moves_of(tables[0]);
    if (!acting) {
      // Only a window's end moves the game on: both rooms' clocks run.
      run_until([&] { return moves_of(tables[0]) > before && moves_of(tables[1]) > before; });
      continue;
    }
    for (Table& table : tables) {
      const json& mine = state_of(*table.players[*acting]);
      table.room->action(table.players[*acting], ++id, mine["legal"][0], mine["version"]);
    }
    poll();
  }
  EXPECT_TRUE(turned);
  EXPECT_GT(compared, 0) << "some seat had words to compare";
  for (Table& table : tables) table.room->shutdown();
  poll();
}

// `combined` carries exactly what the default frames carry, in one frame per change: a member of
// each kind watches the same game.
TEST_P(UpdateFramesTest, CombinedCarriesTheEventsAndTheStateOfTheDefaultFrames) {
  const Game& g = *GetParam();
  open(g.info().id.c_str(), std::min(3, g.info().max_seats), RoomSettings{}, 0, 5);
  auto combined = std::make_shared<RecordingClient>();
  combined->mode = UpdateMode::kCombined;
  room_->spectate(combined, 97);
  poll();
  const std::size_t from = spectator_->messages.size();
  play(120, 3, [] {});
  poll();
  // The default spectator's messages from the moment both watched, against the combined one's
  // (its updates turned back into events and states).
  std::vector<json> plain(spectator_->messages.begin() + static_cast<long>(from),
                          spectator_->messages.end());
  std::vector<json> rebuilt;
  for (const json& m : combined->messages) {
    if (m["type"] == "event" || m["type"] == "state") {
      rebuilt.push_back(m);
    }
  }
  // The first state the combined spectator got came with its `spectating` reply, before both
  // watched the same changes.
  rebuilt.erase(rebuilt.begin());
  std::erase_if(plain, [](const json& m) { return m["type"] != "event" && m["type"] != "state"; });
  ASSERT_EQ(plain.size(), rebuilt.size());
  for (std::size_t i = 0; i < plain.size(); ++i) EXPECT_EQ(plain[i], rebuilt[i]) << i;
  for (const json& u : combined->update_frames) {
    EXPECT_TRUE(u.contains("state"));
    EXPECT_FALSE(u.contains("patch"));
  }
  EXPECT_GT(combined->update_frames.size(), 5u);
}

class UpdatesOverTheWire : public ServerTest {
 protected:
  // Starts a Tricky Tribes room of three with `p` in seat 0 and two server bots.
  void play_against_two_bots(Player& p) {
    create(p, {{"game", "tricky-tribes"}, {"seats", 3}});
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(p.request({{"type", "add_bot"}, {"room", p.room}})["type"], "ok");
    }
    ASSERT_EQ(p.request({{"type", "start"}, {"room", p.room}})["type"], "ok");
  }
};

// Over the wire: `hello` says which updates the connection wants and `welcome` confirms it; a
// connection playing against bots then hears each change as one `update`, whole at first and as
// patches after.
TEST_F(UpdatesOverTheWire, HelloChoosesTheUpdatesAndTheRoomSendsThem) {
  Player p;
  p.name = "Ida";
  p.conn = connect();
  const json refused =
      p.request({{"type", "hello"}, {"protocol", 1}, {"name", "Ida"}, {"updates", "sometimes"}});
  EXPECT_EQ(refused["code"], "bad_request");
  EXPECT_EQ(refused["message"],
            "\"updates\" must be \"state\", \"combined\", \"patch\" or \"delta\"");
  const json no_bool =
      p.request({{"type", "hello"}, {"protocol", 1}, {"name", "Ida"}, {"texts", "no"}});
  EXPECT_EQ(no_bool["code"], "bad_request");
  EXPECT_EQ(p.request({{"type", "hello"}, {"protocol", 1}, {"name", "Ida"}})["updates"], "state");
  const json w =
      p.request({{"type", "hello"}, {"protocol", 1}, {"name", "Ida"}, {"updates", "patch"}});
  ASSERT_EQ(w["type"], "welcome");
  EXPECT_EQ(w["updates"], "patch");
  ASSERT_NO_FATAL_FAILURE(play_against_two_bots(p));
  // Every change comes as an update; the state is whole only until the first patch.
  json held;
  int patches = 0;
  for (int i = 0; i < 12; ++i) {
    const json u = p.wait_type("update");
    ASSERT_EQ(u["type"], "update");
    EXPECT_TRUE(u["events"].is_array());
    if (u.contains("patch")) {
      ASSERT_FALSE(held.is_null());
      EXPECT_EQ(u["base"], held["version"]);
      held.merge_patch(u["patch"]);
      ++patches;
    } else {
      held = u["state"];
    }
    EXPECT_EQ(held["version"], u["version"]);
    EXPECT_EQ(held["seat"], 0);
    if (held["status"] == "playing" && !held["legal"].empty()) break;
  }
  EXPECT_EQ(held["status"], "playing");
  EXPECT_GT(patches, 0);
  // A sync answers with the whole state, the one the patches built.
  p.conn->send({{"type", "sync"}, {"room", p.room}});
  const json whole = p.wait_type("state");
  EXPECT_EQ(whole["version"], held["version"]);
  EXPECT_EQ(whole["view"], held["view"]);
  EXPECT_EQ(whole["legal"], held["legal"]);
}

// A program that reads no words asks for deltas without texts: its events have no `text`, its
// states no `labels`, and each delta follows the version before without naming it (its legal
// lists sent whole come as rows).
TEST_F(UpdatesOverTheWire, AProgramGetsDeltasWithoutWords) {
  Player p;
  p.name = "Otto";
  p.conn = connect();
  const json w = p.request({{"type", "hello"},
                            {"protocol", 1},
                            {"name", "Otto"},
                            {"updates", "delta"},
                            {"texts", false}});
  ASSERT_EQ(w["type"], "welcome");
  EXPECT_EQ(w["updates"], "delta");
  EXPECT_EQ(w["texts"], false);
  ASSERT_NO_FATAL_FAILURE(play_against_two_bots(p));
  json held;
  int deltas = 0;
  int events = 0;
  for (int i = 0; i < 40; ++i) {
    const json u = p.wait_type("update");
    ASSERT_EQ(u["type"], "update");
    for (const json& e : u["events"]) {
      EXPECT_FALSE(e.contains("text")) << e.dump();
      ++events;
    }
    if (u.contains("patch")) {
      ASSERT_FALSE(held.is_null());
      EXPECT_FALSE(u.contains("base"));
      EXPECT_FALSE(u["patch"].contains("version"));
      EXPECT_EQ(u["version"].get<long long>(), held["version"].get<long long>() + 1);
      json patch = u["patch"];
      if (patch.contains("legal") && patch["legal"].is_array()) {
        ASSERT_NO_FATAL_FAILURE(read_rows(patch["legal"]));
      }
      held.merge_patch(patch);
      held["version"] = u["version"];
      ++deltas;
    } else {
      held = u["state"];
    }
    EXPECT_FALSE(held.contains("labels"));
    if (held["status"] == "playing" && held["legal"].is_array() && !held["legal"].empty()) break;
  }
  EXPECT_GT(deltas, 0);
  ASSERT_EQ(held["status"], "playing");
  // The player's own move is told back, without words.
  p.conn->send({{"type", "action"}, {"room", p.room}, {"action", held["legal"][0]}});
  const json moved = p.wait_type("update");
  ASSERT_TRUE(moved.contains("patch"));
  EXPECT_EQ(moved["version"].get<long long>(), held["version"].get<long long>() + 1);
  json patch = moved["patch"];
  if (patch.contains("legal") && patch["legal"].is_array()) {
    ASSERT_NO_FATAL_FAILURE(read_rows(patch["legal"]));
  }
  held.merge_patch(patch);
  held["version"] = moved["version"];
  for (const json& e : moved["events"]) {
    EXPECT_FALSE(e.contains("text")) << e.dump();
    ++events;
  }
  EXPECT_GT(events, 0);
  p.conn->send({{"type", "sync"}, {"room", p.room}});
  const json whole = p.wait_type("state");
  EXPECT_FALSE(whole.contains("labels"));
  EXPECT_EQ(whole["version"], held["version"]);
  EXPECT_EQ(whole["view"], held["view"]);
  EXPECT_EQ(whole["legal"], held["legal"]);
}

std::vector<const Game*> all_games() {
  return Registry::builtin().games();
}

INSTANTIATE_TEST_SUITE_P(EveryGame, UpdateFramesTest, ::testing::ValuesIn(all_games()),
                         [](const ::testing::TestParamInfo<const Game*>& p) {
                           std::string name = p.param->info().id;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace campfire::server::testing
