#include "server/cluster/link.hpp"

#include <openssl/sha.h>
#include <spdlog/spdlog.h>

#include <unistd.h>
#include <boost/asio/post.hpp>
#include <cstdio>
#include <future>
#include <stdexcept>

namespace campfire::server::cluster {

namespace {

// What EVALSHA names a script by: the hex SHA1 of its text.
std::string sha1_hex(std::string_view text) {
  unsigned char digest[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  std::string hex;
  char buf[3];
  for (unsigned char b : digest) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    hex += buf;
  }
  return hex;
}

}  // namespace

RedisLink::RedisLink(Options options) : options_(std::move(options)) {
  for (const ScriptSource& s : scripts()) shas_[static_cast<std::size_t>(s.id)] = sha1_hex(s.lua);
  Connection::Options o;
  o.url = options_.url;
  o.connect_timeout = options_.connect_timeout;
  o.reply_timeout = options_.reply_timeout;
  o.name = "campfire-" + options_.node;
  o.keepalive = std::chrono::milliseconds(500);
  commands_ = Connection::create(ioc_, o);
  o.name = "campfire-" + options_.node + "-sub";
  o.keepalive = std::chrono::milliseconds(0);
  subscriber_ = Connection::create(ioc_, o);
  heartbeat_channel_ = "campfire:heartbeat:" + options_.node + ":" +
                       std::to_string(reinterpret_cast<std::uintptr_t>(this)) + ":" +
                       std::to_string(::getpid());
  heartbeat_timer_ = std::make_unique<asio::steady_timer>(commands_->strand());
}

RedisLink::~RedisLink() {
  stop();
}

void RedisLink::subscribe(std::string channel, Handler handler) {
  channels_.emplace_back(std::move(channel), std::move(handler));
}

void RedisLink::on_state(std::function<void(bool)> listener) {
  listeners_.push_back(std::move(listener));
}

void RedisLink::on_resubscribed(std::function<void()> listener) {
  std::lock_guard lock(resubscribed_mutex_);
  resubscribed_.push_back(std::move(listener));
}

void RedisLink::start(std::chrono::milliseconds patience) {
  if (started_) return;
  started_ = true;
  // The command connection counts as up only once the scripts are there. Commands sent from
  // the setup go out on the connection being set up, before anything else.
  commands_->on_connect([this](std::function<void(bool)> ready) {
    // Runs on the connection's strand with the connection not yet "up": send directly.
    struct Loading {
      std::size_t left;
      bool ok = true;
      std::function<void(bool)> ready;
    };
    auto loading = std::make_shared<Loading>(Loading{scripts().size(), true, std::move(ready)});
    for (const ScriptSource& s : scripts()) {
      const std::string expected = shas_[static_cast<std::size_t>(s.id)];
      commands_->send_now(
          {"SCRIPT", "LOAD", std::string(s.lua)}, [loading, expected, name = s.name](Reply r) {
            if (r.error() || r.str != expected) {
              spdlog::error("redis: cannot load the {} script: {}", name, r.describe());
              loading->ok = false;
            }
            if (--loading->left == 0) loading->ready(loading->ok);
          });
    }
  });
  commands_->on_state([this](bool up) {
    for (auto& l : listeners_) l(up);
  });
  subscriber_->on_connect([this](std::function<void(bool)> subscribed_all) {
    // Once every channel is subscribed again after a loss, say so: what was published in
    // between never arrives.
    std::function<void(bool)> ready = [this, subscribed_all](bool ok) {
      subscribed_all(ok);
      if (!ok) return;
      if (!subscribed_before_) {
        subscribed_before_ = true;
        return;
      }
      std::vector<std::function<void()>> listeners;
      {
        std::lock_guard lock(resubscribed_mutex_);
        listeners = resubscribed_;
      }
      for (auto& l : listeners) l();
    };
    // A fresh subscriber owes no heartbeats.
    heartbeats_seen_ = heartbeats_sent_.load();
    auto left = std::make_shared<std::size_t>(channels_.size() + 1);
    auto ok = std::make_shared<bool>(true);
    subscriber_->subscribe(
        heartbeat_channel_,
        [this](std::string_view, std::string_view message) {
          std::uint64_t seq = 0;
          for (char c : message) seq = seq * 10 + static_cast<std::uint64_t>(c - '0');
          if (seq > heartbeats_seen_) heartbeats_seen_ = seq;
        },
        [left, ok, ready](bool subscribed) {
          *ok = *ok && subscribed;
          if (--*left == 0) ready(*ok);
        });
    for (const auto& [channel, handler] : channels_) {
      subscriber_->subscribe(channel, handler, [left, ok, ready](bool subscribed) {
        *ok = *ok && subscribed;
        if (--*left == 0) ready(*ok);
      });
    }
  });
  work_.emplace(ioc_.get_executor());
  thread_ = std::thread([this] { ioc_.run(); });
  commands_->start();
  subscriber_->start();
  asio::post(commands_->strand(), [this] { heartbeat(); });

  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (std::chrono::steady_clock::now() < deadline && !(up() && subscriber_up())) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!(up() && subscriber_up())) {
    const Reply why = commands_->call({"PING"}, std::chrono::milliseconds(500));
    stop();
    throw std::runtime_error("cannot reach redis at " + options_.url.to_string() + ": " +
                             (why.failed() || why.error() ? why.str : "it did not get ready"));
  }
}

void RedisLink::heartbeat() {
  constexpr auto kEvery = std::chrono::milliseconds(200);
  if (commands_->up() && subscriber_->up()) {
    // Missing for longer than the reply time limit: the subscriber's link is dead.
    const auto missing = static_cast<long long>(heartbeats_sent_.load() - heartbeats_seen_.load());
    if (missing * kEvery.count() > (options_.reply_timeout + kEvery).count()) {
      heartbeats_seen_ = heartbeats_sent_.load();
      subscriber_->reset("published messages stopped arriving");
    }
  }
  if (commands_->up()) {
    const std::uint64_t seq = ++heartbeats_sent_;
    commands_->command({"PUBLISH", heartbeat_channel_, std::to_string(seq)}, nullptr);
  }
  heartbeat_timer_->expires_after(kEvery);
  heartbeat_timer_->async_wait([this](boost::system::error_code ec) {
    if (!ec) heartbeat();
  });
}

void RedisLink::stop() {
  if (!thread_.joinable()) return;
  asio::post(commands_->strand(), [this] { heartbeat_timer_->cancel(); });
  commands_->stop();
  subscriber_->stop();
  // Let the connections close and fail what was waiting, then end the thread.
  std::promise<void> drained;
  auto done = drained.get_future();
  asio::post(commands_->strand(),
             [&] { asio::post(subscriber_->strand(), [&] { drained.set_value(); }); });
  done.wait_for(std::chrono::seconds(2));
  work_.reset();
  ioc_.stop();
  thread_.join();
}

void RedisLink::command(Connection::Args args, Connection::Done done) {
  commands_->command(std::move(args), std::move(done));
}

Reply RedisLink::call(Connection::Args args, std::chrono::milliseconds patience) {
  return commands_->call(std::move(args), patience);
}

void RedisLink::script(Script which, Connection::Args args, Connection::Done done) {
  Connection::Args full;
  full.reserve(args.size() + 3);
  full.push_back("EVALSHA");
  full.push_back(shas_[static_cast<std::size_t>(which)]);
  full.push_back("0");
  for (auto& a : args) full.push_back(std::move(a));
  commands_->command(std::move(full), [this, done = std::move(done)](Reply r) {
    if (r.type == Reply::Type::kError && r.str.starts_with("NOSCRIPT")) {
      // Someone flushed Redis' script cache: reconnecting loads the scripts again, and the
      // caller sends again as after any broken connection.
      commands_->reset("the scripts were flushed from redis");
      r = Reply::failure("the scripts were flushed from redis");
    }
    if (done) done(std::move(r));
  });
}

Reply RedisLink::call_script(Script which, Connection::Args args,
                             std::chrono::milliseconds patience) {
  auto promise = std::make_shared<std::promise<Reply>>();
  auto future = promise->get_future();
  script(which, std::move(args), [promise](Reply r) { promise->set_value(std::move(r)); });
  if (future.wait_for(patience) != std::future_status::ready) {
    return Reply::failure("no reply within " + std::to_string(patience.count()) + " ms");
  }
  return future.get();
}

}  // namespace campfire::server::cluster
