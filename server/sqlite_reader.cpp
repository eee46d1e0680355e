#include "server/sqlite_reader.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/sqlite_db.hpp"

namespace campfire::server {

SqliteReader::SqliteReader(const std::string& path, bool fsync) : db_(sqlite::open(path, fsync)) {
  try {
    room_ = std::make_unique<sqlite::Stmt>(
        db_,
        "SELECT game, seats, options, seed, deck_order, listed, settings, status, version,"
        " created_ms, finished_ms, result, fairness FROM rooms WHERE code = ?1");
    seats_ = std::make_unique<sqlite::Stmt>(
        db_,
        "SELECT seat, name, token_hash, bot, names, entropy FROM seats WHERE code = ?1"
        " ORDER BY seat");
    actions_ = std::make_unique<sqlite::Stmt>(
        db_, "SELECT idx, seat, action, at_ms, version FROM actions WHERE code = ?1 ORDER BY idx");
  } catch (...) {
    room_.reset();
    seats_.reset();
    sqlite3_close(db_);
    throw;
  }
}

SqliteReader::~SqliteReader() {
  room_.reset();
  seats_.reset();
  actions_.reset();
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
  sqlite::Stmt& q = *room_;
  q.bind(1, code);
  if (!q.step()) {
    q.reset();
    return std::nullopt;
  }
  StoredRoom r;
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
  sqlite::Stmt& actions = *actions_;
  actions.bind(1, code);
  std::size_t expected = 0;
  bool ok = true;
  while (actions.step()) {
    if (static_cast<std::size_t>(actions.integer(0)) != expected++) ok = false;
    try {
      r.log.push_back(
          {static_cast<int>(actions.integer(1)), json::parse(actions.text(2)), actions.integer(3)});
      r.version = std::max(r.version, actions.integer(4));
    } catch (const std::exception&) {
      ok = false;
    }
  }
  actions.reset();
  if (!ok) {
    spdlog::error("journal: room {} has a gap or damage in its log", code);
    return std::nullopt;
  }
  return r;
}

}  // namespace campfire::server
