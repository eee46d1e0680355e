// Where the SQLite journal puts a room's moves. Keyed by room and position (`actions`), each
// commit dirtied one page per room that moved, and every dirty page is a 4 KiB frame in the WAL
// and again in the checkpoint: about one page a move. So moves of rooms in play are appended to
// `moves` in the order they are committed, where a commit's moves share the page at the table's
// end. When a room's game ends (or it is abandoned), its moves are copied to `actions` in one
// go, where they sit together for replays; a room that plays for a very long time has its moves
// copied early. Rows of `moves` copied already are dropped from the front of the table in
// ranges, which frees whole pages.
//
// What a reader needs to know (server/sqlite_reader.cpp):
// - a finished or abandoned room has all its moves in `actions` (the copy is made in the
//   transaction that records the end);
// - a room in play has moves 0..k-1 in `actions` and the rest in `moves`, as the rows of `moves`
//   with its code, seq >= rooms.first_seq (rows of an earlier room of the same code are below it)
//   and idx >= k (rows already copied may still be there).
//
// The rows of rooms in play not yet copied are also kept in memory (at most about `span` of
// them), so that a copy writes `actions` without reading `moves` back: those reads, of pages
// spread over the whole table, were most of what a copy cost.
//
// Used by the journal's writer connection only, within its transactions (the caller's lock).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace campfire::server {

namespace sqlite {
class Stmt;
}

class MoveLog {
 public:
  struct Limits {
    // Moves appended between two looks at what the front of the table can lose.
    std::int64_t check_every = 512;
    // Rows dropped at the least in one go, so that a range delete frees whole pages.
    std::int64_t drop_at_least = 1024;
    // When a room in play holds more rows than this back from being dropped, the rooms holding
    // them have their moves copied early, oldest first,
    std::int64_t span = 65536;
    // up to about this many rows at a look, so that no commit carries a long copy.
    std::int64_t copy_at_most = 1024;
  };

  // Statements prepared on `db`, whose tables exist (schema()).
  MoveLog(sqlite3* db, Limits limits);
  MoveLog(sqlite3* db) : MoveLog(db, Limits{}) {}
  ~MoveLog();
  MoveLog(const MoveLog&) = delete;
  MoveLog& operator=(const MoveLog&) = delete;

  // The table, for the journal's schema.
  static const char* schema();

  // In a transaction of its own, when the journal opens: every room in play has its moves
  // copied, and the table keeps only its newest row (which keeps seq growing across restarts).
  // Rooms then load from `actions` alone.
  void open();
  // What the table and `actions` say, again: after a transaction was rolled back.
  void reload();

  // The seq the next move will have: a new room's rooms.first_seq.
  std::int64_t next_seq() const { return next_seq_; }
  // Appends move `idx` of room `code`; throws std::runtime_error unless it is the room's next.
  void append(const std::string& code, std::int64_t idx, std::int64_t seat, std::string action,
              std::int64_t at_ms, std::int64_t version);
  // The room's game ended: its moves are copied to `actions`.
  void ended(const std::string& code);
  // The room is gone; its rows in the table are left to be dropped with the front.
  void removed(const std::string& code) { rooms_.erase(code); }
  // At the end of a batch, in its transaction: early copies and dropping the front, when due.
  void upkeep();

  // For tests: rows of rooms in play not yet copied.
  std::size_t uncopied() const;

 private:
  struct Row {
    std::int64_t seq;
    std::int64_t idx;
    std::int64_t seat;
    std::string action;
    std::int64_t at_ms;
    std::int64_t version;
  };
  struct Room {
    std::vector<Row> rows;  // its rows in the table not yet copied, oldest first
    std::int64_t next_idx = 0;
  };

  void copy(const std::string& code, Room& room);
  std::int64_t scalar(const char* sql);

  sqlite3* db_;
  Limits limits_;
  std::unique_ptr<sqlite::Stmt> insert_;
  std::unique_ptr<sqlite::Stmt> copy_;
  std::unique_ptr<sqlite::Stmt> drop_;
  std::unique_ptr<sqlite::Stmt> next_idx_;
  std::unordered_map<std::string, Room> rooms_;
  std::int64_t next_seq_ = 1;
  std::int64_t dropped_to_ = 1;  // rows below this seq are gone
  std::int64_t since_check_ = 0;
};

}  // namespace campfire::server
