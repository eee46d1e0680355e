// A Redis client for the cluster: hiredis' asynchronous API driven by Asio. hiredis keeps the
// protocol (commands out, replies in); this adapter gives it a socket watched by Asio, adds what
// hiredis 0.14 lacks (connect and reply time limits, reconnecting with back-off) and turns
// replies into plain C++ values.
//
// Everything a Connection does runs on its own strand; its public methods may be called from any
// thread. Replies are delivered on that strand, in the order the commands were issued.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisAsyncContext;

namespace campfire::server::cluster {

namespace asio = boost::asio;

// Where the cluster's Redis is: redis://HOST:PORT[/DB].
struct RedisUrl {
  std::string host;
  std::uint16_t port = 6379;
  int db = 0;

  std::string to_string() const;
};

// Parses redis://HOST[:PORT][/DB]; on bad input returns nullopt and says why in `error`.
std::optional<RedisUrl> parse_redis_url(std::string_view url, std::string* error);

// One reply. `kFailed` is not Redis' answer but the lack of one: the connection was down, broke,
// or the answer did not come in time (the command may or may not have run).
struct Reply {
  enum class Type { kNil, kInteger, kString, kStatus, kError, kArray, kFailed };
  Type type = Type::kNil;
  long long integer = 0;
  std::string str;  // string, status, error text, or why it failed
  std::vector<Reply> elements;

  bool failed() const { return type == Type::kFailed; }
  bool error() const { return type == Type::kError || type == Type::kFailed; }
  bool nil() const { return type == Type::kNil; }
  // A short description for logs and test failures.
  std::string describe() const;

  static Reply failure(std::string why) {
    Reply r;
    r.type = Type::kFailed;
    r.str = std::move(why);
    return r;
  }
};

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  using Args = std::vector<std::string>;
  using Done = std::function<void(Reply)>;

  struct Options {
    RedisUrl url;
    std::string name;  // CLIENT SETNAME, so `CLIENT LIST` shows who is who
    std::chrono::milliseconds connect_timeout{2000};
    // No reply for this long while a command waits means the connection is broken (a
    // partition, a stopped server): it is closed, every command waiting on it fails, and it
    // reconnects.
    std::chrono::milliseconds reply_timeout{2000};
    std::chrono::milliseconds min_backoff{50};
    std::chrono::milliseconds max_backoff{1000};
    // An idle connection sends a PING this often, so a dead link is noticed while quiet (0:
    // never). Not once it has subscribed: hiredis 0.14 may hand a published message to a
    // command's callback there, so a subscriber's link is watched by its owner instead.
    std::chrono::milliseconds keepalive{500};
  };

  // Not connected yet: call start().
  static std::shared_ptr<Connection> create(asio::io_context& ioc, Options options);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Connects, and reconnects after every failure until stop().
  void start();
  // Closes the connection; commands waiting fail. No callback runs after stop() returns to the
  // strand, except those failures.
  void stop();

  // Sends a command. While the connection is down it fails at once (Reply::kFailed).
  void command(Args args, Done done);
  // The same, waiting for the reply (never call it from this connection's io_context threads).
  Reply call(Args args, std::chrono::milliseconds patience = std::chrono::seconds(5));

  // Runs on the strand each time the connection is (re)established, before it counts as up:
  // the place for SUBSCRIBE or loading scripts. `ready` must be called once the connection is
  // ready for use, with false when the setup failed (the connection is then dropped).
  void on_connect(std::function<void(std::function<void(bool ok)> ready)> setup);
  // Runs on the strand when the connection comes up (true) or goes down (false).
  void on_state(std::function<void(bool up)> callback);

  // Sends at once, from the on_connect setup only (on the strand, before the connection counts
  // as up, when command() would refuse).
  void send_now(Args args, Done done) { send(std::move(args), std::move(done)); }
  // Drops the connection, which then reconnects: for a caller that found it unusable.
  void reset(std::string why);

  // Subscriber connections: messages published to `channel` reach `handler` (on the strand).
  // Call from the on_connect setup: a subscription lasts as long as the connection.
  void subscribe(const std::string& channel,
                 std::function<void(std::string_view channel, std::string_view message)> handler,
                 std::function<void(bool ok)> subscribed);

  bool up() const { return up_; }
  const Options& options() const { return options_; }
  asio::strand<asio::io_context::executor_type>& strand() { return strand_; }

 private:
  struct Pending;
  Connection(asio::io_context& ioc, Options options);

  void connect();
  void on_resolved(boost::system::error_code ec, asio::ip::tcp::resolver::results_type results);
  void connected(int status);
  void setup_done(bool ok, std::uint64_t generation);
  void disconnected(int status);
  void fail(const std::string& why);
  void retry_later();
  void arm_read();
  void arm_write();
  void on_ready(bool readable, std::uint64_t generation, boost::system::error_code ec);
  void arm_watchdog();
  void watchdog();
  void ping_later();
  void reply_arrived();
  void send(Args args, Done done);

  // hiredis' hooks and callbacks.
  static void hook_add_read(void* self);
  static void hook_del_read(void* self);
  static void hook_add_write(void* self);
  static void hook_del_write(void* self);
  static void hook_cleanup(void* self);
  static void on_connect_cb(const redisAsyncContext* ac, int status);
  static void on_disconnect_cb(const redisAsyncContext* ac, int status);
  static void on_reply_cb(redisAsyncContext* ac, void* reply, void* privdata);
  static void on_message_cb(redisAsyncContext* ac, void* reply, void* privdata);

  asio::strand<asio::io_context::executor_type> strand_;
  Options options_;
  asio::ip::tcp::resolver resolver_;
  asio::posix::stream_descriptor socket_;
  asio::steady_timer retry_timer_;
  asio::steady_timer watchdog_timer_;
  asio::steady_timer ping_timer_;
  redisAsyncContext* ac_ = nullptr;
  std::uint64_t generation_ = 0;  // one per connection attempt; stale wake-ups are ignored
  bool want_read_ = false;
  bool want_write_ = false;
  bool reading_ = false;
  bool writing_ = false;
  bool connecting_ = false;
  std::atomic<bool> up_{false};
  bool stopped_ = false;
  bool started_ = false;
  bool subscribed_ = false;
  std::chrono::milliseconds backoff_;
  std::chrono::steady_clock::time_point down_since_;
  std::chrono::steady_clock::time_point last_complaint_;
  std::string last_error_;
  // When each command still waiting for its reply was sent (replies come in order), and when
  // the last reply came: the link is broken when nothing has come back for the reply time limit
  // while commands wait (a long pipeline under load still makes progress).
  std::deque<std::chrono::steady_clock::time_point> in_flight_;
  std::chrono::steady_clock::time_point last_reply_{};
  std::chrono::steady_clock::time_point connect_deadline_;
  std::function<void(std::function<void(bool)>)> setup_;
  std::function<void(bool)> state_callback_;
  struct Subscription {
    std::string channel;
    std::function<void(std::string_view, std::string_view)> handler;
    std::function<void(bool)> subscribed;
    bool confirmed = false;
  };
  std::vector<std::unique_ptr<Subscription>> subscriptions_;
};

}  // namespace campfire::server::cluster
