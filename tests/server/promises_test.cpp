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

}  // namespace
}  // namespace campfire::server::testing
