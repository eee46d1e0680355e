// What every connection shares: configuration, the lobby, the connection counts.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "protocol/token_bucket.hpp"
#include "server/client.hpp"
#include "server/cluster_node.hpp"
#include "server/config.hpp"
#include "server/lobby.hpp"
#include "server/memory.hpp"
#include "server/metrics.hpp"
#include "server/proxy_trust.hpp"

namespace boost::asio::ssl {
class context;
}

namespace campfire::server {

class ClusterAdmin;
class Forwarding;

class ServerContext {
 public:
  ServerContext(boost::asio::io_context& io, const Config& cfg);
  ~ServerContext();

  // The rooms of the whole cluster in a cluster, this server's otherwise (list_rooms). `done`
  // runs at once for one process alone and on the cluster link's thread in a cluster; when the
  // cluster's store does not answer it gets this node's rooms alone.
  void list_rooms(std::function<void(json)> done) const;
  // The node's id in a cluster; empty otherwise.
  std::string node() const { return cluster ? cluster->node() : std::string(); }

  boost::asio::io_context& ioc;
  const Config& config;
  Metrics metrics;  // before the journal and the lobby, which hand it to every room
  // This server as a node of a cluster (--cluster); null for one process alone. Before the
  // journal, which writes through its link to Redis.
  std::unique_ptr<ClusterNode> cluster;
  // Destroyed by the server before the io_context (its completions post to rooms' strands).
  std::unique_ptr<Journal> journal;
  Lobby lobby;
  // The load balancers allowed to name a connection's client (--trusted-proxies).
  const ProxyTrust proxies;
  // Set when the server has a certificate: every connection is then TLS.
  std::shared_ptr<boost::asio::ssl::context> tls;
  std::atomic<std::size_t> connections{0};
  std::atomic<bool> draining{false};
  // A connection let memory go that the allocator should hand back to the system (see
  // server/memory.hpp): the next sweep asks the keeper to.
  std::atomic<bool> memory_freed{false};
  MemoryKeeper memory_keeper;
  // In a cluster: requests for other nodes' rooms go there, theirs for this node's rooms come
  // here. Null for one process alone.
  std::unique_ptr<Forwarding> forwarding;
  // In a cluster: the admin API's questions to the other nodes, and its answers to theirs.
  std::unique_ptr<ClusterAdmin> admin;

  // Per-address connection counting; a Ticket gives its place back when destroyed. A trusted
  // proxy's own connections are counted but not limited: each is charged to its client's
  // address once the client is known (client_behind).
  class Ticket {
   public:
    Ticket(ServerContext& ctx, std::string address) : ctx_(ctx), address_(std::move(address)) {}
    ~Ticket() { ctx_.release(address_); }
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    const std::string& address() const { return address_; }

   private:
    ServerContext& ctx_;
    std::string address_;
  };
  std::unique_ptr<Ticket> admit(const std::string& address);
  // The ticket of the client a trusted proxy's connection is for, from the request's
  // X-Forwarded-For; `proxy` itself when its peer is no trusted proxy or names no client; null
  // when that client's address has no connection left.
  std::unique_ptr<Ticket> client_behind(std::unique_ptr<Ticket> proxy,
                                        std::string_view forwarded_for);

  // Rejoin attempts per address, a token bucket (Config::bad_token_burst and
  // bad_tokens_per_minute) that only wrong tokens spend. A rejoin holds one unit of its
  // address's budget while its room checks the token; a correct token gives the unit back.
  // When every unit left is held by rejoins still being checked, a further rejoin waits for
  // their answers instead of being refused: players behind one address who all rejoin at the
  // same moment (after a restart, say) are never refused, while wrong guesses stay bounded.
  // `go` is called once, from whichever thread settles it: with true when the rejoin may be
  // tried (then rejoin_done must follow), with false when the budget is spent.
  void ask_rejoin(const std::string& address, std::function<void(bool allowed)> go);
  // The room answered a rejoin that was allowed: `wrong` spends the unit it held.
  void rejoin_done(const std::string& address, bool wrong);

  // What the server asks of each live WebSocket session.
  class Session {
   public:
    // Closes the connection politely (server shutdown).
    virtual void go_away() = 0;
    // The server-wide sweep's look at the connection at `now`: a peer silent for half the idle
    // timeout is pinged, one silent for all of it dropped. One sweep for every connection
    // instead of a timer of each connection's own keeps idle connections small.
    virtual void check_silence(std::chrono::steady_clock::time_point now) = 0;

   protected:
    ~Session() = default;
  };
  // Live WebSocket sessions (`client` and `session` are one object), so a shutdown can tell
  // every one of them and the sweep can look at them.
  void track(const std::shared_ptr<Client>& client, Session& session);
  void untrack(const void* session);
  void close_all();
  // Looks at every live session's silence (see Session::check_silence).
  void check_silence();
  // How often the server looks: an eighth of the idle timeout, at most every 5 seconds, so a
  // ping and a close come at most that late.
  std::chrono::steady_clock::duration silence_interval() const;
  // What every room of this server says of itself (the admin API), in code order; `done` runs
  // once, from any thread.
  void describe_rooms(std::function<void(json)> done) const;
  // Queues `frame` to every live WebSocket session; returns how many.
  std::size_t broadcast(const Frame& frame);
  std::size_t sessions() const;
  // Counts for /metrics: connections, and rooms, seats and spectators by game and status.
  MetricsSnapshot metrics_snapshot() const;

 private:
  void release(const std::string& address);

  struct Tracked {
    std::weak_ptr<Client> client;
    Session* session = nullptr;  // the same object as `client`: used while that is locked
  };
  // The live sessions, each kept alive while it is called.
  std::vector<std::pair<std::shared_ptr<Client>, Session*>> live_sessions() const;
  mutable std::mutex mutex_;
  std::map<std::string, int> per_address_;
  struct Bucket {
    TokenBucket budget;  // at Config::rejoin_rate()
    int in_flight = 0;   // allowed rejoins whose room has not answered yet
    std::vector<std::function<void(bool)>> waiting;
  };
  Bucket& rejoin_bucket(const std::string& address, TokenBucket::Clock::time_point now);
  std::map<std::string, Bucket> rejoin_buckets_;
  std::map<const void*, Tracked> sessions_;
};

}  // namespace campfire::server
