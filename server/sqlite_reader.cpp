#include "server/sqlite_reader.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/sqlite_db.hpp"

namespace campfire::server {

namespace {

// One read transaction around several statements, so that they all see the same commit: a room's
// moves are copied from one table to the other and then dropped by later commits.
class Snapshot {
 public:
  explicit Snapshot(sqlite3* db) : db_(db) { sqlite::exec(db_, "BEGIN"); }
  ~Snapshot() { sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr); }
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

 private:
  sqlite3* db_;
};

}  // namespace

SqliteReader::SqliteReader(const std::string& path, bool fsync) : db_(sqlite::open(path, fsync)) {
  try {
    room_ = std::make_unique<sqlite::Stmt>(
        db_,
        "SELECT game, seats, options, seed, deck_order, listed, settings, status, version,"
        " created_ms, finished_ms, result, fairness, first_seq FROM rooms WHERE code = ?1");
    seats_ = std::make_unique<sqlite::Stmt>(
        db_,
        "SELECT seat, name, token_hash, bot, names, entropy FROM seats WHERE code = ?1"
        " ORDER BY seat");
    actions_ = std::make_unique<sqlite::Stmt>(
        db_, "SELECT idx, seat, action, at_ms, version FROM actions WHERE code = ?1 ORDER BY idx");
    // A room in play: the moves not yet copied to `actions` (server/sqlite_moves.hpp). The
    // table holds recent moves only, and is read through.
    moves_ =
        std::make_unique<sqlite::Stmt>(db_,
                                       "SELECT idx, seat, action, at_ms, version FROM moves"
                                       " WHERE code = ?1 AND seq >= ?2 AND idx >= ?3 ORDER BY seq");
  } catch (...) {
    room_.reset();
    seats_.reset();
    actions_.reset();
    sqlite3_close(db_);
    throw;
  }
}

SqliteReader::~SqliteReader() {
  room_.reset();
  seats_.reset();
  actions_.reset();
  moves_.reset();
  sqlite3_close(db_);
}

std::vector<std::string> SqliteReader::codes_where(const char* sql, std::int64_t arg, bool bound) {
  std::lock_guard lock(mutex_);
  sqlite::Stmt q(db_, sql);
  if (bound) q.bind(1, arg);
  std::vector<std::string> codes;
  while (q.step()) codes.push_back(q.text(0));
  q.reset();
  return codes;
}

std::vector<std::string> SqliteReader::codes() {
  return codes_where("SELECT code FROM rooms", 0, false);
}

std::vector<std::string> SqliteReader::live_codes(std::int64_t finished_since_ms) {
  return codes_where(
      "SELECT code FROM rooms WHERE status IN ('waiting','playing')"
      " OR (status = 'over' AND finished_ms >= ?1) ORDER BY created_ms",
      finished_since_ms, true);
}

std::vector<std::string> SqliteReader::ended_before(std::int64_t before_ms) {
  return codes_where(
      "SELECT code FROM rooms WHERE status IN ('over','abandoned') AND finished_ms < ?1", before_ms,
      true);
}

std::optional<StoredRoom> SqliteReader::load(const std::string& code) {
  std::lock_guard lock(mutex_);
  const Snapshot snapshot(db_);
  sqlite::Stmt& q = *room_;
  q.bind(1, code);
  if (!q.step()) {
    q.reset();
    return std::nullopt;
  }
  StoredRoom r;
  std::int64_t first_seq = 0;
  try {
    r.code = code;
    r.game = q.text(0);
    r.seats = static_cast<int>(q.integer(1));
    r.options = json::parse(q.text(2));
    r.seed = std::stoull(q.text(3));
    r.deck_order = q.is_null(4) ? json(nullptr) : json::parse(q.text(4));
    r.listed = q.integer(5) != 0;
    r.settings = json::parse(q.text(6));
    r.status = q.text(7);
    r.version = q.integer(8);
    r.created_ms = q.integer(9);
    r.finished_ms = q.is_null(10) ? 0 : q.integer(10);
    r.result = q.is_null(11) ? json(nullptr) : json::parse(q.text(11));
    r.fairness = q.is_null(12) ? json(nullptr) : json::parse(q.text(12));
    first_seq = q.integer(13);
  } catch (const std::exception& e) {
    q.reset();
    spdlog::error("journal: room {} is unreadable: {}", code, e.what());
    return std::nullopt;
  }
  q.reset();
  sqlite::Stmt& seats = *seats_;
  seats.bind(1, code);
  while (seats.step()) {
    r.seat_list.push_back(
        {static_cast<int>(seats.integer(0)), seats.text(1), seats.text(2), seats.text(3),
         seats.is_null(4) ? std::vector<SeatName>{}
                          : names_from_json(json::parse(seats.text(4), nullptr, false)),
         seats.text(5)});
  }
  seats.reset();
  std::size_t expected = 0;
  bool ok = true;
  const auto read = [&](sqlite::Stmt& rows) {
    while (rows.step()) {
      if (static_cast<std::size_t>(rows.integer(0)) != expected++) ok = false;
      try {
        r.log.push_back(
            {static_cast<int>(rows.integer(1)), json::parse(rows.text(2)), rows.integer(3)});
        r.version = std::max(r.version, rows.integer(4));
      } catch (const std::exception&) {
        ok = false;
      }
    }
    rows.reset();
  };
  read(actions_->bind(1, code));
  // A finished room's moves were all copied when it ended.
  if (r.status == "waiting" || r.status == "playing") {
    read(moves_->bind(1, code).bind(2, first_seq).bind(3, static_cast<long long>(expected)));
  }
  if (!ok) {
    spdlog::error("journal: room {} has a gap or damage in its log", code);
    return std::nullopt;
  }
  return r;
}

}  // namespace campfire::server
