// Leases and the room directory against a real redis-server: a node id is held by one process at
// a time; the rooms of a node that dies are claimed by the survivors, each exactly once, at a new
// epoch that fences the old owner out of the journal; a node cut off from Redis stops acting for
// its rooms before any other node can claim them; a node that gives its lease up hands its rooms
// over at once.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "server/cluster/directory.hpp"
#include "server/cluster/keys.hpp"
#include "tests/cluster/cut_proxy.hpp"
#include "tests/cluster/redis_fixture.hpp"
#include "tests/server/journal_records.hpp"

namespace campfire::server::testing {
namespace {

using cluster::Directory;
using cluster::Fence;
using cluster::RedisJournal;
using cluster::RedisLink;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kLease = 2000ms;

// A node as far as leases go: its link, directory and journal, and what its directory reported.
struct Node {
  Node(std::uint16_t redis_port, const std::string& id, std::chrono::milliseconds lease = kLease,
       std::chrono::milliseconds renew_every = 0ms) {
    RedisLink::Options o;
    o.url.host = "127.0.0.1";
    o.url.port = redis_port;
    o.node = id;
    o.reply_timeout = 300ms;
    o.connect_timeout = 300ms;
    link = std::make_unique<RedisLink>(o);
    link->start(5s);
    Directory::Options d;
    d.node = id;
    d.lease = lease;
    d.renew_every = renew_every;
    Directory::Callbacks cb;
    cb.claimed = [this](const std::string& code, long long epoch) {
      std::lock_guard lock(mutex);
      claims.emplace_back(code, epoch, Clock::now());
    };
    cb.lapsed = [this] {
      std::lock_guard lock(mutex);
      lapses.push_back(Clock::now());
    };
    cb.node_gone = [this](const std::string& node, const std::string&) {
      std::lock_guard lock(mutex);
      gone.push_back(node);
    };
    directory = std::make_unique<Directory>(*link, d, cb);
    journal = std::make_unique<RedisJournal>(
        *link, [this](const std::string& code) { return directory->fence(code); });
  }
  ~Node() {
    journal.reset();
    directory.reset();
    link.reset();
  }
  // Creates a room owned by this node (as a room's creation record does).
  bool create(const std::string& code) {
    directory->adopt_new(code);
    return write(create_record(code));
  }
  bool write(Journal::Record r) {
    std::promise<bool> p;
    auto f = p.get_future();
    journal->write(std::move(r), [&](bool ok) { p.set_value(ok); });
    return f.get();
  }
  bool act(const std::string& code, std::size_t index) {
    Journal::Record a;
    a.kind = Journal::Record::Kind::kAction;
    a.code = code;
    a.index = index;
    a.version = static_cast<long long>(index) + 1;
    a.action = {0, {{"type", "x"}, {"by", directory->node()}}, 1};
    return write(std::move(a));
  }
  std::size_t claim_count() {
    std::lock_guard lock(mutex);
    return claims.size();
  }
  std::size_t lapse_count() {
    std::lock_guard lock(mutex);
    return lapses.size();
  }

  std::unique_ptr<RedisLink> link;
  std::unique_ptr<Directory> directory;
  std::unique_ptr<RedisJournal> journal;
  std::mutex mutex;
  std::vector<std::tuple<std::string, long long, Clock::time_point>> claims;
  std::vector<Clock::time_point> lapses;
  std::vector<std::string> gone;
};

class DirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override { spdlog::set_level(spdlog::level::critical); }
  RedisServer redis_;
};

TEST_F(DirectoryTest, ANodeIdIsHeldByOneRunningProcessAtATime) {
  Node a(redis_.port(), "a");
  a.directory->start();
  EXPECT_TRUE(a.directory->acting());
  EXPECT_EQ(redis_.command({"GET", cluster::keys::node_lease("a")}), a.directory->incarnation());
  Node twin(redis_.port(), "a");
  try {
    twin.directory->start();
    FAIL() << "a second process took the id of a live node";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--node-id"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(a.directory->acting()) << "the live node keeps its lease";
  EXPECT_EQ(redis_.command({"GET", cluster::keys::node_lease("a")}), a.directory->incarnation());
}

TEST_F(DirectoryTest, ARestartedNodeWaitsForItsOldLeaseAndClaimsItsRoomsBack) {
  std::string first_incarnation;
  {
    Node a(redis_.port(), "a");
    a.directory->start();
    first_incarnation = a.directory->incarnation();
    ASSERT_TRUE(a.create("ROOMAA"));
    ASSERT_TRUE(a.create("ROOMBB"));
    ASSERT_TRUE(a.act("ROOMAA", 0));
    a.directory->stop(false);  // as if killed: the lease is left to lapse
  }
  Node again(redis_.port(), "a");
  again.directory->start();
  EXPECT_NE(again.directory->incarnation(), first_incarnation);
  ASSERT_TRUE(eventually([&] { return again.claim_count() == 2; }));
  std::set<std::string> codes;
  for (const auto& [code, epoch, at] : again.claims) {
    codes.insert(code);
    EXPECT_EQ(epoch, 2);
  }
  EXPECT_EQ(codes, (std::set<std::string>{"ROOMAA", "ROOMBB"}));
  EXPECT_TRUE(again.act("ROOMAA", 1)) << "the new incarnation writes at the new epoch";
}

TEST_F(DirectoryTest, TheRoomsOfADeadNodeAreClaimedOnceEachAndItIsFencedOut) {
  Node a(redis_.port(), "a");
  Node b(redis_.port(), "b");
  Node c(redis_.port(), "c");
  a.directory->start();
  b.directory->start();
  c.directory->start();
  std::vector<std::string> codes;
  for (int i = 0; i < 30; ++i) {
    codes.push_back("R" + std::to_string(100000 + i));
    ASSERT_TRUE(a.create(codes.back()));
    ASSERT_TRUE(a.act(codes.back(), 0));
  }
  // Let b and c see a alive first, then a dies without a word.
  std::this_thread::sleep_for(300ms);
  const auto died = Clock::now();
  a.directory->stop(false);
  ASSERT_TRUE(eventually([&] { return b.claim_count() + c.claim_count() == codes.size(); }))
      << b.claim_count() << " + " << c.claim_count() << " of " << codes.size() << " claimed";
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(b.claim_count() + c.claim_count(), codes.size()) << "a room was claimed twice";
  std::set<std::string> claimed;
  Clock::time_point last = died;
  for (Node* n : {&b, &c}) {
    for (const auto& [code, epoch, at] : n->claims) {
      EXPECT_TRUE(claimed.insert(code).second) << code << " claimed twice";
      EXPECT_EQ(epoch, 2);
      last = std::max(last, at);
    }
  }
  EXPECT_EQ(claimed.size(), codes.size());
  EXPECT_GT(b.claim_count(), 0u) << "both survivors take a share";
  EXPECT_GT(c.claim_count(), 0u) << "both survivors take a share";
  std::cout << "takeover: " << codes.size() << " rooms claimed "
            << std::chrono::duration_cast<std::chrono::milliseconds>(last - died).count()
            << " ms after the owner died (lease " << kLease.count() << " ms)\n";
  // The dead node's writes are refused; the new owners write.
  {
    Journal::Record stale;
    stale.kind = Journal::Record::Kind::kAction;
    stale.code = codes[0];
    stale.index = 1;
    stale.version = 2;
    stale.action = {0, {{"type", "late"}}, 1};
    std::promise<bool> p;
    a.journal->write(stale, Fence{"a", a.directory->incarnation(), 1},
                     [&](bool ok) { p.set_value(ok); });
    EXPECT_FALSE(p.get_future().get());
  }
  for (Node* n : {&b, &c}) {
    for (const auto& [code, epoch, at] : n->claims) EXPECT_TRUE(n->act(code, 1)) << code;
  }
  for (const auto& code : codes) {
    EXPECT_EQ(redis_.command({"LLEN", cluster::keys::log(code)}), "2") << code;
  }
  EXPECT_TRUE(eventually([&] {
    std::lock_guard lock(b.mutex);
    return std::find(b.gone.begin(), b.gone.end(), "a") != b.gone.end();
  })) << "the survivors are told the node is gone";
  // Once its rooms are all taken, the dead node leaves the list.
  EXPECT_TRUE(eventually([&] {
    return redis_.command({"HEXISTS", cluster::keys::nodes(), "a"}) == "0";
  }));
}

// A lease of ten minutes: the room can only move within the test if the lease given up is not
// waited for.
TEST_F(DirectoryTest, GivingTheLeaseUpHandsTheRoomsOverAtOnce) {
  Node a(redis_.port(), "a", 600s, 200ms);
  Node b(redis_.port(), "b", 600s, 200ms);
  a.directory->start();
  b.directory->start();
  ASSERT_TRUE(a.create("ROOMAA"));
  a.directory->stop(true);
  EXPECT_EQ(redis_.command({"EXISTS", cluster::keys::node_lease("a")}), "0");
  ASSERT_TRUE(eventually([&] { return b.claim_count() == 1; }))
      << "the room of a node that gave its lease up was not taken over";
  EXPECT_EQ(std::get<0>(b.claims[0]), "ROOMAA");
  EXPECT_EQ(std::get<1>(b.claims[0]), 2);
  EXPECT_TRUE(b.act("ROOMAA", 0));
}

// The node in front of the cut stops acting before the other can claim: never two owners.
TEST_F(DirectoryTest, ANodeCutOffFromRedisStopsBeforeItsRoomsAreClaimed) {
  CutProxy proxy(redis_.port());
  // A longer lease here: the margin between stopping and a possible claim is a fifth of it, and
  // this machine may be busy.
  Node a(proxy.port(), "a", 3000ms);
  Node b(redis_.port(), "b", 3000ms);
  a.directory->start();
  b.directory->start();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(a.create("CUT00" + std::to_string(i)));
  std::this_thread::sleep_for(300ms);
  const auto cut_at = Clock::now();
  proxy.cut();
  ASSERT_TRUE(eventually([&] { return a.lapse_count() == 1; })) << "the cut-off node kept acting";
  EXPECT_FALSE(a.directory->acting());
  EXPECT_FALSE(a.directory->fence("CUT000")) << "no fence once it stopped";
  ASSERT_TRUE(eventually([&] { return b.claim_count() == 5; }));
  const auto stopped = a.lapses[0];
  for (const auto& [code, epoch, at] : b.claims) {
    EXPECT_LT(stopped, at) << code << " was claimed while its old owner still acted";
  }
  std::cout << "cut off: stopped acting "
            << std::chrono::duration_cast<std::chrono::milliseconds>(stopped - cut_at).count()
            << " ms after the cut, first claim by the other node "
            << std::chrono::duration_cast<std::chrono::milliseconds>(std::get<2>(b.claims[0]) -
                                                                     cut_at)
                   .count()
            << " ms after it\n";
  // Healed: the lease is gone, so the node takes a new one and has nothing left to claim.
  proxy.heal();
  ASSERT_TRUE(eventually([&] { return a.directory->acting(); }));
  std::this_thread::sleep_for(500ms);
  EXPECT_EQ(a.claim_count(), 0u);
  for (const auto& [code, epoch, at] : b.claims) EXPECT_TRUE(b.act(code, 0)) << code;
}

// Redis away for less than the lease: nobody stops, nothing moves.
TEST_F(DirectoryTest, AShortRedisRestartChangesNoOwner) {
  Node a(redis_.port(), "a");
  Node b(redis_.port(), "b");
  a.directory->start();
  b.directory->start();
  ASSERT_TRUE(a.create("ROOMAA"));
  ASSERT_TRUE(b.create("ROOMBB"));
  redis_.stop();
  redis_.start();
  ASSERT_TRUE(eventually([&] { return a.link->up() && b.link->up(); }));
  EXPECT_TRUE(a.act("ROOMAA", 0));
  EXPECT_TRUE(b.act("ROOMBB", 0));
  std::this_thread::sleep_for(kLease);
  EXPECT_EQ(a.claim_count() + b.claim_count(), 0u);
  EXPECT_EQ(a.lapse_count() + b.lapse_count(), 0u);
}

// Redis away for longer than the lease: both stop, then each claims its own rooms back.
TEST_F(DirectoryTest, ALongRedisOutageStopsEveryNodeAndEachRoomComesBackOnce) {
  Node a(redis_.port(), "a");
  Node b(redis_.port(), "b");
  a.directory->start();
  b.directory->start();
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(a.create("LONGA" + std::to_string(i)));
    ASSERT_TRUE(b.create("LONGB" + std::to_string(i)));
  }
  redis_.stop();
  ASSERT_TRUE(eventually([&] { return a.lapse_count() == 1 && b.lapse_count() == 1; }));
  std::this_thread::sleep_for(kLease);
  redis_.start();
  ASSERT_TRUE(eventually([&] { return a.claim_count() + b.claim_count() == 8; }));
  std::this_thread::sleep_for(500ms);
  std::set<std::string> claimed;
  std::size_t stayed = 0;
  for (Node* n : {&a, &b}) {
    for (const auto& [code, epoch, at] : n->claims) {
      EXPECT_TRUE(claimed.insert(code).second) << code << " claimed twice";
      EXPECT_TRUE(n->act(code, 0)) << code;
      stayed += code.starts_with(n == &a ? "LONGA" : "LONGB") ? 1 : 0;
    }
  }
  EXPECT_EQ(claimed.size(), 8u);
  std::cout << "long outage: " << stayed << " of 8 rooms came back to their own node\n";
}

}  // namespace
}  // namespace campfire::server::testing
