// The upkeep of the SQLite journal's WAL, beside its writer (server/sqlite_journal.cpp): passive
// checkpoints on a thread and connection of their own, the closing pass after which the writer
// thread starts the WAL afresh, the writer's own reset past a bound, and the WAL written ahead.
// The writer commits under a lock it shares with the keeper, and asks it, around its commits,
// what the WAL needs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "server/sqlite_journal.hpp"

struct sqlite3;

namespace campfire::server {

class WalKeeper {
 public:
  // On the writer's connection as it opens, before the journal's other connections: with
  // limits.presize_bytes, the WAL is kept when the journal closes and written out ahead.
  static void prepare_writer(sqlite3* writer_db, const std::string& path, const WalLimits& limits);

  // Opens the checkpointer's connection to the database at `path` and follows the commits on
  // `writer_db` (its wal hook). Whoever commits on `writer_db` holds `commit_mutex`, which the
  // keeper takes for its closing pass.
  WalKeeper(sqlite3* writer_db, const std::string& path, bool fsync, const WalLimits& limits,
            std::mutex& commit_mutex);
  // Starts the checkpointer. The journal starts it after its writer thread, not before: the other
  // way round, the WAL of an event loop committing turn after turn started afresh less often
  // (JournalStore.AnEventLoopsSteadyCommitsStartTheWalAfresh failed about twice as often on two
  // busy cores).
  void start();
  // Stops the checkpointer (when started) and closes its connection; the writer's commits are
  // over by then.
  ~WalKeeper();
  WalKeeper(const WalKeeper&) = delete;
  WalKeeper& operator=(const WalKeeper&) = delete;

  // Without the commit lock: true while the closing pass waits for it. An event loop then hands
  // its turn to the writer rather than take the lock ahead of the pass again and again.
  bool closing_pass_waits() const { return closing_wanted_.load(); }
  // Without the commit lock, on the writer thread before it takes the lock: returns once no
  // closing pass waits for it. A writer woken turn after turn took the lock again and again
  // ahead of the pass (1,500 commits once), and the WAL grew meanwhile; its records wait for
  // the pass instead, which their frames would have done either way.
  void let_closing_pass_in() const { closing_wanted_.wait(true); }

  // Under the commit lock. True when the WAL is all copied back: the next commit, which starts
  // it afresh and syncs its new header, is the writer thread's, not an event loop's.
  bool restart_owed_to_writer() const { return restart_on_writer_; }
  // Under the commit lock, after the writer thread committed: the WAL was started afresh.
  void writer_committed() { restart_on_writer_ = false; }

  // Under the commit lock. True when the WAL has grown to limits.reset_pages: the writer thread
  // calls reset_wal between two commits.
  bool reset_due() const { return reset_due_; }
  // Under the commit lock, on the writer thread: copies the whole WAL back and restarts it.
  void reset_wal();

 private:
  static int wal_grew(void* self, sqlite3*, const char*, int pages);
  void checkpoints();
  bool passive_checkpoint(int& wal, int& copied);
  // Before the closing pass takes the commit lock (see presync_wal).
  void presync_wal();

  const WalLimits limits_;
  const std::string wal_path_;
  sqlite3* writer_db_;
  std::mutex& commit_mutex_;

  bool reset_due_ = false;  // under commit_mutex_ (see reset_wal)
  // Under commit_mutex_: the WAL is all copied back, and the next commit, which starts it afresh
  // and syncs its header, is the writer thread's (see checkpoints).
  bool restart_on_writer_ = false;
  // The checkpointer waits for commit_mutex_ for its closing pass (see checkpoints).
  std::atomic<bool> closing_wanted_{false};

  // The checkpointer (see checkpoints); its connection is its own.
  sqlite3* checkpoint_db_ = nullptr;
  std::mutex checkpoint_mutex_;
  std::condition_variable checkpoint_wake_;
  bool checkpoint_due_ = false;
  bool checkpoint_stop_ = false;
  bool checkpoint_paused_ = false;  // while the writer resets the WAL
  std::thread checkpointer_;
};

}  // namespace campfire::server
