// The bus between nodes: its wire form refuses anything malformed, items reach the node they are
// for in the order they were sent, one turn's items leave as one message, a node does not hear
// its own messages to everyone, and a node whose items were lost on the way is told so.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <future>
#include <mutex>
#include <random>
#include <thread>

#include "server/cluster/bus.hpp"
#include "tests/cluster/redis_fixture.hpp"

namespace campfire::server::testing {
namespace {

using cluster::Bus;
using cluster::BusItem;
using cluster::BusSender;
using cluster::RedisLink;
using namespace std::chrono_literals;

BusItem sample_item(int i) {
  BusItem item;
  item.kind = BusItem::Kind::kFrames;
  item.conn = 0xfedcba9876543210ull + static_cast<std::uint64_t>(i);
  item.number = -42 - i;
  item.flag = i % 2 == 1;
  item.room = "ABCDEF";
  item.text = std::string("{\"type\":\"action\"}\0binary", 24);
  item.name = "Bella";
  item.address = "10.0.0.1";
  item.frames = {"{\"a\":1}", "", std::string(70000, 'x')};
  return item;
}

TEST(BusWire, ABatchRoundTrips) {
  const BusSender from{"node-1", "0123456789abcdef"};
  std::vector<BusItem> items = {sample_item(0), sample_item(1), BusItem{}};
  auto decoded = cluster::decode_batch(cluster::encode_batch(from, items));
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->first.node, "node-1");
  EXPECT_EQ(decoded->first.incarnation, "0123456789abcdef");
  ASSERT_EQ(decoded->second.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const BusItem& a = items[i];
    const BusItem& b = decoded->second[i];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.conn, b.conn);
    EXPECT_EQ(a.number, b.number);
    EXPECT_EQ(a.flag, b.flag);
    EXPECT_EQ(a.room, b.room);
    EXPECT_EQ(a.text, b.text);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.address, b.address);
    EXPECT_EQ(a.frames, b.frames);
  }
}

// A kind is a number on the wire: a kind dropped or moved would make nodes of two builds read
// each other's items as something else.
TEST(BusWire, EveryKindKeepsItsNumber) {
  using K = BusItem::Kind;
  const std::pair<K, int> numbers[] = {{K::kRequest, 1}, {K::kGone, 2},    {K::kFrames, 3},
                                       {K::kEntered, 4}, {K::kEvicted, 5}, {K::kRetired6, 6},
                                       {K::kClaimed, 7}, {K::kAsk, 8},     {K::kAnswer, 9},
                                       {K::kLost, 10},   {K::kHeld, 11},   {K::kCount, 12}};
  for (const auto& [kind, number] : numbers) EXPECT_EQ(static_cast<int>(kind), number);
}

TEST(BusWire, MalformedBytesAreRefused) {
  const std::string good = cluster::encode_batch({"n", "i"}, {sample_item(0), sample_item(1)});
  // Every truncation, and the batch with bytes left over.
  for (std::size_t n = 0; n < good.size(); n += (n < 200 ? 1 : 997)) {
    EXPECT_FALSE(cluster::decode_batch(std::string_view(good).substr(0, n))) << "cut at " << n;
  }
  EXPECT_FALSE(cluster::decode_batch(good + "x"));
  // A wrong version, an unknown kind, a flag that is not 0 or 1, a huge length.
  std::string bad = good;
  bad[0] = 2;
  EXPECT_FALSE(cluster::decode_batch(bad));
  const std::size_t kind_at = 1 + 4 + 1 + 4 + 1 + 4;
  bad = good;
  bad[kind_at] = 99;
  EXPECT_FALSE(cluster::decode_batch(bad));
  bad = good;
  bad[kind_at] = 0;
  EXPECT_FALSE(cluster::decode_batch(bad));
  bad = good;
  bad[kind_at + 1 + 8 + 8] = 7;
  EXPECT_FALSE(cluster::decode_batch(bad));
  bad = good;
  bad[1] = bad[2] = bad[3] = bad[4] = static_cast<char>(0xff);
  EXPECT_FALSE(cluster::decode_batch(bad));
  // Random bytes never decode into something, and never crash.
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string noise(static_cast<std::size_t>(rng() % 300), '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    if (!noise.empty()) noise[0] = 1;
    (void)cluster::decode_batch(noise);
  }
  EXPECT_TRUE(cluster::decode_batch(good));
}

struct BusNode {
  BusNode(const RedisServer& redis, const std::string& id) {
    RedisLink::Options o;
    o.url.host = "127.0.0.1";
    o.url.port = redis.port();
    o.node = id;
    link = std::make_unique<RedisLink>(o);
    bus = std::make_unique<Bus>(*link, id, [this](const BusSender& from, BusItem item) {
      std::lock_guard lock(mutex);
      got.emplace_back(from.node, std::move(item));
    });
    bus->set_incarnation("inc-" + id);
    link->start(5s);
  }
  // The link goes first: no message reaches the bus once it is gone.
  ~BusNode() {
    link.reset();
    bus.reset();
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return got.size();
  }
  std::unique_ptr<RedisLink> link;
  std::unique_ptr<Bus> bus;
  std::mutex mutex;
  std::vector<std::pair<std::string, BusItem>> got;
};

TEST(BusOverRedis, ItemsArriveInOrderInFewMessagesAndNotBackToTheSender) {
  spdlog::set_level(spdlog::level::critical);
  RedisServer redis;
  BusNode a(redis, "a");
  BusNode b(redis, "b");
  BusNode c(redis, "c");
  constexpr int kItems = 3000;
  // Everything is queued during one turn of a's Redis thread (held busy meanwhile), so it must
  // leave as one message per destination.
  std::promise<void> queued;
  std::promise<void> holding;
  boost::asio::post(a.link->strand(), [&] {
    holding.set_value();
    queued.get_future().wait();
  });
  holding.get_future().wait();
  for (int i = 0; i < kItems; ++i) {
    BusItem item;
    item.kind = BusItem::Kind::kRequest;
    item.conn = static_cast<std::uint64_t>(i);
    item.text = std::to_string(i);
    a.bus->send("b", std::move(item));
  }
  BusItem hello;
  hello.kind = BusItem::Kind::kClaimed;
  hello.room = "ROOMAA";
  hello.number = 3;
  a.bus->send("", hello);
  queued.set_value();
  ASSERT_TRUE(eventually([&] { return b.count() == kItems + 1 && c.count() == 1; }));
  for (int i = 0; i < kItems; ++i) {
    ASSERT_EQ(b.got[static_cast<std::size_t>(i)].first, "a");
    ASSERT_EQ(b.got[static_cast<std::size_t>(i)].second.text, std::to_string(i)) << "out of order";
  }
  EXPECT_EQ(c.got[0].second.kind, BusItem::Kind::kClaimed);
  EXPECT_EQ(c.got[0].second.number, 3);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(a.count(), 0u) << "a node must not hear its own messages to everyone";
  EXPECT_EQ(c.count(), 1u) << "items for one node reach only that node";
  const auto stats = a.bus->stats();
  EXPECT_EQ(stats.items_sent, static_cast<std::uint64_t>(kItems + 1));
  EXPECT_EQ(stats.batches_sent, 2u) << "items queued in one turn leave together";
  std::cout << "bus: " << stats.items_sent << " items in " << stats.batches_sent << " messages\n";
}

TEST(BusOverRedis, ANodeWhoseItemsCouldNotBePublishedIsToldOnceRedisAnswers) {
  spdlog::set_level(spdlog::level::critical);
  RedisServer redis;
  BusNode a(redis, "a");
  BusNode b(redis, "b");
  // Redis hangs: a's PUBLISH gets no answer in time, and the item may never reach b.
  redis.pause();
  BusItem frames;
  frames.kind = BusItem::Kind::kFrames;
  frames.conn = 7;
  frames.frames = {"{\"type\":\"state\"}"};
  a.bus->send("b", frames);
  EXPECT_TRUE(eventually([&] { return a.bus->stats().dropped >= 1; }))
      << "the publish should have failed";
  redis.resume();
  // b hears that items from a were lost, so its connections can ask for whole states.
  auto told = [&] {
    std::lock_guard lock(b.mutex);
    return std::any_of(b.got.begin(), b.got.end(), [](const auto& g) {
      return g.first == "a" && g.second.kind == BusItem::Kind::kLost;
    });
  };
  EXPECT_TRUE(eventually(told)) << "b was never told that items were lost";
  EXPECT_GE(a.bus->stats().lost_told, 1u);
  // Once heard, the notice is not repeated.
  std::this_thread::sleep_for(1s);
  std::size_t notices = 0;
  {
    std::lock_guard lock(b.mutex);
    for (const auto& g : b.got) notices += g.second.kind == BusItem::Kind::kLost ? 1 : 0;
  }
  EXPECT_EQ(notices, 1u);
}

}  // namespace
}  // namespace campfire::server::testing
