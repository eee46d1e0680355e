// What the SQLite journal's connections share: opening one, running plain SQL, and prepared
// statements that reset themselves after each use. Errors are thrown as std::runtime_error.
#pragma once

#include <sqlite3.h>

#include <stdexcept>
#include <string>

namespace campfire::server::sqlite {

// Opens (or creates) the database at `path` in WAL mode, through the layer that writes a
// commit's WAL frames in one call (server/sqlite_vfs.hpp); `fsync`: every commit synced to disk.
sqlite3* open(const std::string& path, bool fsync);
// Runs SQL that returns nothing.
void exec(sqlite3* db, const char* sql);

// A prepared statement, reset after every use.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK) {
      throw std::runtime_error(std::string("journal: cannot prepare: ") + sqlite3_errmsg(db));
    }
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, long long v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
  }
  Stmt& bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(stmt_, i);
    return *this;
  }
  // Steps once; true when a row is ready.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) {
      const std::string message = sqlite3_errmsg(sqlite3_db_handle(stmt_));
      reset();
      throw std::runtime_error("journal: " + message);
    }
    return false;
  }
  void run() {
    step();
    reset();
  }
  void reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  long long integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p == nullptr ? std::string()
                        : std::string(reinterpret_cast<const char*>(p),
                                      static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
  }
  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace campfire::server::sqlite
