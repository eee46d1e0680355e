#include "server/sqlite_journal.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "server/sqlite_db.hpp"
#include "server/sqlite_reader.hpp"

namespace campfire::server {

namespace {

using sqlite::Stmt;

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS rooms(
  code TEXT PRIMARY KEY,
  game TEXT NOT NULL,
  seats INTEGER NOT NULL,
  options TEXT NOT NULL,
  seed TEXT NOT NULL,
  deck_order TEXT,
  listed INTEGER NOT NULL,
  settings TEXT NOT NULL,
  status TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_ms INTEGER NOT NULL,
  finished_ms INTEGER,
  result TEXT,
  fairness TEXT);
CREATE INDEX IF NOT EXISTS rooms_by_status ON rooms(status, finished_ms);
CREATE TABLE IF NOT EXISTS seats(
  code TEXT NOT NULL,
  seat INTEGER NOT NULL,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL,
  bot TEXT NOT NULL,
  names TEXT,
  entropy TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(code, seat)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions(
  code TEXT NOT NULL,
  idx INTEGER NOT NULL,
  seat INTEGER NOT NULL,
  action TEXT NOT NULL,
  at_ms INTEGER NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY(code, idx)) WITHOUT ROWID;
)sql";

class SqliteJournal final : public Journal {
 public:
  SqliteJournal(const std::string& dir, bool fsync, const WalLimits& limits)
      : limits_(limits), commit_in_turn_(!fsync) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("journal: cannot create " + dir + ": " + ec.message());
    path_ = (std::filesystem::path(dir) / "campfire.db").string();
    writer_db_ = sqlite::open(path_, fsync);
    try {
      sqlite::exec(writer_db_, kSchema);
      upgrade();
      if (limits_.presize_bytes > 0) {
        keep_wal(writer_db_);
        presize_wal();
      }
    } catch (...) {
      // A journal this server cannot use (one in a later format, say) is closed before the error
      // is passed on.
      sqlite3_close(writer_db_);
      throw;
    }
    try {
      reader_ = std::make_unique<SqliteReader>(path_, fsync);
      for (auto& code : reader_->codes()) codes_.insert(std::move(code));
      prepare();
    } catch (...) {
      statements_.clear();
      reader_.reset();
      sqlite3_close(writer_db_);
      throw;
    }
    checkpoint_db_ = sqlite::open(path_, fsync);
    if (limits_.presize_bytes > 0) keep_wal(checkpoint_db_);
    // The writer no longer checkpoints itself (a wal hook replaces its automatic checkpoints):
    // past limits_.checkpoint_pages it wakes the checkpointer instead.
    sqlite3_wal_hook(writer_db_, &SqliteJournal::wal_grew, this);
    release_->journal = this;
    thread_ = std::thread([this] { run(); });
    checkpointer_ = std::thread([this] { checkpoints(); });
    spdlog::info("journal: {} ({} rooms kept, {})", path_, codes_.size(),
                 fsync ? "every commit synced to disk" : "crash-safe, not power-cut-safe");
  }

  ~SqliteJournal() override {
    {
      // A release still posted finds nothing to release.
      std::lock_guard lock(release_->mutex);
      release_->journal = nullptr;
    }
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      move_gathered();
    }
    wake_.notify_all();
    thread_.join();
    {
      std::lock_guard lock(checkpoint_mutex_);
      checkpoint_stop_ = true;
    }
    checkpoint_wake_.notify_all();
    checkpointer_.join();
    statements_.clear();
    sqlite3_close(checkpoint_db_);
    reader_.reset();
    // The last connection to close copies what the WAL still holds into the database.
    sqlite3_close(writer_db_);
  }

  bool durable() const override { return true; }

  void write(Record record, Done done) override {
    bool post_release = false;
    bool gathering = false;
    {
      std::lock_guard lock(mutex_);
      if (record.kind == Record::Kind::kCreate) codes_.insert(record.code);
      ++queued_;
      gathering = static_cast<bool>(defer_);
      if (!gathering) {
        queue_.push_back({std::move(record), std::move(done)});
      } else {
        gathered_.push_back({std::move(record), std::move(done)});
        post_release = !release_posted_;
        release_posted_ = true;
      }
    }
    if (!post_release) {
      if (!gathering) wake_.notify_one();
      return;
    }
    defer_([weak = std::weak_ptr<Release>(release_)] {
      const auto r = weak.lock();
      if (!r) return;
      std::lock_guard lock(r->mutex);
      if (r->journal) r->journal->release_gathered();
    });
  }

  void flush() override {
    std::unique_lock lock(mutex_);
    // What waits for the end of a turn goes now: the caller may be the thread that would end it.
    if (move_gathered()) wake_.notify_one();
    const std::uint64_t target = queued_;
    idle_.wait(lock, [&] { return committed_ >= target || stopped_; });
  }

  void gather_by_turn(Defer defer) override {
    std::lock_guard lock(mutex_);
    defer_ = std::move(defer);
  }

  std::vector<StoredRoom> live(std::int64_t finished_since_ms) override {
    std::vector<StoredRoom> rooms;
    for (const auto& code : reader_->live_codes(finished_since_ms)) {
      if (auto r = load(code)) rooms.push_back(std::move(*r));
    }
    return rooms;
  }

  std::optional<StoredRoom> load(const std::string& code) override { return reader_->load(code); }

  bool has(const std::string& code) override {
    std::lock_guard lock(mutex_);
    return codes_.count(code) != 0;
  }

  std::size_t prune(std::int64_t before_ms) override {
    const std::vector<std::string> codes = reader_->ended_before(before_ms);
    for (const auto& code : codes) {
      Record r;
      r.kind = Record::Kind::kRemove;
      r.code = code;
      write(std::move(r), nullptr);
    }
    return codes.size();
  }

  Stats stats() const override {
    std::lock_guard lock(mutex_);
    return stats_;
  }

 private:
  struct Pending {
    Record record;
    Done done;
  };

  // What a posted release reaches the journal through, so that one arriving after the journal is
  // gone does nothing.
  struct Release {
    std::mutex mutex;
    SqliteJournal* journal = nullptr;
  };

  // Hands the records gathered this turn to the writer (under mutex_); true when there were any.
  bool move_gathered() {
    release_posted_ = false;
    if (gathered_.empty()) return false;
    for (Pending& p : gathered_) queue_.push_back(std::move(p));
    gathered_.clear();
    return true;
  }

  // At the end of a turn of the event loop, on its thread. When the writer thread is idle and
  // owes nothing, the turn's records are committed here and now: handing them to that thread and
  // their completions back cost two wake-ups and two thread switches, more than the commit
  // itself (on one core they decided the tail latency at moderate load). A commit here takes
  // what one on the writer would (a few writes into the WAL, no sync), and the frames waited for
  // it either way. With every commit synced to disk, or while the writer is busy, they go to
  // the writer as before, so the event loop never waits for a sync or behind another commit.
  void release_gathered() {
    std::vector<Pending> batch;
    if (commit_in_turn_ && !closing_wanted_.load()) {
      std::unique_lock commit_lock(commit_mutex_, std::try_to_lock);
      if (commit_lock.owns_lock()) {
        {
          std::lock_guard lock(mutex_);
          // Records queued earlier commit first: those are the writer's, already woken. The
          // commit that starts the WAL afresh (and syncs it) is the writer's too.
          if (restart_on_writer_ || !queue_.empty() || stopping_) {
            commit_lock.unlock();
          } else {
            release_posted_ = false;
            batch.swap(gathered_);
          }
        }
        if (commit_lock.owns_lock()) {
          if (batch.empty()) return;
          const bool ok = commit(batch);
          const bool reset = reset_due_;
          commit_lock.unlock();
          finish(batch, ok);
          if (reset) {
            // Restarting the WAL waits for a checkpoint: the writer thread does it.
            {
              std::lock_guard lock(mutex_);
              reset_requested_ = true;
            }
            wake_.notify_one();
          }
          return;
        }
      }
    }
    bool any = false;
    {
      std::lock_guard lock(mutex_);
      any = move_gathered();
    }
    if (any) wake_.notify_one();
  }

  // One transaction of `batch`, under commit_mutex_; false when it failed and was rolled back.
  bool commit(const std::vector<Pending>& batch) {
    const auto started = std::chrono::steady_clock::now();
    bool ok = true;
    try {
      st(kBegin).run();
      for (const Pending& p : batch) apply(p.record);
      st(kCommit).run();
    } catch (const std::exception& e) {
      ok = false;
      spdlog::critical("journal: a commit of {} records failed: {}", batch.size(), e.what());
      sqlite3_exec(writer_db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    const auto took = std::chrono::steady_clock::now() - started;
    if (on_commit)
      on_commit(std::chrono::duration_cast<std::chrono::nanoseconds>(took), batch.size());
    return ok;
  }

  // Tells a committed batch's writers, and flush(), how it went.
  void finish(std::vector<Pending>& batch, bool ok) {
    for (Pending& p : batch) {
      if (p.done) p.done(ok);
    }
    {
      std::lock_guard lock(mutex_);
      committed_ += batch.size();
      stats_.records += batch.size();
      ++stats_.commits;
      if (!ok) ++stats_.failures;
    }
    idle_.notify_all();
    batch.clear();
  }

  // SQLite removes the WAL file when the last connection closes, and truncates it at a reset or a
  // close when told a size limit. Neither happens here: the file keeps the blocks written for it
  // (a connection of the journal's closing last sees to that; the writer's closes last).
  static void keep_wal(sqlite3* db) {
    int persist = 1;
    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
    sqlite::exec(db, "PRAGMA journal_size_limit=-1");
  }

  // Writes the WAL file out to limits_.presize_bytes with zeros and syncs it, so that appends
  // overwrite blocks already allocated and written. An append past the file's end made ext4
  // allocate blocks under a lock that a checkpoint's sync of the WAL held, and the committing
  // thread (an event loop's, often) waited up to 148 ms for it. Only bytes past the file's end
  // are written, under the write lock so that no other connection appends meanwhile: SQLite
  // reads a WAL up to its first frame that is not valid (page number 0, or the wrong salt), so
  // zeros after the last frame add nothing, and a WAL that is zeros from its start is empty and
  // gets its header with the first commit. A WAL that cannot be written ahead (a full disk,
  // say) is left as it is: the journal works as before, and says so.
  void presize_wal() {
    Stmt mode(writer_db_, "PRAGMA journal_mode");
    const bool wal = mode.step() && mode.text(0) == "wal";
    mode.reset();
    if (!wal) {
      spdlog::warn("journal: {} is not in WAL mode; its WAL is not written ahead", path_);
      return;
    }
    int rc = sqlite3_exec(writer_db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    sqlite3_file* file = nullptr;
    if (rc == SQLITE_OK) {
      rc = sqlite3_file_control(writer_db_, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file);
      if (rc == SQLITE_OK && (file == nullptr || file->pMethods == nullptr)) rc = SQLITE_ERROR;
    }
    sqlite3_int64 size = 0;
    if (rc == SQLITE_OK) rc = file->pMethods->xFileSize(file, &size);
    const sqlite3_int64 target = limits_.presize_bytes;
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
                   path_, sqlite3_errstr(rc));
    }
    // Nothing was written in the transaction: it ends as it began.
    sqlite3_exec(writer_db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }

  // Format 1 had no fair shuffles; format 2 keeps each room's server seed (rooms.fairness) and
  // each seat's contribution (seats.entropy). A format-1 journal gains both columns and its
  // rooms carry on without fairness; a journal from a later format is refused. A journal written
  // before seats kept their earlier names also lacks seats.names: it gains that column too, and
  // its seats keep the one name they had.
  static constexpr int kFormat = 2;

  bool has_column(const char* table, const char* column) {
    Stmt q(writer_db_,
           (std::string("SELECT name FROM pragma_table_info('") + table + "')").c_str());
    bool found = false;
    while (q.step()) found |= q.text(0) == column;
    q.reset();
    return found;
  }

  void upgrade() {
    int format = 0;
    {
      Stmt q(writer_db_, "PRAGMA user_version");
      if (q.step()) format = static_cast<int>(q.integer(0));
      q.reset();
    }
    if (format > kFormat) {
      throw std::runtime_error("journal: " + path_ + " is in format " + std::to_string(format) +
                               ", newer than this server's " + std::to_string(kFormat));
    }
    if (!has_column("seats", "names"))
      sqlite::exec(writer_db_, "ALTER TABLE seats ADD COLUMN names TEXT");
    if (!has_column("rooms", "fairness")) {
      sqlite::exec(writer_db_, "ALTER TABLE rooms ADD COLUMN fairness TEXT");
    }
    if (!has_column("seats", "entropy")) {
      sqlite::exec(writer_db_, "ALTER TABLE seats ADD COLUMN entropy TEXT NOT NULL DEFAULT ''");
    }
    if (format < kFormat) {
      sqlite::exec(writer_db_, ("PRAGMA user_version = " + std::to_string(kFormat)).c_str());
    }
  }

  enum S {
    kInsertRoom,
    kPutSeat,
    kFreeSeat,
    kInsertAction,
    kSetStatus,
    kSetVersion,
    kDelRoom,
    kDelSeats,
    kDelActions,
    kBegin,
    kCommit,
    kCount
  };

  void prepare() {
    const char* sql[kCount] = {
        "INSERT INTO rooms(code, game, seats, options, seed, deck_order, listed, settings, status,"
        " version, created_ms, fairness) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        "INSERT OR REPLACE INTO seats(code, seat, name, token_hash, bot, names, entropy)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        "DELETE FROM seats WHERE code = ?1 AND seat = ?2",
        "INSERT INTO actions(code, idx, seat, action, at_ms, version) VALUES(?1, ?2, ?3, ?4, ?5, "
        "?6)",
        "UPDATE rooms SET status = ?2, result = ?3, finished_ms = ?4 WHERE code = ?1",
        "UPDATE rooms SET version = ?2 WHERE code = ?1",
        "DELETE FROM rooms WHERE code = ?1",
        "DELETE FROM seats WHERE code = ?1",
        "DELETE FROM actions WHERE code = ?1",
        // Prepared once like the rest, rather than compiled anew for every commit.
        "BEGIN IMMEDIATE",
        "COMMIT",
    };
    for (const char* s : sql) statements_.push_back(std::make_unique<Stmt>(writer_db_, s));
  }

  Stmt& st(S s) { return *statements_[s]; }

  void apply(const Record& r) {
    switch (r.kind) {
      case Record::Kind::kCreate: {
        const StoredRoom& room = r.room;
        Stmt& q = st(kInsertRoom);
        q.bind(1, room.code).bind(2, room.game).bind(3, room.seats).bind(4, dump(room.options));
        q.bind(5, std::to_string(room.seed));
        if (room.deck_order.is_null()) {
          q.bind_null(6);
        } else {
          q.bind(6, dump(room.deck_order));
        }
        q.bind(7, room.listed ? 1 : 0).bind(8, dump(room.settings)).bind(9, room.status);
        q.bind(10, room.version).bind(11, room.created_ms);
        if (room.fairness.is_null()) {
          q.bind_null(12);
        } else {
          q.bind(12, dump(room.fairness));
        }
        q.run();
        return;
      }
      case Record::Kind::kSeat:
        st(kPutSeat)
            .bind(1, r.code)
            .bind(2, r.seat.seat)
            .bind(3, r.seat.name)
            .bind(4, r.seat.token_hash)
            .bind(5, r.seat.bot)
            .bind(6, dump(names_json(r.seat.names)))
            .bind(7, r.seat.entropy)
            .run();
        break;
      case Record::Kind::kFreeSeat:
        st(kFreeSeat).bind(1, r.code).bind(2, r.seat.seat).run();
        break;
      case Record::Kind::kAction:
        // The room's version rides in the action's row: one write per action.
        st(kInsertAction)
            .bind(1, r.code)
            .bind(2, static_cast<long long>(r.index))
            .bind(3, r.action.seat)
            .bind(4, dump(r.action.action))
            .bind(5, r.action.at_ms)
            .bind(6, r.version)
            .run();
        return;
      case Record::Kind::kStatus: {
        Stmt& q = st(kSetStatus);
        q.bind(1, r.code).bind(2, r.status);
        if (r.result.is_null()) {
          q.bind_null(3);
        } else {
          q.bind(3, dump(r.result));
        }
        if (r.status == "over" || r.status == "abandoned") {
          q.bind(4, wall_ms());
        } else {
          q.bind_null(4);
        }
        q.run();
        break;
      }
      case Record::Kind::kVersion:
        break;
      case Record::Kind::kRemove:
        st(kDelActions).bind(1, r.code).run();
        st(kDelSeats).bind(1, r.code).run();
        st(kDelRoom).bind(1, r.code).run();
        {
          std::lock_guard lock(mutex_);
          codes_.erase(r.code);
        }
        return;
    }
    st(kSetVersion).bind(1, r.code).bind(2, r.version).run();
  }

  // After each commit of the writer, with the WAL's size in pages (SQLite's wal hook).
  static int wal_grew(void* self, sqlite3*, const char*, int pages) {
    auto* journal = static_cast<SqliteJournal*>(self);
    if (pages >= journal->limits_.reset_pages) journal->reset_due_ = true;
    if (pages >= journal->limits_.checkpoint_pages) {
      {
        std::lock_guard lock(journal->checkpoint_mutex_);
        journal->checkpoint_due_ = true;
      }
      journal->checkpoint_wake_.notify_one();
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
  // afresh was usually the event loop's own, which waited for the sync (3-4 ms). So once a pass
  // has copied everything it found, a closing pass copies the short tail with commits held
  // back (the event loop hands its records to the writer meanwhile, and never waits), and the
  // commit after it, which starts the WAL afresh, is left to the writer thread.
  void checkpoints() {
    for (;;) {
      {
        std::unique_lock lock(checkpoint_mutex_);
        checkpoint_wake_.wait(
            lock, [&] { return checkpoint_stop_ || (checkpoint_due_ && !checkpoint_paused_); });
        if (checkpoint_stop_) return;
        checkpoint_due_ = false;
      }
      int wal = 0;
      int copied = 0;
      if (!passive_checkpoint(wal, copied) || wal == 0 || copied != wal) continue;
      // An event loop committing turn after turn would take the lock again and again ahead of
      // a thread waiting for it: until this pass has it, turns go to the writer.
      closing_wanted_.store(true);
      std::lock_guard commit_lock(commit_mutex_);
      closing_wanted_.store(false);
      if (passive_checkpoint(wal, copied) && wal > 0 && copied == wal) {
        restart_on_writer_ = true;
        // The commits since the first pass asked for another; this one did what they wanted.
        std::lock_guard lock(checkpoint_mutex_);
        checkpoint_due_ = false;
      }
    }
  }

  // One passive checkpoint on the checkpointer's connection; `wal` gets the frames in the WAL,
  // `copied` those now in the database. False when it did not run.
  bool passive_checkpoint(int& wal, int& copied) {
    const int rc = sqlite3_wal_checkpoint_v2(checkpoint_db_, nullptr, SQLITE_CHECKPOINT_PASSIVE,
                                             &wal, &copied);
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
  void reset_wal() {
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

  void run() {
    std::vector<Pending> batch;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || reset_requested_; });
        if (queue_.empty() && stopping_) {
          stopped_ = true;
          idle_.notify_all();
          return;
        }
      }
      // commit_mutex_ before mutex_, as in release_gathered: what this thread takes from the
      // queue commits before anything gathered later.
      std::unique_lock commit_lock(commit_mutex_);
      {
        std::lock_guard lock(mutex_);
        reset_requested_ = false;
        batch.assign(std::make_move_iterator(queue_.begin()),
                     std::make_move_iterator(queue_.end()));
        queue_.clear();
      }
      bool ok = true;
      if (!batch.empty()) {
        ok = commit(batch);
        restart_on_writer_ = false;
      }
      const bool reset = reset_due_;
      commit_lock.unlock();
      if (!batch.empty()) finish(batch, ok);
      // After the batch's frames are free to go: the reset waits for a checkpoint.
      if (reset) {
        commit_lock.lock();
        if (reset_due_) reset_wal();
      }
    }
  }

  const WalLimits limits_;
  std::string path_;
  sqlite3* writer_db_ = nullptr;
  std::vector<std::unique_ptr<Stmt>> statements_;  // under commit_mutex_
  std::unique_ptr<SqliteReader> reader_;

  // Whoever commits holds it, the writer thread or an event loop's (release_gathered); taken
  // before mutex_ when both are.
  std::mutex commit_mutex_;
  const bool commit_in_turn_;     // whether an event loop may commit its turn's records itself
  bool reset_requested_ = false;  // under mutex_: an event loop's commit found the WAL too long
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Pending> queue_;
  // Records of the current turn, not yet the writer's (with gather_by_turn).
  std::vector<Pending> gathered_;
  bool release_posted_ = false;
  Defer defer_;
  std::shared_ptr<Release> release_ = std::make_shared<Release>();
  std::set<std::string> codes_;
  std::uint64_t queued_ = 0;
  std::uint64_t committed_ = 0;
  bool stopping_ = false;
  bool stopped_ = false;
  Stats stats_;
  std::thread thread_;
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

}  // namespace

std::unique_ptr<Journal> make_sqlite_journal(const std::string& dir, bool fsync,
                                             const WalLimits& limits) {
  return std::make_unique<SqliteJournal>(dir, fsync, limits);
}

}  // namespace campfire::server
