// The hiredis adapter against a real redis-server: replies of every kind, order under pipelining,
// time limits, a Redis that goes away, hangs or comes back, and subscriptions.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/executor_work_guard.hpp>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "server/cluster/redis.hpp"
#include "tests/cluster/redis_fixture.hpp"

namespace campfire::server::testing {
namespace {

using cluster::Connection;
using cluster::Reply;
using namespace std::chrono_literals;

// An io_context on a thread of its own, as the cluster runs its Redis connections.
class IoThread {
 public:
  IoThread() : guard_(ioc_.get_executor()), thread_([this] { ioc_.run(); }) {}
  ~IoThread() {
    guard_.reset();
    ioc_.stop();
    thread_.join();
  }
  boost::asio::io_context& ioc() { return ioc_; }

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  std::thread thread_;
};

Connection::Options options_for(const RedisServer& redis, int db = 0) {
  Connection::Options o;
  std::string error;
  o.url = *cluster::parse_redis_url(redis.url(db), &error);
  o.name = "campfire-test";
  o.reply_timeout = 500ms;
  o.connect_timeout = 500ms;
  o.keepalive = 100ms;
  return o;
}

class RedisAdapterTest : public ::testing::Test {
 protected:
  void SetUp() override { spdlog::set_level(spdlog::level::err); }
  // A connection that is up (fails the test otherwise).
  std::shared_ptr<Connection> connect(const RedisServer& redis, int db = 0) {
    auto c = Connection::create(io_.ioc(), options_for(redis, db));
    c->start();
    EXPECT_TRUE(eventually([&] { return c->up(); })) << "no connection to the test redis";
    return c;
  }
  IoThread io_;
};

// Without redis-server these tests cannot run: they fail, saying what is missing.
TEST(RedisFixture, AMissingRedisServerFailsWithAClearMessage) {
  const char* path = std::getenv("PATH");
  const std::string saved = path != nullptr ? path : "";
  ::setenv("PATH", "/nonexistent", 1);
  try {
    RedisServer redis;
    ::setenv("PATH", saved.c_str(), 1);
    FAIL() << "a redis-server started from an empty PATH";
  } catch (const std::runtime_error& e) {
    ::setenv("PATH", saved.c_str(), 1);
    EXPECT_NE(std::string(e.what()).find("cannot start redis-server"), std::string::npos)
        << e.what();
  }
}

TEST(RedisUrl, ParsesHostPortAndDatabase) {
  std::string error;
  auto u = cluster::parse_redis_url("redis://cache.internal:6380/3", &error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->host, "cache.internal");
  EXPECT_EQ(u->port, 6380);
  EXPECT_EQ(u->db, 3);
  u = cluster::parse_redis_url("redis://10.0.0.7", &error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->port, 6379);
  EXPECT_EQ(u->db, 0);
  u = cluster::parse_redis_url("redis://[::1]:7000/", &error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 7000);
  EXPECT_EQ(u->to_string(), "redis://::1:7000/0");
}

TEST(RedisUrl, RefusesWhatIsNotARedisUrlAndSaysWhy) {
  for (const char* bad :
       {"", "localhost:6379", "http://localhost:6379", "redis://", "redis://:6379",
        "redis://host:", "redis://host:0", "redis://host:65536", "redis://host:12ab",
        "redis://host/x", "redis://host/-1", "redis://user:secret@host", "redis://ho st",
        "redis://[::1", "redis://[::1]x"}) {
    std::string error;
    EXPECT_FALSE(cluster::parse_redis_url(bad, &error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
  }
}

TEST_F(RedisAdapterTest, RepliesOfEveryKind) {
  RedisServer redis;
  auto c = connect(redis);
  EXPECT_EQ(c->call({"SET", "k", std::string("a\0b\r\n", 5)}).str, "OK");
  const Reply got = c->call({"GET", "k"});
  EXPECT_EQ(got.type, Reply::Type::kString);
  EXPECT_EQ(got.str, std::string("a\0b\r\n", 5)) << "values are binary-safe";
  EXPECT_TRUE(c->call({"GET", "missing"}).nil());
  const Reply n = c->call({"INCRBY", "n", "41"});
  EXPECT_EQ(n.type, Reply::Type::kInteger);
  EXPECT_EQ(n.integer, 41);
  c->call({"RPUSH", "l", "x", "y", "z"});
  const Reply list = c->call({"LRANGE", "l", "0", "-1"});
  ASSERT_EQ(list.type, Reply::Type::kArray);
  ASSERT_EQ(list.elements.size(), 3u);
  EXPECT_EQ(list.elements[2].str, "z");
  const Reply wrong = c->call({"INCR", "k"});
  EXPECT_EQ(wrong.type, Reply::Type::kError);
  EXPECT_NE(wrong.str.find("not an integer"), std::string::npos) << wrong.describe();
  EXPECT_FALSE(wrong.failed()) << "an error reply is an answer, not a failure";
  const Reply script = c->call({"EVAL", "return {1, 'two', {3}}", "0"});
  ASSERT_EQ(script.type, Reply::Type::kArray);
  EXPECT_EQ(script.elements[1].str, "two");
  EXPECT_EQ(script.elements[2].elements[0].integer, 3);
  c->stop();
}

TEST_F(RedisAdapterTest, PipelinedRepliesComeBackInOrder) {
  RedisServer redis;
  auto c = connect(redis);
  constexpr int kCommands = 20000;
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<long long> seen;
  seen.reserve(kCommands);
  std::atomic<int> failed{0};
  // From several threads at once: the adapter must keep each thread's order.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommands / 4; ++i) {
        c->command({"RPUSH", "order:" + std::to_string(t), std::to_string(i)}, [&](Reply r) {
          if (r.error()) ++failed;
          std::lock_guard lock(mutex);
          seen.push_back(r.integer);
          cv.notify_all();
        });
      }
    });
  }
  for (auto& th : threads) th.join();
  std::unique_lock lock(mutex);
  ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return seen.size() == kCommands; }));
  lock.unlock();
  EXPECT_EQ(failed.load(), 0) << "a long pipeline that makes progress is not a broken link";
  for (int t = 0; t < 4; ++t) {
    const Reply list = c->call({"LRANGE", "order:" + std::to_string(t), "0", "-1"});
    ASSERT_EQ(list.elements.size(), static_cast<std::size_t>(kCommands / 4));
    for (int i = 0; i < kCommands / 4; ++i) {
      ASSERT_EQ(list.elements[static_cast<std::size_t>(i)].str, std::to_string(i));
    }
  }
  c->stop();
}

TEST_F(RedisAdapterTest, SelectsTheDatabaseOfTheUrl) {
  RedisServer redis;
  auto zero = connect(redis, 0);
  auto five = connect(redis, 5);
  five->call({"SET", "where", "five"});
  EXPECT_TRUE(zero->call({"GET", "where"}).nil());
  EXPECT_EQ(redis.command({"SELECT", "5"}), "OK");
  EXPECT_EQ(five->call({"GET", "where"}).str, "five");
  zero->stop();
  five->stop();
}

TEST_F(RedisAdapterTest, ADatabaseRedisDoesNotHaveIsAnErrorThatSaysSo) {
  RedisServer redis;
  auto c = Connection::create(io_.ioc(), options_for(redis, 99999));
  c->start();
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(c->up());
  const Reply r = c->call({"PING"});
  ASSERT_TRUE(r.failed());
  EXPECT_NE(r.str.find("SELECT 99999"), std::string::npos) << r.describe();
  c->stop();
}

TEST_F(RedisAdapterTest, UnreachableRedisFailsCommandsAtOnceAndConnectsWhenItComes) {
  const std::uint16_t port = free_tcp_port();
  Connection::Options o;
  o.url.host = "127.0.0.1";
  o.url.port = port;
  o.connect_timeout = 300ms;
  auto c = Connection::create(io_.ioc(), o);
  std::atomic<int> ups{0};
  c->on_state([&](bool up) { ups += up ? 1 : 0; });
  c->start();
  const Reply r = c->call({"PING"}, 5s);
  EXPECT_TRUE(r.failed());
  // The connection's own answer (why it is down), not the caller giving up waiting.
  EXPECT_EQ(r.str.find("no reply within"), std::string::npos)
      << "a command must not wait for redis";
  EXPECT_FALSE(r.str.empty());
  EXPECT_EQ(ups.load(), 0);
  RedisServer redis("always", port);
  ASSERT_TRUE(eventually([&] { return c->up(); })) << "no connection once redis is there";
  EXPECT_EQ(ups.load(), 1);
  EXPECT_EQ(c->call({"PING"}).str, "PONG");
  c->stop();
}

TEST_F(RedisAdapterTest, ReconnectsAfterRedisRestartsAndKeepsWhatWasWritten) {
  RedisServer redis;
  auto c = connect(redis);
  std::atomic<int> downs{0};
  std::atomic<int> ups{0};
  c->on_state([&](bool up) { (up ? ups : downs) += 1; });
  ASSERT_EQ(c->call({"SET", "kept", "yes"}).str, "OK");
  redis.kill();
  ASSERT_TRUE(eventually([&] { return downs.load() == 1; })) << "the loss was not noticed";
  EXPECT_TRUE(c->call({"GET", "kept"}).failed());
  redis.start();
  ASSERT_TRUE(eventually([&] { return ups.load() == 1 && c->up(); })) << "no reconnection";
  EXPECT_EQ(c->call({"GET", "kept"}).str, "yes") << "appendfsync always keeps acknowledged writes";
  c->stop();
}

TEST_F(RedisAdapterTest, AHungRedisFailsCommandsAfterTheReplyTimeLimit) {
  RedisServer redis;
  auto c = connect(redis);
  std::atomic<int> downs{0};
  c->on_state([&](bool up) { downs += up ? 0 : 1; });
  redis.pause();
  const Reply r = c->call({"SET", "during", "pause"}, 60s);
  EXPECT_TRUE(r.failed()) << r.describe();
  // The connection's time limit (500 ms) ended the wait, not the caller's (60 s).
  EXPECT_NE(r.str.find("no reply within 500 ms"), std::string::npos) << r.describe();
  EXPECT_TRUE(eventually([&] { return downs.load() >= 1; }));
  redis.resume();
  EXPECT_TRUE(eventually([&] { return c->up(); })) << "no reconnection after the pause";
  EXPECT_EQ(c->call({"PING"}).str, "PONG");
  c->stop();
}

TEST_F(RedisAdapterTest, SubscriptionsDeliverMessagesAndComeBackAfterARestart) {
  RedisServer redis;
  auto publisher = connect(redis);
  auto subscriber = Connection::create(io_.ioc(), options_for(redis));
  std::mutex mutex;
  std::vector<std::string> got;
  std::atomic<int> setups{0};
  subscriber->on_connect([&, sub = subscriber.get()](std::function<void(bool)> ready) {
    ++setups;
    sub->subscribe(
        "news",
        [&](std::string_view channel, std::string_view message) {
          std::lock_guard lock(mutex);
          got.push_back(std::string(channel) + "=" + std::string(message));
        },
        std::move(ready));
  });
  subscriber->start();
  ASSERT_TRUE(eventually([&] { return subscriber->up(); }));
  EXPECT_EQ(publisher->call({"PUBLISH", "news", std::string("one\0x", 5)}).integer, 1);
  EXPECT_EQ(publisher->call({"PUBLISH", "other", "not for us"}).integer, 0);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return got.size() == 1;
  }));
  EXPECT_EQ(got[0], "news=" + std::string("one\0x", 5));

  // Quiet for longer than the reply time limit: a subscriber sends no pings (hiredis 0.14 could
  // hand a message to a ping's callback) and waits nothing, so it stays up.
  std::this_thread::sleep_for(800ms);
  EXPECT_TRUE(subscriber->up());
  EXPECT_EQ(setups.load(), 1);

  redis.kill();
  redis.start();
  ASSERT_TRUE(
      eventually([&] { return subscriber->up() && publisher->up() && setups.load() == 2; }));
  EXPECT_EQ(publisher->call({"PUBLISH", "news", "two"}).integer, 1);
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(mutex);
    return got.size() == 2;
  }));
  EXPECT_EQ(got[1], "news=two");
  subscriber->stop();
  publisher->stop();
}

TEST_F(RedisAdapterTest, StopFailsWhatIsWaitingAndThenNothingMoreRuns) {
  RedisServer redis;
  auto c = connect(redis);
  redis.pause();
  std::atomic<int> answered{0};
  std::atomic<int> failed{0};
  for (int i = 0; i < 50; ++i) {
    c->command({"INCR", "x"}, [&](Reply r) {
      ++answered;
      failed += r.failed() ? 1 : 0;
    });
  }
  std::this_thread::sleep_for(50ms);
  c->stop();
  EXPECT_TRUE(eventually([&] { return answered.load() == 50; }));
  EXPECT_EQ(failed.load(), 50);
  const Reply after = c->call({"PING"});
  EXPECT_TRUE(after.failed());
  redis.resume();
}

}  // namespace
}  // namespace campfire::server::testing
