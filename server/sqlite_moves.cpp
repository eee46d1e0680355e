#include "server/sqlite_moves.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "server/sqlite_db.hpp"

namespace campfire::server {

using sqlite::Stmt;

const char* MoveLog::schema() {
  return R"sql(
CREATE TABLE IF NOT EXISTS moves(
  seq INTEGER PRIMARY KEY,
  code TEXT NOT NULL,
  idx INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  action TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  version INTEGER NOT NULL);
)sql";
}

MoveLog::MoveLog(sqlite3* db, Limits limits)
    : db_(db),
      limits_(limits),
      insert_(std::make_unique<Stmt>(db,
                                     "INSERT INTO moves(seq, code, idx, seat, action, at_ms,"
                                     " version) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")),
      copy_(std::make_unique<Stmt>(db,
                                   "INSERT INTO actions(code, idx, seat, action, at_ms, version)"
                                   " VALUES(?1, ?2, ?3, ?4, ?5, ?6)")),
      drop_(std::make_unique<Stmt>(db, "DELETE FROM moves WHERE seq < ?1")),
      next_idx_(std::make_unique<Stmt>(
          db, "SELECT coalesce(max(idx) + 1, 0) FROM actions WHERE code = ?1")) {}

MoveLog::~MoveLog() = default;

std::int64_t MoveLog::scalar(const char* sql) {
  Stmt q(db_, sql);
  const std::int64_t v = q.step() ? q.integer(0) : 0;
  q.reset();
  return v;
}

void MoveLog::reload() {
  rooms_.clear();
  since_check_ = 0;
  next_seq_ = scalar("SELECT coalesce(max(seq), 0) + 1 FROM moves");
  dropped_to_ = scalar("SELECT coalesce(min(seq), 1) FROM moves");
  // The rows of rooms in play that `actions` does not have yet, in the order they were appended.
  Stmt q(db_,
         "SELECT m.seq, m.code, m.idx, m.seat, m.action, m.at_ms, m.version"
         " FROM moves m JOIN rooms r ON r.code = m.code"
         " WHERE m.seq >= r.first_seq AND r.status IN ('waiting', 'playing')"
         " AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.code = m.code AND a.idx = m.idx)"
         " ORDER BY m.seq");
  while (q.step()) {
    Room& room = rooms_[q.text(1)];
    room.rows.push_back(
        {q.integer(0), q.integer(2), q.integer(3), q.text(4), q.integer(5), q.integer(6)});
    room.next_idx = q.integer(2) + 1;
  }
  q.reset();
}

void MoveLog::open() {
  sqlite::exec(db_, "BEGIN IMMEDIATE");
  try {
    reload();
    for (auto& [code, room] : rooms_) copy(code, room);
    rooms_.clear();
    // Everything but the newest row, whose seq the next move's follows.
    if (next_seq_ - 1 > dropped_to_) {
      drop_->bind(1, next_seq_ - 1).run();
      dropped_to_ = next_seq_ - 1;
    }
    sqlite::exec(db_, "COMMIT");
  } catch (...) {
    sqlite::exec(db_, "ROLLBACK");
    throw;
  }
}

void MoveLog::append(const std::string& code, std::int64_t idx, std::int64_t seat,
                     std::string action, std::int64_t at_ms, std::int64_t version) {
  auto it = rooms_.find(code);
  if (it == rooms_.end()) {
    // A room in play with nothing in the table: it goes on from what `actions` has.
    next_idx_->bind(1, code);
    const std::int64_t next = next_idx_->step() ? next_idx_->integer(0) : 0;
    next_idx_->reset();
    it = rooms_.emplace(code, Room{{}, next}).first;
  }
  Room& room = it->second;
  if (idx != room.next_idx) {
    throw std::runtime_error("move " + std::to_string(idx) + " of room " + code +
                             " is not its next (" + std::to_string(room.next_idx) + ")");
  }
  insert_->bind(1, next_seq_)
      .bind(2, code)
      .bind(3, idx)
      .bind(4, seat)
      .bind(5, action)
      .bind(6, at_ms)
      .bind(7, version)
      .run();
  room.rows.push_back({next_seq_++, idx, seat, std::move(action), at_ms, version});
  ++room.next_idx;
  ++since_check_;
}

void MoveLog::copy(const std::string& code, Room& room) {
  for (const Row& row : room.rows) {
    copy_->bind(1, code)
        .bind(2, row.idx)
        .bind(3, row.seat)
        .bind(4, row.action)
        .bind(5, row.at_ms)
        .bind(6, row.version)
        .run();
  }
  room.rows.clear();
}

void MoveLog::ended(const std::string& code) {
  const auto it = rooms_.find(code);
  if (it == rooms_.end()) return;
  copy(code, it->second);
  rooms_.erase(it);
}

void MoveLog::upkeep() {
  if (since_check_ < limits_.check_every) return;
  since_check_ = 0;
  // The newest row stays, whatever else goes.
  const std::int64_t newest = next_seq_ - 1;
  const auto front = [&] {
    std::int64_t cut = newest;
    for (const auto& [code, room] : rooms_) {
      if (!room.rows.empty()) cut = std::min(cut, room.rows.front().seq);
    }
    return cut;
  };
  std::int64_t cut = front();
  if (next_seq_ - cut > limits_.span) {
    // Rooms that have held the front for long have their moves copied now, those holding it
    // furthest back first; they go on appending. The next looks copy more.
    const std::int64_t keep_from = next_seq_ - limits_.span / 2;
    std::vector<std::pair<const std::string*, Room*>> behind;
    for (auto& [code, room] : rooms_) {
      if (!room.rows.empty() && room.rows.front().seq < keep_from)
        behind.emplace_back(&code, &room);
    }
    std::sort(behind.begin(), behind.end(), [](const auto& a, const auto& b) {
      return a.second->rows.front().seq < b.second->rows.front().seq;
    });
    std::int64_t copied = 0;
    for (auto& [code, room] : behind) {
      if (copied >= limits_.copy_at_most) break;
      copied += static_cast<std::int64_t>(room->rows.size());
      copy(*code, *room);
    }
    cut = front();
  }
  if (cut - dropped_to_ >= limits_.drop_at_least) {
    drop_->bind(1, cut).run();
    dropped_to_ = cut;
  }
}

std::size_t MoveLog::uncopied() const {
  std::size_t n = 0;
  for (const auto& [code, room] : rooms_) n += room.rows.size();
  return n;
}

}  // namespace campfire::server
