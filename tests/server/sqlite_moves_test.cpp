// Moves in time order (server/sqlite_moves.hpp): a room in play has its moves appended to
// `moves`, copied to `actions` when its game ends (or early, when it holds the table's front
// back), and the front of `moves` is dropped in ranges. Whatever the tables hold, a room loads
// with every move it was given, in order, and nothing of an earlier room of the same code.
#include "server/sqlite_moves.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "server/journal.hpp"
#include "server/sqlite_db.hpp"
#include "server/sqlite_journal.hpp"
#include "tests/server/journal_records.hpp"
#include "tests/support/scratch_dir.hpp"

namespace campfire::server::testing {
namespace {

class MovesInTimeOrder : public ::testing::Test {
 protected:
  std::unique_ptr<Journal> journal() const {
    return make_sqlite_journal(dir_.path().string(), false);
  }

  // A connection of the test's own to the journal's database.
  sqlite3* raw() const {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open((dir_.path() / "campfire.db").c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    return db;
  }

  // The (code, idx) of every row of `table`, in `order`.
  std::vector<std::pair<std::string, std::int64_t>> rows(const char* table,
                                                         const char* order) const {
    sqlite3* db = raw();
    std::vector<std::pair<std::string, std::int64_t>> out;
    {
      sqlite::Stmt q(
          db, (std::string("SELECT code, idx FROM ") + table + " ORDER BY " + order).c_str());
      while (q.step()) out.emplace_back(q.text(0), q.integer(1));
    }
    sqlite3_close(db);
    return out;
  }

  std::int64_t integer(const char* sql) const {
    sqlite3* db = raw();
    std::int64_t v = -1;
    {
      sqlite::Stmt q(db, sql);
      if (q.step()) v = q.integer(0);
    }
    sqlite3_close(db);
    return v;
  }

  static Journal::Record status(const std::string& code, const std::string& s) {
    Journal::Record r;
    r.kind = Journal::Record::Kind::kStatus;
    r.code = code;
    r.status = s;
    return r;
  }

  static Journal::Record removal(const std::string& code) {
    Journal::Record r;
    r.kind = Journal::Record::Kind::kRemove;
    r.code = code;
    return r;
  }

  // Moves first..first+n-1 of `code`, tagged so that two rooms of one code differ.
  static void play(Journal& j, const std::string& code, std::size_t first, std::size_t n,
                   const std::string& tag = "") {
    for (std::size_t i = first; i < first + n; ++i) {
      auto a = action_record(code, i, static_cast<long long>(i) + 1);
      if (!tag.empty()) a.action.action["tag"] = tag;
      j.write(std::move(a), nullptr);
    }
  }

  static void expect_moves(Journal& j, const std::string& code, std::size_t n,
                           const std::string& tag = "") {
    const auto room = j.load(code);
    ASSERT_TRUE(room) << code;
    ASSERT_EQ(room->log.size(), n) << code;
    for (std::size_t i = 0; i < n; ++i) {
      auto want = action_record(code, i, 0).action.action;
      if (!tag.empty()) want["tag"] = tag;
      EXPECT_EQ(room->log[i].action, want) << code << " move " << i;
    }
  }

  campfire::testing::ScratchDir dir_{"campfire-moves-test"};
};

TEST_F(MovesInTimeOrder, MovesOfRoomsInPlayAreAppendedAsTheyCome) {
  using Row = std::pair<std::string, std::int64_t>;
  const std::vector<Row> in_order{{"AAAAAA", 0}, {"BBBBBB", 0}, {"AAAAAA", 1},
                                  {"BBBBBB", 1}, {"AAAAAA", 2}, {"BBBBBB", 2}};
  {
    auto j = journal();
    j->write(create_record("AAAAAA"), nullptr);
    j->write(create_record("BBBBBB"), nullptr);
    for (std::size_t i = 0; i < 3; ++i) {
      play(*j, "AAAAAA", i, 1);
      play(*j, "BBBBBB", i, 1);
      j->flush();
    }
    EXPECT_EQ(rows("moves", "seq"), in_order);
    EXPECT_TRUE(rows("actions", "code, idx").empty());
    expect_moves(*j, "AAAAAA", 3);
    expect_moves(*j, "BBBBBB", 3);
  }
  auto j = journal();
  // Opening copied them; the table keeps its newest row, whose seq the next move's follows.
  EXPECT_EQ(rows("moves", "seq"), std::vector<Row>{in_order.back()});
  EXPECT_EQ(rows("actions", "code, idx").size(), 6u);
  expect_moves(*j, "AAAAAA", 3);
  expect_moves(*j, "BBBBBB", 3);
  play(*j, "AAAAAA", 3, 1);
  j->flush();
  EXPECT_EQ(rows("moves", "seq"), (std::vector<Row>{in_order.back(), {"AAAAAA", 3}}));
  expect_moves(*j, "AAAAAA", 4);
}

TEST_F(MovesInTimeOrder, AFinishedRoomsMovesAreInActionsFromTheCommitThatEndsIt) {
  auto j = journal();
  j->write(create_record("AAAAAA"), nullptr);
  j->write(create_record("BBBBBB"), nullptr);
  play(*j, "AAAAAA", 0, 4);
  play(*j, "BBBBBB", 0, 2);
  j->flush();
  EXPECT_TRUE(rows("actions", "code, idx").empty());
  j->write(status("AAAAAA", "over"), nullptr);
  j->write(status("BBBBBB", "abandoned"), nullptr);
  j->flush();
  using Row = std::pair<std::string, std::int64_t>;
  EXPECT_EQ(rows("actions", "code, idx"), (std::vector<Row>{{"AAAAAA", 0},
                                                            {"AAAAAA", 1},
                                                            {"AAAAAA", 2},
                                                            {"AAAAAA", 3},
                                                            {"BBBBBB", 0},
                                                            {"BBBBBB", 1}}));
  expect_moves(*j, "AAAAAA", 4);
  expect_moves(*j, "BBBBBB", 2);
}

TEST_F(MovesInTimeOrder, ARoomInPlayGoesOnAcrossReopeningFromBothTables) {
  {
    auto j = journal();
    j->write(create_record("AAAAAA"), nullptr);
    play(*j, "AAAAAA", 0, 3);
  }
  {
    auto j = journal();
    EXPECT_EQ(rows("actions", "code, idx").size(), 3u);
    play(*j, "AAAAAA", 3, 2);
    j->flush();
    expect_moves(*j, "AAAAAA", 5);
    // A move that is not the room's next is refused, whichever table the ones before are in.
    bool ok = true;
    j->write(action_record("AAAAAA", 3, 4), [&](bool r) { ok = r; });
    j->flush();
    EXPECT_FALSE(ok);
    play(*j, "AAAAAA", 5, 1);
    j->flush();
    expect_moves(*j, "AAAAAA", 6);
  }
  auto j = journal();
  expect_moves(*j, "AAAAAA", 6);
}

TEST_F(MovesInTimeOrder, AMoveAfterAGapFailsItsBatchAndTheRoomGoesOn) {
  auto j = journal();
  // The records of one turn of `io` are committed together.
  boost::asio::io_context io;
  j->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
  const auto turn = [&] {
    io.run();
    io.restart();
    j->flush();
  };
  j->write(create_record("AAAAAA"), nullptr);
  j->write(create_record("BBBBBB"), nullptr);
  play(*j, "AAAAAA", 0, 1);
  play(*j, "BBBBBB", 0, 1);
  turn();
  // The failed batch held the end of another room: that is not kept either.
  bool ok = true;
  j->write(status("BBBBBB", "over"), nullptr);
  j->write(action_record("AAAAAA", 2, 3), [&](bool r) { ok = r; });
  turn();
  EXPECT_FALSE(ok);
  EXPECT_NE(j->load("BBBBBB")->status, "over");
  EXPECT_TRUE(rows("actions", "code, idx").empty());
  // What was read back after the rollback knows each room's next move.
  play(*j, "AAAAAA", 1, 2);
  play(*j, "BBBBBB", 1, 1);
  j->write(status("BBBBBB", "over"), nullptr);
  turn();
  expect_moves(*j, "AAAAAA", 3);
  expect_moves(*j, "BBBBBB", 2);
  EXPECT_EQ(rows("actions", "code, idx").size(), 2u);
  EXPECT_EQ(j->stats().failures, 1u);
}

TEST_F(MovesInTimeOrder, AnEarlierRoomOfTheSameCodeLeavesNothingBehind) {
  {
    auto j = journal();
    j->write(create_record("AAAAAA"), nullptr);
    play(*j, "AAAAAA", 0, 4, "first");
    j->write(status("AAAAAA", "over"), nullptr);
    j->write(removal("AAAAAA"), nullptr);
    j->flush();
    EXPECT_FALSE(j->load("AAAAAA"));
    // Its rows are still in `moves`: only the front is ever dropped.
    EXPECT_EQ(integer("SELECT count(*) FROM moves WHERE code = 'AAAAAA'"), 4);
    j->write(create_record("AAAAAA"), nullptr);
    play(*j, "AAAAAA", 0, 2, "second");
    j->flush();
    expect_moves(*j, "AAAAAA", 2, "second");
  }
  auto j = journal();
  expect_moves(*j, "AAAAAA", 2, "second");
}

TEST_F(MovesInTimeOrder, ARoomInPlayInAJournalOfTheFormatBeforeGoesOn) {
  {
    // Format 2: every move in `actions`, no `moves` and no rooms.first_seq.
    sqlite3* db = raw();
    sqlite::exec(db, R"sql(
CREATE TABLE rooms(code TEXT PRIMARY KEY, game TEXT NOT NULL, seats INTEGER NOT NULL,
  options TEXT NOT NULL, seed TEXT NOT NULL, deck_order TEXT, listed INTEGER NOT NULL,
  settings TEXT NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,
  created_ms INTEGER NOT NULL, finished_ms INTEGER, result TEXT, fairness TEXT);
CREATE INDEX rooms_by_status ON rooms(status, finished_ms);
CREATE TABLE seats(code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
  token_hash TEXT NOT NULL, bot TEXT NOT NULL, names TEXT, entropy TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(code, seat)) WITHOUT ROWID;
CREATE TABLE actions(code TEXT NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
  action TEXT NOT NULL, at_ms INTEGER NOT NULL, version INTEGER NOT NULL,
  PRIMARY KEY(code, idx)) WITHOUT ROWID;
INSERT INTO rooms VALUES('AAAAAA', 'pinocchio', 2, '{}', '11', NULL, 1, '{}', 'playing', 3,
  1795000000000, NULL, NULL, NULL);
INSERT INTO actions VALUES('AAAAAA', 0, 0, '{"n":0,"type":"play"}', 5000, 1);
INSERT INTO actions VALUES('AAAAAA', 1, 1, '{"n":1,"type":"play"}', 5001, 2);
INSERT INTO actions VALUES('AAAAAA', 2, 0, '{"n":2,"type":"play"}', 5002, 3);
PRAGMA user_version = 2;
)sql");
    sqlite3_close(db);
  }
  {
    auto j = journal();
    expect_moves(*j, "AAAAAA", 3);
    play(*j, "AAAAAA", 3, 2);
    j->flush();
    expect_moves(*j, "AAAAAA", 5);
  }
  EXPECT_EQ(integer("PRAGMA user_version"), 3);
  auto j = journal();
  expect_moves(*j, "AAAAAA", 5);
}

// The bookkeeping on its own, with small limits: a room that plays on while hundreds of others
// come and go has its moves copied early, and the table's front is dropped behind it.
TEST_F(MovesInTimeOrder, ALongRoomIsCopiedEarlyAndTheFrontIsDropped) {
  constexpr int kShortRooms = 60;
  {
    auto j = journal();
    j->write(create_record("LONGER"), nullptr);
    for (int r = 0; r < kShortRooms; ++r)
      j->write(create_record("S" + std::to_string(10000 + r)), nullptr);
    j->flush();
  }
  sqlite3* db = sqlite::open((dir_.path() / "campfire.db").string(), false);
  std::int64_t most_rows = 0;
  {
    MoveLog log(db, MoveLog::Limits{4, 8, 32, 64});
    log.reload();
    std::int64_t long_moves = 0;
    for (int r = 0; r < kShortRooms; ++r) {
      const std::string code = "S" + std::to_string(10000 + r);
      sqlite::exec(db, "BEGIN IMMEDIATE");
      log.append("LONGER", long_moves, 0, "{\"n\":" + std::to_string(long_moves) + "}", 1, 1);
      ++long_moves;
      for (int i = 0; i < 3; ++i)
        log.append(code, i, i % 2, "{\"n\":" + std::to_string(i) + "}", 1, 1);
      sqlite::exec(db, ("UPDATE rooms SET status = 'over' WHERE code = '" + code + "'").c_str());
      log.ended(code);
      log.upkeep();
      sqlite::exec(db, "COMMIT");
      sqlite::Stmt q(db, "SELECT count(*) FROM moves");
      q.step();
      most_rows = std::max<std::int64_t>(most_rows, q.integer(0));
    }
  }
  sqlite3_close(db);
  // 4 moves a batch; without the early copies LONGER's first row would keep all 240.
  EXPECT_LE(most_rows, 32 + 8 + 4);
  EXPECT_GT(integer("SELECT count(*) FROM actions WHERE code = 'LONGER'"), 0);
  auto j = journal();
  const auto room = j->load("LONGER");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->log.size(), static_cast<std::size_t>(kShortRooms));
  for (int i = 0; i < kShortRooms; ++i) EXPECT_EQ(room->log[i].action["n"], i);
  for (int r = 0; r < kShortRooms; ++r) {
    const auto s = j->load("S" + std::to_string(10000 + r));
    ASSERT_TRUE(s);
    ASSERT_EQ(s->log.size(), 3u);
    EXPECT_EQ(s->log[2].action["n"], 2);
  }
}

// Many rooms in play at once, all holding the front back: each look copies a few of them, those
// holding it furthest back, rather than all at once in one commit.
TEST_F(MovesInTimeOrder, EarlyCopiesAreSpreadOverManyCommits) {
  constexpr int kRooms = 20;
  constexpr int kBatches = 50;
  const auto code = [](int r) { return "L" + std::to_string(10000 + r); };
  {
    auto j = journal();
    for (int r = 0; r < kRooms; ++r) j->write(create_record(code(r)), nullptr);
    j->flush();
  }
  sqlite3* db = sqlite::open((dir_.path() / "campfire.db").string(), false);
  const MoveLog::Limits limits{4, 8, 100, 24};
  std::size_t most_copied = 0;
  std::size_t copies = 0;
  std::int64_t most_rows = 0;
  {
    MoveLog log(db, limits);
    log.reload();
    for (int b = 0; b < kBatches; ++b) {
      sqlite::exec(db, "BEGIN IMMEDIATE");
      for (int r = 0; r < kRooms; ++r)
        log.append(code(r), b, 0, "{\"n\":" + std::to_string(b) + "}", 1, 1);
      const std::size_t before = log.uncopied();
      log.upkeep();
      const std::size_t copied = before - log.uncopied();
      most_copied = std::max(most_copied, copied);
      copies += copied > 0 ? 1 : 0;
      sqlite::exec(db, "COMMIT");
      sqlite::Stmt q(db, "SELECT count(*) FROM moves");
      q.step();
      most_rows = std::max<std::int64_t>(most_rows, q.integer(0));
    }
  }
  sqlite3_close(db);
  // A look copies whole rooms until it has 24 rows (33 at most here, where copying every room
  // behind copies over a hundred), and the table stays within twice the span (a thousand rows
  // without early copies).
  EXPECT_GT(copies, 3u);
  EXPECT_LE(most_copied, 40u);
  EXPECT_LE(most_rows, 200);
  auto j = journal();
  for (int r = 0; r < kRooms; ++r) {
    const auto room = j->load(code(r));
    ASSERT_TRUE(room);
    ASSERT_EQ(room->log.size(), static_cast<std::size_t>(kBatches));
    for (int i = 0; i < kBatches; ++i) EXPECT_EQ(room->log[i].action["n"], i);
  }
}

}  // namespace
}  // namespace campfire::server::testing
