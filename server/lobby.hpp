// The lobby: every room by code, room creation with its limits, and the public room list.
#pragma once

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "engine/core/registry.hpp"
#include "protocol/requests.hpp"
#include "server/bot_pool.hpp"
#include "server/config.hpp"
#include "server/metrics.hpp"
#include "server/room.hpp"

namespace campfire::server {

class Lobby {
 public:
  Lobby(boost::asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics);

  // Checks what only the server can judge of a create_room request (the game, its seats and
  // options, the timers against this server's limits, test mode) and makes the room.
  Expected<std::shared_ptr<Room>> create(const protocol::CreateRoom& request);
  std::shared_ptr<Room> find(const std::string& code) const;
  json list_rooms() const;
  const std::string& games_json() const { return games_json_; }
  std::size_t size() const;
  // Every room's summary, listed or not, finished or not.
  std::vector<RoomSummary> summaries() const;
  // Every room (for the admin API).
  std::vector<std::shared_ptr<Room>> rooms() const;
  // Closes a room at an operator's request: its members are told `reason` and it is gone.
  // False when there is no such room.
  bool close(const std::string& code, const std::string& reason);
  // Rebuilds every unfinished or recently finished room from the journal (at start).
  std::size_t restore();
  // In a cluster: a fresh code must also be claimed cluster-wide (`claim` is false when another
  // node has it), and the rooms come and go with their ownership.
  void claim_codes_with(std::function<bool(const std::string& code)> claim);
  // Rebuilds one room from the journal, as a restart does (this node now owns it); a room of
  // that code held before is let go; `epoch` is the ownership it is built under. False when the
  // journal cannot give it back.
  bool adopt(const std::string& code, long long epoch);
  // This node may no longer act for its rooms: each stops, its members told `reason`, and is
  // let go (they come back through adopt()).
  void suspend_all(const std::string& reason);
  // Drops finished rooms and rooms nobody has touched for a while; prunes old replays.
  void sweep();
  void shutdown();
  // Lets go of every room (a server being destroyed, before its io_context goes).
  void clear();

 private:
  // `epoch`: the cluster ownership the room is built under (0 for one process alone).
  bool rebuild(const StoredRoom& stored, long long epoch = 0);

  boost::asio::io_context& ioc_;
  const Config& config_;
  Journal& journal_;
  Metrics& metrics_;
  // Where expert bots of every room search; stopped before the io_context goes.
  BotPool bot_pool_;
  std::string games_json_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  Rng code_rng_;
  std::function<bool(const std::string&)> claim_code_;
};

}  // namespace campfire::server
