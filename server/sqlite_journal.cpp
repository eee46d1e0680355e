#include "server/sqlite_journal.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

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
#include "server/sqlite_moves.hpp"
#include "server/sqlite_reader.hpp"
#include "server/wal_keeper.hpp"

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
  fairness TEXT,
  first_seq INTEGER NOT NULL DEFAULT 0);
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
-- Moves of finished rooms (and of rooms in play, copied from `moves`: server/sqlite_moves.hpp).
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
      : commit_in_turn_(!fsync) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("journal: cannot create " + dir + ": " + ec.message());
    path_ = (std::filesystem::path(dir) / "campfire.db").string();
    writer_db_ = sqlite::open(path_, fsync);
    try {
      sqlite::exec(writer_db_, kSchema);
      sqlite::exec(writer_db_, MoveLog::schema());
      upgrade();
      moves_ = std::make_unique<MoveLog>(writer_db_);
      moves_->open();
      WalKeeper::prepare_writer(writer_db_, path_, limits);
    } catch (...) {
      // A journal this server cannot use (one in a later format, say) is closed before the error
      // is passed on.
      moves_.reset();
      sqlite3_close(writer_db_);
      throw;
    }
    try {
      reader_ = std::make_unique<SqliteReader>(path_, fsync);
      for (auto& code : reader_->codes()) codes_.insert(std::move(code));
      prepare();
    } catch (...) {
      statements_.clear();
      moves_.reset();
      reader_.reset();
      sqlite3_close(writer_db_);
      throw;
    }
    wal_ = std::make_unique<WalKeeper>(writer_db_, path_, fsync, limits, commit_mutex_);
    release_->journal = this;
    thread_ = std::thread([this] { run(); });
    wal_->start();
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
    wal_.reset();
    statements_.clear();
    moves_.reset();
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
    if (commit_in_turn_ && !wal_->closing_pass_waits()) {
      std::unique_lock commit_lock(commit_mutex_, std::try_to_lock);
      if (commit_lock.owns_lock()) {
        {
          std::lock_guard lock(mutex_);
          // Records queued earlier commit first: those are the writer's, already woken. The
          // commit that starts the WAL afresh (and syncs it) is the writer's too.
          if (wal_->restart_owed_to_writer() || !queue_.empty() || stopping_) {
            commit_lock.unlock();
          } else {
            release_posted_ = false;
            batch.swap(gathered_);
          }
        }
        if (commit_lock.owns_lock()) {
          if (batch.empty()) return;
          const bool ok = commit(batch);
          const bool reset = wal_->reset_due();
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
      moves_->upkeep();
      st(kCommit).run();
    } catch (const std::exception& e) {
      ok = false;
      spdlog::critical("journal: a commit of {} records failed: {}", batch.size(), e.what());
      sqlite3_exec(writer_db_, "ROLLBACK", nullptr, nullptr, nullptr);
      try {
        // The moves' bookkeeping followed the records: it is read back as the rollback left it.
        moves_->reload();
      } catch (const std::exception& again) {
        spdlog::critical("journal: the moves cannot be read back: {}", again.what());
      }
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

  // Format 1 had no fair shuffles; format 2 keeps each room's server seed (rooms.fairness) and
  // each seat's contribution (seats.entropy). A format-1 journal gains both columns and its
  // rooms carry on without fairness; a journal from a later format is refused. A journal written
  // before seats kept their earlier names also lacks seats.names: it gains that column too, and
  // its seats keep the one name they had. Format 3 appends moves in time order (`moves`,
  // rooms.first_seq; server/sqlite_moves.hpp); an earlier journal's moves stay in `actions`,
  // where its rooms in play go on from.
  static constexpr int kFormat = 3;

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
    if (!has_column("rooms", "first_seq")) {
      sqlite::exec(writer_db_, "ALTER TABLE rooms ADD COLUMN first_seq INTEGER NOT NULL DEFAULT 0");
    }
    if (format < kFormat) {
      sqlite::exec(writer_db_, ("PRAGMA user_version = " + std::to_string(kFormat)).c_str());
    }
  }

  enum S {
    kInsertRoom,
    kPutSeat,
    kFreeSeat,
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
        " version, created_ms, fairness, first_seq)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        "INSERT OR REPLACE INTO seats(code, seat, name, token_hash, bot, names, entropy)"
        " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        "DELETE FROM seats WHERE code = ?1 AND seat = ?2",
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
        // Rows of `moves` below it are an earlier room's of the same code.
        q.bind(13, moves_->next_seq());
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
        // The room's version rides in the move's row: one write per action.
        moves_->append(r.code, static_cast<std::int64_t>(r.index), r.action.seat,
                       dump(r.action.action), r.action.at_ms, r.version);
        return;
      case Record::Kind::kStatus: {
        Stmt& q = st(kSetStatus);
        q.bind(1, r.code).bind(2, r.status);
        if (r.result.is_null()) {
          q.bind_null(3);
        } else {
          q.bind(3, dump(r.result));
        }
        const bool ended = r.status == "over" || r.status == "abandoned";
        if (ended) {
          q.bind(4, wall_ms());
        } else {
          q.bind_null(4);
        }
        q.run();
        // Replays read a finished room from `actions` alone.
        if (ended) moves_->ended(r.code);
        break;
      }
      case Record::Kind::kVersion:
        break;
      case Record::Kind::kRemove:
        moves_->removed(r.code);
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
      wal_->let_closing_pass_in();
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
        wal_->writer_committed();
      }
      const bool reset = wal_->reset_due();
      commit_lock.unlock();
      if (!batch.empty()) finish(batch, ok);
      // After the batch's frames are free to go: the reset waits for a checkpoint.
      if (reset) {
        commit_lock.lock();
        if (wal_->reset_due()) wal_->reset_wal();
      }
    }
  }

  std::string path_;
  sqlite3* writer_db_ = nullptr;
  std::vector<std::unique_ptr<Stmt>> statements_;  // under commit_mutex_
  std::unique_ptr<MoveLog> moves_;                 // under commit_mutex_
  std::unique_ptr<SqliteReader> reader_;

  // Whoever commits holds it, the writer thread or an event loop's (release_gathered); the WAL's
  // closing pass holds commits back with it (see WalKeeper). Taken before mutex_ when both are.
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
  // Checkpoints, the WAL's fresh starts and its resets (server/wal_keeper.hpp); it shares
  // commit_mutex_.
  std::unique_ptr<WalKeeper> wal_;
};

}  // namespace

std::unique_ptr<Journal> make_sqlite_journal(const std::string& dir, bool fsync,
                                             const WalLimits& limits) {
  return std::make_unique<SqliteJournal>(dir, fsync, limits);
}

}  // namespace campfire::server
