#include "server/cluster/redis.hpp"

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>
#include <future>

namespace campfire::server::cluster {

std::string RedisUrl::to_string() const {
  return "redis://" + host + ":" + std::to_string(port) + "/" + std::to_string(db);
}

std::optional<RedisUrl> parse_redis_url(std::string_view url, std::string* error) {
  auto bad = [&](const std::string& why) -> std::optional<RedisUrl> {
    if (error != nullptr) *error = why;
    return std::nullopt;
  };
  constexpr std::string_view kScheme = "redis://";
  if (!url.starts_with(kScheme)) {
    return bad("'" + std::string(url) + "' is not a Redis URL: use redis://HOST:PORT[/DB]");
  }
  std::string_view rest = url.substr(kScheme.size());
  RedisUrl out;
  std::string_view db;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    db = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  if (rest.find('@') != std::string_view::npos) {
    return bad("'" + std::string(url) + "': passwords in the URL are not supported");
  }
  std::string_view port;
  if (rest.starts_with('[')) {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) return bad("'" + std::string(url) + "': unclosed [");
    out.host = std::string(rest.substr(1, close - 1));
    rest = rest.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return bad("'" + std::string(url) + "': expected :PORT after ]");
      port = rest.substr(1);
      if (port.empty()) return bad("'" + std::string(url) + "': the port is empty");
    }
  } else if (const auto colon = rest.find(':'); colon != std::string_view::npos) {
    out.host = std::string(rest.substr(0, colon));
    port = rest.substr(colon + 1);
    if (port.empty()) return bad("'" + std::string(url) + "': the port is empty");
  } else {
    out.host = std::string(rest);
  }
  if (out.host.empty()) return bad("'" + std::string(url) + "' names no host");
  for (char ch : out.host) {
    const bool fine = std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' ||
                      ch == '_' || ch == ':';
    if (!fine) return bad("'" + std::string(url) + "': '" + out.host + "' is not a host name");
  }
  if (!port.empty()) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
      return bad("'" + std::string(url) + "': the port must be a number from 1 to 65535");
    }
    out.port = static_cast<std::uint16_t>(value);
  }
  if (!db.empty()) {
    int value = 0;
    const auto [end, ec] = std::from_chars(db.data(), db.data() + db.size(), value);
    if (ec != std::errc() || end != db.data() + db.size() || value < 0 || value > 100000) {
      return bad("'" + std::string(url) + "': the database must be a number (0, 1, ...)");
    }
    out.db = value;
  }
  return out;
}

std::string Reply::describe() const {
  switch (type) {
    case Type::kNil:
      return "nil";
    case Type::kInteger:
      return std::to_string(integer);
    case Type::kString:
      return "\"" + str.substr(0, 200) + "\"";
    case Type::kStatus:
      return str;
    case Type::kError:
      return "error: " + str;
    case Type::kFailed:
      return "no reply: " + str;
    case Type::kArray: {
      std::string out = "[";
      for (std::size_t i = 0; i < elements.size() && i < 20; ++i) {
        if (i > 0) out += ", ";
        out += elements[i].describe();
      }
      if (elements.size() > 20) out += ", ...";
      return out + "]";
    }
  }
  return "?";
}

namespace {

Reply convert(const redisReply* r) {
  Reply out;
  switch (r->type) {
    case REDIS_REPLY_STRING:
      out.type = Reply::Type::kString;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_STATUS:
      out.type = Reply::Type::kStatus;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_ERROR:
      out.type = Reply::Type::kError;
      out.str.assign(r->str, r->len);
      break;
    case REDIS_REPLY_INTEGER:
      out.type = Reply::Type::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_ARRAY:
      out.type = Reply::Type::kArray;
      out.elements.reserve(r->elements);
      for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default:
      out.type = Reply::Type::kNil;
      break;
  }
  return out;
}

Connection* owner(const redisAsyncContext* ac) {
  return static_cast<Connection*>(ac->data);
}

}  // namespace

// A command waiting for its reply.
struct Connection::Pending {
  Done done;
};

std::shared_ptr<Connection> Connection::create(asio::io_context& ioc, Options options) {
  return std::shared_ptr<Connection>(new Connection(ioc, std::move(options)));
}

Connection::Connection(asio::io_context& ioc, Options options)
    : strand_(asio::make_strand(ioc)),
      options_(std::move(options)),
      resolver_(strand_),
      socket_(strand_),
      retry_timer_(strand_),
      watchdog_timer_(strand_),
      ping_timer_(strand_),
      backoff_(options_.min_backoff) {}

Connection::~Connection() {
  if (ac_ != nullptr) {
    // Only reached when the io_context went away first: nobody is left to tell.
    stopped_ = true;
    redisAsyncContext* ac = ac_;
    ac_ = nullptr;
    redisAsyncFree(ac);
  }
}

void Connection::start() {
  asio::post(strand_, [self = shared_from_this()] {
    if (self->started_ || self->stopped_) return;
    self->started_ = true;
    self->down_since_ = std::chrono::steady_clock::now();
    self->connect();
  });
}

void Connection::stop() {
  asio::post(strand_, [self = shared_from_this()] {
    if (self->stopped_) return;
    self->stopped_ = true;
    self->retry_timer_.cancel();
    self->watchdog_timer_.cancel();
    self->ping_timer_.cancel();
    self->resolver_.cancel();
    if (self->ac_ != nullptr) {
      redisAsyncContext* ac = self->ac_;
      redisAsyncFree(ac);  // pending commands fail; the cleanup hook clears ac_
    }
    // Subscriptions never confirmed are not told any more.
    for (auto& sub : self->subscriptions_) sub->subscribed = nullptr;
    self->up_ = false;
  });
}

void Connection::on_connect(std::function<void(std::function<void(bool)>)> setup) {
  asio::post(strand_, [self = shared_from_this(), setup = std::move(setup)]() mutable {
    self->setup_ = std::move(setup);
  });
}

void Connection::on_state(std::function<void(bool)> callback) {
  asio::post(strand_, [self = shared_from_this(), callback = std::move(callback)]() mutable {
    self->state_callback_ = std::move(callback);
  });
}

void Connection::connect() {
  if (stopped_) return;
  connecting_ = true;
  const auto attempt = ++generation_;
  connect_deadline_ = std::chrono::steady_clock::now() + options_.connect_timeout;
  arm_watchdog();
  // Names are resolved here, not by hiredis, whose lookup would block the thread.
  resolver_.async_resolve(
      options_.url.host, std::to_string(options_.url.port),
      [self = shared_from_this(), attempt](boost::system::error_code ec,
                                           asio::ip::tcp::resolver::results_type results) {
        if (attempt != self->generation_ || self->stopped_) return;
        self->on_resolved(ec, std::move(results));
      });
}

void Connection::on_resolved(boost::system::error_code ec,
                             asio::ip::tcp::resolver::results_type results) {
  if (ec || results.empty()) {
    return fail("cannot resolve " + options_.url.host + ": " +
                (ec ? ec.message() : std::string("no address")));
  }
  const std::string address = results.begin()->endpoint().address().to_string();
  redisAsyncContext* ac = redisAsyncConnect(address.c_str(), options_.url.port);
  if (ac == nullptr) return fail("out of memory");
  if (ac->err != 0) {
    const std::string why = ac->errstr;
    redisAsyncFree(ac);
    return fail(why);
  }
  boost::system::error_code assign_ec;
  socket_.assign(ac->c.fd, assign_ec);
  if (assign_ec) {
    redisAsyncFree(ac);
    return fail("cannot watch the socket: " + assign_ec.message());
  }
  redisEnableKeepAlive(&ac->c);
  ac_ = ac;
  ac->data = this;
  ac->ev.data = this;
  ac->ev.addRead = &Connection::hook_add_read;
  ac->ev.delRead = &Connection::hook_del_read;
  ac->ev.addWrite = &Connection::hook_add_write;
  ac->ev.delWrite = &Connection::hook_del_write;
  ac->ev.cleanup = &Connection::hook_cleanup;
  want_read_ = want_write_ = false;
  redisAsyncSetDisconnectCallback(ac, &Connection::on_disconnect_cb);
  // Asks for the first write event, which tells that the connection is established.
  redisAsyncSetConnectCallback(ac, &Connection::on_connect_cb);
}

void Connection::on_connect_cb(const redisAsyncContext* ac, int status) {
  owner(ac)->connected(status);
}

void Connection::connected(int status) {
  if (status != REDIS_OK) {
    // hiredis frees the context after this returns; the cleanup hook reports the loss.
    last_error_ = ac_ != nullptr && ac_->errstr[0] != '\0' ? ac_->errstr : "connection refused";
    return;
  }
  const auto attempt = generation_;
  // The database and a name, before anything else goes out on this connection.
  send({"SELECT", std::to_string(options_.url.db)}, [self = shared_from_this(), attempt](Reply r) {
    if (attempt != self->generation_ || self->ac_ == nullptr || !r.error()) return;
    self->fail("SELECT " + std::to_string(self->options_.url.db) + ": " + r.describe());
  });
  if (!options_.name.empty()) send({"CLIENT", "SETNAME", options_.name}, [](Reply) {});
  send({"PING"}, [self = shared_from_this(), attempt](Reply r) {
    if (attempt != self->generation_ || self->ac_ == nullptr) return;
    if (r.error()) return self->fail("PING: " + r.describe());
    if (!self->setup_) return self->setup_done(true, attempt);
    self->setup_([self, attempt](bool ok) {
      asio::post(self->strand_, [self, attempt, ok] { self->setup_done(ok, attempt); });
    });
  });
}

void Connection::setup_done(bool ok, std::uint64_t attempt) {
  if (attempt != generation_ || ac_ == nullptr || stopped_) return;
  if (!ok) return fail("the connection's setup failed");
  connecting_ = false;
  up_ = true;
  backoff_ = options_.min_backoff;
  const auto down_for = std::chrono::steady_clock::now() - down_since_;
  if (!last_error_.empty()) {
    spdlog::info("redis {} reachable again after {} ms", options_.url.to_string(),
                 std::chrono::duration_cast<std::chrono::milliseconds>(down_for).count());
  }
  last_error_.clear();
  if (options_.keepalive.count() > 0) ping_later();
  if (state_callback_) state_callback_(true);
}

void Connection::on_disconnect_cb(const redisAsyncContext* ac, int status) {
  Connection* self = owner(ac);
  if (status != REDIS_OK && ac->errstr[0] != '\0') self->last_error_ = ac->errstr;
}

void Connection::hook_cleanup(void* data) {
  // The context is being freed (after an error, a stop or a time limit): let go of the socket
  // before hiredis closes it, and handle the loss once hiredis has returned.
  auto* self = static_cast<Connection*>(data);
  self->ac_ = nullptr;
  boost::system::error_code ignored;
  self->socket_.cancel(ignored);
  if (self->socket_.is_open()) self->socket_.release();
  self->reading_ = self->writing_ = false;
  self->want_read_ = self->want_write_ = false;
  if (self->stopped_) return;
  asio::post(self->strand_, [keep = self->shared_from_this()] { keep->disconnected(0); });
}

void Connection::disconnected(int) {
  ++generation_;
  in_flight_.clear();
  subscriptions_.clear();
  subscribed_ = false;
  ping_timer_.cancel();
  const bool was_up = up_;
  up_ = false;
  connecting_ = false;
  if (was_up) {
    down_since_ = std::chrono::steady_clock::now();
    spdlog::warn("redis {}: connection lost{}{}", options_.url.to_string(),
                 last_error_.empty() ? "" : ": ", last_error_);
    if (last_error_.empty()) last_error_ = "connection lost";
    if (state_callback_) state_callback_(false);
  }
  retry_later();
}

void Connection::fail(const std::string& why) {
  if (ac_ != nullptr) {
    // Already being freed (a failing command's callback runs while hiredis tears down).
    if ((ac_->c.flags & REDIS_FREEING) != 0) return;
    last_error_ = why;
    redisAsyncContext* ac = ac_;
    redisAsyncFree(ac);  // the cleanup hook schedules disconnected()
    return;
  }
  last_error_ = why;
  connecting_ = false;
  ++generation_;
  retry_later();
}

void Connection::retry_later() {
  if (stopped_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_complaint_ > std::chrono::seconds(10)) {
    last_complaint_ = now;
    spdlog::warn("redis {} unreachable ({}); retrying", options_.url.to_string(), last_error_);
  }
  retry_timer_.expires_after(backoff_);
  backoff_ = std::min(backoff_ * 2, options_.max_backoff);
  retry_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->stopped_ || self->ac_ != nullptr) return;
    self->connect();
  });
}

void Connection::hook_add_read(void* data) {
  auto* self = static_cast<Connection*>(data);
  self->want_read_ = true;
  self->arm_read();
}

void Connection::hook_del_read(void* data) {
  static_cast<Connection*>(data)->want_read_ = false;
}

void Connection::hook_add_write(void* data) {
  auto* self = static_cast<Connection*>(data);
  self->want_write_ = true;
  self->arm_write();
}

void Connection::hook_del_write(void* data) {
  static_cast<Connection*>(data)->want_write_ = false;
}

void Connection::arm_read() {
  if (reading_ || ac_ == nullptr) return;
  reading_ = true;
  socket_.async_wait(asio::posix::stream_descriptor::wait_read,
                     [self = shared_from_this(), g = generation_](boost::system::error_code ec) {
                       self->on_ready(true, g, ec);
                     });
}

void Connection::arm_write() {
  if (writing_ || ac_ == nullptr) return;
  writing_ = true;
  socket_.async_wait(asio::posix::stream_descriptor::wait_write,
                     [self = shared_from_this(), g = generation_](boost::system::error_code ec) {
                       self->on_ready(false, g, ec);
                     });
}

void Connection::on_ready(bool readable, std::uint64_t generation, boost::system::error_code ec) {
  if (generation != generation_ || ac_ == nullptr) return;
  (readable ? reading_ : writing_) = false;
  if (ec) return;
  if (readable) {
    if (!want_read_) return;
    redisAsyncHandleRead(ac_);
  } else {
    if (!want_write_) return;
    redisAsyncHandleWrite(ac_);
  }
  // hiredis may have freed the context meanwhile; otherwise keep watching what it wants.
  if (ac_ == nullptr || generation != generation_) return;
  if (want_read_) arm_read();
  if (want_write_) arm_write();
}

void Connection::arm_watchdog() {
  watchdog_timer_.expires_after(std::chrono::milliseconds(100));
  watchdog_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (ec || self->stopped_) return;
    self->watchdog();
  });
}

// Time limits hiredis 0.14 does not have: for connecting, and for each reply.
void Connection::watchdog() {
  const auto now = std::chrono::steady_clock::now();
  if (connecting_ && now > connect_deadline_) {
    fail("no connection within " + std::to_string(options_.connect_timeout.count()) + " ms");
  } else if (!in_flight_.empty() &&
             now - std::max(in_flight_.front(), last_reply_) > options_.reply_timeout) {
    fail("no reply within " + std::to_string(options_.reply_timeout.count()) + " ms");
  }
  arm_watchdog();
}

void Connection::ping_later() {
  ping_timer_.expires_after(options_.keepalive);
  ping_timer_.async_wait(
      [self = shared_from_this(), g = generation_](boost::system::error_code ec) {
        if (ec || self->stopped_ || g != self->generation_ || !self->up_ || self->subscribed_)
          return;
        // Only when nothing else is waiting: any reply proves the link as well.
        if (self->in_flight_.empty()) self->send({"PING"}, [](Reply) {});
        self->ping_later();
      });
}

void Connection::on_reply_cb(redisAsyncContext* ac, void* reply, void* privdata) {
  std::unique_ptr<Pending> pending(static_cast<Pending*>(privdata));
  Connection* self = owner(ac);
  if (reply != nullptr) self->reply_arrived();
  Reply r = reply == nullptr ? Reply::failure(self->last_error_.empty() ? "connection closed"
                                                                        : self->last_error_)
                             : convert(static_cast<redisReply*>(reply));
  if (pending->done) pending->done(std::move(r));
}

void Connection::reply_arrived() {
  if (!in_flight_.empty()) in_flight_.pop_front();
  last_reply_ = std::chrono::steady_clock::now();
}

void Connection::send(Args args, Done done) {
  if (ac_ == nullptr) {
    if (done) done(Reply::failure("not connected to redis " + options_.url.to_string()));
    return;
  }
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  argv.reserve(args.size());
  lengths.reserve(args.size());
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto pending = std::make_unique<Pending>();
  pending->done = std::move(done);
  if (redisAsyncCommandArgv(ac_, &Connection::on_reply_cb, pending.get(),
                            static_cast<int>(args.size()), argv.data(),
                            lengths.data()) != REDIS_OK) {
    pending->done(Reply::failure("cannot send the command"));
    return;
  }
  pending.release();  // hiredis hands it back to on_reply_cb
  in_flight_.push_back(std::chrono::steady_clock::now());
}

void Connection::command(Args args, Done done) {
  asio::post(strand_, [self = shared_from_this(), args = std::move(args),
                       done = std::move(done)]() mutable {
    if (!self->up_) {
      if (done) {
        done(Reply::failure(self->last_error_.empty()
                                ? "not connected to redis " + self->options_.url.to_string()
                                : self->last_error_));
      }
      return;
    }
    self->send(std::move(args), std::move(done));
  });
}

void Connection::reset(std::string why) {
  asio::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    if (self->ac_ != nullptr && !self->stopped_) self->fail(why);
  });
}

Reply Connection::call(Args args, std::chrono::milliseconds patience) {
  auto promise = std::make_shared<std::promise<Reply>>();
  auto future = promise->get_future();
  command(std::move(args), [promise](Reply r) { promise->set_value(std::move(r)); });
  if (future.wait_for(patience) != std::future_status::ready) {
    return Reply::failure("no reply within " + std::to_string(patience.count()) + " ms");
  }
  return future.get();
}

void Connection::on_message_cb(redisAsyncContext* ac, void* reply, void* privdata) {
  auto* sub = static_cast<Subscription*>(privdata);
  if (reply == nullptr || owner(ac)->stopped_) return;  // the connection is going away
  const auto* r = static_cast<redisReply*>(reply);
  if (r->type != REDIS_REPLY_ARRAY || r->elements < 3) return;
  const std::string_view kind(r->element[0]->str, r->element[0]->len);
  if (kind == "subscribe") {
    if (!sub->confirmed) {
      sub->confirmed = true;
      // Told once; dropping it also lets go of whatever it holds (often this connection).
      auto subscribed = std::move(sub->subscribed);
      sub->subscribed = nullptr;
      if (subscribed) subscribed(true);
    }
    return;
  }
  if (kind != "message" || r->element[2]->type != REDIS_REPLY_STRING) return;
  sub->handler(std::string_view(r->element[1]->str, r->element[1]->len),
               std::string_view(r->element[2]->str, r->element[2]->len));
}

void Connection::subscribe(const std::string& channel,
                           std::function<void(std::string_view, std::string_view)> handler,
                           std::function<void(bool)> subscribed) {
  asio::post(strand_, [self = shared_from_this(), channel, handler = std::move(handler),
                       subscribed = std::move(subscribed)]() mutable {
    if (self->ac_ == nullptr) {
      if (subscribed) subscribed(false);
      return;
    }
    self->subscribed_ = true;
    auto sub = std::make_unique<Subscription>();
    sub->channel = channel;
    sub->handler = std::move(handler);
    sub->subscribed = std::move(subscribed);
    const char* argv[] = {"SUBSCRIBE", channel.data()};
    const std::size_t lengths[] = {9, channel.size()};
    if (redisAsyncCommandArgv(self->ac_, &Connection::on_message_cb, sub.get(), 2, argv, lengths) !=
        REDIS_OK) {
      if (sub->subscribed) sub->subscribed(false);
      return;
    }
    self->subscriptions_.push_back(std::move(sub));
  });
}

}  // namespace campfire::server::cluster
