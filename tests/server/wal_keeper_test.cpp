// The WAL's upkeep on its own: a writer connection committing under a lock, as the journal's
// does, with the keeper beside it. The journal tests see what comes of it over thousands of
// commits; these see each step as it happens.
#include "server/wal_keeper.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "server/sqlite_db.hpp"
#include "tests/support/scratch_dir.hpp"

namespace campfire::server::testing {
namespace {

class WalUpkeep : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_.path() / "campfire.db").string();
    writer_ = sqlite::open(path_, false);
    sqlite::exec(writer_, "CREATE TABLE t(v BLOB)");
  }

  void TearDown() override {
    keeper_.reset();
    sqlite3_close(writer_);
  }

  void start(const WalLimits& limits) {
    keeper_ = std::make_unique<WalKeeper>(writer_, path_, false, limits, commit_mutex_);
    keeper_->start();
  }

  // One commit of a row most of a page long (a frame or two of WAL); the caller holds the
  // commit lock, as the journal's writer does.
  void commit_row() { sqlite::exec(writer_, "INSERT INTO t VALUES(zeroblob(3000))"); }

  // How many times the WAL has started afresh: its header counts them (a big-endian number at
  // byte 12), and the commit that starts it again writes the new count.
  std::uint32_t restarts() const {
    std::ifstream in(path_ + "-wal", std::ios::binary);
    unsigned char header[16] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    EXPECT_TRUE(in) << "no WAL header";
    return (std::uint32_t{header[12]} << 24) | (std::uint32_t{header[13]} << 16) |
           (std::uint32_t{header[14]} << 8) | header[15];
  }

  // Frames in the WAL file (a 32-byte header, then frames of a page and a 24-byte header).
  std::uintmax_t frames() const {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_ + "-wal", ec);
    return ec || size < 32 ? 0 : (size - 32) / (4096 + 24);
  }

  // Asks `done` again and again, for up to ten seconds, until it says yes.
  static bool eventually(const std::function<bool()>& done) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done()) {
      if (std::chrono::steady_clock::now() > give_up) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }

  // Commits past the checkpoint limit with the lock held all along, so that the checkpointer's
  // closing pass comes to wait for it; then lets it have the lock.
  void reach_the_closing_pass() {
    std::unique_lock commit_lock(commit_mutex_);
    for (int i = 0; i < 8; ++i) commit_row();
    // A pass beside the held lock copies every frame back; the closing pass then waits for the
    // lock, and an event loop must not take it meanwhile.
    ASSERT_TRUE(eventually([&] { return keeper_->closing_pass_waits(); }));
    EXPECT_FALSE(keeper_->restart_owed_to_writer());
  }

  bool restart_owed() {
    std::lock_guard lock(commit_mutex_);
    return keeper_->restart_owed_to_writer();
  }

  campfire::testing::ScratchDir dir_{"campfire-wal-test"};
  std::string path_;
  sqlite3* writer_ = nullptr;
  std::mutex commit_mutex_;
  std::unique_ptr<WalKeeper> keeper_;
};

// Once a passive pass has copied everything, the closing pass asks for the commit lock, and event
// loops stand aside (they would take it ahead of a waiting thread turn after turn); with the
// lock, it copies the tail and leaves the WAL's fresh start to the writer thread.
TEST_F(WalUpkeep, AClosingPassHoldsCommitsBackThenLeavesTheFreshStartToTheWriter) {
  start(WalLimits{4, 1 << 30});
  EXPECT_FALSE(keeper_->closing_pass_waits());
  ASSERT_NO_FATAL_FAILURE(reach_the_closing_pass());
  ASSERT_TRUE(eventually([&] { return restart_owed(); }));
  EXPECT_FALSE(keeper_->closing_pass_waits()) << "event loops commit their turns again";
}

// A pass that leaves a few frames behind (committed while it ran; here, past a reader's
// snapshot) still leads to the closing pass. Waiting for a pass that leaves nothing behind left a
// WAL written to without pause growing for as long as the commits kept coming.
TEST_F(WalUpkeep, APassThatLeavesAShortTailLeadsToTheClosingPass) {
  start(WalLimits{12, 1 << 30});
  std::unique_lock commit_lock(commit_mutex_);
  // Below the checkpoint limit: no pass yet.
  while (frames() < 6) commit_row();
  ASSERT_LT(frames(), 12);
  // A reader's snapshot: no pass copies the frames committed after it.
  sqlite3* reader = sqlite::open(path_, false);
  sqlite::exec(reader, "BEGIN");
  sqlite::exec(reader, "SELECT count(*) FROM t");
  while (frames() < 12) commit_row();
  EXPECT_TRUE(eventually([&] { return keeper_->closing_pass_waits(); }))
      << "the pass left " << frames() << " frames, some behind the reader";
  commit_lock.unlock();
  EXPECT_TRUE(eventually([&] { return !keeper_->closing_pass_waits(); }));
  sqlite::exec(reader, "COMMIT");
  sqlite3_close(reader);
}

// The writer thread, which commits turn after turn when event loops hand their records to it,
// stands aside while a closing pass waits for the commit lock: taking it again and again ahead
// of the pass, it once kept the WAL from starting afresh for 1,500 commits.
TEST_F(WalUpkeep, TheWriterLetsAWaitingClosingPassInFirst) {
  start(WalLimits{4, 1 << 30});
  std::atomic<bool> writer_went_on{false};
  std::thread writer;
  {
    std::unique_lock commit_lock(commit_mutex_);
    for (int i = 0; i < 8; ++i) commit_row();
    ASSERT_TRUE(eventually([&] { return keeper_->closing_pass_waits(); }));
    writer = std::thread([&] {
      keeper_->let_closing_pass_in();
      writer_went_on = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(writer_went_on) << "the writer would take the lock ahead of the closing pass";
  }
  writer.join();
  EXPECT_TRUE(writer_went_on);
  EXPECT_TRUE(restart_owed()) << "the closing pass had the lock first";
}

// The writer's next commit after a closing pass starts the WAL afresh (nothing copied back is
// left in it), and the hand-over ends with it: event loops commit their turns again.
TEST_F(WalUpkeep, TheWritersCommitAfterAClosingPassStartsTheWalAfresh) {
  start(WalLimits{4, 1 << 30});
  ASSERT_NO_FATAL_FAILURE(reach_the_closing_pass());
  ASSERT_TRUE(eventually([&] { return restart_owed(); }));
  const std::uint32_t before = restarts();
  std::lock_guard lock(commit_mutex_);
  commit_row();
  keeper_->writer_committed();
  EXPECT_EQ(restarts(), before + 1);
  EXPECT_FALSE(keeper_->restart_owed_to_writer());
}

// Past the reset limit the writer is told to reset the WAL between two commits, and the reset
// copies everything back so that the next commit starts the WAL afresh (the checkpointer, here
// never due, plays no part in it).
TEST_F(WalUpkeep, AWalPastTheResetLimitIsResetByTheWriter) {
  start(WalLimits{1 << 30, 8});
  std::lock_guard lock(commit_mutex_);
  commit_row();
  EXPECT_FALSE(keeper_->reset_due());
  for (int i = 0; i < 100 && !keeper_->reset_due(); ++i) commit_row();
  ASSERT_TRUE(keeper_->reset_due());
  const std::uint32_t before = restarts();
  keeper_->reset_wal();
  EXPECT_FALSE(keeper_->reset_due());
  commit_row();
  EXPECT_EQ(restarts(), before + 1);
  EXPECT_FALSE(keeper_->reset_due()) << "the WAL holds the one commit since";
}

// The WAL written ahead sets when checkpoints come: at four fifths of it, so that the WAL between
// two of them stays within the blocks written ahead; the server's 40 MB gives the 32 MB
// (8,192 pages) it always had.
TEST(WalLimitsFor, CheckpointsComeAtFourFifthsOfTheWalWrittenAhead) {
  const WalLimits defaults;
  const WalLimits none = wal_limits_for(0);
  EXPECT_EQ(none.presize_bytes, 0);
  EXPECT_EQ(none.checkpoint_pages, defaults.checkpoint_pages);
  EXPECT_EQ(none.reset_pages, defaults.reset_pages);

  const WalLimits server = wal_limits_for(std::int64_t{40} << 20);
  EXPECT_EQ(server.presize_bytes, std::int64_t{40} << 20);
  EXPECT_EQ(server.checkpoint_pages, 8192);
  EXPECT_EQ(server.reset_pages, 4 * 8192);

  const WalLimits big = wal_limits_for(std::int64_t{160} << 20);
  EXPECT_EQ(big.checkpoint_pages, 32768);
  EXPECT_EQ(big.reset_pages, 4 * 32768);
  // The WAL a checkpoint lets grow (frames of a page and a 24-byte header) fits what was written.
  EXPECT_LT(std::int64_t{big.checkpoint_pages} * (4096 + 24), big.presize_bytes);

  // Never more often than SQLite's own checkpoints, however small the WAL written ahead.
  EXPECT_EQ(wal_limits_for(std::int64_t{1} << 20).checkpoint_pages, 1000);
  // Nor past what counts in an int, however big.
  const WalLimits huge = wal_limits_for(std::int64_t{1} << 50);
  EXPECT_GT(huge.checkpoint_pages, 0);
  EXPECT_GT(huge.reset_pages, huge.checkpoint_pages);
}

}  // namespace
}  // namespace campfire::server::testing
