// Why a move entered a room. Every accepted move, whatever its cause, goes through Room::commit,
// which journals it, counts it under its cause and publishes it.
#pragma once

#include <cstddef>

namespace campfire::server {

enum class MoveCause {
  kPlayer,         // a seated player's action request
  kWindowTimeout,  // a timed window closed (the room moves for the system seat)
  kTurnTimer,      // a player's turn timer ran out: the game's default move, or a bot's choice
  kServerBot,      // a bot that holds a seat
  kTakeoverBot,    // a bot playing an away player's seat until they return
};
inline constexpr std::size_t kMoveCauses = 5;

// The cause's label in metrics ("player", "window", "turn_timer", "bot", "takeover").
inline const char* cause_name(MoveCause c) {
  switch (c) {
    case MoveCause::kPlayer:
      return "player";
    case MoveCause::kWindowTimeout:
      return "window";
    case MoveCause::kTurnTimer:
      return "turn_timer";
    case MoveCause::kServerBot:
      return "bot";
    case MoveCause::kTakeoverBot:
      return "takeover";
  }
  return "";
}

}  // namespace campfire::server
