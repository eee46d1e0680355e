// The Redis journal against a real redis-server: the same records as the SQLite journal, kept in
// order and loaded back; writes refused unless fenced by the owner's lease and epoch; records sent
// again after a broken connection land once; a Redis that is killed, restarted or hangs loses
// nothing a completion reported.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include "server/cluster/keys.hpp"
#include "server/cluster/redis_journal.hpp"
#include "tests/cluster/redis_fixture.hpp"
#include "tests/server/journal_records.hpp"

namespace campfire::server::testing {
namespace {

using cluster::Fence;
using cluster::RedisJournal;
using cluster::RedisLink;
using namespace std::chrono_literals;

std::unique_ptr<RedisLink> make_link(const RedisServer& redis, const std::string& node) {
  RedisLink::Options o;
  std::string error;
  o.url = *cluster::parse_redis_url(redis.url(), &error);
  o.node = node;
  o.reply_timeout = 500ms;
  o.connect_timeout = 500ms;
  auto link = std::make_unique<RedisLink>(o);
  link->start(5s);
  return link;
}

class RedisJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::critical);
    redis_ = std::make_unique<RedisServer>();
    // The node's lease, as its directory would have taken it.
    redis_->command({"SET", cluster::keys::node_lease("a"), "inc1"});
    link_ = make_link(*redis_, "a");
    journal_ = std::make_unique<RedisJournal>(*link_, [this](const std::string&) {
      std::lock_guard lock(fence_mutex_);
      return std::optional<Fence>(fence_);
    });
  }
  void TearDown() override {
    journal_.reset();
    link_.reset();
  }
  void set_fence(Fence f) {
    std::lock_guard lock(fence_mutex_);
    fence_ = std::move(f);
  }
  std::unique_ptr<RedisServer> redis_;
  std::unique_ptr<RedisLink> link_;
  std::unique_ptr<RedisJournal> journal_;
  std::mutex fence_mutex_;
  Fence fence_{"a", "inc1", 1};
};

TEST_F(RedisJournalTest, RecordsAreKeptInOrderAndLoadBack) {
  std::vector<int> completions;
  std::mutex m;
  auto done = [&](int n) {
    return [&, n](bool ok) {
      EXPECT_TRUE(ok) << "record " << n;
      std::lock_guard lock(m);
      completions.push_back(n);
    };
  };
  auto& j = *journal_;
  ASSERT_TRUE(j.durable());
  j.write(create_record("ABCDEF"), done(0));
  Journal::Record seat;
  seat.kind = Journal::Record::Kind::kSeat;
  seat.code = "ABCDEF";
  seat.version = 1;
  seat.seat = {0, "Ann \"the\" first", "hash-a", "", {}, ""};
  j.write(seat, done(1));
  seat.seat = {1, "Bot 2", "", "random", {}, ""};
  seat.version = 2;
  j.write(seat, done(2));
  for (int i = 0; i < 3; ++i)
    j.write(action_record("ABCDEF", static_cast<std::size_t>(i), 3 + i), done(3 + i));
  j.flush();
  EXPECT_EQ(completions, (std::vector<int>{0, 1, 2, 3, 4, 5})) << "completions run in order";
  EXPECT_TRUE(j.has("ABCDEF"));
  EXPECT_FALSE(j.has("ZZZZZZ"));

  auto rooms = j.live(0);
  ASSERT_EQ(rooms.size(), 1u);
  const StoredRoom& r = rooms[0];
  EXPECT_EQ(r.code, "ABCDEF");
  EXPECT_EQ(r.game, "pinocchio");
  EXPECT_EQ(r.seats, 2);
  EXPECT_EQ(r.seed, 18446744073709551615ull);
  EXPECT_EQ(r.deck_order, json::array({3, 1, 2}));
  EXPECT_EQ(r.version, 5);
  EXPECT_EQ(r.settings["turnSeconds"], 30);
  EXPECT_EQ(r.created_ms, 1000);
  EXPECT_TRUE(r.listed);
  ASSERT_EQ(r.seat_list.size(), 2u);
  EXPECT_EQ(r.seat_list[0].name, "Ann \"the\" first");
  EXPECT_EQ(r.seat_list[0].token_hash, "hash-a");
  EXPECT_EQ(r.seat_list[1].bot, "random");
  ASSERT_EQ(r.log.size(), 3u);
  EXPECT_EQ(r.log[2].action["n"], 2);
  EXPECT_EQ(r.log[1].seat, 1);
  EXPECT_EQ(r.log[1].at_ms, 5001);

  // A freed seat is gone; finishing moves the room out of the unfinished list.
  Journal::Record free;
  free.kind = Journal::Record::Kind::kFreeSeat;
  free.code = "ABCDEF";
  free.version = 6;
  free.seat.seat = 1;
  j.write(free, nullptr);
  Journal::Record over;
  over.kind = Journal::Record::Kind::kStatus;
  over.code = "ABCDEF";
  over.status = "over";
  over.result = {{"winners", {0}}};
  over.version = 7;
  j.write(over, nullptr);
  j.flush();
  auto finished = j.load("ABCDEF");
  ASSERT_TRUE(finished);
  EXPECT_TRUE(j.live(finished->finished_ms + 1).empty()) << "finished before the cut-off";
  EXPECT_EQ(j.live(finished->finished_ms).size(), 1u) << "finished at the cut-off";
  EXPECT_TRUE(finished->finished());
  EXPECT_EQ(finished->version, 7);
  EXPECT_EQ(finished->seat_list.size(), 1u);
  EXPECT_EQ(finished->result["winners"], json::array({0}));
  EXPECT_GT(finished->finished_ms, 0);
  EXPECT_EQ(j.prune(finished->finished_ms - 1), 0u);
  // The sweep's prune does not wait for Redis: its count comes back on the link's thread.
  std::promise<std::size_t> counted;
  j.prune_soon(finished->finished_ms - 1, [&](std::size_t n) { counted.set_value(n); });
  auto count = counted.get_future();
  ASSERT_EQ(count.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(count.get(), 0u);
  EXPECT_EQ(j.prune(finished->finished_ms + 1), 1u);
  EXPECT_FALSE(j.load("ABCDEF"));
  EXPECT_FALSE(j.has("ABCDEF"));
  EXPECT_EQ(redis_->command({"SCARD", cluster::keys::owned("a")}), "0");
}

TEST_F(RedisJournalTest, WritesWithoutTheLeaseOrWithAStaleEpochAreRefusedAndChangeNothing) {
  auto& j = *journal_;
  j.write(create_record("ABCDEF"), nullptr);
  j.write(action_record("ABCDEF", 0, 1), nullptr);
  j.flush();

  auto write_ok = [&](Journal::Record r) {
    std::promise<bool> p;
    auto f = p.get_future();
    j.write(std::move(r), [&](bool ok) { p.set_value(ok); });
    return f.get();
  };
  // Another node, a stale epoch, an old incarnation: all refused.
  set_fence({"b", "inc9", 1});
  EXPECT_FALSE(write_ok(action_record("ABCDEF", 1, 2)));
  set_fence({"a", "inc1", 2});
  EXPECT_FALSE(write_ok(action_record("ABCDEF", 1, 2)));
  set_fence({"a", "old", 1});
  EXPECT_FALSE(write_ok(action_record("ABCDEF", 1, 2)));
  EXPECT_FALSE(write_ok(create_record("GHJKLM"))) << "creating needs the lease too";
  // The lease lapses: even the owner at its epoch is refused.
  set_fence({"a", "inc1", 1});
  redis_->command({"DEL", cluster::keys::node_lease("a")});
  EXPECT_FALSE(write_ok(action_record("ABCDEF", 1, 2)));
  redis_->command({"SET", cluster::keys::node_lease("a"), "inc1"});
  // A room's code cannot be created twice, by another node or by this one.
  redis_->command({"SET", cluster::keys::node_lease("b"), "incb"});
  set_fence({"b", "incb", 1});
  EXPECT_FALSE(write_ok(create_record("ABCDEF")));
  set_fence({"a", "inc1", 1});
  Journal::Record again = create_record("ABCDEF");
  again.room.created_ms = 2000;
  EXPECT_FALSE(write_ok(again));

  auto r = j.load("ABCDEF");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->log.size(), 1u);
  EXPECT_EQ(r->version, 1);
  EXPECT_FALSE(j.has("GHJKLM"));
  EXPECT_TRUE(write_ok(action_record("ABCDEF", 1, 2))) << "the rightful owner still writes";
  EXPECT_GE(j.stats().failures, 7u);
}

// A room object names the ownership it was built under. When the room has been owned again
// since (a later epoch), even by this same node, what the old object writes is refused; the
// object built for the new ownership writes on.
TEST_F(RedisJournalTest, ARoomObjectFromAnEarlierOwnershipCannotWrite) {
  auto& j = *journal_;
  Journal::Record created = create_record("ABCDEF");
  created.epoch = 1;
  j.write(created, nullptr);
  j.flush();
  auto write_ok = [&](Journal::Record r) {
    std::promise<bool> p;
    auto f = p.get_future();
    j.write(std::move(r), [&](bool ok) { p.set_value(ok); });
    return f.get();
  };
  Journal::Record first = action_record("ABCDEF", 0, 1);
  first.epoch = 1;
  EXPECT_TRUE(write_ok(first));
  // The node lost the room and took it back: it owns it now at epoch 2.
  redis_->command({"HSET", cluster::keys::room("ABCDEF"), "epoch", "2"});
  set_fence({"a", "inc1", 2});
  Journal::Record stale = action_record("ABCDEF", 1, 2);
  stale.epoch = 1;
  EXPECT_FALSE(write_ok(stale)) << "the object built at epoch 1 is refused";
  Journal::Record fresh = action_record("ABCDEF", 1, 2);
  fresh.epoch = 2;
  EXPECT_TRUE(write_ok(fresh)) << "the object built at epoch 2 writes";
  auto r = j.load("ABCDEF");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->log.size(), 2u);
  EXPECT_EQ(r->version, 2);
}

TEST_F(RedisJournalTest, ARecordSentTwiceLandsOnceAndAGapIsRefused) {
  auto& j = *journal_;
  j.write(create_record("ABCDEF"), nullptr);
  std::atomic<int> ok{0};
  std::atomic<int> refused{0};
  auto count = [&](bool good) { (good ? ok : refused) += 1; };
  j.write(action_record("ABCDEF", 0, 1), count);
  j.write(action_record("ABCDEF", 0, 1), count);  // the same record again: accepted, not added
  j.write(create_record("ABCDEF"), count);        // a creation sent again: accepted
  Journal::Record other = action_record("ABCDEF", 0, 1);
  other.action.action = {{"type", "different"}};
  j.write(other, count);                          // another action at a taken place
  j.write(action_record("ABCDEF", 5, 2), count);  // a gap
  j.flush();
  EXPECT_EQ(ok.load(), 3);
  EXPECT_EQ(refused.load(), 2);
  EXPECT_EQ(j.load("ABCDEF")->log.size(), 1u);
}

// Many rooms write while Redis is killed and restarted (appendfsync always): every record whose
// completion said ok is there, in order, exactly once.
TEST_F(RedisJournalTest, RedisKilledAndRestartedLosesNothingCompleted) {
  auto& j = *journal_;
  constexpr int kRooms = 20;
  constexpr int kActions = 150;
  std::vector<std::string> codes;
  for (int r = 0; r < kRooms; ++r) {
    codes.push_back("R" + std::to_string(10000 + r));
    j.write(create_record(codes.back()), nullptr);
  }
  j.flush();
  std::mutex m;
  std::map<std::string, std::vector<std::size_t>> completed;
  std::atomic<int> failures{0};
  std::thread writer([&] {
    for (int i = 0; i < kActions; ++i) {
      for (const auto& code : codes) {
        j.write(action_record(code, static_cast<std::size_t>(i), i + 1), [&, code, i](bool ok) {
          if (!ok) ++failures;
          std::lock_guard lock(m);
          completed[code].push_back(static_cast<std::size_t>(i));
        });
      }
      std::this_thread::sleep_for(2ms);
    }
  });
  std::this_thread::sleep_for(100ms);
  redis_->kill();
  std::this_thread::sleep_for(300ms);
  redis_->start();
  writer.join();
  ASSERT_TRUE(j.flush_for(30s)) << j.backlog() << " records never completed";
  EXPECT_EQ(failures.load(), 0);
  for (const auto& code : codes) {
    const auto& order = completed[code];
    ASSERT_EQ(order.size(), static_cast<std::size_t>(kActions)) << code;
    for (std::size_t i = 0; i < order.size(); ++i)
      ASSERT_EQ(order[i], i) << code << ": out of order";
    auto room = j.load(code);
    ASSERT_TRUE(room) << code;
    ASSERT_EQ(room->log.size(), static_cast<std::size_t>(kActions)) << code;
    for (std::size_t i = 0; i < room->log.size(); ++i) {
      ASSERT_EQ(room->log[i].action["n"], i) << code << " #" << i;
    }
    EXPECT_EQ(room->version, kActions);
  }
}

TEST_F(RedisJournalTest, AHungRedisHoldsCompletionsUntilItAnswers) {
  auto& j = *journal_;
  j.write(create_record("ABCDEF"), nullptr);
  j.flush();
  redis_->pause();
  std::atomic<int> done{0};
  for (int i = 0; i < 10; ++i) {
    j.write(action_record("ABCDEF", static_cast<std::size_t>(i), i + 1), [&](bool ok) {
      EXPECT_TRUE(ok);
      ++done;
    });
  }
  std::this_thread::sleep_for(1500ms);  // past the reply time limit: the connection is dropped
  EXPECT_EQ(done.load(), 0) << "nothing may complete while redis does not answer";
  EXPECT_EQ(j.backlog(), 10u);
  redis_->resume();
  ASSERT_TRUE(j.flush_for(20s));
  EXPECT_EQ(done.load(), 10);
  EXPECT_EQ(j.load("ABCDEF")->log.size(), 10u);
}

TEST_F(RedisJournalTest, AbandonedRecordsFailAndTheRestGoOn) {
  auto& j = *journal_;
  j.write(create_record("ABCDEF"), nullptr);
  j.write(create_record("GHJKLM"), nullptr);
  j.flush();
  redis_->pause();
  std::atomic<int> gone{0};
  std::atomic<int> kept{0};
  j.write(action_record("ABCDEF", 0, 1), [&](bool ok) { (ok ? kept : gone) += 1; });
  j.write(action_record("GHJKLM", 0, 1), [&](bool ok) { (ok ? kept : gone) += 1; });
  j.abandon("ABCDEF");
  EXPECT_TRUE(eventually([&] { return gone.load() == 1; }));
  redis_->resume();
  ASSERT_TRUE(j.flush_for(20s));
  EXPECT_EQ(kept.load(), 1);
  EXPECT_EQ(j.load("GHJKLM")->log.size(), 1u);
}

}  // namespace
}  // namespace campfire::server::testing
