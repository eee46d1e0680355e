// What a page gets back after a reload (`history`) and what the replay viewer reads
// (GET /api/replays/CODE/steps), over the protocol: each holds only what its reader may see.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server_fixture.hpp"

namespace campfire::server::testing {
namespace {

// Every event text `p` has received, read up to the state of `version` (or a later one).
std::vector<std::string> events_until(Player& p, long long version) {
  std::vector<std::string> out;
  for (;;) {
    auto m = p.conn->receive(5s);
    if (!m) {
      ADD_FAILURE() << p.name << ": no state of version " << version;
      return out;
    }
    if ((*m)["type"] == "event") out.push_back((*m)["event"].value("text", ""));
    if ((*m)["type"] == "state" && (*m)["version"].get<long long>() >= version) return out;
  }
}

std::vector<std::string> texts(const json& events) {
  std::vector<std::string> out;
  for (const json& e : events) out.push_back(e.value("text", ""));
  return out;
}

bool has_prefix(const std::vector<std::string>& list, const std::string& prefix) {
  for (const std::string& t : list) {
    if (t.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// A two-seat Pinocchio with a spectator, played through the protocol; `mirror` is the same game
// played alongside, and `views` every seat's view after every step (step 0: the deal).
class HistoryTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    a = player("Andrea");
    b = player("Bella");
    w = player("Walt");
    create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 23}});
    join(b, a.room);
    const json s = w.request({{"type", "spectate"}, {"room", a.room}});
    ASSERT_EQ(s["type"], "spectating") << s.dump();
    w.room = a.room;
    mirror.emplace(*Match::create(*Registry::builtin().find("pinocchio"), 2, json::object(), 23));
  }

  void start() {
    ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
    record_views();
  }

  void record_views() {
    views.push_back({mirror->state().view(0), mirror->state().view(1)});
  }

  // The first legal move of whoever must act, `n` times or to the end, each by its own seat.
  void play(int n) {
    Player* seats[2] = {&a, &b};
    for (int i = 0; i < n && !mirror->state().over(); ++i) {
      const Seat s = mirror->state().to_act().first();
      const Action action = mirror->state().legal_actions(s).front();
      const json r = seats[s]->request({{"type", "action"},
                                        {"room", a.room},
                                        {"action", mirror->game().action_to_json(action)}});
      ASSERT_EQ(r["type"], "ok") << r.dump();
      Events ev;
      mirror->apply(s, action, ev);
      record_views();
    }
  }

  long long version() { return a.request({{"type", "sync"}, {"room", a.room}})["version"]; }

  Player a;
  Player b;
  Player w;
  std::optional<Match> mirror;
  std::vector<std::vector<json>> views;
};

TEST_F(HistoryTest, EachMemberGetsBackTheNewestEventsItWasSentAndNoOthers) {
  const json before = a.request({{"type", "history"}, {"room", a.room}});
  EXPECT_EQ(before["type"], "ok") << before.dump();
  EXPECT_TRUE(before["events"].empty()) << "nothing has happened before the game starts";

  start();
  play(80);
  const long long v = version();
  for (Player* p : {&a, &b, &w}) {
    SCOPED_TRACE(p->name);
    const std::vector<std::string> live = events_until(*p, v);
    const json h = p->request({{"type", "history"}, {"room", a.room}});
    ASSERT_EQ(h["type"], "ok") << h.dump();
    EXPECT_EQ(h["version"], v);
    const std::vector<std::string> back = texts(h["events"]);
    // At most the newest 50, and exactly the tail of what this member was sent, in order.
    ASSERT_GT(live.size(), 50u) << "the game has gone on long enough to cut the history";
    ASSERT_EQ(back.size(), 50u);
    EXPECT_EQ(back, std::vector<std::string>(live.end() - 50, live.end()));
    for (const json& e : h["events"]) EXPECT_FALSE(e.contains("to")) << e.dump();
    for (const std::string& t : back) EXPECT_EQ(t.find("{seat:"), std::string::npos) << t;
    if (p == &w) {
      EXPECT_FALSE(has_prefix(back, "your top card")) << "a spectator reads nobody's cards";
      EXPECT_FALSE(has_prefix(back, "you played"));
    } else {
      EXPECT_TRUE(has_prefix(back, "your top card")) << "a seat's own private events come back";
    }
  }
  // Andrea's private events are not Bella's: their histories differ where their cards do.
  EXPECT_NE(texts(a.request({{"type", "history"}, {"room", a.room}})["events"]),
            texts(b.request({{"type", "history"}, {"room", a.room}})["events"]));

  Player c = player("Cleo");
  const json refused = c.request({{"type", "history"}, {"room", a.room}});
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "not_in_room") << refused.dump();
}

TEST_F(HistoryTest, AReplayHasStepsOnlyOnceTheGameIsOver) {
  start();
  play(6);
  // In test mode the log itself may be downloaded mid-game, but never the hands step by step.
  EXPECT_EQ(http_get(port_, "/api/replays/" + a.room).first, 200);
  auto [status, body] = http_get(port_, "/api/replays/" + a.room + "/steps");
  EXPECT_EQ(status, 409) << body;
  EXPECT_EQ(json::parse(body)["error"], "still_playing");

  play(100000);
  ASSERT_TRUE(mirror->state().over());
  a.wait_type("game_over");
  const int total = static_cast<int>(views.size());
  std::tie(status, body) = http_get(port_, "/api/replays/" + a.room + "/steps");
  ASSERT_EQ(status, 200) << body;
  json first = json::parse(body);
  EXPECT_EQ(first["game"], "pinocchio");
  EXPECT_EQ(first["total"], total);
  EXPECT_EQ(first["from"], 0);
  EXPECT_EQ(first["steps"].size(), 40u) << "40 steps unless asked otherwise";
  EXPECT_EQ(first["players"][0]["name"], "Andrea");
  EXPECT_EQ(first["result"], mirror->state().result().to_json());

  // Paged through, every step has every seat's view as that seat saw it, and the deal first.
  int seen = 0;
  for (int from = 0; from < total; from += 100) {
    std::tie(status, body) = http_get(
        port_, "/api/replays/" + a.room + "/steps?from=" + std::to_string(from) + "&count=100");
    ASSERT_EQ(status, 200) << body;
    const json page = json::parse(body);
    for (const json& step : page["steps"]) {
      const int k = step["step"];
      ASSERT_EQ(k, seen);
      EXPECT_EQ(step["views"][0], views[static_cast<std::size_t>(k)][0]) << "step " << k;
      EXPECT_EQ(step["views"][1], views[static_cast<std::size_t>(k)][1]) << "step " << k;
      if (k == 0) {
        EXPECT_TRUE(step["seat"].is_null());
      }
      for (const json& e : step["events"]) {
        // A seat's own card is told only to that seat.
        if (e["type"] == "played" || e["type"] == "drew") {
          ASSERT_TRUE(e["to"].is_array()) << e.dump();
          EXPECT_EQ(e["to"].size(), 1u) << e.dump();
        }
      }
      ++seen;
    }
  }
  EXPECT_EQ(seen, total);

  for (const std::string query : {"?from=-1", "?count=101", "?count=abc", "?from=", "?count=0x3"}) {
    std::tie(status, body) = http_get(port_, "/api/replays/" + a.room + "/steps" + query);
    EXPECT_EQ(status, 400) << query << " " << body;
    EXPECT_EQ(json::parse(body)["error"], "bad_request");
  }
  std::tie(status, body) = http_get(port_, "/api/replays/QQQQQQ/steps");
  EXPECT_EQ(status, 404) << body;
  std::tie(status, body) = http_get(port_, "/api/replays/not-a-code/steps");
  EXPECT_EQ(status, 404) << body;
  // Past the end: no steps, and the total says where the game ends.
  std::tie(status, body) =
      http_get(port_, "/api/replays/" + a.room + "/steps?from=" + std::to_string(total));
  ASSERT_EQ(status, 200) << body;
  EXPECT_TRUE(json::parse(body)["steps"].empty());
}

}  // namespace
}  // namespace campfire::server::testing
