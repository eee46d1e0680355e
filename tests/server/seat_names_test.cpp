// What people read about a seat: a seat renamed during a game (a rejoin or a hello under another
// name) keeps its old name for the moves it already made, in what members were told and in the
// replay, and everyone is told whom the new name belongs to; an empty seat is counted from 1.
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "server/journal.hpp"
#include "tests/server/room_harness.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

class SeatNamesTest : public RoomHarness {
 protected:
  // Plays whoever of the players must act, `n` moves in all (their first legal move each time).
  void play(int n) {
    for (int i = 0; i < n; ++i) {
      const int s = acting();
      auto& p = players_[static_cast<std::size_t>(s)];
      const json st = p->last_state();
      ASSERT_FALSE(st["legal"].empty());
      room_->action(p, nullptr, st["legal"][0], st["version"].get<long long>());
      poll();
    }
  }
  std::string token_of(std::size_t seat) const {
    const auto joined = players_[seat]->of_type("joined");
    return joined.empty() ? std::string() : joined.front()["token"].get<std::string>();
  }
  // The texts of the events `seat` was sent, oldest first.
  std::vector<std::string> texts(std::size_t seat) const {
    std::vector<std::string> out;
    for (const json& e : players_[seat]->of_type("event")) {
      out.push_back(e["event"]["text"].get<std::string>());
    }
    return out;
  }
  // The last seat record the room wrote for `seat`.
  const Journal::Record* last_seat_record(int seat) const {
    const Journal::Record* found = nullptr;
    for (const auto& r : journal_.records) {
      if (r.kind == Journal::Record::Kind::kSeat && r.seat.seat == seat) found = &r;
    }
    return found;
  }
};

bool mentions(const std::string& text, const std::string& name) {
  return text.find(name) != std::string::npos;
}

TEST_F(SeatNamesTest, ARenamedSeatKeepsItsOldNameForTheMovesItMade) {
  open("pinocchio", 2, RoomSettings{});
  play(2);  // each seat has made a move under its first name
  const std::size_t told_before = texts(0).size();
  ASSERT_GT(told_before, 0u);

  const std::string token = token_of(1);
  ASSERT_FALSE(token.empty());
  room_->rejoin(players_[1], "Bella", 5, token);
  poll();

  // Everyone is told whose the new name is, once.
  for (std::size_t s = 0; s < players_.size(); ++s) {
    SCOPED_TRACE("seat " + std::to_string(s));
    std::vector<json> renamed;
    for (const json& e : players_[s]->of_type("event")) {
      if (e["event"]["type"] == "renamed") renamed.push_back(e["event"]);
    }
    ASSERT_EQ(renamed.size(), 1u);
    EXPECT_EQ(renamed[0]["seat"], 1);
    EXPECT_EQ(renamed[0]["from"], "P1");
    EXPECT_EQ(renamed[0]["text"], "P1 is now called Bella");
  }
  EXPECT_EQ(players_[0]->last_state()["players"][1]["name"], "Bella");

  // The journal keeps every name with the move it applies from: P1 for moves 0 and 1, Bella
  // from move 2 on.
  ASSERT_NE(last_seat_record(1), nullptr);
  const StoredSeat seat = last_seat_record(1)->seat;  // a copy: more records come
  EXPECT_EQ(seat.name, "Bella");
  EXPECT_EQ(names_json(seat.names),
            json::parse(R"([{"name":"P1","fromMove":0},{"name":"Bella","fromMove":2}])"));

  // Later moves are told under the new name; what was told before stays as it was.
  play(4);
  const auto after = texts(0);
  bool bella = false;
  for (const json& e : players_[0]->of_type("event")) {
    if (e["event"]["type"] != "renamed" && e["event"].value("seat", -1) == 1) {
      bella |= mentions(e["event"]["text"].get<std::string>(), "Bella");
    }
  }
  EXPECT_TRUE(bella) << "seat 1's later moves name Bella";
  for (std::size_t i = 0; i < told_before; ++i) EXPECT_FALSE(mentions(after[i], "Bella"));

  // The replay says which name each move was made under.
  StoredRoom stored;
  stored.seats = 2;
  stored.seat_list = {last_seat_record(0)->seat, seat};
  const json players = stored.replay_json()["players"];
  EXPECT_EQ(players[1]["name"], "Bella");
  EXPECT_EQ(players[1]["names"], names_json(seat.names));
  EXPECT_EQ(players[0]["names"], json::parse(R"([{"name":"P0","fromMove":0}])"));
}

TEST_F(SeatNamesTest, RenamingTwiceBeforeTheNextMoveKeepsOneEntry) {
  open("pinocchio", 2, RoomSettings{});
  play(1);
  room_->rename(players_[0], "Andrea");
  room_->rename(players_[0], "Anna");
  poll();
  const Journal::Record* seat = last_seat_record(0);
  ASSERT_NE(seat, nullptr);
  EXPECT_EQ(names_json(seat->seat.names),
            json::parse(R"([{"name":"P0","fromMove":0},{"name":"Anna","fromMove":1}])"));
  // Back to the first name before anyone moved again: nothing was ever made under the others.
  room_->rename(players_[0], "P0");
  poll();
  EXPECT_EQ(names_json(last_seat_record(0)->seat.names),
            json::parse(R"([{"name":"P0","fromMove":0}])"));
  const auto told = texts(1);
  ASSERT_GE(told.size(), 3u);
  EXPECT_EQ(told[told.size() - 3], "P0 is now called Andrea");
  EXPECT_EQ(told[told.size() - 2], "Andrea is now called Anna");
  EXPECT_EQ(told[told.size() - 1], "Anna is now called P0");
}

TEST_F(SeatNamesTest, ANameThatLooksLikeASeatIsShownAsItIs) {
  open("pinocchio", 2, RoomSettings{});
  play(1);
  room_->rename(players_[1], "{seat:0}");
  poll();
  room_->rename(players_[1], "Bella");
  poll();
  const auto told = texts(0);
  ASSERT_GE(told.size(), 2u);
  EXPECT_EQ(told[told.size() - 2], "P1 is now called {seat:0}");
  EXPECT_EQ(told[told.size() - 1], "{seat:0} is now called Bella");
}

TEST_F(SeatNamesTest, BeforeTheGameARenameIsNoEvent) {
  const Game& g = *Registry::builtin().find("pinocchio");
  room_ = std::make_shared<Room>(ioc_, config_, journal_, metrics_, "NAMES",
                                 std::move(*Match::create(g, 2, json::object(), 3)), false,
                                 RoomSettings{});
  auto p = std::make_shared<RecordingClient>();
  room_->join(p, "Ann", 1, std::nullopt);
  room_->rename(p, "Anna");
  poll();
  EXPECT_TRUE(p->of_type("event").empty());
  EXPECT_EQ(p->last_state()["players"][0]["name"], "Anna");
  const Journal::Record* seat = last_seat_record(0);
  ASSERT_NE(seat, nullptr);
  EXPECT_EQ(names_json(seat->seat.names), json::parse(R"([{"name":"Anna","fromMove":0}])"));
}

// A room brought back from a journal that lacks a seat (its record was lost): that seat's turn
// still runs out, and the words name it as people count seats.
TEST_F(SeatNamesTest, AnEmptySeatIsCountedFromOne) {
  const Game& g = *Registry::builtin().find("pinocchio");
  StoredRoom stored;
  stored.code = "EMPTY1";
  stored.game = "pinocchio";
  stored.seats = 2;
  stored.seed = 5;
  stored.settings = {{"turnSeconds", 2}};
  stored.status = "playing";
  stored.version = 3;
  stored.seat_list = {StoredSeat{0, "Ann", token_hash_hex(hash_token("ann-token")), ""}};
  room_ = std::make_shared<Room>(ioc_, config_, journal_, metrics_, stored,
                                 std::move(*Match::create(g, 2, json::object(), 5)));
  room_->resume();
  auto ann = std::make_shared<RecordingClient>();
  players_.push_back(ann);
  room_->rejoin(ann, "Ann", 1, "ann-token");
  poll();
  ASSERT_EQ(ann->of_type("joined").size(), 1u);
  json timeout;
  run_until([&] {
    for (const json& e : ann->of_type("event")) {
      if (e["event"]["type"] == "turn_timeout" && e["event"]["seat"] == 1) timeout = e["event"];
    }
    return !timeout.is_null();
  });
  const std::string text = timeout["text"];
  EXPECT_EQ(text.rfind("seat 2 ran out of time", 0), 0u) << text;
  EXPECT_EQ(timeout["seat"], 1);  // the JSON field counts from 0, as the protocol says
}

// Error words a person reads count seats from 1 too, or say which field counts from 0.
TEST_F(SeatNamesTest, ErrorWordsCountSeatsAsPeopleDo) {
  const Game& g = *Registry::builtin().find("pinocchio");
  room_ = std::make_shared<Room>(ioc_, config_, journal_, metrics_, "WORDS1",
                                 std::move(*Match::create(g, 3, json::object(), 3)), false,
                                 RoomSettings{});
  auto ann = std::make_shared<RecordingClient>();
  auto bo = std::make_shared<RecordingClient>();
  room_->join(ann, "Ann", 1, std::nullopt);
  room_->join(ann, "Ann", 2, std::nullopt);
  room_->join(bo, "Bo", 3, 3);
  poll();
  ASSERT_EQ(ann->of_type("error").size(), 1u);
  EXPECT_EQ(ann->of_type("error")[0]["message"], "you already hold seat 1 of this room");
  ASSERT_EQ(bo->of_type("error").size(), 1u);
  EXPECT_EQ(bo->of_type("error")[0]["message"],
            "\"seat\" is 0 to 2 in this room (seats are counted from 0 here)");
}

// --- The journal keeps every name ---------------------------------------------------------

class SeatNamesJournal : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_data_dir(); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  Journal::Record create() const {
    Journal::Record r;
    r.kind = Journal::Record::Kind::kCreate;
    r.code = "NAMES1";
    r.room.code = "NAMES1";
    r.room.game = "pinocchio";
    r.room.seats = 2;
    r.room.created_ms = 1000;
    return r;
  }
  std::string dir_;
};

TEST_F(SeatNamesJournal, NamesSurviveReopening) {
  {
    auto j = make_journal("sqlite", dir_, false);
    j->write(create(), nullptr);
    Journal::Record seat;
    seat.kind = Journal::Record::Kind::kSeat;
    seat.code = "NAMES1";
    seat.version = 1;
    seat.seat = {1, "Bella", "hash-b", "", {{"Bea", 0}, {"Bella", 7}}};
    j->write(seat, nullptr);
    j->flush();
  }
  auto j = make_journal("sqlite", dir_, false);
  const auto room = j->load("NAMES1");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->seat_list.size(), 1u);
  EXPECT_EQ(room->seat_list[0].name, "Bella");
  EXPECT_EQ(names_json(room->seat_list[0].names),
            json::parse(R"([{"name":"Bea","fromMove":0},{"name":"Bella","fromMove":7}])"));
  EXPECT_EQ(room->replay_json()["players"][1]["names"], names_json(room->seat_list[0].names));
}

// A journal written before seats kept their names opens, keeps its seats, and its replays name
// each seat by the one name it kept.
TEST_F(SeatNamesJournal, AnOlderJournalGainsTheNamesColumn) {
  {
    std::filesystem::create_directories(dir_);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((std::filesystem::path(dir_) / "campfire.db").c_str(), &db), SQLITE_OK);
    const char* sql =
        "CREATE TABLE rooms(code TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL,"
        " options TEXT NOT NULL, seed TEXT NOT NULL, deck_order TEXT, listed INTEGER NOT NULL,"
        " settings TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,"
        " created_ms INTEGER NOT NULL, finished_ms INTEGER, result TEXT);"
        "CREATE TABLE seats(code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
        " token_hash TEXT NOT NULL, bot TEXT NOT NULL, PRIMARY KEY(code, seat)) WITHOUT ROWID;"
        "INSERT INTO rooms VALUES('OLDONE', 'pinocchio', 2, '{}', '9', NULL, 1, '{}', 'over', 4,"
        " 1000, 2000, NULL);"
        "INSERT INTO seats VALUES('OLDONE', 0, 'Ann', 'hash-a', '');";
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
  }
  auto j = make_journal("sqlite", dir_, false);
  const auto room = j->load("OLDONE");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->seat_list.size(), 1u);
  EXPECT_TRUE(room->seat_list[0].names.empty());
  EXPECT_EQ(room->replay_json()["players"][0]["names"],
            json::parse(R"([{"name":"Ann","fromMove":0}])"));
  // And it takes new seats with their names.
  Journal::Record seat;
  seat.kind = Journal::Record::Kind::kSeat;
  seat.code = "OLDONE";
  seat.version = 5;
  seat.seat = {1, "Bo", "hash-b", "", {{"Bo", 0}}};
  j->write(seat, nullptr);
  j->flush();
  EXPECT_EQ(names_json(j->load("OLDONE")->seat_list[1].names),
            json::parse(R"([{"name":"Bo","fromMove":0}])"));
}

}  // namespace
}  // namespace campfire::server::testing
