// What a room hands its clients, without the network: state frames are assembled from parts
// serialised once per change, so every frame must still be exactly the text nlohmann gives for
// the whole message, and an event goes out as one shared frame to all of its recipients.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <map>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/room.hpp"

namespace campfire::server::testing {
namespace {

struct RecordingClient final : Client {
  void send(Frame frame) override { frames.push_back(std::move(frame)); }
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}
  std::vector<Frame> frames;
};

// The last state message among `frames` (a finished game's is followed by game_over).
json last_state(const std::vector<Frame>& frames) {
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    json m = json::parse(**it);
    if (m["type"] == "state") return m;
  }
  return nullptr;
}

void expect_canonical(const Frame& f) {
  const json parsed = json::parse(*f);
  ASSERT_EQ(parsed.dump(), *f) << "a frame differs from the dump of its own message";
}

TEST(RoomFrames, FramesAreCanonicalAndEventsAreSharedByTheirRecipients) {
  spdlog::set_level(spdlog::level::warn);
  for (const char* id : {"pinocchio", "fib-fibonacci", "tricky-tribes"}) {
    SCOPED_TRACE(id);
    const Game& g = *Registry::builtin().find(id);
    const int n = g.info().min_seats == 2 && g.info().max_seats == 2 ? 2 : 3;
    Match mirror = std::move(*Match::create(g, n, json::object(), 77));
    boost::asio::io_context ioc;
    Config config;
    auto journal = make_journal("none", "", false);
    Metrics metrics;
    auto room = std::make_shared<Room>(ioc, config, *journal, metrics, "FRAMES", mirror, false,
                                       RoomSettings{});
    std::vector<std::shared_ptr<RecordingClient>> seats;
    for (int s = 0; s < n; ++s) {
      seats.push_back(std::make_shared<RecordingClient>());
      room->join(seats.back(), "P" + std::to_string(s), s + 1, s);
    }
    auto watcher = std::make_shared<RecordingClient>();
    room->spectate(watcher, 100);
    room->start(seats.front(), 101);
    ioc.poll();
    ioc.restart();

    Rng rng(5);
    Events events;
    int actions = 0;
    while (!mirror.state().over() && actions < g.info().max_actions) {
      const SeatSet acting = mirror.state().to_act();
      if (acting.empty()) break;  // a timed window the room's clock would close
      const Seat s = acting.first();
      const auto legal = mirror.state().legal_actions(s);
      const Action a = legal[rng.below(legal.size())];
      for (auto& c : seats) c->frames.clear();
      watcher->frames.clear();
      room->action(seats[static_cast<std::size_t>(s)], 1000 + actions, g.action_to_json(a),
                   std::nullopt);
      ioc.poll();
      ioc.restart();
      events.clear();
      ASSERT_FALSE(mirror.apply(s, a, events).has_value());
      ++actions;

      // Which recipients got each event frame, by the frame's identity.
      std::map<const std::string*, int> receivers;
      for (int seat = 0; seat < n; ++seat) {
        const auto& got = seats[static_cast<std::size_t>(seat)]->frames;
        ASSERT_FALSE(got.empty());
        for (const Frame& f : got) {
          expect_canonical(f);
          const json m = json::parse(*f);
          if (m["type"] == "event") ++receivers[f.get()];
        }
        const json state = last_state(got);
        ASSERT_FALSE(state.is_null());
        EXPECT_EQ(state["seat"], seat);
        EXPECT_EQ(state["view"], mirror.state().view(seat));
      }
      for (const Frame& f : watcher->frames) {
        expect_canonical(f);
        if (json::parse(*f)["type"] == "event") ++receivers[f.get()];
      }
      ASSERT_FALSE(watcher->frames.empty());
      EXPECT_EQ(last_state(watcher->frames)["view"], mirror.state().view(kSpectator));
      // One frame per event, each received by exactly its audience.
      ASSERT_EQ(receivers.size(), events.list().size());
      std::vector<int> expected;
      for (const Event& e : events.list()) {
        int count = e.to.everyone ? 1 : 0;  // the spectator
        for (int seat = 0; seat < n; ++seat) count += e.to.includes(seat) ? 1 : 0;
        expected.push_back(count);
      }
      std::vector<int> counted;
      for (const auto& [frame, count] : receivers) counted.push_back(count);
      std::sort(expected.begin(), expected.end());
      std::sort(counted.begin(), counted.end());
      EXPECT_EQ(counted, expected);
    }
    EXPECT_GT(actions, 10);
    room->shutdown();
    ioc.poll();
  }
}

// The players member is written by the room itself: it must read as players() builds it, for a
// player, a server bot and a player whose connection is gone, with a name that needs escaping.
TEST(RoomFrames, PlayersAreWrittenAsTheirDump) {
  spdlog::set_level(spdlog::level::warn);
  const Game& g = *Registry::builtin().find("pinocchio");
  boost::asio::io_context ioc;
  Config config;
  auto journal = make_journal("none", "", false);
  Metrics metrics;
  auto room = std::make_shared<Room>(ioc, config, *journal, metrics, "NAMES",
                                     std::move(*Match::create(g, 3, json::object(), 3)), false,
                                     RoomSettings{});
  auto ann = std::make_shared<RecordingClient>();
  auto bob = std::make_shared<RecordingClient>();
  room->join(ann, "Ann \"the\" \xc3\x9c", 1, 0);
  room->add_bot(ann, 2, 1, "random");
  room->join(bob, "Bob", 3, 2);
  ioc.poll();
  ioc.restart();
  bob.reset();  // Bob's connection is gone before the room hears of it
  room->start(ann, 4);
  ioc.poll();
  ioc.restart();
  const json state = last_state(ann->frames);
  ASSERT_FALSE(state.is_null());
  for (const Frame& f : ann->frames) expect_canonical(f);
  const json expected = json::array(
      {{{"away", false},
        {"bot", false},
        {"connected", true},
        {"name", "Ann \"the\" \xc3\x9c"},
        {"seat", 0}},
       {{"away", false},
        {"bot", true},
        {"connected", true},
        {"name", state["players"][1]["name"]},
        {"seat", 1},
        {"strategy", "random"}},
       {{"away", false}, {"bot", false}, {"connected", false}, {"name", "Bob"}, {"seat", 2}}});
  EXPECT_EQ(state["players"], expected);
  room->shutdown();
  ioc.poll();
}

}  // namespace
}  // namespace campfire::server::testing
