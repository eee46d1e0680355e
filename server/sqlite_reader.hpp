// The SQLite journal's reading side: a connection of its own beside the writer's (WAL lets a
// reader and a writer work at once), for what the server loads: every room to resume on start,
// one room for a rejoin or a replay, and the finished rooms old enough to prune.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/journal.hpp"

struct sqlite3;

namespace campfire::server {

namespace sqlite {
class Stmt;
}

// Thread-safe: one lock around its connection.
class SqliteReader {
 public:
  // Opens the database at `path`, whose tables the writer has made.
  SqliteReader(const std::string& path, bool fsync);
  ~SqliteReader();
  SqliteReader(const SqliteReader&) = delete;
  SqliteReader& operator=(const SqliteReader&) = delete;

  // Every room kept.
  std::vector<std::string> codes();
  // Rooms waiting or playing, and those over since `finished_since_ms`, oldest first.
  std::vector<std::string> live_codes(std::int64_t finished_since_ms);
  // Finished or abandoned rooms that ended before `before_ms`.
  std::vector<std::string> ended_before(std::int64_t before_ms);
  // A room with its seats and log; nothing when it is not kept or is damaged (logged).
  std::optional<StoredRoom> load(const std::string& code);

 private:
  std::vector<std::string> codes_where(const char* sql, std::int64_t arg, bool bound);

  std::mutex mutex_;
  sqlite3* db_ = nullptr;
  std::unique_ptr<sqlite::Stmt> room_;
  std::unique_ptr<sqlite::Stmt> seats_;
  std::unique_ptr<sqlite::Stmt> actions_;
  std::unique_ptr<sqlite::Stmt> moves_;
};

}  // namespace campfire::server
