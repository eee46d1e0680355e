// The server over real sockets: whole games checked against the engine, every documented
// refusal, reconnects, spectators, slow and hostile clients, and the HTTP endpoints.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <thread>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/schema.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

json legal_json(const Match& m, Seat seat) {
  json out = json::array();
  for (const Action& a : m.state().legal_actions(seat)) out.push_back(m.game().action_to_json(a));
  return out;
}

json without_text(json e) {
  e.erase("text");
  return e;
}

// Everything that arrives for one change: the events (in order) and the state that closes it.
struct Delivery {
  std::vector<json> events;
  json state;
};

Delivery read_until_version(Player& p, long long version) {
  Delivery d;
  d.state = p.wait_for([&](const json& m) {
    if (m.value("type", "") == "event" && m["version"] == version) d.events.push_back(m["event"]);
    return m.value("type", "") == "state" && m["version"] == version;
  });
  return d;
}

// The room's current state as `p` sees it, fetched with sync.
json current_state(Player& p) {
  const json ok = p.request({{"type", "sync"}, {"room", p.room}});
  EXPECT_EQ(ok.value("type", ""), "ok") << ok.dump();
  const json version = ok.value("version", json());
  return p.wait_for([&](const json& m) { return m["type"] == "state" && m["version"] == version; });
}

// --- Whole games -----------------------------------------------------------------------------

struct GameSeats {
  std::string game;
  int seats;
};

void PrintTo(const GameSeats& g, std::ostream* os) { *os << g.game << " with " << g.seats; }

std::vector<GameSeats> every_game_and_seat_count() {
  std::vector<GameSeats> out;
  for (const Game* g : Registry::builtin().games()) {
    for (int n = g->info().min_seats; n <= g->info().max_seats; ++n) out.push_back({g->info().id, n});
  }
  return out;
}

class FullGame : public ServerTest, public ::testing::WithParamInterface<GameSeats> {
 protected:
  void SetUp() override {
    Config c = test_config();
    c.window_scale = 0.05;  // timed windows run for real, twenty times faster
    start_server(c);
  }
};

// Every seat's wire view, legal list and events equal what the engine gives that seat, at every
// step of a whole game, and a spectator's equal the public ones; so no seat ever receives a card
// it cannot see. Timed windows are closed by the server's own timers.
TEST_P(FullGame, EverySeatReceivesExactlyItsOwnView) {
  const std::string game_id = GetParam().game;
  const int n = GetParam().seats;
  const std::uint64_t seed = 4242 + static_cast<std::uint64_t>(n);
  std::vector<Player> ps;
  for (int i = 0; i < n; ++i) ps.push_back(player("Player" + std::to_string(i)));
  create(ps[0], {{"game", game_id}, {"seats", n}, {"seed", seed}});
  for (int i = 1; i < n; ++i) join(ps[static_cast<std::size_t>(i)], ps[0].room);
  for (int i = 0; i < n; ++i) ASSERT_EQ(ps[static_cast<std::size_t>(i)].seat, i);
  Player watcher = player("Watcher");
  ASSERT_EQ(watcher.request({{"type", "spectate"}, {"room", ps[0].room}})["type"], "spectating");
  EXPECT_EQ(ps[0].request({{"type", "start"}, {"room", ps[0].room}})["type"], "ok");

  auto mirror = Match::create(*Registry::builtin().find(game_id), n, json::object(), seed);
  ASSERT_TRUE(mirror.ok());
  long long version = -1;
  auto check_views = [&](long long want, const std::vector<Event>* events) {
    auto started = [](const json& m) {
      return m.value("type", "") == "state" && m["status"] != "waiting";
    };
    for (auto& p : ps) {
      Delivery d = want < 0 ? Delivery{{}, p.wait_for(started)} : read_until_version(p, want);
      ASSERT_FALSE(d.state.is_null()) << "seat " << p.seat << " got no state";
      version = d.state["version"].get<long long>();
      ASSERT_EQ(d.state["view"], mirror->state().view(p.seat)) << "seat " << p.seat;
      ASSERT_EQ(d.state["legal"], legal_json(*mirror, p.seat)) << "seat " << p.seat;
      ASSERT_EQ(d.state["legal"].size(), d.state["labels"].size());
      ASSERT_EQ(d.state["window"].is_null(), !mirror->state().window().has_value());
      if (events != nullptr) {
        std::vector<json> expected;
        for (const Event& e : *events) {
          if (e.to.includes(p.seat)) expected.push_back(without_text(e.body));
        }
        ASSERT_EQ(d.events.size(), expected.size()) << "seat " << p.seat;
        for (std::size_t i = 0; i < expected.size(); ++i) {
          EXPECT_EQ(without_text(d.events[i]), expected[i]);
          EXPECT_EQ(d.events[i]["text"].get<std::string>().find("{seat:"), std::string::npos)
              << "seat placeholders must be replaced by names";
        }
      }
    }
    Delivery w = want < 0 ? Delivery{{}, watcher.wait_for(started)}
                          : read_until_version(watcher, want);
    ASSERT_EQ(w.state["view"], mirror->state().view(kSpectator));
    ASSERT_TRUE(w.state["legal"].empty());
    for (const json& e : w.events) {
      bool is_public = false;
      for (const Event& x : *events) {
        is_public |= x.to.everyone && without_text(x.body) == without_text(e);
      }
      EXPECT_TRUE(is_public) << "a spectator received a private event: " << e.dump();
    }
  };
  check_views(-1, nullptr);
  if (HasFatalFailure()) return;

  Rng rng(seed);
  int actions = 0;
  while (!mirror->state().over()) {
    ASSERT_LT(actions, mirror->game().info().max_actions);
    const auto window = mirror->state().window();
    const SeatSet acting = mirror->state().to_act();
    bool wait_for_timer = window && (acting.empty() || rng.below(4) == 0);
    if (!wait_for_timer) {
      std::vector<Seat> seats;
      acting.for_each([&](Seat x) { seats.push_back(x); });
      const Seat s = seats[rng.below(seats.size())];
      const auto legal = mirror->state().legal_actions(s);
      const Action a = legal[rng.below(legal.size())];
      // The version guard makes a move that loses the race with a window's timer land nowhere.
      const json reply = ps[static_cast<std::size_t>(s)].request(
          {{"type", "action"},
           {"room", ps[0].room},
           {"action", mirror->game().action_to_json(a)},
           {"version", version}});
      if (reply.value("type", "") == "ok") {
        Events events;
        ASSERT_FALSE(mirror->apply(s, a, events).has_value());
        check_views(reply["version"].get<long long>(), &events.list());
      } else {
        ASSERT_TRUE(window.has_value()) << reply.dump();
        wait_for_timer = true;
      }
    }
    if (wait_for_timer) {
      Events events;
      ASSERT_FALSE(mirror->apply(kSystem, Action::timeout(window->id), events).has_value());
      check_views(version + 1, &events.list());
    }
    if (HasFatalFailure()) return;
    ++actions;
  }
  const json expected = mirror->state().result().to_json();
  for (auto& p : ps) EXPECT_EQ(p.wait_type("game_over")["result"], expected);
  EXPECT_EQ(watcher.wait_type("game_over")["result"], expected);
}

INSTANTIATE_TEST_SUITE_P(EveryGame, FullGame, ::testing::ValuesIn(every_game_and_seat_count()),
                         [](const auto& p) {
                           std::string name = p.param.game + "_" + std::to_string(p.param.seats);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// One player and server-side bots of every strategy play a whole game to the end.
TEST_F(ServerTest, BotsFillSeatsAndFinishTheGame) {
  Player p = player("Andrea");
  create(p, {{"game", "pinocchio"}, {"seats", 4}});
  const json unknown =
      p.request({{"type", "add_bot"}, {"room", p.room}, {"strategy", "clairvoyant"}});
  EXPECT_EQ(unknown["code"], "bad_request");
  EXPECT_NE(unknown["message"].get<std::string>().find("clairvoyant"), std::string::npos);
  EXPECT_EQ(p.request({{"type", "add_bot"}, {"room", p.room}})["type"], "ok");
  for (const char* strategy : {"basic", "expert"}) {
    EXPECT_EQ(p.request({{"type", "add_bot"}, {"room", p.room}, {"strategy", strategy}})["type"],
              "ok")
        << strategy;
  }
  EXPECT_EQ(p.request({{"type", "add_bot"}, {"room", p.room}})["code"], "room_full");
  EXPECT_EQ(p.request({{"type", "start"}, {"room", p.room}})["type"], "ok");
  Rng rng(1);
  for (;;) {
    const json m = p.wait_for([](const json& x) {
      return x["type"] == "game_over" || (x["type"] == "state" && !x["legal"].empty());
    });
    if (m.is_null() || m["type"] == "game_over") {
      ASSERT_FALSE(m.is_null());
      EXPECT_EQ(m["result"]["places"].size(), 4u);
      break;
    }
    const json& legal = m["legal"];
    const json reply = p.request({{"type", "action"},
                                  {"room", p.room},
                                  {"action", legal[rng.below(legal.size())]},
                                  {"version", m["version"]}});
    ASSERT_EQ(reply["type"], "ok") << reply.dump();
  }
}

// --- Refusals --------------------------------------------------------------------------------

// Every bad request gets its documented code, echoes the id, and leaves the room as it was.
TEST_F(ServerTest, BadInputGetsItsErrorAndChangesNothing) {
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 9}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  const json state_before = current_state(a);
  const json b_state_before = current_state(b);
  ASSERT_EQ(state_before["status"], "playing");

  auto expect_code = [](Player& p, json req, const std::string& code) {
    req["id"] = "req-" + code;
    p.conn->send(req);
    const json e = p.wait_for([&](const json& m) { return m.value("id", json()) == req["id"]; });
    EXPECT_EQ(e.value("type", ""), "error") << req.dump() << " -> " << e.dump();
    EXPECT_EQ(e.value("code", ""), code) << req.dump() << " -> " << e.dump();
    EXPECT_FALSE(e.value("message", "").empty());
  };
  const std::string room = a.room;
  const json announce = {{"move", "announce"}, {"colour", "red"}, {"clothing", "hat"}};
  expect_code(a, {{"type", "dance"}}, "bad_request");
  expect_code(a, {{"type", "hello"}, {"protocol", 2}, {"name", "A"}}, "bad_protocol");
  expect_code(a, {{"type", "hello"}, {"protocol", 1}, {"name", " "}}, "bad_name");
  expect_code(a, {{"type", "hello"}, {"protocol", 1}, {"name", std::string(30, 'x')}}, "bad_name");
  expect_code(a, {{"type", "create_room"}, {"seats", 2}}, "bad_request");
  expect_code(a, {{"type", "create_room"}, {"game", "chess"}, {"seats", 2}}, "unknown_game");
  expect_code(a, {{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 9}}, "bad_seats");
  expect_code(a, {{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}, {"options", {{"x", 1}}}},
              "bad_options");
  expect_code(a, {{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}, {"deckOrder", {"red-hat"}}},
              "bad_deck_order");
  expect_code(a, {{"type", "action"}, {"action", announce}}, "bad_request");
  expect_code(a, {{"type", "action"}, {"room", "ZZZZZZ"}, {"action", announce}}, "not_in_room");
  expect_code(a, {{"type", "action"}, {"room", room}}, "bad_request");
  expect_code(a, {{"type", "action"}, {"room", room}, {"action", {{"move", "announce"}}}}, "bad_action");
  expect_code(a, {{"type", "action"}, {"room", room}, {"action", {{"move", "fly"}}}}, "bad_action");
  expect_code(a, {{"type", "action"}, {"room", room}, {"action", {{"move", "challenge"}}}},
              "illegal_action");
  expect_code(a, {{"type", "action"}, {"room", room}, {"action", {{"move", "timeout"}, {"window", 1}}}},
              "not_allowed");
  expect_code(a, {{"type", "action"}, {"room", room}, {"action", announce}, {"version", 1}}, "stale");
  expect_code(b, {{"type", "action"}, {"room", room}, {"action", announce}}, "not_your_turn");
  expect_code(a, {{"type", "join"}, {"room", "ZZZZZZ"}}, "no_such_room");
  expect_code(a, {{"type", "start"}, {"room", room}}, "already_started");
  expect_code(a, {{"type", "add_bot"}, {"room", room}}, "already_started");
  expect_code(a, {{"type", "chat"}, {"room", room}, {"text", "   "}}, "bad_chat");

  Player c = player("Claudio");
  expect_code(c, {{"type", "join"}, {"room", room}}, "already_started");
  expect_code(c, {{"type", "rejoin"}, {"room", room}, {"token", "0123456789abcdef"}}, "bad_token");
  expect_code(c, {{"type", "action"}, {"room", room}, {"action", announce}}, "not_in_room");
  ASSERT_EQ(c.request({{"type", "spectate"}, {"room", room}})["type"], "spectating");
  expect_code(c, {{"type", "action"}, {"room", room}, {"action", announce}}, "not_seated");
  expect_code(c, {{"type", "start"}, {"room", room}}, "not_seated");

  auto fresh = connect();
  fresh->send({{"type", "list_games"}, {"id", 1}});
  auto e = fresh->receive();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["code"], "hello_first");
  fresh->send_text("this is not json");
  e = fresh->receive();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["code"], "bad_json");
  EXPECT_FALSE(e->contains("id"));
  fresh->send_binary("{\"type\":\"ping\"}");
  e = fresh->receive();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["code"], "bad_json") << "binary frames are refused";

  // Nothing changed: same version, same views.
  json after = current_state(a);
  EXPECT_EQ(after["version"], state_before["version"]);
  EXPECT_EQ(after["view"], state_before["view"]);
  EXPECT_EQ(after["legal"], state_before["legal"]);
  after = current_state(b);
  EXPECT_EQ(after["view"], b_state_before["view"]);
}

TEST_F(ServerTest, SeedAndDeckOrderNeedTestMode) {
  Config c = test_config();
  c.test_mode = false;
  start_server(c);
  Player p = player("Andrea");
  const json r =
      p.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2}, {"seed", 1}});
  EXPECT_EQ(r["code"], "test_mode_only");
  EXPECT_EQ(p.request({{"type", "list_rooms"}})["rooms"].size(), 0u) << "no room was made";
}

// --- Reconnecting ----------------------------------------------------------------------------

TEST_F(ServerTest, ReconnectResumesTheSeatWithAFullState) {
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 3}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  auto mirror = Match::create(*Registry::builtin().find("pinocchio"), 2, json::object(), 3);
  // A few moves, then Bella's connection drops (a browser reload).
  for (int i = 0; i < 5; ++i) {
    const Seat s = mirror->state().to_act().first();
    const Action act = mirror->state().legal_actions(s).front();
    Player& p = s == 0 ? a : b;
    ASSERT_EQ(p.request({{"type", "action"}, {"room", a.room},
                         {"action", mirror->game().action_to_json(act)}})["type"],
              "ok");
    Events ev;
    mirror->apply(s, act, ev);
  }
  b.conn->close();
  const json seen = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["players"][1].is_object() &&
           m["players"][1]["connected"] == false;
  });
  EXPECT_FALSE(seen.is_null()) << "the others see Bella as disconnected";

  Player b2 = player("Bella");
  const json j = b2.request({{"type", "rejoin"}, {"room", a.room}, {"token", b.token}});
  ASSERT_EQ(j["type"], "joined");
  EXPECT_EQ(j["seat"], 1);
  const json st = b2.wait_for([](const json& m) { return m["type"] == "state"; });
  EXPECT_EQ(st["view"], mirror->state().view(1));
  EXPECT_EQ(st["legal"], legal_json(*mirror, 1));
  EXPECT_EQ(st["status"], "playing");

  // A second rejoin elsewhere takes the seat over; the first connection is told.
  Player b3 = player("Bella");
  ASSERT_EQ(b3.request({{"type", "rejoin"}, {"room", a.room}, {"token", b.token}})["type"],
            "joined");
  EXPECT_EQ(b2.wait_for([](const json& m) { return m["type"] == "error"; })["code"], "replaced");
}

TEST_F(ServerTest, LeavingBeforeTheStartFreesTheSeat) {
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  join(b, a.room);
  EXPECT_EQ(b.request({{"type", "leave"}, {"room", a.room}})["type"], "left");
  EXPECT_EQ(a.request({{"type", "start"}, {"room", a.room}})["code"], "not_ready");
  Player c = player("Claudio");
  join(c, a.room);
  EXPECT_EQ(c.seat, 1);
  EXPECT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
}

// --- Lobby and chat --------------------------------------------------------------------------

TEST_F(ServerTest, ListsGamesAndOnlyListedRooms) {
  Player a = player("Andrea");
  const json games = a.request({{"type", "list_games"}});
  ASSERT_EQ(games["type"], "games");
  ASSERT_GE(games["games"].size(), 1u);
  EXPECT_EQ(games["games"][0]["id"], "pinocchio");
  EXPECT_EQ(games["games"][0]["options"][0]["key"], "startSeat");
  EXPECT_EQ(games["games"][0]["strategies"], json::array({"random", "basic", "expert"}));
  create(a, {{"game", "pinocchio"}, {"seats", 3}});
  Player b = player("Bella");
  create(b, {{"game", "pinocchio"}, {"seats", 2}, {"private", true}});
  const json rooms = a.request({{"type", "list_rooms"}});
  ASSERT_EQ(rooms["rooms"].size(), 1u);
  EXPECT_EQ(rooms["rooms"][0]["room"], a.room);
  EXPECT_EQ(rooms["rooms"][0]["taken"], 1);
  EXPECT_EQ(rooms["rooms"][0]["status"], "waiting");
  // A private room is joined by its code, in any letter case.
  Player c = player("Claudio");
  std::string lower = b.room;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(ch));
  join(c, lower);
  EXPECT_EQ(c.seat, 1);
}

TEST_F(ServerTest, ChatReachesEveryoneInTheRoom) {
  Player a = player("Andrea");
  Player b = player("Bella");
  Player w = player("Watcher");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  join(b, a.room);
  w.request({{"type", "spectate"}, {"room", a.room}});
  EXPECT_EQ(b.request({{"type", "chat"}, {"room", a.room}, {"text", "nice bluff"}})["type"], "ok");
  for (Player* p : {&a, &w}) {
    const json m = p->wait_type("chat");
    EXPECT_EQ(m["name"], "Bella");
    EXPECT_EQ(m["seat"], 1);
    EXPECT_EQ(m["text"], "nice bluff");
  }
}

// --- Hostile and slow clients ----------------------------------------------------------------

TEST_F(ServerTest, OversizedFrameClosesOnlyThatConnection) {
  Player a = player("Andrea");
  auto big = connect();
  try {
    big->send({{"type", "hello"}, {"protocol", 1}, {"name", std::string(100000, 'x')}});
  } catch (const std::exception&) {
    // The server may close while the frame is still being written: that is the point.
  }
  EXPECT_FALSE(big->receive(3s).has_value());
  EXPECT_FALSE(big->open());
  EXPECT_EQ(a.request({{"type", "ping"}})["type"], "pong") << "others are unaffected";
}

TEST_F(ServerTest, FloodIsRateLimitedThenClosed) {
  Config c = test_config();
  c.messages_per_second = Config{}.messages_per_second;
  c.message_burst = Config{}.message_burst;
  start_server(c);
  Player a = player("Andrea");
  auto flood = connect();
  for (int i = 0; i < 200; ++i) flood->send({{"type", "ping"}, {"id", i}});
  int pongs = 0;
  int limited = 0;
  while (auto m = flood->receive(3s)) {
    if ((*m)["type"] == "pong") ++pongs;
    if ((*m)["type"] == "error" && (*m)["code"] == "rate_limited") ++limited;
  }
  EXPECT_LE(pongs, 45) << "a burst of 40 and a trickle";
  EXPECT_GE(limited, 1);
  EXPECT_FALSE(flood->open()) << "a persistent flood is disconnected";
  EXPECT_EQ(a.request({{"type", "ping"}})["type"], "pong");
}

TEST_F(ServerTest, SlowReaderIsDroppedWithoutDelayingOthers) {
  Config c = test_config();
  c.messages_per_second = 1e6;
  c.message_burst = 1e6;
  c.max_queued_frames = 64;
  start_server(c);
  // Without compression: compressed, twenty thousand copies of the same list would be a few
  // bytes each and fit in the sockets' buffers.
  auto slow = std::make_unique<Connection>("127.0.0.1", port_, false, false, "/ws", false);
  slow->send({{"type", "hello"}, {"protocol", 1}, {"name", "Slow"}});
  // Ask for far more than socket buffers hold, and never read.
  try {
    for (int i = 0; i < 20000; ++i) slow->send({{"type", "list_games"}, {"id", i}});
  } catch (const std::exception&) {
    // Dropped while still sending: the server did not wait for this reader.
  }

  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 3}});
  a.request({{"type", "add_bot"}, {"room", a.room}});
  a.request({{"type", "add_bot"}, {"room", a.room}});
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    const json m = a.wait_for([](const json& x) {
      return x["type"] == "game_over" || (x["type"] == "state" && !x["legal"].empty());
    }, 10s);
    ASSERT_FALSE(m.is_null());
    if (m["type"] == "game_over") break;
    a.request({{"type", "action"}, {"room", a.room}, {"action", m["legal"][0]}});
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
  int replies = 0;
  try {
    while (slow->receive(2s)) ++replies;
  } catch (const std::exception&) {
  }
  EXPECT_LT(replies, 20000) << "the slow reader was dropped, not buffered without bound";
  EXPECT_FALSE(slow->open());
}

// --- HTTP ------------------------------------------------------------------------------------

TEST_F(ServerTest, HttpEndpoints) {
  auto [status, body] = http_get(port_, "/healthz");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(json::parse(body)["status"], "ok");
  std::tie(status, body) = http_get(port_, "/api/games");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(json::parse(body)[0]["id"], "pinocchio");
  std::tie(status, body) = http_get(port_, "/api/rooms");
  EXPECT_EQ(status, 200);
  EXPECT_TRUE(json::parse(body).is_array());
  std::tie(status, body) = http_get(port_, "/");
  EXPECT_EQ(status, 200);
  EXPECT_NE(body.find("Campfire"), std::string::npos);
  EXPECT_EQ(http_get(port_, "/no-such-file.js").first, 404);
  EXPECT_EQ(http_get(port_, "/../../etc/passwd").first, 400);
  EXPECT_EQ(http_get(port_, "/%2e%2e/etc/passwd").first, 404);
}

// Every game's rules page for players, straight from docs/rules: markdown in UTF-8, and 404 for
// a game that does not exist.
TEST_F(ServerTest, RulesPages) {
  // The whole response, headers included.
  auto get = [&](const std::string& path) {
    const int fd = connect_loopback(port_);
    EXPECT_GE(fd, 0);
    const std::string req =
        "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    ::send(fd, req.data(), req.size(), 0);
    std::string resp;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) {
      resp.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return resp;
  };
  auto [status, body] = http_get(port_, "/api/games");
  ASSERT_EQ(status, 200);
  const json games = json::parse(body);
  ASSERT_EQ(games.size(), Registry::builtin().games().size());
  for (const json& g : games) {
    const std::string id = g["id"];
    SCOPED_TRACE(id);
    const std::string resp = get("/api/games/" + id + "/rules");
    EXPECT_EQ(resp.rfind("HTTP/1.1 200", 0), 0u) << resp.substr(0, 200);
    EXPECT_NE(resp.find("\r\nContent-Type: text/markdown; charset=utf-8\r\n"), std::string::npos);
    const std::string page = resp.substr(resp.find("\r\n\r\n") + 4);
    std::ifstream file(std::string(CAMPFIRE_SOURCE_DIR) + "/docs/rules/" + id + ".md",
                       std::ios::binary);
    ASSERT_TRUE(file.good()) << "docs/rules/" << id << ".md is missing";
    const std::string expected((std::istreambuf_iterator<char>(file)),
                               std::istreambuf_iterator<char>());
    EXPECT_EQ(page, expected);
    EXPECT_EQ(page.rfind("# " + g["name"].get<std::string>(), 0), 0u) << "the page is titled";
    EXPECT_NE(page.find("## Table options"), std::string::npos);
    for (const json& option : g["options"]) {
      EXPECT_NE(page.find("`" + option["key"].get<std::string>() + "`"), std::string::npos)
          << "the page explains the option " << option["key"];
    }
  }
  for (const char* path : {"/api/games/chess/rules", "/api/games/README/rules",
                           "/api/games/../rules", "/api/games/PINOCCHIO/rules"}) {
    SCOPED_TRACE(path);
    std::tie(status, body) = http_get(port_, path);
    EXPECT_EQ(status, 404);
  }
  std::tie(status, body) = http_get(port_, "/api/games/chess/rules");
  EXPECT_EQ(json::parse(body)["error"], "there is no game chess");
}

// Every game listed has its JSON Schema, exactly as the engine declares it.
TEST_F(ServerTest, GameSchemas) {
  const json games = json::parse(http_get(port_, "/api/games").second);
  ASSERT_EQ(games.size(), Registry::builtin().games().size());
  for (const json& g : games) {
    const std::string id = g["id"];
    SCOPED_TRACE(id);
    const auto [status, body] = http_get(port_, "/api/games/" + id + "/schema");
    ASSERT_EQ(status, 200);
    const json schema = json::parse(body);
    EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(schema["title"], g["name"]);
    for (const char* def : {"view", "action", "event", "card", "seat"}) {
      EXPECT_TRUE(schema["$defs"].contains(def)) << "no $defs/" << def;
    }
    EXPECT_EQ(schema["$defs"]["seat"]["maximum"], g["maxSeats"].get<int>() - 1);
    EXPECT_EQ(schema, schema::to_json_schema(*Registry::builtin().find(id)));
  }
  for (const char* path :
       {"/api/games/chess/schema", "/api/games/PINOCCHIO/schema", "/api/games/../schema"}) {
    SCOPED_TRACE(path);
    const auto [status, body] = http_get(port_, path);
    EXPECT_EQ(status, 404);
  }
  const auto [status, body] = http_get(port_, "/api/games/chess/schema");
  EXPECT_EQ(json::parse(body)["error"], "unknown_game");
  EXPECT_EQ(http_get(port_, "/api/games//schema").first, 404);
}

}  // namespace
}  // namespace campfire::server::testing
