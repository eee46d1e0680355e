// The journal and what rests on it: records survive reopening, frames wait for their records,
// a failed write pauses the room instead of showing what was not kept, a restarted server resumes
// every room, finished games are downloadable replays, and the turn and disconnect timers.
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/journal.hpp"
#include "server/room.hpp"
#include "server/sqlite_journal.hpp"
#include "tests/server/journal_records.hpp"
#include "tests/server/server_fixture.hpp"

namespace campfire::server::testing {
namespace {

class JournalStore : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_data_dir(); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A journal gathering its records by the turns of `io`, with room ABCDEF created and committed.
  std::unique_ptr<Journal> gathering_journal(boost::asio::io_context& io, bool fsync) {
    auto j = make_journal("sqlite", dir_, fsync);
    j->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
    j->write(create_record("ABCDEF"), nullptr);
    io.run();
    io.restart();
    j->flush();
    return j;
  }

  std::string dir_;
};

TEST_F(JournalStore, RecordsSurviveReopeningInOrder) {
  std::vector<int> completions;
  std::mutex m;
  auto done = [&](int n) {
    return [&, n](bool ok) {
      EXPECT_TRUE(ok);
      std::lock_guard lock(m);
      completions.push_back(n);
    };
  };
  {
    auto j = make_journal("sqlite", dir_, false);
    ASSERT_TRUE(j->durable());
    j->write(create_record("ABCDEF"), done(0));
    Journal::Record seat;
    seat.kind = Journal::Record::Kind::kSeat;
    seat.code = "ABCDEF";
    seat.version = 1;
    seat.seat = {0, "Ann", "hash-a", "", {}, ""};
    j->write(seat, done(1));
    seat.seat = {1, "Bot 2", "", "random", {}, ""};
    seat.version = 2;
    j->write(seat, done(2));
    for (int i = 0; i < 3; ++i) {
      Journal::Record a;
      a.kind = Journal::Record::Kind::kAction;
      a.code = "ABCDEF";
      a.index = static_cast<std::size_t>(i);
      a.version = 3 + i;
      a.action = {i % 2, {{"type", "play"}, {"n", i}}, 5000 + i};
      j->write(a, done(3 + i));
    }
    j->flush();
    EXPECT_TRUE(j->has("ABCDEF"));
    EXPECT_FALSE(j->has("ZZZZZZ"));
  }
  EXPECT_EQ(completions, (std::vector<int>{0, 1, 2, 3, 4, 5})) << "completions run in order";

  auto j = make_journal("sqlite", dir_, false);
  auto rooms = j->live(wall_ms());
  ASSERT_EQ(rooms.size(), 1u);
  const StoredRoom& r = rooms[0];
  EXPECT_EQ(r.code, "ABCDEF");
  EXPECT_EQ(r.seed, 18446744073709551615ull);
  EXPECT_EQ(r.version, 5);
  EXPECT_EQ(r.settings["turnSeconds"], 30);
  ASSERT_EQ(r.seat_list.size(), 2u);
  EXPECT_EQ(r.seat_list[0].token_hash, "hash-a");
  EXPECT_EQ(r.seat_list[1].bot, "random");
  ASSERT_EQ(r.log.size(), 3u);
  EXPECT_EQ(r.log[2].action["n"], 2);
  EXPECT_EQ(r.log[1].seat, 1);

  // Finishing moves it out of the unfinished list; pruning honours the cut-off.
  Journal::Record over;
  over.kind = Journal::Record::Kind::kStatus;
  over.code = "ABCDEF";
  over.status = "over";
  over.result = {{"winners", {0}}};
  over.version = 6;
  j->write(over, nullptr);
  j->flush();
  EXPECT_TRUE(j->live(wall_ms() + 1000).empty()) << "finished before the cut-off";
  EXPECT_EQ(j->live(0).size(), 1u) << "finished after the cut-off";
  auto finished = j->load("ABCDEF");
  ASSERT_TRUE(finished);
  EXPECT_TRUE(finished->finished());
  EXPECT_GT(finished->finished_ms, 0);
  EXPECT_EQ(finished->replay_json()["players"][0]["name"], "Ann");
  EXPECT_EQ(j->prune(finished->finished_ms - 1), 0u);
  EXPECT_EQ(j->prune(finished->finished_ms + 1), 1u);
  j->flush();
  EXPECT_FALSE(j->load("ABCDEF"));
  EXPECT_FALSE(j->has("ABCDEF"));
}

TEST_F(JournalStore, ADuplicateActionFailsItsBatchAndKeepsTheRest) {
  auto j = make_journal("sqlite", dir_, false);
  j->write(create_record("ABCDEF"), nullptr);
  j->flush();
  Journal::Record a;
  a.kind = Journal::Record::Kind::kAction;
  a.code = "ABCDEF";
  a.action = {0, {{"type", "x"}}, 1};
  j->write(a, nullptr);
  j->flush();
  bool ok = true;
  j->write(a, [&](bool r) { ok = r; });  // the same log position again
  j->flush();
  EXPECT_FALSE(ok);
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 1u);
  EXPECT_GE(j->stats().failures, 1u);
}

// Records written during one turn of the event loop reach the writer together, once the turn's
// ready work is done: one commit for all of them, in order.
TEST_F(JournalStore, RecordsOfOneTurnAreCommittedTogether) {
  boost::asio::io_context io;
  auto j = gathering_journal(io, false);
  const Journal::Stats before = j->stats();

  std::vector<int> completions;
  std::mutex m;
  boost::asio::post(io, [&] {
    for (int i = 0; i < 10; ++i) {
      Journal::Record a;
      a.kind = Journal::Record::Kind::kAction;
      a.code = "ABCDEF";
      a.index = static_cast<std::size_t>(i);
      a.version = 1 + i;
      a.action = {0, {{"type", "play"}, {"n", i}}, 1000 + i};
      j->write(a, [&, i](bool ok) {
        EXPECT_TRUE(ok);
        std::lock_guard lock(m);
        completions.push_back(i);
      });
    }
  });
  io.run();
  j->flush();
  const Journal::Stats after = j->stats();
  EXPECT_EQ(after.records - before.records, 10u);
  EXPECT_EQ(after.commits - before.commits, 1u) << "one commit for the whole turn";
  EXPECT_EQ(completions, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 10u);
}

// With the writer idle, a turn's records are committed by the event loop's own thread when the
// turn ends: durable, and their completions called, before the loop goes on, with no hand-over.
TEST_F(JournalStore, AnIdleWritersTurnIsCommittedByTheEventLoop) {
  boost::asio::io_context io;
  auto j = gathering_journal(io, false);
  const Journal::Stats before = j->stats();

  const auto loop = std::this_thread::get_id();
  std::vector<std::thread::id> called_on;
  boost::asio::post(io, [&] {
    for (std::size_t i = 0; i < 3; ++i) {
      j->write(action_record("ABCDEF", i, static_cast<long long>(i) + 1), [&](bool ok) {
        EXPECT_TRUE(ok);
        called_on.push_back(std::this_thread::get_id());
      });
    }
  });
  io.run();  // no flush: the turn's end committed them
  EXPECT_EQ(called_on, (std::vector<std::thread::id>(3, loop)));
  EXPECT_EQ(j->stats().records - before.records, 3u);
  EXPECT_EQ(j->stats().commits - before.commits, 1u);
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 3u);
}

// While the writer commits, a turn's records go to it instead: they commit after what it holds,
// in order, and the event loop never waits for another commit.
TEST_F(JournalStore, ABusyWriterTakesTheTurnsRecordsAfterItsOwn) {
  auto j = make_journal("sqlite", dir_, false);
  j->write(create_record("ABCDEF"), nullptr);
  j->flush();
  std::mutex m;
  std::condition_variable cv;
  bool in_commit = false;
  bool go_on = false;
  j->on_commit = [&](std::chrono::nanoseconds, std::size_t) {
    std::unique_lock lock(m);
    if (go_on) return;
    in_commit = true;
    cv.notify_all();
    cv.wait(lock, [&] { return go_on; });
  };
  std::vector<std::size_t> order;
  std::vector<std::thread::id> called_on;
  auto done = [&](std::size_t i) {
    return [&, i](bool ok) {
      EXPECT_TRUE(ok);
      std::lock_guard lock(m);
      order.push_back(i);
      called_on.push_back(std::this_thread::get_id());
    };
  };
  // Written outside any turn: the writer thread takes it, and its commit holds.
  j->write(action_record("ABCDEF", 0, 1), done(0));
  {
    std::unique_lock lock(m);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return in_commit; }));
  }
  boost::asio::io_context io;
  j->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
  boost::asio::post(io, [&] { j->write(action_record("ABCDEF", 1, 2), done(1)); });
  io.run();  // returns at once: the record waits for the writer
  {
    std::lock_guard lock(m);
    EXPECT_TRUE(order.empty());
    go_on = true;
  }
  cv.notify_all();
  j->flush();
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1}));
  ASSERT_EQ(called_on.size(), 2u);
  EXPECT_NE(called_on[1], std::this_thread::get_id());
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 2u);
}

// A journal that syncs every commit to disk never commits on the event loop: a sync takes
// milliseconds, which every other room on that loop would wait for.
TEST_F(JournalStore, ASyncedJournalCommitsOnlyOnItsWriter) {
  boost::asio::io_context io;
  auto j = gathering_journal(io, true);
  std::mutex m;
  std::thread::id called_on;
  boost::asio::post(io, [&] {
    j->write(action_record("ABCDEF", 0, 1), [&](bool ok) {
      EXPECT_TRUE(ok);
      std::lock_guard lock(m);
      called_on = std::this_thread::get_id();
    });
  });
  io.run();
  j->flush();
  std::lock_guard lock(m);
  EXPECT_NE(called_on, std::thread::id());
  EXPECT_NE(called_on, std::this_thread::get_id());
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 1u);
}

// flush() does not wait for the end of a turn that the flushing thread would end, and a journal
// closed with records still gathered keeps them; the release posted for them then does nothing.
TEST_F(JournalStore, GatheredRecordsAreKeptByFlushAndByClosing) {
  boost::asio::io_context io;
  {
    auto j = make_journal("sqlite", dir_, false);
    j->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
    bool created = false;
    j->write(create_record("ABCDEF"), [&](bool ok) { created = ok; });
    j->flush();  // the io_context has not run: the release is still posted
    EXPECT_TRUE(created);
    Journal::Record a;
    a.kind = Journal::Record::Kind::kAction;
    a.code = "ABCDEF";
    a.version = 1;
    a.action = {0, {{"type", "x"}}, 1};
    j->write(a, nullptr);
  }
  io.run();  // both releases find the journal gone
  auto j = make_journal("sqlite", dir_, false);
  ASSERT_TRUE(j->load("ABCDEF"));
  EXPECT_EQ(j->load("ABCDEF")->log.size(), 1u);
}

// A writer that never pauses still gets its WAL started afresh: passive checkpoints alone never
// catch up with it, and the WAL grew by every commit (400 MB in three seconds of the journal
// benchmark). Small limits stand in for the server's 32 and 128 MB.
TEST_F(JournalStore, ABusyWritersWalIsResetAndNothingIsLost) {
  constexpr std::size_t kActions = 3000;
  const WalLimits limits{16, 64};
  {
    auto j = make_sqlite_journal(dir_, false, limits);
    j->write(create_record("ABCDEF"), nullptr);
    j->flush();
    // Each commit queues the next record from its completion, as a room with a move always
    // waiting does: the writer never sleeps between commits.
    std::mutex m;
    std::condition_variable all_done;
    std::size_t completed = 0;
    std::function<void(std::size_t)> next = [&](std::size_t i) {
      j->write(action_record("ABCDEF", i, static_cast<long long>(i) + 1), [&, i](bool ok) {
        EXPECT_TRUE(ok);
        if (i + 1 < kActions) next(i + 1);
        std::lock_guard lock(m);
        ++completed;
        all_done.notify_all();
      });
    };
    next(0);
    {
      std::unique_lock lock(m);
      ASSERT_TRUE(
          all_done.wait_for(lock, std::chrono::minutes(5), [&] { return completed == kActions; }));
    }
    // A reset writes the WAL again from its start, so the file is as long as the WAL ever was:
    // about 64 frames. Without resets it held a frame (4 KB and a header) for each commit.
    const auto wal = std::filesystem::path(dir_) / "campfire.db-wal";
    ASSERT_TRUE(std::filesystem::exists(wal));
    EXPECT_LT(std::filesystem::file_size(wal), kActions / 4 * (4096 + 24));
  }
  auto j = make_journal("sqlite", dir_, false);
  const auto room = j->load("ABCDEF");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->log.size(), kActions);
  EXPECT_EQ(room->version, static_cast<long long>(kActions));
}

// An event loop that commits one turn after another without a pause, as a busy server's does:
// the WAL still starts afresh from its beginning, long before the writer's own reset (here
// never) would come. The checkpointer copies back what a pass found while commits go on, then
// the short tail with commits held back, and the commit after that starts the WAL afresh.
TEST_F(JournalStore, AnEventLoopsSteadyCommitsStartTheWalAfresh) {
  // Enough commits (a third of a second on a quiet machine) that the checkpointer, however little
  // of the cores it gets beside other processes, goes round several times.
  constexpr std::size_t kActions = 12000;
  {
    boost::asio::io_context io;
    auto j = make_sqlite_journal(dir_, false, WalLimits{16, 1 << 30});
    j->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
    auto busy = boost::asio::make_work_guard(io);
    // Each record is written from the loop once the one before it is kept, wherever that
    // completion ran (the loop's own commit, or the writer's).
    std::function<void(std::size_t)> next = [&](std::size_t i) {
      j->write(action_record("ABCDEF", i, static_cast<long long>(i) + 1), [&, i](bool ok) {
        EXPECT_TRUE(ok);
        boost::asio::post(io, [&, i] {
          if (i + 1 < kActions) {
            next(i + 1);
          } else {
            busy.reset();
          }
        });
      });
    };
    boost::asio::post(io, [&] {
      j->write(create_record("ABCDEF"), nullptr);
      next(0);
    });
    io.run();
    j->flush();
    // The WAL's header counts the times it started afresh (a big-endian number at byte 12);
    // never started afresh, it held a frame (4 KB and a header) for each commit. With a
    // checkpoint from 16 frames, it restarts every few dozen commits on a quiet machine, every
    // few hundred when other processes keep both cores busy and the checkpointer gets little of
    // them: the bounds hold for both, and a journal that never starts its WAL afresh fails both.
    const auto wal = std::filesystem::path(dir_) / "campfire.db-wal";
    ASSERT_TRUE(std::filesystem::exists(wal));
    std::ifstream in(wal, std::ios::binary);
    unsigned char header[16] = {};
    ASSERT_TRUE(in.read(reinterpret_cast<char*>(header), sizeof header));
    const std::uint32_t restarts = (std::uint32_t{header[12]} << 24) |
                                   (std::uint32_t{header[13]} << 16) |
                                   (std::uint32_t{header[14]} << 8) | header[15];
    const auto bytes = std::filesystem::file_size(wal);
    EXPECT_GE(restarts, 3u) << "the WAL is " << bytes << " bytes long";
    EXPECT_LT(bytes, kActions / 2 * (4096 + 24)) << "after " << restarts << " fresh starts";
  }
  auto j = make_journal("sqlite", dir_, false);
  const auto room = j->load("ABCDEF");
  ASSERT_TRUE(room);
  ASSERT_EQ(room->log.size(), kActions);
  EXPECT_EQ(room->version, static_cast<long long>(kActions));
}

// --- The WAL written ahead --------------------------------------------------------------------

// Runs `f` in a child process that is then killed (SIGKILL) at once: no journal is closed and no
// destructor runs, as with a server killed by `kill -9`. True when the child got that far.
bool run_and_kill(const std::function<void()>& f) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    try {
      f();
    } catch (...) {
      ::_exit(3);
    }
    ::raise(SIGKILL);
    ::_exit(4);
  }
  int status = 0;
  if (pid < 0 || ::waitpid(pid, &status, 0) != pid) return false;
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// A room with `actions` actions, each committed on its own.
void write_room(Journal& j, const std::string& code, std::size_t first, std::size_t actions) {
  if (first == 0) j.write(create_record(code), nullptr);
  for (std::size_t i = first; i < first + actions; ++i) {
    j.write(action_record(code, i, static_cast<long long>(i) + 1), nullptr);
    j.flush();
  }
}

// Every action 0..actions-1 of the room, and nothing after them.
void expect_room(Journal& j, const std::string& code, std::size_t actions) {
  const auto room = j.load(code);
  ASSERT_TRUE(room);
  ASSERT_EQ(room->log.size(), actions);
  EXPECT_EQ(room->version, static_cast<long long>(actions));
  for (std::size_t i = 0; i < actions; ++i) {
    EXPECT_EQ(room->log[i].action, action_record(code, i, 0).action.action) << "action " << i;
  }
}

class PresizedWal : public JournalStore {
 protected:
  // Small checkpoints and resets, so that a few hundred commits go round the WAL many times.
  static constexpr std::int64_t kWal = 1 << 20;
  const WalLimits presized_{16, 64, kWal};
  const WalLimits plain_{16, 64, 0};

  std::uintmax_t wal_size() const {
    const auto wal = std::filesystem::path(dir_) / "campfire.db-wal";
    return std::filesystem::exists(wal) ? std::filesystem::file_size(wal) : 0;
  }
};

// A fresh directory's WAL is written to its size when the journal opens, and keeps it through
// checkpoints and WAL resets, a clean close and a reopening.
TEST_F(PresizedWal, AFreshDirectoryKeepsItsWrittenWal) {
  {
    auto j = make_sqlite_journal(dir_, false, presized_);
    EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
    write_room(*j, "ABCDEF", 0, 400);  // about 25 resets of a 64-page WAL
    EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
  }
  EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal)) << "kept by a clean close";
  auto j = make_sqlite_journal(dir_, false, presized_);
  EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
  expect_room(*j, "ABCDEF", 400);
}

// Records committed before the process is killed are all read back from a written-ahead WAL,
// and the WAL keeps its size.
TEST_F(PresizedWal, EveryCommittedRecordSurvivesAKill) {
  ASSERT_TRUE(run_and_kill([&] {
    auto j = make_sqlite_journal(dir_, false, presized_);
    write_room(*j, "ABCDEF", 0, 300);
    j->write(create_record("GHIJKL"), nullptr);
    j->write(action_record("GHIJKL", 0, 1), nullptr);
    j->flush();
    static_cast<void>(j.release());  // never closed: the kill comes first
  }));
  EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
  {
    auto j = make_sqlite_journal(dir_, false, presized_);
    expect_room(*j, "ABCDEF", 300);
    expect_room(*j, "GHIJKL", 1);
    write_room(*j, "GHIJKL", 1, 50);
  }
  auto j = make_sqlite_journal(dir_, false, presized_);
  expect_room(*j, "GHIJKL", 51);
}

// SQLite reads a WAL up to its first frame that is not valid (a page number of zero is never
// valid): zeros after the last frame add nothing, and the committed frames are all recovered.
TEST_F(PresizedWal, FramesFollowedByZerosRecoverExactlyTheFrames) {
  ASSERT_TRUE(run_and_kill([&] {
    // No checkpoints: every commit is still in the WAL when the process dies.
    auto j = make_sqlite_journal(dir_, false, WalLimits{1 << 20, 1 << 21, 0});
    write_room(*j, "ABCDEF", 0, 120);
    static_cast<void>(j.release());
  }));
  const auto frames = wal_size();
  ASSERT_GT(frames, 120u * (4096 + 24)) << "each commit left a frame in the WAL";
  {
    std::ofstream wal(std::filesystem::path(dir_) / "campfire.db-wal",
                      std::ios::binary | std::ios::app);
    const std::string zeros(3 << 20, '\0');
    wal.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  ASSERT_EQ(wal_size(), frames + (3u << 20));
  auto j = make_sqlite_journal(dir_, false, plain_);
  expect_room(*j, "ABCDEF", 120);
  EXPECT_FALSE(j->load("GHIJKL"));
  write_room(*j, "ABCDEF", 120, 10);
  expect_room(*j, "ABCDEF", 130);
}

// A directory an earlier server left (a plain WAL, grown by appends: killed with frames in it,
// or removed by a clean close) opens with its WAL written ahead and loses nothing.
TEST_F(PresizedWal, ADirectoryWithAPlainWalOpensWrittenAhead) {
  ASSERT_TRUE(run_and_kill([&] {
    auto j = make_sqlite_journal(dir_, false, WalLimits{1 << 20, 1 << 21, 0});
    write_room(*j, "ABCDEF", 0, 60);
    static_cast<void>(j.release());
  }));
  ASSERT_GT(wal_size(), 0u);
  ASSERT_LT(wal_size(), static_cast<std::uintmax_t>(kWal));
  {
    auto j = make_sqlite_journal(dir_, false, presized_);
    EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
    expect_room(*j, "ABCDEF", 60);
    write_room(*j, "ABCDEF", 60, 40);
  }
  {
    auto j = make_sqlite_journal(dir_, false, plain_);
    expect_room(*j, "ABCDEF", 100);
  }
  EXPECT_EQ(wal_size(), 0u) << "a journal without it removes the WAL on a clean close, as before";
  auto j = make_sqlite_journal(dir_, false, presized_);
  EXPECT_EQ(wal_size(), static_cast<std::uintmax_t>(kWal));
  expect_room(*j, "ABCDEF", 100);
}

// --- Frames wait for the journal -------------------------------------------------------------

// A journal whose writes complete only when the test says so.
class ManualJournal final : public NullJournal {
 public:
  bool durable() const override { return true; }
  void write(Record record, Done done) override {
    records.push_back(record);
    pending.push_back(std::move(done));
  }
  void complete(bool ok) {
    auto all = std::move(pending);
    pending.clear();
    for (auto& d : all) {
      if (d) d(ok);
    }
  }
  std::vector<Record> records;
  std::vector<Done> pending;
};

class RecordingClient final : public Client {
 public:
  void send(Frame f) override { frames.push_back(json::parse(*f)); }
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}
  std::vector<json> frames;
};

TEST(RoomJournal, NothingIsSentBeforeItIsDurableAndAFailedWritePausesTheRoom) {
  boost::asio::io_context ioc;
  Config config;
  ManualJournal journal;
  Metrics metrics;
  auto match = Match::create(*Registry::builtin().find("pinocchio"), 2, json::object(), 7);
  ASSERT_TRUE(match);
  auto room = std::make_shared<Room>(ioc, config, journal, metrics, "ABCDEF", std::move(*match),
                                     true, RoomSettings{});
  room->record_creation();
  auto ann = std::make_shared<RecordingClient>();
  room->join(ann, "Ann", 1, std::nullopt);
  ioc.poll();
  ioc.restart();
  EXPECT_TRUE(ann->frames.empty()) << "the token must not leave before its seat is durable";
  ASSERT_GE(journal.records.size(), 2u);
  EXPECT_EQ(journal.records[0].kind, Journal::Record::Kind::kCreate);
  EXPECT_EQ(journal.records[1].kind, Journal::Record::Kind::kSeat);
  EXPECT_EQ(journal.records[1].seat.name, "Ann");
  EXPECT_FALSE(journal.records[1].seat.token_hash.empty());

  journal.complete(true);
  ioc.poll();
  ioc.restart();
  ASSERT_GE(ann->frames.size(), 2u);
  EXPECT_EQ(ann->frames[0]["type"], "joined");
  EXPECT_EQ(ann->frames[1]["type"], "state");

  // Bea joins, but the journal fails: nobody hears of her seat, everyone is told.
  auto bea = std::make_shared<RecordingClient>();
  const std::size_t ann_before = ann->frames.size();
  room->join(bea, "Bea", 2, std::nullopt);
  ioc.poll();
  ioc.restart();
  journal.complete(false);
  ioc.poll();
  ioc.restart();
  ASSERT_EQ(bea->frames.size(), 1u);
  EXPECT_EQ(bea->frames[0]["code"], "unavailable");
  ASSERT_EQ(ann->frames.size(), ann_before + 1);
  EXPECT_EQ(ann->frames.back()["code"], "unavailable");
  EXPECT_FALSE(room->refusal().empty()) << "a paused room refuses further requests";
  room->shutdown();
  ioc.poll();
}

// --- Restart, replays ------------------------------------------------------------------------

// The state as of now (older states still waiting in the connection are skipped).
json latest_state(Player& p) {
  const json ok = p.request({{"type", "sync"}, {"room", p.room}});
  const long long v = ok.value("version", 0LL);
  return p.wait_for([v](const json& m) { return m["type"] == "state" && m["version"] >= v; });
}

TEST_F(ServerTest, ARestartedServerResumesTheRoomAndKeepsTheReplay) {
  Config c = test_config();
  start_server(c);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 11}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  auto mirror = Match::create(*Registry::builtin().find("pinocchio"), 2, json::object(), 11);
  // Plays the first legal move of whoever is to act, n times or to the end, through `seats`.
  auto act = [&](Player* seats[2], int n) {
    for (int i = 0; i < n && !mirror->state().over(); ++i) {
      const Seat s = mirror->state().to_act().first();
      const Action action = mirror->state().legal_actions(s).front();
      Player& p = *seats[s];
      const json r = p.request(
          {{"type", "action"}, {"room", a.room}, {"action", mirror->game().action_to_json(action)}});
      ASSERT_EQ(r["type"], "ok") << r.dump();
      EXPECT_EQ(r["move"], mirror->log().size());
      Events ev;
      mirror->apply(s, action, ev);
    }
  };
  Player* before[2] = {&a, &b};
  act(before, 6);
  const long long version_before = latest_state(a)["version"];

  // Restart on the same data directory (the port changes; the clients reconnect).
  server_.reset();
  start_server(c);
  Player a2 = player("Andrea");
  Player b2 = player("Bella");
  ASSERT_EQ(a2.request({{"type", "rejoin"}, {"room", a.room}, {"token", a.token}})["type"],
            "joined");
  ASSERT_EQ(b2.request({{"type", "rejoin"}, {"room", a.room}, {"token", b.token}})["type"],
            "joined");
  a2.room = b2.room = a.room;
  const json st = latest_state(a2);
  EXPECT_EQ(st["status"], "playing");
  EXPECT_EQ(st["moves"], 6);
  EXPECT_GT(st["version"].get<long long>(), version_before) << "versions never go back";
  EXPECT_EQ(st["view"], mirror->state().view(0));
  EXPECT_EQ(latest_state(b2)["view"], mirror->state().view(1));

  // Play it out, then download the replay and rebuild the game from it.
  Player* after[2] = {&a2, &b2};
  act(after, 100000);
  ASSERT_TRUE(mirror->state().over());
  a2.wait_for([](const json& m) { return m["type"] == "game_over"; });
  auto [status, body] = http_get(port_, "/api/replays/" + a.room);
  ASSERT_EQ(status, 200) << body;
  const json replay = json::parse(body);
  EXPECT_EQ(replay["status"], "over");
  EXPECT_EQ(replay["players"][1]["name"], "Bella");
  EXPECT_EQ(replay["log"], mirror->save()["log"]);
  auto rebuilt = Match::restore(Registry::builtin(), replay);
  ASSERT_TRUE(rebuilt);
  EXPECT_EQ(rebuilt->state().result().to_json(), mirror->state().result().to_json());

  std::tie(status, body) = http_get(port_, "/api/replays/QQQQQQ");
  EXPECT_EQ(status, 404);
}

TEST_F(ServerTest, AGameInProgressIsNoReplayOutsideTestMode) {
  Config c = test_config();
  c.test_mode = false;
  start_server(c);
  Player a = player("Andrea");
  create(a, {{"game", "pinocchio"}, {"seats", 2}});
  auto [status, body] = http_get(port_, "/api/replays/" + a.room);
  EXPECT_EQ(status, 409) << body;
}

// --- Timers ----------------------------------------------------------------------------------

TEST_F(ServerTest, TheTurnTimerPlaysTheDefaultMoveForASlowPlayer) {
  Config c = test_config();
  c.window_scale = 0.05;  // 2 s become 100 ms
  start_server(c);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 5},
             {"timers", {{"turnSeconds", 2}, {"onTimeout", "default"}}}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  const json first = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["status"] == "playing";
  });
  ASSERT_TRUE(first["turn"].is_object()) << first.dump();
  EXPECT_EQ(first["turn"]["seats"], first["toAct"]);
  EXPECT_GT(first["turn"]["endsAt"].get<long long>(), 0);
  // Nobody moves: the server moves for them and says so.
  const json ev = a.wait_for([](const json& m) {
    return m["type"] == "event" && m["event"]["type"] == "turn_timeout";
  }, 5s);
  EXPECT_NE(ev["event"]["text"].get<std::string>().find("ran out of time"), std::string::npos);
  const json later = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["moves"].get<int>() >= 1;
  });
  EXPECT_FALSE(later.is_null());

  // Timer settings are checked.
  Player c2 = player("Claudio");
  const json bad = c2.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2},
                               {"timers", {{"turnSeconds", 0.5}}}});
  EXPECT_EQ(bad["code"], "bad_request");
  const json unknown = c2.request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 2},
                                   {"timers", {{"coffeeBreak", 5}}}});
  EXPECT_EQ(unknown["code"], "bad_request");
}

// Spider Monkey's turnTimeoutS is a turn timer of its own: a room that sets no turnSeconds
// plays the default move for a player who lets it run out.
TEST_F(ServerTest, SpiderMonkeysTurnTimeoutStartsTheTurnTimer) {
  Config c = test_config();
  c.window_scale = 0.05;  // the 10 s first look becomes 500 ms, a 5 s turn 250 ms
  start_server(c);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "spider-monkey"}, {"seats", 2}, {"seed", 3},
             {"options", {{"turnTimeoutS", 5}, {"peekTimeoutS", 10}}}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  // Nobody looks or moves: the first look times out, then seat 0's turn does.
  const json turn = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["status"] == "playing" && m["turn"].is_object();
  }, 5s);
  ASSERT_FALSE(turn.is_null()) << "no turn timer was armed";
  EXPECT_EQ(turn["turn"]["seats"], json::array({0}));
  const json ev = a.wait_for([](const json& m) {
    return m["type"] == "event" && m["event"]["type"] == "turn_timeout";
  }, 5s);
  ASSERT_FALSE(ev.is_null()) << "turnTimeoutS did not end the turn";
  EXPECT_NE(ev["event"]["text"].get<std::string>().find("ran out of time"), std::string::npos);
}

TEST_F(ServerTest, ABotKeepsAnAbsentPlayersSeatWarmUntilTheyReturn) {
  Config c = test_config();
  c.window_scale = 0.05;  // a 2 s grace becomes 100 ms
  start_server(c);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"seed", 9},
             {"timers", {{"graceSeconds", 2}, {"botTakeover", true}}}});
  join(b, a.room);
  ASSERT_EQ(a.request({{"type", "start"}, {"room", a.room}})["type"], "ok");
  b.conn->abort();
  const json away = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["players"][1].is_object() && m["players"][1]["away"] == true;
  }, 5s);
  ASSERT_FALSE(away.is_null());
  // The game goes on: Andrea plays her turns, the bot plays Bella's.
  long long moves = 0;
  for (int i = 0; i < 400 && moves < 6; ++i) {
    const json st = latest_state(a);
    ASSERT_FALSE(st.is_null());
    moves = st["moves"];
    if (st["status"] != "playing") break;
    if (!st["legal"].empty()) {
      a.request({{"type", "action"}, {"room", a.room}, {"action", st["legal"][0]},
                 {"version", st["version"]}});
    } else {
      std::this_thread::sleep_for(20ms);
    }
  }
  EXPECT_GE(moves, 6);
  // Bella comes back and has her seat, with the bot gone.
  Player b2 = player("Bella");
  ASSERT_EQ(b2.request({{"type", "rejoin"}, {"room", a.room}, {"token", b.token}})["type"],
            "joined");
  const json back = b2.wait_for([](const json& m) { return m["type"] == "state"; });
  EXPECT_EQ(back["players"][1]["away"], false);
  EXPECT_EQ(back["players"][1]["connected"], true);
}

TEST_F(ServerTest, AWaitingSeatIsKeptForTheGracePeriodThenGivenBack) {
  Config c = test_config();
  c.window_scale = 0.05;
  start_server(c);
  Player a = player("Andrea");
  Player b = player("Bella");
  create(a, {{"game", "pinocchio"}, {"seats", 2}, {"timers", {{"graceSeconds", 2}}}});
  join(b, a.room);
  b.conn->abort();
  const json kept = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["players"][1].is_object() &&
           m["players"][1]["connected"] == false;
  });
  ASSERT_FALSE(kept.is_null()) << "the seat is still Bella's while she may come back";
  const json freed = a.wait_for([](const json& m) {
    return m["type"] == "state" && m["players"][1].is_null();
  }, 5s);
  ASSERT_FALSE(freed.is_null()) << "after the grace period the seat is free again";
  Player b2 = player("Bella");
  EXPECT_EQ(b2.request({{"type", "rejoin"}, {"room", a.room}, {"token", b.token}})["code"],
            "bad_token");
}

}  // namespace
}  // namespace campfire::server::testing
