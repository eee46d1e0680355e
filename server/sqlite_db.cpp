#include "server/sqlite_db.hpp"

#include "server/sqlite_vfs.hpp"

namespace campfire::server::sqlite {

void exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string message = err != nullptr ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error(std::string("journal: ") + message + " in: " + sql);
  }
}

sqlite3* open(const std::string& path, bool fsync) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      batching_vfs()) != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw std::runtime_error("journal: cannot open " + path + ": " + message);
  }
  sqlite3_busy_timeout(db, 5000);
  try {
    exec(db, "PRAGMA journal_mode=WAL");
    // In WAL mode NORMAL survives any process crash; FULL also survives losing power.
    exec(db, fsync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    exec(db, "PRAGMA foreign_keys=OFF");
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  return db;
}

}  // namespace campfire::server::sqlite
