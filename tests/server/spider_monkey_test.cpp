// Spider Monkey's real-time slap window over the protocol: slaps sent at once from several
// connections are applied in arrival order, the outcome follows that order, and a slap that
// arrives after the window closed is told so.
#include <thread>

#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

// Three seats; seat k's slot r holds deck[r*3+k]. Seat 1 holds 7♥ in slot 0 and 9♦ in slot 1,
// seat 2 holds 7♠ in slot 0. The first discard is K♣, and seat 0 draws 7♣ and discards it.
json slap_deck() {
  std::vector<std::string> top = {"2C", "7H", "7S", "3C", "9D", "4C", "5C",
                                  "5D", "5H", "6C", "6D", "6H", "KC", "7C"};
  json deck = top;
  const std::string ranks = "23456789TJQKA";
  const std::string suits = "CDHS";
  for (char s : suits) {
    for (char r : ranks) {
      const std::string code{r, s};
      if (std::find(top.begin(), top.end(), code) == top.end()) deck.push_back(code);
    }
  }
  return deck;
}

class SpiderMonkeyOverTheWire : public ServerTest {
 protected:
  // Creates the room, seats three players, starts, peeks, and has seat 0 draw and discard the
  // 7♣ so that a slap window for sevens is open.
  void open_slap_window(int window_ms) {
    for (int i = 0; i < 3; ++i) ps.push_back(player("P" + std::to_string(i)));
    create(ps[0], {{"game", "spider-monkey"},
                   {"seats", 3},
                   {"deckOrder", slap_deck()},
                   {"options", {{"slapWindowMs", window_ms}}}});
    join(ps[1], ps[0].room);
    join(ps[2], ps[0].room);
    ASSERT_EQ(ps[0].request({{"type", "start"}, {"room", ps[0].room}})["type"], "ok");
    for (auto& p : ps) {
      ASSERT_EQ(act(p, {{"move", "peek"}, {"slots", {0, 1}}})["type"], "ok");
    }
    ASSERT_EQ(act(ps[0], {{"move", "draw"}})["type"], "ok");
    ASSERT_EQ(act(ps[0], {{"move", "discard-drawn"}})["type"], "ok");
    const json st = ps[1].wait_for([](const json& m) {
      return m["type"] == "state" && !m["window"].is_null() && m["window"]["name"] == "slap";
    });
    ASSERT_FALSE(st.is_null());
    EXPECT_GT(st["window"]["remainingMs"].get<long long>(), 0);
    EXPECT_EQ(st["window"]["seats"], json({1, 2}));
  }

  json act(Player& p, const json& action) {
    return p.request({{"type", "action"}, {"room", ps[0].room}, {"action", action}});
  }

  std::vector<Player> ps;
};

TEST_F(SpiderMonkeyOverTheWire, SimultaneousSlapsAreServedInArrivalOrder) {
  open_slap_window(9000);
  if (HasFatalFailure()) return;
  // Seat 1 slaps its 9♦ (wrong: it closes the window in the default mode), seat 2 its 7♠
  // (right), both at once from two connections.
  json reply1;
  json reply2;
  std::thread t1([&] { reply1 = act(ps[1], {{"move", "slap"}, {"slot", 1}}); });
  std::thread t2([&] { reply2 = act(ps[2], {{"move", "slap"}, {"slot", 0}}); });
  t1.join();
  t2.join();
  ASSERT_EQ(reply1["type"], "ok") << reply1.dump();
  // Whatever arrived first decides: a right slap first leaves the window open for the wrong
  // one; a wrong slap first closes it, and the right one is then too late.
  std::vector<json> slaps;
  ps[0].wait_for([&](const json& m) {
    if (m["type"] == "event" && m["event"]["type"] == "slap") slaps.push_back(m["event"]);
    return m["type"] == "event" && m["event"]["type"] == "slap-window-closed";
  });
  if (reply2["type"] == "ok") {
    ASSERT_EQ(slaps.size(), 2u);
    EXPECT_LT(reply2["version"], reply1["version"]) << "seat 2's slap arrived first";
    EXPECT_EQ(slaps[0]["seat"], 2);
    EXPECT_EQ(slaps[0]["card"], "7S");
    EXPECT_EQ(slaps[0]["correct"], true);
    EXPECT_EQ(slaps[1]["seat"], 1);
    EXPECT_EQ(slaps[1]["correct"], false);
  } else {
    EXPECT_EQ(reply2["code"], "window_closed") << reply2.dump();
    ASSERT_EQ(slaps.size(), 1u);
    EXPECT_EQ(slaps[0]["seat"], 1);
    EXPECT_EQ(slaps[0]["card"], "9D");
    EXPECT_EQ(slaps[0]["correct"], false);
    EXPECT_EQ(slaps[0]["penaltySlots"].size(), 2u);
  }
}

TEST_F(SpiderMonkeyOverTheWire, TheServerClosesTheWindowAndLateSlapsAreTold) {
  open_slap_window(1000);
  if (HasFatalFailure()) return;
  // Nobody slaps: the server's own timer closes the window after a second.
  const json closed = ps[2].wait_for(
      [](const json& m) {
        return m["type"] == "event" && m["event"]["type"] == "slap-window-closed";
      },
      5s);
  ASSERT_FALSE(closed.is_null());
  const json late = act(ps[2], {{"move", "slap"}, {"slot", 0}});
  EXPECT_EQ(late["type"], "error");
  EXPECT_EQ(late["code"], "window_closed");
  EXPECT_NE(late["message"].get<std::string>().find("slap"), std::string::npos);
}

TEST_F(SpiderMonkeyOverTheWire, TwoRightSlapsBothCount) {
  open_slap_window(9000);
  if (HasFatalFailure()) return;
  json reply1;
  json reply2;
  std::thread t1([&] { reply1 = act(ps[1], {{"move", "slap"}, {"slot", 0}}); });
  std::thread t2([&] { reply2 = act(ps[2], {{"move", "slap"}, {"slot", 0}}); });
  t1.join();
  t2.join();
  ASSERT_EQ(reply1["type"], "ok") << reply1.dump();
  ASSERT_EQ(reply2["type"], "ok") << reply2.dump();
  std::vector<json> slaps;
  ps[0].wait_for([&](const json& m) {
    if (m["type"] == "event" && m["event"]["type"] == "slap") slaps.push_back(m["event"]);
    return slaps.size() == 2;
  });
  ASSERT_EQ(slaps.size(), 2u);
  // The pile takes them in the order they were applied, which the versions tell.
  const int first = reply1["version"] < reply2["version"] ? 1 : 2;
  EXPECT_EQ(slaps[0]["seat"], first);
  EXPECT_EQ(slaps[1]["seat"], 3 - first);
  EXPECT_TRUE(slaps[0]["correct"].get<bool>() && slaps[1]["correct"].get<bool>());
  const json st = ps[0].wait_for([&](const json& m) {
    return m["type"] == "state" && m["version"] == std::max(reply1["version"], reply2["version"]);
  });
  const json& pile = st["view"]["discard"];
  ASSERT_TRUE(pile.is_array()) << st["view"].dump();
  EXPECT_EQ(pile[pile.size() - 2], first == 1 ? "7H" : "7S");
  EXPECT_EQ(pile[pile.size() - 1], first == 1 ? "7S" : "7H");
}

// PROTOCOL.md: the state's `window` is the open window's clock; a view may describe the same
// window in the game's terms (here its full length, `millis`) under the same `id` and `name`.
TEST_F(SpiderMonkeyOverTheWire, TheViewsWindowIsTheStatesWindowInTheGamesTerms) {
  open_slap_window(9000);
  if (HasFatalFailure()) return;
  const json st = ps[2].wait_for([](const json& m) {
    return m["type"] == "state" && !m["window"].is_null() && m["window"]["name"] == "slap";
  });
  const json& clock = st["window"];
  const json& described = st["view"]["window"];
  ASSERT_TRUE(described.is_object()) << st["view"].dump();
  EXPECT_EQ(described["id"], clock["id"]);
  EXPECT_EQ(described["name"], clock["name"]);
  EXPECT_EQ(described["millis"], 9000);
  EXPECT_LE(clock["remainingMs"].get<long long>(), 9000);
  EXPECT_TRUE(clock["endsAt"].is_number_integer()) << clock.dump();
}

// Server bots slap as people do: only a card they remember matching, after a reaction time a
// person can beat. Seat 2 is a basic bot that peeked its 7♠; seat 1 is a person holding 7♥ who
// slaps the moment the window opens, and is first on the pile.
TEST_F(SpiderMonkeyOverTheWire, APersonCanWinASlapRaceAgainstABasicBot) {
  for (int i = 0; i < 2; ++i) ps.push_back(player("P" + std::to_string(i)));
  create(ps[0], {{"game", "spider-monkey"},
                 {"seats", 3},
                 {"deckOrder", slap_deck()},
                 {"options", {{"slapWindowMs", 9000}}}});
  join(ps[1], ps[0].room);
  ASSERT_EQ(
      ps[0].request({{"type", "add_bot"}, {"room", ps[0].room}, {"strategy", "basic"}})["type"],
      "ok");
  ASSERT_EQ(ps[0].request({{"type", "start"}, {"room", ps[0].room}})["type"], "ok");
  for (int i = 0; i < 2; ++i) {
    ASSERT_EQ(act(ps[i], {{"move", "peek"}, {"slots", {0, 1}}})["type"], "ok");
  }
  // The turn begins once the bot has peeked too.
  const json turn = ps[0].wait_for([](const json& m) {
    return m["type"] == "state" && m["view"].is_object() && m["view"]["phase"] == "draw" &&
           !m["legal"].empty();
  });
  ASSERT_FALSE(turn.is_null());
  ASSERT_EQ(act(ps[0], {{"move", "draw"}})["type"], "ok");
  ASSERT_EQ(act(ps[0], {{"move", "discard-drawn"}})["type"], "ok");
  ASSERT_FALSE(ps[1]
                   .wait_for([](const json& m) {
                     return m["type"] == "state" && !m["window"].is_null() &&
                            m["window"]["name"] == "slap";
                   })
                   .is_null());
  const json mine = act(ps[1], {{"move", "slap"}, {"slot", 0}});
  ASSERT_EQ(mine["type"], "ok") << mine.dump();
  // The bot slaps its remembered seven as well, after the person; never its unknown cards.
  std::vector<json> slaps;
  ps[0].wait_for(
      [&](const json& m) {
        if (m["type"] == "event" && m["event"]["type"] == "slap") slaps.push_back(m["event"]);
        return slaps.size() == 2;
      },
      12s);
  ASSERT_EQ(slaps.size(), 2u);
  EXPECT_EQ(slaps[0]["seat"], 1);
  EXPECT_EQ(slaps[0]["card"], "7H");
  EXPECT_EQ(slaps[1]["seat"], 2);
  EXPECT_EQ(slaps[1]["card"], "7S");
  EXPECT_EQ(slaps[1]["correct"], true);
}

}  // namespace
}  // namespace campfire::server::testing
