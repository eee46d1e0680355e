// A room's clocks: the timed window's end, the turn timer and each seat's grace period, with the
// room's timer settings. A clock only *asks*: when one runs out it calls the room back, and the
// room decides what happens (commits a system move, frees a seat, lets a bot take over). The
// clocks never touch the match, the seats or the journal, and never run a move themselves.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/state.hpp"
#include "server/config.hpp"

namespace campfire::server {

using json = nlohmann::json;
namespace asio = boost::asio;

// Per-room settings chosen at creation ("timers" in create_room).
struct RoomSettings {
  double turn_seconds = 0;    // 0: no turn timer
  bool timeout_bot = false;   // on expiry a bot chooses the move; otherwise the game's default
  double grace_seconds = 60;  // how long a disconnected player's seat waits for them
  // After the grace period a basic bot plays the seat until they return, so no table waits
  // forever for a closed laptop; the creator may turn it off.
  bool bot_takeover = true;

  json to_json() const;
  static Expected<RoomSettings> parse(const json& timers, const Config& config);
};

class RoomClocks {
 public:
  using Strand = asio::strand<asio::io_context::executor_type>;
  // What the room does when a clock runs out; each runs on the room's strand.
  struct Expiry {
    std::function<void(std::int32_t window)> window;  // the window with this id ran out
    std::function<void(SeatSet late)> turn;           // these players' turn ran out
    std::function<void(int seat)> grace;              // this seat's player did not come back
  };

  // `owner` gives the room itself: it stays alive while one of its clocks runs. The timers run
  // on `strand`; test mode scales every length by the configuration's window scale.
  RoomClocks(const Strand& strand, const Config& config, RoomSettings settings, int seats,
             std::function<std::shared_ptr<void>()> owner, Expiry expiry);

  const RoomSettings& settings() const { return settings_; }

  // The window open now (none outside play): armed when a new one opens, cancelled when it
  // closes. A window keeps the end it was armed with however often it is shown again.
  void window(const std::optional<Window>& open);
  // The seats of a window that closed less than a few seconds ago, with its name: a move that
  // arrives just too late is told so.
  std::optional<std::string> just_closed(Seat seat) const;
  // The window's clock as state frames show it, or null when `open` is not the armed window.
  json window_json(const std::optional<Window>& open) const;

  // The players who must act now outside a window, and a key of what they may do: the clock
  // restarts whenever either changes, and stops when nobody is left to wait for.
  void turn(SeatSet players, std::size_t key);
  // The turn clock as state frames show it, or null while it does not run.
  json turn_json() const;

  void arm_grace(int seat);
  void cancel_grace(int seat);

  // Stops every clock for good (the room closed or paused).
  void cancel_all();

 private:
  // The length of `millis` in this run (test mode shrinks it).
  std::chrono::milliseconds scaled(double millis) const;

  const Config& config_;
  const RoomSettings settings_;
  std::function<std::shared_ptr<void>()> owner_;
  Expiry expiry_;

  asio::steady_timer window_timer_;
  std::optional<std::int32_t> armed_window_;
  std::int64_t window_ends_at_ms_ = 0;
  std::chrono::steady_clock::time_point window_ends_at_;
  std::optional<Window> open_window_;
  // The last window that closed, so a move that arrives just too late is told so.
  struct ClosedWindow {
    std::string name;
    SeatSet seats;
    std::chrono::steady_clock::time_point at;
  };
  std::optional<ClosedWindow> last_closed_;

  // The turn timer: armed for a set of acting players and what they may do. Made when first
  // armed: most rooms have no turn timer, and a timer is over a hundred bytes.
  std::unique_ptr<asio::steady_timer> turn_timer_;
  std::size_t turn_key_ = 0;
  std::int64_t turn_ends_at_ms_ = 0;
  SeatSet turn_seats_;

  // Each seat's grace timer, made when the seat's player first goes: most never do, and a timer
  // is over a hundred bytes in every seat of every room.
  std::vector<std::unique_ptr<asio::steady_timer>> grace_;
};

}  // namespace campfire::server
