// The layer under the journal's SQLite files that writes a commit's WAL frames out in one call
// (server/sqlite_vfs.hpp). What it must never do is let a frame be seen, by this process or
// another, before it is in the file, or lose what a commit that returned wrote.
#include "server/sqlite_vfs.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "server/sqlite_db.hpp"
#include "tests/support/scratch_dir.hpp"

namespace campfire::server::testing {
namespace {

class BatchingVfs : public ::testing::Test {
 protected:
  void SetUp() override { path_ = (dir_.path() / "campfire.db").string(); }

  // A connection through the system's own VFS, as another program reading the journal would
  // have.
  sqlite3* open_plain() const {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    return db;
  }

  static std::int64_t integer(sqlite3* db, const char* sql) {
    sqlite::Stmt q(db, sql);
    EXPECT_TRUE(q.step()) << sqlite3_errmsg(db);
    return q.integer(0);
  }

  static std::string text(sqlite3* db, const char* sql) {
    sqlite::Stmt q(db, sql);
    EXPECT_TRUE(q.step()) << sqlite3_errmsg(db);
    return q.text(0);
  }

  campfire::testing::ScratchDir dir_{"campfire-vfs-test"};
  std::string path_;
};

TEST_F(BatchingVfs, TheJournalsConnectionsGoThroughIt) {
  sqlite3* db = sqlite::open(path_, false);
  sqlite3_vfs* vfs = nullptr;
  ASSERT_EQ(sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs), SQLITE_OK);
  ASSERT_NE(vfs, nullptr);
  EXPECT_STREQ(vfs->zName, sqlite::batching_vfs());
  sqlite3_close(db);
}

// Each commit spans several pages, so several frames are held until its last: a connection
// through the plain VFS, which reads the frames from the file as soon as the WAL index names
// them, finds every row of every commit the moment the commit returns.
TEST_F(BatchingVfs, AnotherConnectionReadsEveryCommitAsSoonAsItReturns) {
  sqlite3* writer = sqlite::open(path_, false);
  sqlite::exec(writer, "CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB)");
  sqlite3* reader = open_plain();
  {
    // Finalised before the connection closes.
    sqlite::Stmt insert(writer, "INSERT INTO t(v) VALUES(randomblob(?1))");
    std::int64_t rows = 0;
    std::int64_t bytes = 0;
    for (int commit = 0; commit < 150; ++commit) {
      sqlite::exec(writer, "BEGIN");
      for (int i = 0; i < 4; ++i) {
        const int size = 500 + (commit * 7 + i * 1300) % 3500;
        insert.bind(1, size).run();
        ++rows;
        bytes += size;
      }
      sqlite::exec(writer, "COMMIT");
      EXPECT_EQ(integer(reader, "SELECT count(*) FROM t"), rows) << "after commit " << commit;
      EXPECT_EQ(integer(reader, "SELECT sum(length(v)) FROM t"), bytes)
          << "after commit " << commit;
      if (::testing::Test::HasFailure()) break;
    }
  }
  EXPECT_EQ(text(reader, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(sqlite3_close(reader), SQLITE_OK);
  EXPECT_EQ(sqlite3_close(writer), SQLITE_OK);
}

// A transaction bigger than the page cache writes frames before its commit and reads some of
// them back: what it holds is written out before a read, and a write that does not follow the
// last goes to its own place.
TEST_F(BatchingVfs, ATransactionThatSpillsReadsBackWhatItWrote) {
  sqlite3* writer = sqlite::open(path_, false);
  sqlite::exec(writer, "PRAGMA cache_size=10");
  sqlite::exec(writer, "CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB)");
  sqlite::exec(writer, "BEGIN");
  sqlite::exec(writer,
               "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) "
               "INSERT INTO t(v) SELECT randomblob(1500) FROM n");
  EXPECT_EQ(integer(writer, "SELECT count(*) FROM t"), 400);
  sqlite::exec(writer, "UPDATE t SET v = randomblob(700) WHERE k % 3 = 0");
  EXPECT_EQ(integer(writer, "SELECT sum(length(v)) FROM t"), 133 * 700 + 267 * 1500);
  sqlite::exec(writer, "COMMIT");
  sqlite3* reader = open_plain();
  EXPECT_EQ(integer(reader, "SELECT sum(length(v)) FROM t"), 133 * 700 + 267 * 1500);
  EXPECT_EQ(text(reader, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(sqlite3_close(reader), SQLITE_OK);
  EXPECT_EQ(sqlite3_close(writer), SQLITE_OK);
}

// A process killed after a commit returned loses nothing of it: the child reports each commit as
// it returns and, after the last, waits to be killed; the database opened afterwards holds every
// row. (Held back in the layer, the last commit's frames would die with the process.)
TEST_F(BatchingVfs, NoCommitThatReturnedIsLostWhenTheProcessIsKilled) {
  {
    sqlite3* db = sqlite::open(path_, false);
    sqlite::exec(db, "CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB)");
    sqlite3_close(db);
  }
  constexpr std::uint32_t kCommits = 333;
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    sqlite3* db = sqlite::open(path_, false);
    for (std::uint32_t n = 1; n <= kCommits; ++n) {
      sqlite::exec(db, "BEGIN");
      sqlite::exec(db, "INSERT INTO t(v) VALUES(randomblob(3000))");
      if (n < kCommits) sqlite::exec(db, "INSERT INTO t(v) VALUES(randomblob(3000))");
      sqlite::exec(db, "COMMIT");
      if (::write(pipe_fds[1], &n, sizeof n) != static_cast<ssize_t>(sizeof n)) ::_exit(1);
    }
    for (;;) ::pause();
  }
  ::close(pipe_fds[1]);
  std::uint32_t acknowledged = 0;
  while (acknowledged < kCommits) {
    std::uint32_t n = 0;
    ASSERT_EQ(::read(pipe_fds[0], &n, sizeof n), static_cast<ssize_t>(sizeof n));
    acknowledged = n;
  }
  ::close(pipe_fds[0]);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  sqlite3* db = sqlite::open(path_, false);
  EXPECT_EQ(integer(db, "SELECT count(*) FROM t"), 2 * std::int64_t{kCommits} - 1);
  EXPECT_EQ(text(db, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
}

}  // namespace
}  // namespace campfire::server::testing
