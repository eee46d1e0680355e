// Promises of protocol/PROTOCOL.md, each checked the way a client written from the page sees the
// server: over a WebSocket (or plain HTTP for replays), with nothing but the page's messages.
// Each test quotes the sentence it checks.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <map>
#include <set>

#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

using Promises = ServerTest;

// The replies to `ids`, in any order, from one connection (other messages are skipped).
std::map<std::string, json> replies(Connection& c, const std::set<std::string>& ids) {
  std::map<std::string, json> got;
  while (got.size() < ids.size()) {
    auto m = c.receive(10s);
    if (!m) break;
    if (m->contains("id") && (*m)["id"].is_string() && ids.count((*m)["id"].get<std::string>())) {
      got[(*m)["id"].get<std::string>()] = *m;
    }
  }
  return got;
}

// "Wrong tokens are budgeted per address": players behind one router who all rejoin at the same
// moment (after a server restart, say) hold right tokens, and none of them may be refused however
// small the budget for wrong ones.
TEST_F(Promises, RightTokensSentAtOnceFromOneAddressAreNeverRateLimited) {
  Config c = test_config();
  c.bad_token_burst = 2;
  c.bad_tokens_per_minute = 0.01;  // nothing grows back while the test runs
  start_server(c);
  constexpr int kRooms = 4;
  constexpr int kSeats = 4;
  std::vector<Player> holders;
  std::vector<std::pair<std::string, std::string>> seats;  // room, token
  for (int r = 0; r < kRooms; ++r) {
    Player owner = player("Owner " + std::to_string(r));
    create(owner, {{"game", "pinocchio"}, {"seats", kSeats}});
    seats.emplace_back(owner.room, owner.token);
    for (int s = 1; s < kSeats; ++s) {
      Player p = player("Guest " + std::to_string(r) + "." + std::to_string(s));
      join(p, owner.room);
      seats.emplace_back(p.room, p.token);
      holders.push_back(std::move(p));
    }
    holders.push_back(std::move(owner));
  }
  ASSERT_EQ(seats.size(), 16u);

  // Sixteen new connections, greeted first, then every rejoin sent before any reply is read.
  std::vector<Player> back;
  for (std::size_t i = 0; i < seats.size(); ++i)
    back.push_back(player("Back " + std::to_string(i)));
  for (std::size_t i = 0; i < seats.size(); ++i) {
    back[i].conn->send({{"type", "rejoin"},
                        {"id", "r" + std::to_string(i)},
                        {"room", seats[i].first},
                        {"token", seats[i].second}});
  }
  int joined = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const std::string id = "r" + std::to_string(i);
    const auto got = replies(*back[i].conn, {id});
    ASSERT_EQ(got.count(id), 1u) << "no reply to rejoin " << i;
    EXPECT_EQ(got.at(id).value("type", ""), "joined") << got.at(id).dump();
    joined += got.at(id).value("type", "") == "joined";
  }
  EXPECT_EQ(joined, 16);

  // The budget is untouched: two wrong tokens are still answered as wrong.
  Player guesser = player("Guesser");
  for (int i = 0; i < 2; ++i) {
    const json r = guesser.request(
        {{"type", "rejoin"}, {"room", seats[0].first}, {"token", std::string(32, 'a' + i)}});
    EXPECT_EQ(r.value("code", ""), "bad_token") << r.dump();
  }
}

// "Wrong tokens are budgeted per address (...); beyond that, `rejoin` gets `error`
// `rate_limited`", also when the guesses are sent at once.
TEST_F(Promises, WrongTokensSentAtOnceSpendTheBudgetAndNoMore) {
  Config c = test_config();
  c.bad_token_burst = 2;
  c.bad_tokens_per_minute = 0.01;
  start_server(c);
  Player owner = player("Andrea");
  create(owner, {{"game", "pinocchio"}, {"seats", 2}});

  Player guesser = player("Guesser");
  std::set<std::string> ids;
  for (int i = 0; i < 5; ++i) {
    const std::string id = "g" + std::to_string(i);
    ids.insert(id);
    guesser.conn->send({{"type", "rejoin"},
                        {"id", id},
                        {"room", owner.room},
                        {"token", std::string(32, static_cast<char>('a' + i))}});
  }
  const auto got = replies(*guesser.conn, ids);
  ASSERT_EQ(got.size(), ids.size());
  int wrong = 0;
  int limited = 0;
  for (const auto& [id, r] : got) {
    ASSERT_EQ(r.value("type", ""), "error") << r.dump();
    wrong += r["code"] == "bad_token";
    limited += r["code"] == "rate_limited";
  }
  EXPECT_EQ(wrong, 2);
  EXPECT_EQ(limited, 3);
  // The budget is spent: even the right token waits for it to grow back.
  const json r =
      guesser.request({{"type", "rejoin"}, {"room", owner.room}, {"token", owner.token}});
  EXPECT_EQ(r.value("code", ""), "rate_limited") << r.dump();
}

// "The first message must be `hello`. Until then every other request except `ping` gets
// `error` `hello_first`."
TEST_F(Promises, PingNeedsNoHelloButEverythingElseDoes) {
  auto c = connect();
  c->send({{"type", "ping"}, {"id", "p"}});
  auto pong = c->receive(5s);
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["type"], "pong") << pong->dump();
  EXPECT_EQ((*pong)["id"], "p") << pong->dump();
  for (const char* type : {"list_games", "list_rooms", "create_room"}) {
    auto r = c->request({{"type", type}});
    ASSERT_TRUE(r) << type;
    EXPECT_EQ(r->value("code", ""), "hello_first") << type << ": " << r->dump();
  }
}

// "Frames larger than the server's limit (64 KiB by default) close the connection with WebSocket
// close code 1009 (message too big)."
TEST_F(Promises, AFrameOverTheLimitClosesWith1009) {
  namespace beast = boost::beast;
  namespace websocket = beast::websocket;
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::resolver resolver(ioc);
  websocket::stream<beast::tcp_stream> ws(ioc);
  beast::get_lowest_layer(ws).connect(
      *resolver.resolve("127.0.0.1", std::to_string(port_)).begin());
  ws.handshake("127.0.0.1", "/ws");
  ws.write(boost::asio::buffer(std::string(R"({"type":"hello","protocol":1,"name":"Andrea"})")));
  beast::flat_buffer buffer;
  ws.read(buffer);  // welcome
  buffer.consume(buffer.size());
  const std::string big = R"({"type":"chat","text":")" + std::string(70 * 1024, 'x') + "\"}";
  ws.write(boost::asio::buffer(big));
  beast::get_lowest_layer(ws).expires_after(10s);
  // The read ends with the close (or with the socket the server shut after it); the close frame
  // that came first carries the code either way.
  beast::error_code ec;
  while (!ec) ws.read(buffer, ec);
  EXPECT_EQ(ws.reason().code, websocket::close_code::too_big) << ec.message();
}

// "JSON nested deeper than 16 levels gets `error` `bad_json`" (the message object is the first
// level), even when the innermost array is empty.
TEST_F(Promises, NestingDeeperThanSixteenLevelsIsRefused) {
  Player a = player("Andrea");
  const auto nested = [](int levels) {
    json inner = json::array();
    for (int i = 2; i < levels; ++i) inner = json::array({inner});
    return json{{"type", "ping"}, {"x", inner}};
  };
  const json ok = a.request(nested(16));
  EXPECT_EQ(ok.value("type", ""), "pong") << ok.dump();
  a.conn->send_text(nested(17).dump());
  const json refused = a.wait_type("error");
  EXPECT_EQ(refused.value("code", ""), "bad_json") << refused.dump();
}

// "Any request may carry an `id` (a number, or a string of up to 64 characters)"; a longer one
// gets `bad_request` saying so, without an `id` (it could not be echoed).
TEST_F(Promises, AnIdOver64CharactersIsRefusedSayingSo) {
  Player a = player("Andrea");
  const json fits = a.request({{"type", "ping"}, {"id", std::string(64, 'i')}});
  EXPECT_EQ(fits.value("type", ""), "pong") << fits.dump();
  a.conn->send({{"type", "ping"}, {"id", std::string(65, 'i')}});
  const json refused = a.wait_type("error");
  EXPECT_EQ(refused.value("code", ""), "bad_request") << refused.dump();
  EXPECT_FALSE(refused.contains("id")) << refused.dump();
  EXPECT_NE(refused.value("message", "").find("64"), std::string::npos) << refused.dump();
}

// "`seat` is `null` for a spectator", and `name` is the display name the spectator gave in
// `hello`, like everyone else's.
TEST_F(Promises, ASpectatorsChatCarriesTheirName) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  Player w = player("Walter");
  const json s = w.request({{"type", "spectate"}, {"room", a.room}});
  ASSERT_EQ(s.value("type", ""), "spectating") << s.dump();
  const json ok = w.request({{"type", "chat"}, {"room", a.room}, {"text", "good luck"}});
  EXPECT_EQ(ok.value("type", ""), "ok") << ok.dump();
  const json heard = a.wait_type("chat");
  EXPECT_EQ(heard["name"], "Walter") << heard.dump();
  EXPECT_TRUE(heard["seat"].is_null()) << heard.dump();
  EXPECT_EQ(heard["text"], "good luck");
}

// "A game still being played answers `409` (...); a server started with `--test-mode` shows it."
TEST_F(Promises, AGameInPlayIsAReplayOnlyInTestMode) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 3}});
  ASSERT_EQ(a.request({{"type", "add_bot"}, {"room", a.room}}).value("type", ""), "ok");
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}}).value("type", ""), "ok");
  const auto [status, body] = http_get(port_, "/api/replays/" + a.room);
  ASSERT_EQ(status, 200) << body;
  const json replay = json::parse(body);
  EXPECT_EQ(replay["status"], "playing") << body;
  EXPECT_TRUE(replay["log"].is_array());

  Config c = test_config();
  c.test_mode = false;
  start_server(c);
  Player b = player("Bella");
  create(b, {{"game", "pinocchio"}, {"seats", 2}});
  ASSERT_EQ(b.request({{"type", "add_bot"}, {"room", b.room}}).value("type", ""), "ok");
  ASSERT_EQ(b.request({{"type", "start"}, {"room", b.room}}).value("type", ""), "ok");
  const auto [refused, why] = http_get(port_, "/api/replays/" + b.room);
  EXPECT_EQ(refused, 409) << why;
}

// The replay "holds the game, seat count, options, the seed (a decimal string), the deck order
// when the room was created with one (`deckOrder`, test mode)": a seeded room's replay has the
// seed that re-deals it and no deck order.
TEST_F(Promises, AReplayHoldsTheSeedAndTheDeckOrderOnlyWhenOneWasGiven) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 77}});
  auto [status, body] = http_get(port_, "/api/replays/" + a.room);
  ASSERT_EQ(status, 200) << body;
  json replay = json::parse(body);
  EXPECT_EQ(replay["seed"], "77") << body;
  EXPECT_FALSE(replay.contains("deckOrder")) << body;
}

// "`botTakeover` (default `true`)": a seat whose player stays away past the grace period is
// played by the `basic` bot unless the room turned that off. Two rooms lose a player, the one that
// turned it off first; once the default room's bot has taken over, the other room's grace period
// is over too, and its seat still waits for its player.
TEST_F(Promises, BotTakeoverIsOnByDefault) {
  Config c = test_config();
  c.disconnect_grace_s = 0.3;
  start_server(c);
  Player a = player("Andrea");
  create(a,
         {{"game", "pinocchio"}, {"seats", 2}, {"seed", 4}, {"timers", {{"botTakeover", false}}}});
  Player b = player("Bella");
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}}).value("type", ""), "ok");
  Player t = player("Teresa");
  create(t, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 4}});
  Player u = player("Ugo");
  join(u, t.room);
  ASSERT_EQ(t.request({{"type", "start"}, {"room", t.room}}).value("type", ""), "ok");

  b.conn->close();
  a.wait_for([](const json& m) {
    return m.value("type", "") == "state" && m["players"][1].is_object() &&
           m["players"][1].value("connected", true) == false;
  });
  u.conn->close();
  const json takeover = t.wait_for([](const json& m) {
    return m.value("type", "") == "event" && m["event"].value("type", "") == "bot_takeover";
  });
  ASSERT_FALSE(takeover.is_null()) << "the default room's bot never took over";
  const json ok = a.request({{"type", "sync"}, {"room", a.room}});
  ASSERT_EQ(ok.value("type", ""), "ok") << ok.dump();
  const json st = a.wait_for([&](const json& m) {
    return m.value("type", "") == "state" && m["version"] == ok["version"];
  });
  EXPECT_FALSE(st["players"][1].value("away", true)) << st.dump();
  EXPECT_FALSE(st["players"][1].value("connected", true)) << st.dump();
}

// "Every game's `result` has the same four fields": each game, played to its end against server
// bots by a client that sends the first legal action of every state, ends with `winners`,
// `losers`, `places` and `scores` in its final state and in `game_over`.
TEST_F(Promises, EveryGamesResultHasTheSameFields) {
  Player a = player("Andrea");
  const json games = a.request({{"type", "list_games"}})["games"];
  ASSERT_GE(games.size(), 5u);
  for (const json& game : games) {
    const std::string id = game["id"];
    const int seats = game["minSeats"];
    create(a, {{"game", id}, {"seats", seats}, {"seed", 11}});
    for (int s = 1; s < seats; ++s) {
      ASSERT_EQ(a.request({{"type", "add_bot"}, {"room", a.room}}).value("type", ""), "ok") << id;
    }
    ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}}).value("type", ""), "ok") << id;
    json final_state;
    json over;
    long long acted = -1;
    for (int messages = 0; over.is_null() && messages < 200000; ++messages) {
      const auto m = a.conn->receive(10s);
      ASSERT_TRUE(m) << id << ": the game did not end";
      if (m->value("room", "") != a.room) continue;
      if ((*m)["type"] == "game_over") over = *m;
      if ((*m)["type"] != "state") continue;
      final_state = *m;
      if (!(*m)["legal"].empty() && (*m)["version"].get<long long>() > acted) {
        acted = (*m)["version"];
        a.conn->send({{"type", "action"},
                      {"room", a.room},
                      {"version", acted},
                      {"action", (*m)["legal"][0]}});
      }
    }
    ASSERT_FALSE(over.is_null()) << id;
    ASSERT_EQ(final_state["status"], "over") << id;
    EXPECT_EQ(final_state["result"], over["result"]) << id;
    const json& r = over["result"];
    for (const char* field : {"winners", "losers", "places", "scores"}) {
      ASSERT_TRUE(r.contains(field) && r[field].is_array())
          << id << " has no " << field << ": " << r.dump();
    }
    EXPECT_EQ(r["places"].size(), static_cast<std::size_t>(seats)) << id << ": " << r.dump();
    EXPECT_EQ(r["scores"].size(), static_cast<std::size_t>(seats)) << id << ": " << r.dump();
    EXPECT_FALSE(r["winners"].empty()) << id << ": " << r.dump();
    for (const json& w : r["winners"]) EXPECT_EQ(r["places"][w.get<std::size_t>()], 1) << id;
  }
}

}  // namespace
}  // namespace campfire::server::testing
