#include "server/context.hpp"

#include <algorithm>
#include <mutex>
#include <tuple>

#include "server/cluster_admin.hpp"
#include "server/forwarding.hpp"
#include "server/memory.hpp"

namespace campfire::server {

ServerContext::ServerContext(boost::asio::io_context& io, const Config& cfg)
    : ioc(io),
      config(cfg),
      cluster(cfg.cluster.empty() ? nullptr : std::make_unique<ClusterNode>(cfg)),
      journal(cluster ? cluster->make_journal()
                      : make_journal(cfg.journal, cfg.data_dir, cfg.journal_fsync,
                                     std::int64_t{cfg.journal_wal_mb} << 20)),
      lobby(io, cfg, *journal, metrics),
      proxies(ProxyTrust::parse(cfg.trusted_proxies, nullptr).value_or(ProxyTrust())) {
  journal->on_commit = [this](std::chrono::nanoseconds took, std::size_t) {
    metrics.observe_journal_write(took);
  };
  // The records of one turn of the event loop are committed together.
  journal->gather_by_turn([&io](std::function<void()> f) { boost::asio::post(io, std::move(f)); });
  if (cluster) {
    metrics.set_node(cluster->node());
    lobby.claim_codes_with(
        [node = cluster.get()](const std::string& code, Lobby::CodeClaimed done) {
          node->claim_code(code, std::move(done));
        });
    forwarding = std::make_unique<Forwarding>(*this);
    admin = std::make_unique<ClusterAdmin>(*this, std::chrono::milliseconds(2000));
  }
}

ServerContext::~ServerContext() = default;

void ServerContext::describe_rooms(std::function<void(json)> done) const {
  struct Gather {
    std::mutex mutex;
    json rooms = json::array();
    std::size_t left = 0;
    std::function<void(json)> done;
  };
  const auto rooms = lobby.rooms();
  if (rooms.empty()) return done(json::array());
  auto gather = std::make_shared<Gather>();
  gather->left = rooms.size();
  gather->done = std::move(done);
  for (const auto& room : rooms) {
    room->describe([gather](json d) {
      json all;
      {
        std::lock_guard lock(gather->mutex);
        gather->rooms.push_back(std::move(d));
        if (--gather->left > 0) return;
        all = std::move(gather->rooms);
      }
      std::sort(all.begin(), all.end(),
                [](const json& a, const json& b) { return a["room"] < b["room"]; });
      gather->done(std::move(all));
    });
  }
}

std::unique_ptr<ServerContext::Ticket> ServerContext::admit(const std::string& address) {
  const bool proxy = proxies.trusts(address);
  std::lock_guard lock(mutex_);
  int& n = per_address_[address];
  if (n >= config.max_connections_per_address && !proxy) return nullptr;
  ++n;
  ++connections;
  return std::make_unique<Ticket>(*this, address);
}

std::unique_ptr<ServerContext::Ticket> ServerContext::client_behind(
    std::unique_ptr<Ticket> proxy, std::string_view forwarded_for) {
  if (forwarded_for.empty() || !proxies.trusts(proxy->address())) return proxy;
  const auto client = ProxyTrust::client_address(forwarded_for);
  if (!client) return proxy;
  return admit(*client);
}

void ServerContext::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
  --connections;
}

ServerContext::Bucket& ServerContext::rejoin_bucket(const std::string& address,
                                                    TokenBucket::Clock::time_point now) {
  const Rate rate = config.rejoin_rate();
  // Forget addresses whose budget has grown back and that nothing waits on, so the map stays
  // small.
  if (rejoin_buckets_.size() > 1024) {
    std::erase_if(rejoin_buckets_, [&](const auto& entry) {
      const Bucket& b = entry.second;
      return b.in_flight == 0 && b.waiting.empty() && b.budget.full(rate, now);
    });
  }
  return rejoin_buckets_.try_emplace(address, Bucket{TokenBucket(rate, now), 0, {}}).first->second;
}

void ServerContext::ask_rejoin(const std::string& address, std::function<void(bool)> go) {
  bool allowed = false;
  {
    std::lock_guard lock(mutex_);
    const auto now = TokenBucket::Clock::now();
    Bucket& b = rejoin_bucket(address, now);
    if (b.budget.take(config.rejoin_rate(), now)) {
      ++b.in_flight;
      allowed = true;
    } else if (b.in_flight > 0) {
      // The budget is held by rejoins being checked; if their tokens are right it comes back.
      b.waiting.push_back(std::move(go));
      return;
    }
  }
  go(allowed);
}

void ServerContext::rejoin_done(const std::string& address, bool wrong) {
  std::vector<std::function<void(bool)>> allowed;
  std::vector<std::function<void(bool)>> refused;
  {
    std::lock_guard lock(mutex_);
    const Rate rate = config.rejoin_rate();
    const auto now = TokenBucket::Clock::now();
    Bucket& b = rejoin_bucket(address, now);
    --b.in_flight;
    if (!wrong) b.budget.give_back(rate, now);
    std::size_t next = 0;
    for (; next < b.waiting.size() && b.budget.take(rate, now); ++next) {
      ++b.in_flight;
      allowed.push_back(std::move(b.waiting[next]));
    }
    b.waiting.erase(b.waiting.begin(), b.waiting.begin() + static_cast<std::ptrdiff_t>(next));
    // Nothing left to wait for: the rest are over the budget.
    if (b.in_flight == 0) refused.swap(b.waiting);
  }
  for (auto& go : allowed) go(true);
  for (auto& go : refused) go(false);
}

void ServerContext::track(const std::shared_ptr<Client>& client, Session& session) {
  std::lock_guard lock(mutex_);
  sessions_[client.get()] = Tracked{client, &session};
}

void ServerContext::untrack(const void* session) {
  std::lock_guard lock(mutex_);
  sessions_.erase(session);
}

std::vector<std::pair<std::shared_ptr<Client>, ServerContext::Session*>>
ServerContext::live_sessions() const {
  std::vector<std::pair<std::shared_ptr<Client>, Session*>> all;
  std::lock_guard lock(mutex_);
  all.reserve(sessions_.size());
  for (const auto& [key, tracked] : sessions_) {
    if (auto c = tracked.client.lock()) all.emplace_back(std::move(c), tracked.session);
  }
  return all;
}

void ServerContext::close_all() {
  for (const auto& [client, session] : live_sessions()) session->go_away();
}

void ServerContext::check_silence() {
  if (memory_freed.exchange(false)) memory_keeper.soon();
  const auto now = std::chrono::steady_clock::now();
  for (const auto& [client, session] : live_sessions()) session->check_silence(now);
}

std::chrono::steady_clock::duration ServerContext::silence_interval() const {
  const auto eighth = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(config.idle_timeout_s / 8));
  return std::min<std::chrono::steady_clock::duration>(eighth, std::chrono::seconds(5));
}

std::size_t ServerContext::broadcast(const Frame& frame) {
  std::vector<std::shared_ptr<Client>> all;
  {
    std::lock_guard lock(mutex_);
    all.reserve(sessions_.size());
    for (const auto& [session, tracked] : sessions_) {
      if (auto c = tracked.client.lock()) all.push_back(std::move(c));
    }
  }
  for (auto& c : all) c->send(frame);
  return all.size();
}

std::size_t ServerContext::sessions() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

void ServerContext::list_rooms(std::function<void(json)> done) const {
  if (!cluster) return done(lobby.list_rooms());
  cluster->list_rooms([this, done = std::move(done)](std::optional<json> all) {
    done(all ? std::move(*all) : lobby.list_rooms());
  });
}

MetricsSnapshot ServerContext::metrics_snapshot() const {
  MetricsSnapshot snap;
  snap.connections = connections.load();
  snap.websockets = sessions();
  std::map<std::tuple<std::string, std::string>, MetricsSnapshot::RoomCount> counts;
  for (const RoomSummary& s : lobby.summaries()) {
    auto& c = counts[{s.game, status_name(s.status)}];
    c.game = s.game;
    c.status = status_name(s.status);
    ++c.rooms;
    c.bots += static_cast<std::size_t>(s.bots);
    c.humans += static_cast<std::size_t>(s.taken - s.bots);
    c.spectators += static_cast<std::size_t>(s.spectators);
  }
  for (auto& [key, c] : counts) snap.rooms.push_back(std::move(c));
  if (cluster) {
    MetricsSnapshot::Cluster c;
    c.live_nodes = cluster->live_nodes().size();
    c.redis_up = cluster->redis_up();
    const auto bus = cluster->bus().stats();
    c.bus_batches_sent = bus.batches_sent;
    c.bus_items_sent = bus.items_sent;
    c.bus_batches_received = bus.batches_received;
    c.bus_items_received = bus.items_received;
    c.bus_dropped = bus.dropped;
    c.bus_lost_told = bus.lost_told;
    if (forwarding) {
      const auto f = forwarding->stats();
      c.requests_forwarded = f.requests_forwarded;
      c.requests_served = f.requests_served;
      c.forwarding = f.forwarding;
      c.stand_ins = f.stand_ins;
    }
    snap.cluster = c;
  }
  return snap;
}

}  // namespace campfire::server
