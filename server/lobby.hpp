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

  using Created = std::function<void(Expected<std::shared_ptr<Room>>)>;
  // Checks what only the server can judge of a create_room request (the game, its seats and
  // options, the timers against this server's limits, test mode) and makes the room. `done` is
  // called once: at once for one process alone; in a cluster once the room's code is claimed,
  // on the cluster link's thread.
  void create(const protocol::CreateRoom& request, Created done);
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
  // How a cluster claims a code: `done(true, "")` when the code is now this node's, `done(false,
  // "")` when another node has it, `done(false, why)` when the cluster's store could not be asked.
  using CodeClaimed = std::function<void(bool claimed, const std::string& error)>;
  using ClaimCode = std::function<void(const std::string& code, CodeClaimed done)>;
  // In a cluster: a fresh code must also be claimed cluster-wide, and the rooms come and go with
  // their ownership.
  void claim_codes_with(ClaimCode claim);
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
  // A create_room request checked and its match dealt, waiting for a code.
  struct Draft {
    std::string game_id;
    int seats = 0;
    bool hidden = false;
    RoomSettings settings;
    fairness::Record fair;
    Match match;
  };
  // Codes tried in a cluster before giving up when other nodes keep having them.
  static constexpr int kClaimAttempts = 8;

  Expected<Draft> draft(const protocol::CreateRoom& request) const;
  // A code no room of this node has (nor, with `check_journal`, any journalled room).
  std::string fresh_code(bool check_journal);
  void claim(std::shared_ptr<Draft> draft, int attempts, Created done);
  Expected<std::shared_ptr<Room>> open(Draft draft, const std::string& code);
  bool full() const;
  static Error too_many_rooms();
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
  ClaimCode claim_code_;
};

}  // namespace campfire::server
