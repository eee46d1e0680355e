#include "server/wal_keeper.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "server/sqlite_db.hpp"

namespace campfire::server {

namespace {

// SQLite removes the WAL file when the last connection closes, and truncates it at a reset or a
// close when told a size limit. Neither happens here: the file keeps the blocks written for it
// (a connection of the journal's closing last sees to that; the writer's closes last).
void keep_wal(sqlite3* db) {
  int persist = 1;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  sqlite::exec(db, "PRAGMA journal_size_limit=-1");
}

// Writes the WAL file out to `bytes` with zeros and syncs it, so that appends overwrite blocks
// already allocated and written. An append past the file's end made ext4 allocate blocks under
// a lock that a checkpoint's sync of the WAL held, and the committing thread (an event loop's,
// often) waited up to 148 ms for it. Only bytes past the file's end are written, under the write
// lock so that no other connection appends meanwhile: SQLite reads a WAL up to its first frame
// that is not valid (page number 0, or the wrong salt), so zeros after the last frame add
// nothing, and a WAL that is zeros from its start is empty and gets its header with the first
// commit. A WAL that cannot be written ahead (a full disk, say) is left as it is: the journal
// works as before, and says so.
void presize_wal(sqlite3* db, const std::string& path, std::int64_t bytes) {
  sqlite::Stmt mode(db, "PRAGMA journal_mode");
  const bool wal = mode.step() && mode.text(0) == "wal";
  mode.reset();
  if (!wal) {
    spdlog::warn("journal: {} is not in WAL mode; its WAL is not written ahead", path);
    return;
  }
  int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  sqlite3_file* file = nullptr;
  if (rc == SQLITE_OK) {
    rc = sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file);
    if (rc == SQLITE_OK && (file == nullptr || file->pMethods == nullptr)) rc = SQLITE_ERROR;
  }
  sqlite3_int64 size = 0;
  if (rc == SQLITE_OK) rc = file->pMethods->xFileSize(file, &size);
  const sqlite3_int64 target = bytes;
  if (rc == SQLITE_OK && size < target) {
    // SQLite's unix files write at most 128 KB at a time.
    const std::vector<char> zeros(std::size_t{64} << 10, 0);
    for (sqlite3_int64 at = size; rc == SQLITE_OK && at < target;) {
      const auto n = static_cast<int>(
          std::min<sqlite3_int64>(static_cast<sqlite3_int64>(zeros.size()), target - at));
      rc = file->pMethods->xWrite(file, zeros.data(), n, at);
      at += n;
    }
    if (rc == SQLITE_OK) rc = file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
  }
  if (rc != SQLITE_OK) {
    spdlog::warn("journal: the WAL of {} was not written ahead ({}): it grows as it is written",
                 path, sqlite3_errstr(rc));
  }
  // Nothing was written in the transaction: it ends as it began.
  sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
}

}  // namespace

void WalKeeper::prepare_writer(sqlite3* writer_db, const std::string& path,
                               const WalLimits& limits) {
  if (limits.presize_bytes <= 0) return;
  keep_wal(writer_db);
  presize_wal(writer_db, path, limits.presize_bytes);
}

WalKeeper::WalKeeper(sqlite3* writer_db, const std::string& path, bool fsync,
                     const WalLimits& limits, std::mutex& commit_mutex)
    : limits_(limits),
      wal_path_(path + "-wal"),
      writer_db_(writer_db),
      commit_mutex_(commit_mutex) {
  checkpoint_db_ = sqlite::open(path, fsync);
  if (limits_.presize_bytes > 0) {
    try {
      keep_wal(checkpoint_db_);
    } catch (...) {
      sqlite3_close(checkpoint_db_);
      throw;
    }
  }
  // The writer no longer checkpoints itself (a wal hook replaces its automatic checkpoints):
  // past limits_.checkpoint_pages it wakes the checkpointer instead.
  sqlite3_wal_hook(writer_db_, &WalKeeper::wal_grew, this);
}

void WalKeeper::start() {
  checkpointer_ = std::thread([this] { checkpoints(); });
}

WalKeeper::~WalKeeper() {
  if (checkpointer_.joinable()) {
    {
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_stop_ = true;
    }
    checkpoint_wake_.notify_all();
    checkpointer_.join();
  }
  // The writer's connection closes after the keeper: no hook of it points to a keeper gone.
  sqlite3_wal_hook(writer_db_, nullptr, nullptr);
  sqlite3_close(checkpoint_db_);
}

WalLimits wal_limits_for(std::int64_t presize_bytes) {
  WalLimits limits;
  if (presize_bytes <= 0) return limits;
  constexpr std::int64_t kPage = 4096;
  constexpr std::int64_t kFewest = 1000;
  // Bounded so that four times it still counts in an int.
  constexpr std::int64_t kMost = std::numeric_limits<int>::max() / 4;
  limits.presize_bytes = presize_bytes;
  limits.checkpoint_pages =
      static_cast<int>(std::clamp(presize_bytes / 5 * 4 / kPage, kFewest, kMost));
  limits.reset_pages = 4 * limits.checkpoint_pages;
  return limits;
}

// After each commit of the writer, with the WAL's size in pages (SQLite's wal hook).
int WalKeeper::wal_grew(void* self, sqlite3*, const char*, int pages) {
  auto* keeper = static_cast<WalKeeper*>(self);
  if (pages >= keeper->limits_.reset_pages) keeper->reset_due_ = true;
  if (pages >= keeper->limits_.checkpoint_pages) {
    {
      std::lock_guard lock(keeper->checkpoint_mutex_);
      keeper->checkpoint_due_ = true;
    }
    keeper->checkpoint_wake_.notify_one();
  }
  return SQLITE_OK;
}

// Checkpoints on a thread and connection of their own. A checkpoint copies pages and syncs the
// database file: on the writer it held up every commit behind it (tens of milliseconds, the
// journal's slowest commits by far), and every frame waiting for those commits. A passive
// checkpoint never blocks the writer, which goes on appending to the WAL meanwhile; what a
// commit makes durable, and when, is as before.
//
// SQLite starts the WAL again from its beginning when a commit begins with every frame copied
// back, and that commit syncs the WAL's new header. Left to chance, neither went well: commits
// kept appending while each pass copied, so passes (each with two syncs) followed each other
// for up to half a second on the event loop's core, and the commit that did start the WAL
// afresh was usually the event loop's own, which waited for the sync (3-4 ms). So a closing
// pass copies the short tail with commits held back (the event loop hands its records to the
// writer meanwhile, and never waits), and the commit after it, which starts the WAL afresh, is
// left to the writer thread.
//
// A pass leaves behind the frames committed while it ran. The next pass follows at once while
// that tail shrinks; the closing pass comes when it is short, all copied, or no longer
// shrinking. Waiting instead for a pass that left nothing behind, as this once did, left the WAL
// growing for as long as commits kept coming faster than a pass's syncs: a steady writer then
// went 1,500 commits without a fresh start.
void WalKeeper::checkpoints() {
  // Frames a closing pass may be left to copy whatever the passes before it did: a few pages'
  // copying beside its two syncs.
  constexpr int kShortTail = 64;
  int last_tail = std::numeric_limits<int>::max();
  bool again = false;
  for (;;) {
    {
      std::unique_lock lock(checkpoint_mutex_);
      if (!again) {
        checkpoint_wake_.wait(
            lock, [&] { return checkpoint_stop_ || (checkpoint_due_ && !checkpoint_paused_); });
      }
      if (checkpoint_stop_) return;
      again = false;
      if (checkpoint_paused_) continue;
      checkpoint_due_ = false;
    }
    int wal = 0;
    int copied = 0;
    if (!passive_checkpoint(wal, copied) || wal == 0) {
      last_tail = std::numeric_limits<int>::max();
      continue;
    }
    const int tail = wal - copied;
    if (tail > kShortTail && tail < last_tail) {
      last_tail = tail;
      again = true;
      continue;
    }
    last_tail = std::numeric_limits<int>::max();
    presync_wal();
    // An event loop committing turn after turn would take the lock again and again ahead of
    // a thread waiting for it: until this pass has it, turns go to the writer.
    closing_wanted_.store(true);
    std::lock_guard commit_lock(commit_mutex_);
    closing_wanted_.store(false);
    closing_wanted_.notify_all();
    if (passive_checkpoint(wal, copied) && wal > 0 && copied == wal) {
      restart_on_writer_ = true;
      // The commits since the first pass asked for another; this one did what they wanted.
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_due_ = false;
    }
  }
}

// Syncs the WAL file through a descriptor of its own, without the commit lock. The closing pass
// syncs the WAL before it copies, under the lock: that sync had to write out every frame
// committed while the passes before it ran, and the commits it held back meanwhile (the frames
// of every move made in those milliseconds) waited for it. Synced here first, the pass's own
// sync finds only the few frames committed since. Pinocchio's p99 under `campfire-load rate` at
// half its maximum with 1,000 connections went from 4.9-7.6 ms to 3.9-4.3 (five alternated
// pairs), Tricky Tribes' from 4.9-5.6 to 3.1-3.9. Nothing depends on it: a WAL that cannot be
// opened here is synced by the pass, as before.
void WalKeeper::presync_wal() {
  const int fd = ::open(wal_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fdatasync(fd);
  ::close(fd);
}

// One passive checkpoint on the checkpointer's connection; `wal` gets the frames in the WAL,
// `copied` those now in the database. False when it did not run.
bool WalKeeper::passive_checkpoint(int& wal, int& copied) {
  const int rc =
      sqlite3_wal_checkpoint_v2(checkpoint_db_, nullptr, SQLITE_CHECKPOINT_PASSIVE, &wal, &copied);
  if (rc != SQLITE_OK && rc != SQLITE_BUSY) {
    spdlog::warn("journal: checkpoint failed: {}", sqlite3_errmsg(checkpoint_db_));
  }
  return rc == SQLITE_OK;
}

// SQLite starts the WAL again from its beginning only when a transaction begins with every
// frame copied back, which a writer that never pauses does not allow: passive checkpoints stay
// behind it, and the WAL grew without end (400 MB in the journal benchmark's first three
// seconds). Nor can another connection's checkpoint that waits for the writer's lock get it
// between commits that follow each other at once. So past limits_.reset_pages the writer
// itself, between two commits, copies the rest back and restarts the WAL: one wait of a
// checkpoint's length for the records queued meanwhile, once per reset_pages of WAL.
void WalKeeper::reset_wal() {
  reset_due_ = false;
  // One checkpoint at a time: the checkpointer stands aside, and the one it may be running ends
  // first (SQLite answers busy at once, without its busy handler, while another connection
  // checkpoints).
  {
    std::lock_guard lock(checkpoint_mutex_);
    checkpoint_paused_ = true;
  }
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  int rc = SQLITE_OK;
  for (;;) {
    int wal = 0;
    int copied = 0;
    rc = sqlite3_wal_checkpoint_v2(writer_db_, nullptr, SQLITE_CHECKPOINT_RESTART, &wal, &copied);
    const bool other_checkpoint = rc == SQLITE_BUSY && wal < 0;
    if (!other_checkpoint || std::chrono::steady_clock::now() > give_up) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (rc != SQLITE_OK) {
    spdlog::warn("journal: the WAL was not started afresh this time: {}",
                 sqlite3_errmsg(writer_db_));
  }
  {
    std::lock_guard lock(checkpoint_mutex_);
    checkpoint_paused_ = false;
  }
  checkpoint_wake_.notify_one();
}

}  // namespace campfire::server
