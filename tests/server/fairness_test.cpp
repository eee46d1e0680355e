// Fair shuffles (PROTOCOL.md "Fair shuffles"), over the wire: the commitment every state carries,
// the players' contributions, the replay that reveals the server seed and the deal, the check
// of a replay and of tampered ones, and a restart that keeps all of it.
#include <sqlite3.h>

#include <algorithm>

#include "engine/core/registry.hpp"
#include "fairness/fairness.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

using FairShuffles = ServerTest;

// The state as of now (older states still waiting in the connection are skipped).
json current(Player& p) {
  json ok = p.request({{"type", "sync"}, {"room", p.room}});
  const long long v = ok.value("version", 0LL);
  return p.wait_for([v](const json& m) { return m["type"] == "state" && m["version"] >= v; });
}

json contribute(Player& p, const json& entropy) {
  return p.request({{"type", "contribute"}, {"room", p.room}, {"entropy", entropy}});
}

// Every player sends the first legal action of each state newer than its last move, until the
// game is over (or `moves` actions have been accepted, when given).
void play(const std::vector<Player*>& players, int moves = -1) {
  std::vector<long long> acted(players.size(), -1);
  int accepted = 0;
  for (int idle = 0; idle < 500;) {
    bool heard = false;
    for (std::size_t i = 0; i < players.size(); ++i) {
      Player& p = *players[i];
      while (auto m = p.conn->receive(std::chrono::milliseconds(5))) {
        heard = true;
        const std::string type = m->value("type", "");
        if (type == "game_over") return;
        if (type == "ok" && m->contains("move") && ++accepted == moves) return;
        if (type != "state" || (*m)["status"] != "playing" || (*m)["legal"].empty()) continue;
        const long long v = (*m)["version"];
        if (v <= acted[i]) continue;
        acted[i] = v;
        p.conn->send({{"type", "action"},
                      {"id", "a" + std::to_string(v)},
                      {"room", p.room},
                      {"version", v},
                      {"action", (*m)["legal"][0]}});
      }
    }
    idle = heard ? 0 : idle + 1;
  }
  ADD_FAILURE() << "the game stalled";
}

json replay_of(std::uint16_t port, const std::string& room) {
  const auto [status, body] = http_get(port, "/api/replays/" + room);
  EXPECT_EQ(status, 200) << body;
  return json::parse(body, nullptr, false);
}

std::string problems(const fairness::Verdict& v) {
  std::string out;
  for (const auto& p : v.problems) out += p + "\n";
  return out;
}

constexpr const char* kAndreas = "0123456789ABCDEF0123456789abcdef";
constexpr const char* kBellas = "feedfacecafebeef";

// The worked example of PROTOCOL.md, recomputed.
TEST(FairnessDerivation, MatchesTheWorkedExampleOfThePage) {
  const std::string server_seed =
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
  EXPECT_EQ(fairness::commitment(server_seed),
            "f95d0f81b3c14925ec3eb4bfb32386dbb810b7b6aa4e0d897cd931a8c2a8c477");
  const auto d =
      fairness::derive(server_seed, {"3f9a0c2e71d4b85f6a2e0d91c4b7e3a8", "", "00ff00ff00ff00ff"});
  EXPECT_EQ(d.material, "campfire-seed-v1:" + server_seed +
                            ":3f9a0c2e71d4b85f6a2e0d91c4b7e3a8::00ff00ff00ff00ff");
  EXPECT_EQ(d.digest, "07c8cefda742dc12cbd3bf3fd279967eae3e3f6877253c7d4d78a1504a74d977");
  EXPECT_EQ(d.seed, 560925742435851282ull);
  const auto upper = fairness::parse_entropy("3F9A0C2E71D4B85F");
  ASSERT_TRUE(upper);
  EXPECT_EQ(*upper, "3f9a0c2e71d4b85f");
  const std::string seed = fairness::new_server_seed();
  EXPECT_EQ(seed.size(), 64u);
  EXPECT_NE(seed, fairness::new_server_seed());
}

class FairGame : public FairShuffles {
 protected:
  // Two players contribute (one replaces hers; a third contributes and leaves), a bot fills the
  // last seat, they play Pinocchio to its end. Returns the replay and the commitment the states
  // carried.
  std::pair<json, std::string> play_fair_game() {
    Player a = player("Andrea");
    Player b = player("Bella");
    Player c = player("Claudio");
    create(a, {{"game", "pinocchio"}, {"seats", 3}});
    join(b, a.room);
    join(c, a.room);
    json first = current(a);
    json f = first["fairness"];
    EXPECT_TRUE(f["commitment"].is_string()) << first.dump();
    const std::string commitment =
        f["commitment"].is_string() ? f["commitment"].get<std::string>() : "";
    EXPECT_EQ(commitment.size(), 64u);
    EXPECT_EQ(f["contributed"], json::array());
    EXPECT_EQ(f["fixed"], false);

    EXPECT_EQ(contribute(a, "ffffffffffffffff")["type"], "ok");
    EXPECT_EQ(contribute(a, kAndreas)["type"], "ok") << "a contribution is replaceable";
    EXPECT_EQ(contribute(b, kBellas)["type"], "ok");
    EXPECT_EQ(contribute(c, "1111111111111111")["type"], "ok");
    EXPECT_EQ(current(b)["fairness"]["contributed"], json::array({0, 1, 2}));
    EXPECT_EQ(c.request({{"type", "leave"}, {"room", a.room}})["type"], "left");
    json before = current(b);
    EXPECT_EQ(before["fairness"]["contributed"], json::array({0, 1}))
        << "a contribution leaves with its player";
    EXPECT_EQ(before["fairness"]["commitment"], commitment) << "the commitment never changes";
    EXPECT_EQ(before.dump().find("feedface"), std::string::npos) << "nobody sees what was given";
    EXPECT_EQ(current(a).dump().find("feedface"), std::string::npos);

    EXPECT_EQ(a.request({{"type", "add_bot"}, {"room", a.room}})["type"], "ok");
    EXPECT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
    json late = contribute(b, "2222222222222222");
    EXPECT_EQ(late["code"], "already_started") << late.dump();
    play({&a, &b});
    EXPECT_EQ(current(a)["fairness"]["commitment"], commitment);
    return {replay_of(port_, a.room), commitment};
  }
};

TEST_F(FairGame, AWholeGameWithTwoContributionsVerifiesFair) {
  const auto [replay, commitment] = play_fair_game();
  ASSERT_TRUE(replay.is_object());
  json f = replay["fairness"];
  ASSERT_TRUE(f.is_object()) << replay.dump();
  EXPECT_EQ(f["commitment"], commitment);
  const std::string server_seed = f["serverSeed"];
  EXPECT_EQ(fairness::sha256_hex("campfire-commitment-v1:" + server_seed), commitment);
  EXPECT_EQ(f["contributions"],
            json::array({"0123456789abcdef0123456789abcdef", kBellas, nullptr}));
  // The derivation, written out as the page does.
  const std::string material =
      "campfire-seed-v1:" + server_seed + ":0123456789abcdef0123456789abcdef:" + kBellas + ":";
  const std::string derived = fairness::sha256_hex(material);
  EXPECT_EQ(f["derivedSeed"], derived);
  EXPECT_EQ(replay["seed"], std::to_string(std::stoull(derived.substr(0, 16), nullptr, 16)));
  EXPECT_EQ(f["deck"].size(), f["cards"].size());
  EXPECT_FALSE(replay.contains("deckOrder"));

  const auto verdict = fairness::verify(Registry::builtin(), replay);
  EXPECT_TRUE(verdict.fair) << problems(verdict);
  EXPECT_GE(verdict.checks.size(), 6u);
}

// Each kind of tampering is caught and named.
TEST_F(FairGame, TamperedReplaysAreRejectedWithWhatDiffers) {
  json replay = play_fair_game().first;
  ASSERT_TRUE(replay.is_object() && replay["fairness"].is_object()) << replay.dump();
  ASSERT_TRUE(fairness::verify(Registry::builtin(), replay).fair);
  const auto expect_rejected = [&](const json& tampered, const std::string& words) {
    const auto v = fairness::verify(Registry::builtin(), tampered);
    EXPECT_FALSE(v.fair);
    EXPECT_NE(problems(v).find(words), std::string::npos) << "expected \"" << words << "\" in:\n"
                                                          << problems(v);
  };
  {
    json t = replay;
    std::string seed = t["fairness"]["serverSeed"];
    seed.back() = seed.back() == '0' ? '1' : '0';
    t["fairness"]["serverSeed"] = seed;
    expect_rejected(t, "commitment: the revealed server seed does not match it");
  }
  {
    json t = replay;
    t["fairness"]["contributions"][1] = "feedfacecafebee0";
    expect_rejected(t, "derived seed: the replay says");
  }
  {
    json t = replay;
    t["fairness"]["contributions"][2] = "0000000000000000";
    expect_rejected(t, "derived seed: the replay says");
  }
  {
    json t = replay;
    json& deck = t["fairness"]["deck"];
    ASSERT_GE(deck.size(), 2u);
    std::size_t i = 0;
    while (i + 1 < deck.size() && deck[i] == deck[i + 1]) ++i;
    std::swap(deck[i], deck[i + 1]);
    expect_rejected(t, "deck order differs at position " + std::to_string(i));
  }
  {
    json t = replay;
    // Seat 0 plays first; the first move said to come from seat 1.
    t["log"][0]["seat"] = 1;
    expect_rejected(t, "action 0 (seat 1, ");
  }
  {
    json t = replay;
    t["log"].erase(t["log"].size() - 1);
    expect_rejected(t, "result: the replay says the game is over, but after its log it is not");
  }
  {
    json t = replay;
    t["seed"] = "12345";
    expect_rejected(t, "seed: the replay deals from \"12345\"");
  }
}

// The journal keeps the server seed and the contributions: a restart before the start keeps the
// commitment and who contributed, and a restart mid-game deals the same cards.
TEST_F(FairShuffles, ARestartKeepsTheCommitmentAndTheContributions) {
  Config config = test_config();
  start_server(config);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  join(b, a.room);
  ASSERT_EQ(contribute(a, kAndreas)["type"], "ok");
  ASSERT_EQ(contribute(b, kBellas)["type"], "ok");
  json before = current(a);
  const std::string room = a.room;

  auto back = [&](const Player& old, const std::string& name) {
    Player p = player(name);
    json r = p.request({{"type", "rejoin"}, {"room", room}, {"token", old.token}});
    EXPECT_EQ(r["type"], "joined") << r.dump();
    p.room = room;
    p.seat = old.seat;
    p.token = old.token;
    return p;
  };
  server_.reset();
  start_server(config);
  Player a2 = back(a, "Andrea");
  Player b2 = back(b, "Bella");
  json after = current(a2);
  EXPECT_EQ(after["fairness"], before["fairness"]) << after.dump();
  EXPECT_EQ(after["fairness"]["contributed"], json::array({0, 1}));

  ASSERT_EQ(a2.request({{"type", "start"}, {"room", room}})["type"], "ok");
  play({&a2, &b2}, 4);
  json mid_a = current(a2);
  json mid_b = current(b2);
  ASSERT_EQ(mid_a["status"], "playing");

  server_.reset();
  start_server(config);
  Player a3 = back(a2, "Andrea");
  Player b3 = back(b2, "Bella");
  json again = current(a3);
  EXPECT_EQ(again["view"], mid_a["view"]) << "the same deal after a restart";
  EXPECT_EQ(current(b3)["view"], mid_b["view"]);
  EXPECT_EQ(again["fairness"], before["fairness"]);
  play({&a3, &b3});

  json replay = replay_of(port_, room);
  ASSERT_TRUE(replay.is_object() && replay["fairness"].is_object()) << replay.dump();
  EXPECT_EQ(replay["fairness"]["commitment"], before["fairness"]["commitment"]);
  EXPECT_EQ(replay["fairness"]["contributions"],
            json::array({"0123456789abcdef0123456789abcdef", kBellas}));
  const auto verdict = fairness::verify(Registry::builtin(), replay);
  EXPECT_TRUE(verdict.fair) << problems(verdict);
}

// A test-mode seed fixes the deal so that a test can reproduce it: such a room says so, takes no
// contributions, and its replay is reported as fixed, not fair.
TEST_F(FairShuffles, ASeededTestRoomIsAFixedDeal) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 11}});
  json st = current(a);
  EXPECT_EQ(st["fairness"],
            json({{"commitment", nullptr}, {"contributed", json::array()}, {"fixed", true}}));
  json refused = contribute(a, kAndreas);
  EXPECT_EQ(refused["code"], "bad_request") << refused.dump();
  EXPECT_NE(refused.value("message", "").find("fixed"), std::string::npos);
  ASSERT_EQ(a.request({{"type", "add_bot"}, {"room", a.room}})["type"], "ok");
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  play({&a});
  json replay = replay_of(port_, a.room);
  ASSERT_TRUE(replay.is_object() && replay["fairness"].is_object()) << replay.dump();
  EXPECT_EQ(replay["seed"], "11");
  EXPECT_FALSE(replay["fairness"].contains("serverSeed"));
  const Game& g = *Registry::builtin().find("pinocchio");
  EXPECT_EQ(replay["fairness"]["deck"],
            fairness::dealt(g, *g.parse_options(json::object(), 2), 2, 11));
  const auto verdict = fairness::verify(Registry::builtin(), replay);
  EXPECT_FALSE(verdict.fair);
  ASSERT_EQ(verdict.problems.size(), 1u) << problems(verdict);
  EXPECT_NE(verdict.problems[0].find("fixed deal"), std::string::npos);
}

// Bad contributions are refused and change nothing; only seated players contribute.
TEST_F(FairShuffles, BadContributionsAreRefused) {
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  const long long version = current(a)["version"];
  for (const json& bad : {json(12), json(nullptr), json("abc"), json(std::string(129, 'a')),
                          json("0123456789abcdeg"), json(" 0123456789abcdef")}) {
    json r = contribute(a, bad);
    EXPECT_EQ(r["code"], "bad_request") << bad.dump() << " " << r.dump();
  }
  json missing = a.request({{"type", "contribute"}, {"room", a.room}});
  EXPECT_EQ(missing["code"], "bad_request");
  Player s = player("Watcher");
  ASSERT_EQ(s.request({{"type", "spectate"}, {"room", a.room}})["type"], "spectating");
  s.room = a.room;
  EXPECT_EQ(contribute(s, kAndreas)["code"], "not_seated");
  json st = current(a);
  EXPECT_EQ(st["version"], version) << "refusals change nothing";
  EXPECT_EQ(st["fairness"]["contributed"], json::array());
}

// A journal written before fair shuffles (format 1: no rooms.fairness, no seats.entropy) opens,
// gains the columns and keeps its rooms, which carry on without fairness; a journal from a later
// format is refused.
TEST_F(FairShuffles, AJournalFromBeforeFairShufflesKeepsItsRooms) {
  server_.reset();
  std::filesystem::remove_all(config_.data_dir);
  const std::string dir = fresh_data_dir();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/campfire.db";
  const std::string token = "0123456789abcdef0123456789abcdef";
  auto run = [&](const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK)
        << (err != nullptr ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
  };
  run(R"sql(
CREATE TABLE rooms(code TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL,
  options TEXT NOT NULL, seed TEXT NOT NULL, deck_order TEXT, listed INTEGER NOT NULL,
  settings TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, finished_ms INTEGER, result TEXT);
CREATE TABLE seats(code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
  token_hash TEXT NOT NULL, bot TEXT NOT NULL, PRIMARY KEY(code, seat)) WITHOUT ROWID;
CREATE TABLE actions(code TEXT NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
  action TEXT NOT NULL, at_ms INTEGER NOT NULL, version INTEGER NOT NULL,
  PRIMARY KEY(code, idx)) WITHOUT ROWID;
INSERT INTO rooms VALUES('PASTRM', 'pinocchio', 2, '{}', '11', NULL, 1, '{}', 'waiting', 3,
  1795000000000, NULL, NULL);
)sql" +
      std::string("INSERT INTO seats VALUES('PASTRM', 0, 'Ann', '") +
      token_hash_hex(hash_token(token)) + "', '');");
  {
    auto journal = make_journal("sqlite", dir, false);
    const auto room = journal->load("PASTRM");
    ASSERT_TRUE(room);
    EXPECT_TRUE(room->fairness.is_null());
    ASSERT_EQ(room->seat_list.size(), 1u);
    EXPECT_EQ(room->seat_list[0].entropy, "");
    EXPECT_EQ(room->match_json()["seed"], "11");
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(q, 0), 3) << "the journal is now in the current format";
    sqlite3_finalize(q);
    sqlite3_close(db);
  }
  Config config = test_config();
  std::filesystem::remove_all(config.data_dir);
  config.data_dir = dir;
  start_server(config);
  Player a = player("Ann");
  ASSERT_EQ(a.request({{"type", "rejoin"}, {"room", "PASTRM"}, {"token", token}})["type"],
            "joined");
  a.room = "PASTRM";
  json st = current(a);
  EXPECT_TRUE(st.contains("fairness") && st["fairness"].is_null()) << st.dump();
  json refused = contribute(a, kAndreas);
  EXPECT_EQ(refused["code"], "bad_request");
  EXPECT_NE(refused.value("message", "").find("before fair shuffles"), std::string::npos);
  server_.reset();

  // A journal from a later format is refused.
  run("PRAGMA user_version = 4;");
  EXPECT_THROW(make_journal("sqlite", dir, false), std::runtime_error);
}

}  // namespace
}  // namespace campfire::server::testing
