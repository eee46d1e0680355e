// The lobby: every room by code, room creation with its limits, and the public room list.
#pragma once

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

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
  // Drops finished rooms and rooms nobody has touched for a while.
  // Rebuilds every unfinished or recently finished room from the journal (at start).
  std::size_t restore();
  // Drops finished rooms and rooms nobody has touched for a while; prunes old replays.
  void sweep();
  void shutdown();
  // Lets go of every room (a server being destroyed, before its io_context goes).
  void clear();

 private:
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
};

}  // namespace campfire::server
