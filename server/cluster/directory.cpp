#include "server/cluster/directory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cstdio>
#include <future>
#include <random>
#include <stdexcept>
#include <thread>

#include "server/cluster/keys.hpp"

namespace campfire::server::cluster {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::int64_t wall_now_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// FNV-1a: a stable spread of room codes over the live nodes.
std::uint64_t spread(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

std::string new_incarnation() {
  std::random_device rd;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%08x%08x", static_cast<unsigned>(rd()),
                static_cast<unsigned>(rd()));
  return buf;
}

bool valid_node_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
}

Directory::Directory(RedisLink& link, Options options, Callbacks callbacks)
    : link_(link), options_(std::move(options)), callbacks_(std::move(callbacks)) {
  const auto lease = options_.lease;
  if (options_.renew_every.count() == 0) options_.renew_every = lease / 5;
  if (options_.margin.count() == 0) options_.margin = lease / 5;
  if (options_.scan_every.count() == 0)
    options_.scan_every = std::min(milliseconds(500), lease / 10);
  if (options_.claim_grace.count() == 0) options_.claim_grace = lease / 5;
  renew_timer_ = std::make_unique<asio::steady_timer>(link_.strand());
  scan_timer_ = std::make_unique<asio::steady_timer>(link_.strand());
  validity_timer_ = std::make_unique<asio::steady_timer>(link_.strand());
}

Directory::~Directory() {
  stop(false);
}

std::string Directory::incarnation() const {
  std::lock_guard lock(mutex_);
  return incarnation_;
}

bool Directory::acting() const {
  std::lock_guard lock(mutex_);
  return acting_;
}

std::optional<Fence> Directory::fence(const std::string& code) const {
  std::lock_guard lock(mutex_);
  if (!acting_) return std::nullopt;
  auto it = epochs_.find(code);
  if (it == epochs_.end()) return std::nullopt;
  return Fence{options_.node, incarnation_, it->second};
}

Fence Directory::adopt_new(const std::string& code) {
  std::lock_guard lock(mutex_);
  epochs_[code] = 1;
  return Fence{options_.node, incarnation_, 1};
}

void Directory::forget(const std::string& code) {
  std::lock_guard lock(mutex_);
  epochs_.erase(code);
}

void Directory::release(const std::string& code) {
  const std::string inc = incarnation();
  forget(code);
  link_.script(Script::kRelease, {code, options_.node, inc}, [code](Reply r) {
    if (r.error()) spdlog::warn("directory: releasing room {}: {}", code, r.describe());
  });
}

std::vector<std::string> Directory::owned() const {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [code, epoch] : epochs_) out.push_back(code);
  return out;
}

std::vector<std::string> Directory::live_nodes() const {
  std::lock_guard lock(mutex_);
  return live_;
}

void Directory::start() {
  {
    std::lock_guard lock(mutex_);
    incarnation_ = new_incarnation();
  }
  const std::string key = keys::node_lease(options_.node);
  const auto give_up = Clock::now() + options_.lease + milliseconds(1500);
  bool told = false;
  for (;;) {
    const auto sent = Clock::now();
    const Reply r =
        link_.call({"SET", key, incarnation(), "NX", "PX", std::to_string(options_.lease.count())});
    if (r.failed() || r.type == Reply::Type::kError) {
      throw std::runtime_error("cannot take the lease of node " + options_.node + ": " + r.str);
    }
    if (r.str == "OK") {
      std::lock_guard lock(mutex_);
      valid_until_ = sent + options_.lease - options_.margin;
      acting_ = true;
      live_ = {options_.node};
      break;
    }
    if (Clock::now() > give_up) {
      throw std::runtime_error("node id '" + options_.node +
                               "' is in use by a running node (its lease in redis keeps being "
                               "renewed); give every node its own --node-id");
    }
    if (!told) {
      told = true;
      spdlog::info(
          "node {}: waiting for the lease of an earlier run of this node to lapse (up "
          "to {} ms)",
          options_.node, options_.lease.count());
    }
    std::this_thread::sleep_for(milliseconds(100));
  }
  const json about = {{"incarnation", incarnation()},
                      {"started", wall_now_ms()},
                      {"advertise", options_.advertise}};
  link_.call({"HSET", keys::nodes(), options_.node, about.dump()});
  spdlog::info("node {}: lease taken (incarnation {}, {} ms, renewed every {} ms)", options_.node,
               incarnation(), options_.lease.count(), options_.renew_every.count());
  asio::post(link_.strand(), [this] {
    connected_since_ = Clock::now();
    was_up_ = true;
    renew_later(options_.renew_every);
    check_validity();
    // Rooms of this node id's earlier runs are claimed back first.
    scan_node(options_.node, true);
    scan_later();
  });
}

void Directory::stop(bool release) {
  std::promise<void> stopped;
  auto done = stopped.get_future();
  asio::post(link_.strand(), [this, &stopped] {
    stopped_ = true;
    // Replies still on their way find the directory gone from then on.
    *alive_ = false;
    renew_timer_->cancel();
    scan_timer_->cancel();
    validity_timer_->cancel();
    stopped.set_value();
  });
  if (done.wait_for(std::chrono::seconds(2)) != std::future_status::ready) return;
  std::string inc;
  {
    std::lock_guard lock(mutex_);
    inc = incarnation_;
    acting_ = false;
  }
  if (release && !inc.empty()) {
    const Reply r =
        link_.call_script(Script::kRenew, {options_.node, inc, "0"}, std::chrono::seconds(2));
    if (r.integer == 1) {
      spdlog::info("node {}: lease given up; the other nodes take its rooms over", options_.node);
    }
  }
}

void Directory::set_acting(bool acting) {
  {
    std::lock_guard lock(mutex_);
    if (acting_ == acting) return;
    acting_ = acting;
    // Nothing this node held is written for any more; the rooms come back through claims.
    if (!acting) epochs_.clear();
  }
  if (!acting && callbacks_.lapsed) callbacks_.lapsed();
}

void Directory::renew_later(milliseconds after) {
  renew_timer_->expires_after(after);
  renew_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    renew();
  });
}

void Directory::renew() {
  const auto sent = Clock::now();
  const std::string inc = incarnation();
  link_.script(
      Script::kRenew, {options_.node, inc, std::to_string(options_.lease.count())},
      [this, alive = alive_, sent, inc](Reply r) {
        if (!*alive || stopped_) return;
        if (r.failed() || r.type != Reply::Type::kInteger) {
          // Try again soon; the validity check stops the rooms if this goes on.
          return renew_later(std::min(options_.renew_every, milliseconds(200)));
        }
        if (r.integer == 1) {
          valid_until_ = std::max(valid_until_, sent + options_.lease - options_.margin);
          if (!acting()) {
            spdlog::warn("node {}: lease renewed again; claiming its rooms back", options_.node);
            set_acting(true);
            reclaim_mine();
          }
          return renew_later(options_.renew_every);
        }
        // The lease is gone (it expired while redis was out of reach, or redis lost
        // it), or another process holds this node id.
        set_acting(false);
        if (r.integer < 0) {
          spdlog::critical(
              "node {}: another process holds this node's lease; give "
              "every node its own --node-id",
              options_.node);
        }
        const std::string fresh = new_incarnation();
        const auto asked = Clock::now();
        link_.command(
            {"SET", keys::node_lease(options_.node), fresh, "NX", "PX",
             std::to_string(options_.lease.count())},
            [this, alive = alive_, fresh, asked](Reply set) {
              if (!*alive || stopped_) return;
              if (set.str == "OK") {
                {
                  std::lock_guard lock(mutex_);
                  incarnation_ = fresh;
                }
                if (callbacks_.new_incarnation) callbacks_.new_incarnation(fresh);
                valid_until_ = asked + options_.lease - options_.margin;
                spdlog::warn(
                    "node {}: lease lost; taken again as incarnation "
                    "{}, claiming its rooms back",
                    options_.node, fresh);
                const json about = {{"incarnation", fresh},
                                    {"started", wall_now_ms()},
                                    {"advertise", options_.advertise}};
                link_.command({"HSET", keys::nodes(), options_.node, about.dump()}, [](Reply) {});
                set_acting(true);
                reclaim_mine();
              }
              renew_later(options_.renew_every);
            });
      });
}

void Directory::check_validity() {
  if (stopped_) return;
  const bool up = link_.up();
  if (up && !was_up_) connected_since_ = Clock::now();
  was_up_ = up;
  if (acting() && Clock::now() > valid_until_) {
    spdlog::warn("node {}: lease not renewed for {} ms; every room stops until redis answers",
                 options_.node, (options_.lease - options_.margin).count());
    set_acting(false);
  }
  validity_timer_->expires_after(milliseconds(50));
  validity_timer_->async_wait([this](boost::system::error_code ec) {
    if (!ec) check_validity();
  });
}

void Directory::reclaim_mine() {
  link_.command({"SMEMBERS", keys::owned(options_.node)}, [this, alive = alive_](Reply r) {
    if (!*alive || stopped_ || r.error()) return;
    for (const Reply& code : r.elements) claim(code.str, true);
  });
}

void Directory::scan_later() {
  scan_timer_->expires_after(options_.scan_every);
  scan_timer_->async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_) return;
    scan();
    scan_later();
  });
}

bool Directory::my_share(const std::string& code) const {
  std::lock_guard lock(mutex_);
  if (live_.empty()) return true;
  const auto me = std::find(live_.begin(), live_.end(), options_.node);
  if (me == live_.end()) return false;
  return spread(code) % live_.size() == static_cast<std::size_t>(me - live_.begin());
}

void Directory::scan() {
  if (!link_.up()) return;
  link_.command({"HKEYS", keys::nodes()}, [this, alive = alive_](Reply ids) {
    if (!*alive || stopped_ || ids.error() || ids.elements.empty()) return;
    Connection::Args mget = {"MGET"};
    std::vector<std::string> nodes;
    for (const Reply& id : ids.elements) {
      nodes.push_back(id.str);
      mget.push_back(keys::node_lease(id.str));
    }
    link_.command(std::move(mget), [this, alive, nodes](Reply leases) {
      if (!*alive || stopped_ || leases.error() || leases.elements.size() != nodes.size()) return;
      std::vector<std::string> live;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        const std::string& id = nodes[i];
        const Reply& lease = leases.elements[i];
        if (!lease.nil()) live.push_back(id);
        if (id == options_.node) continue;
        const std::string value = lease.nil() ? std::string() : lease.str;
        auto seen = seen_leases_.find(id);
        const bool first = seen == seen_leases_.end();
        const bool changed = first || seen->second != value;
        if (changed) {
          if (!first && !seen->second.empty() && callbacks_.node_gone) {
            spdlog::info("node {}: node {} is gone ({})", options_.node, id,
                         value.empty() ? "its lease lapsed" : "it restarted");
            callbacks_.node_gone(id, seen->second);
          }
          seen_leases_[id] = value;
        }
        // A node seen for the first time, one whose lease changed or lapsed, or one whose
        // orphans are not all claimed yet: look at its rooms.
        const bool pending = std::any_of(orphans_.begin(), orphans_.end(),
                                         [&](const auto& o) { return o.second.first == id; });
        if (changed || value.empty() || pending) scan_node(id, false);
      }
      if (std::find(live.begin(), live.end(), options_.node) == live.end() && acting()) {
        live.push_back(options_.node);
      }
      std::sort(live.begin(), live.end());
      std::lock_guard lock(mutex_);
      live_ = std::move(live);
    });
  });
  // Keep this node listed (a node that had lapsed may have been dropped from the list).
  if (acting()) {
    const json about = {{"incarnation", incarnation()}, {"advertise", options_.advertise}};
    link_.command({"HSETNX", keys::nodes(), options_.node, about.dump()}, [](Reply) {});
  }
}

void Directory::scan_node(const std::string& node, bool mine) {
  link_.script(Script::kOrphans, {node}, [this, guard = alive_, node, mine](Reply r) {
    if (!*guard || stopped_ || r.error() || r.elements.empty()) return;
    const bool alive = r.elements[0].integer == 1;
    if (r.elements.size() == 1) {
      // Nothing of it left to claim: a node that is gone leaves the list.
      for (auto it = orphans_.begin(); it != orphans_.end();) {
        it = it->second.first == node ? orphans_.erase(it) : std::next(it);
      }
      if (!alive && !mine) {
        link_.command({"HDEL", keys::nodes(), node}, [](Reply) {});
        seen_leases_.erase(node);
      }
      return;
    }
    const auto now = Clock::now();
    // Other nodes' rooms only once this node has been connected for a while: after an outage
    // of redis their owners claim them back first.
    const bool settled = now - connected_since_ >= 2 * options_.renew_every;
    for (std::size_t i = 1; i < r.elements.size(); ++i) {
      const std::string& code = r.elements[i].str;
      auto [it, fresh] = orphans_.try_emplace(code, node, now);
      (void)fresh;
      if (!acting() || claiming_.count(code)) continue;
      if (mine ||
          (settled && (my_share(code) || now - it->second.second >= options_.claim_grace))) {
        claim(code, mine);
      }
    }
  });
}

void Directory::claim(const std::string& code, bool mine) {
  claiming_.insert(code);
  link_.script(Script::kClaim, {code, options_.node, incarnation(), mine ? "1" : "0"},
               [this, alive = alive_, code](Reply r) {
                 if (!*alive) return;
                 claiming_.erase(code);
                 if (stopped_) return;
                 if (r.failed()) return;  // the next look tries again
                 if (r.type == Reply::Type::kError) {
                   if (!r.str.starts_with("FENCED")) orphans_.erase(code);
                   if (r.str.starts_with("MISSING")) return;
                   spdlog::warn("node {}: claiming room {}: {}", options_.node, code, r.str);
                   return;
                 }
                 orphans_.erase(code);
                 if (r.integer <= 0) return;  // its owner is alive (another node was quicker)
                 {
                   std::lock_guard lock(mutex_);
                   if (!acting_) return;
                   epochs_[code] = r.integer;
                 }
                 spdlog::info("node {}: room {} is now this node's (epoch {})", options_.node, code,
                              r.integer);
                 if (callbacks_.claimed) callbacks_.claimed(code, r.integer);
               });
}

void Directory::owner_of(const std::string& code, std::function<void(std::optional<Owner>)> done) {
  link_.command({"HMGET", keys::room(code), "owner", "epoch"},
                [this, alive = alive_, done = std::move(done)](Reply r) {
                  if (!*alive || r.error() || r.elements.size() != 2 || r.elements[0].nil()) {
                    return done(std::nullopt);
                  }
                  const std::string& owner = r.elements[0].str;
                  const auto slash = owner.rfind('/');
                  if (slash == std::string::npos) return done(std::nullopt);
                  Owner o;
                  o.node = owner.substr(0, slash);
                  const std::string inc = owner.substr(slash + 1);
                  o.epoch = r.elements[1].nil() ? 0 : std::atoll(r.elements[1].str.c_str());
                  if (o.node == options_.node) {
                    o.alive = inc == incarnation();
                  } else {
                    auto seen = seen_leases_.find(o.node);
                    o.alive = seen != seen_leases_.end() && seen->second == inc;
                  }
                  done(o);
                });
}

}  // namespace campfire::server::cluster
