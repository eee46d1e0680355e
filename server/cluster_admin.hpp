// The admin API across a cluster: one node asks the others over the bus (kAsk, kAnswer) for
// their rooms, to close a room they own, or to pass a notice to their connections, and answers
// their questions about its own. Without --cluster none of this exists.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "server/cluster/bus.hpp"

namespace campfire::server {

class ServerContext;

class ClusterAdmin {
 public:
  using json = nlohmann::json;

  // Every room of the cluster (each as its room describes itself, with "node"), in code order,
  // and the nodes that did not answer in time.
  using Rooms = std::function<void(json rooms, std::vector<std::string> unanswered)>;
  // How a close went: the room's node closed it, it has no such room, or nobody could.
  enum class Closed { kClosed, kNoSuchRoom, kUnavailable };

  // Answers the other nodes' questions from now on (ctx.cluster and ctx.forwarding must exist).
  ClusterAdmin(ServerContext& ctx, std::chrono::milliseconds patience);
  ~ClusterAdmin();
  ClusterAdmin(const ClusterAdmin&) = delete;
  ClusterAdmin& operator=(const ClusterAdmin&) = delete;

  void rooms(Rooms done);
  // Closes `code` wherever it is; `done` runs once, from any thread.
  void close(const std::string& code, const std::string& reason,
             std::function<void(Closed)> done);
  // A notice to every connection of every node: how many got it, and who did not answer.
  void notice(const std::string& text,
              std::function<void(std::size_t sent, std::vector<std::string> unanswered)> done);

  // A question or an answer from the bus (on the link's thread).
  void receive(const cluster::BusSender& from, cluster::BusItem item);

 private:
  struct Pending;
  // Asks every live node but this one `question`; `done` gets each answer by node (nullopt for
  // a node that did not answer within the patience), once all are in or the time is up.
  void ask_all(const json& question, std::function<void(std::map<std::string, std::optional<json>>)> done);
  void ask(const std::string& node, const json& question,
           std::function<void(std::optional<json>)> done);
  void answer(const cluster::BusSender& from, std::int64_t id, const json& question);

  ServerContext& ctx_;
  std::chrono::milliseconds patience_;
  std::mutex mutex_;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, std::shared_ptr<Pending>> pending_;
  // Timers and answers that outlive this object look here first.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace campfire::server
