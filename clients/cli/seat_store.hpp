// The seats you hold, remembered across runs: per room code its server, game, seat and secret
// token, so the client can take a seat back by itself after a drop or a restart, and `rooms`
// can list them. One small JSON file, readable only by you, rewritten whole on every change.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace campfire::cli {

struct HeldSeat {
  std::string room;
  std::string server;  // "host:port"
  std::string game;
  std::string token;
  std::string name;  // the name you played under
  int seat = -1;
  bool over = false;          // the game ended while you watched
  bool private_room = false;  // not in the public list, so its state can only be asked by rejoining
  std::int64_t since = 0;     // seconds since 1970 when the seat was taken
};

class SeatStore {
 public:
  explicit SeatStore(std::filesystem::path path);

  // $XDG_STATE_HOME/campfire/seats.json, or ~/.local/state/campfire/seats.json. A file kept
  // by earlier versions in ~/.campfire/tokens.json is carried over the first time.
  static std::filesystem::path default_path();

  void put(const HeldSeat& seat);
  std::optional<HeldSeat> get(const std::string& room) const;
  // Every seat on `server`, the newest first.
  std::vector<HeldSeat> on_server(const std::string& server) const;
  void mark_over(const std::string& room);
  void forget(const std::string& room);

  const std::filesystem::path& path() const { return path_; }

 private:
  nlohmann::json load() const;
  void save(const nlohmann::json& all) const;

  std::filesystem::path path_;
};

// Room codes are matched without regard to case.
std::string room_code(const std::string& text);

}  // namespace campfire::cli
