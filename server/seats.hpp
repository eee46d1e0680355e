// A room's seats: who sits in each (nobody, a player, a server bot, or a bot keeping an away
// player's seat warm), under what name, with which rejoin token and connection. One occupant
// kind per seat replaces separate flags, so a seat cannot be "a bot and away and free" at once.
// Seats only keeps this table: it writes no journal records, sends no frames and arms no
// timers; the room does that around each change.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/strategy.hpp"
#include "engine/core/event.hpp"
#include "server/client.hpp"
#include "server/journal.hpp"

namespace campfire::server {

enum class Occupant : std::uint8_t {
  kEmpty,
  kHuman,  // a player, connected or not (their seat waits through the grace period)
  kBot,    // a server bot that holds the seat for the whole game
  kAway,   // a player who did not come back in time: a bot plays for them until they rejoin
};

// A rejoin token's SHA-256 digest: what a player's seat keeps to know them again. Held in place
// (every player's seat keeps one for the room's life), written as hex only for the journal.
using TokenHash = std::array<unsigned char, 32>;

class Seats {
 public:
  struct Info {
    Occupant occupant = Occupant::kEmpty;
    std::optional<TokenHash> token_hash;  // a player's; none for a server bot
    std::string name;
    std::size_t name_from = 0;  // the move from which `name` applies
    // The names the seat went by before `name`, oldest first, each from the move it applied
    // from (see all_names): earlier moves keep the name they were made under in replays. Empty
    // for a seat that was never renamed, which most never are.
    std::vector<SeatName> earlier_names;
    std::weak_ptr<Client> client;
    // The bot playing the seat (kBot, kAway); shared with a worker while it searches there.
    std::shared_ptr<bots::Strategy> bot;
    std::string bot_name;  // a server bot's strategy (kBot only)
    // The version at which this seat's legal actions last changed, and their hash: an action
    // naming an older version is stale only if what the seat could do has changed since.
    long long legal_since = 0;
    std::size_t legal_hash = 0;

    bool taken() const { return occupant != Occupant::kEmpty; }
    // Every name the seat went by, oldest first; the last is `name`.
    std::vector<SeatName> all_names() const;
    // A player's seat (present or away): reached by their client and their token.
    bool player() const { return occupant == Occupant::kHuman || occupant == Occupant::kAway; }
    // A bot chooses this seat's moves (a server bot, or a takeover bot for an away player).
    bool bot_plays() const { return occupant == Occupant::kBot || occupant == Occupant::kAway; }
    // Shown as connected: a server bot always is, a player while their connection lives.
    bool connected() const { return occupant == Occupant::kBot || !client.expired(); }
  };

  explicit Seats(int count) : seats_(static_cast<std::size_t>(count)) {}

  int size() const { return static_cast<int>(seats_.size()); }
  Info& operator[](int seat) { return seats_[static_cast<std::size_t>(seat)]; }
  const Info& operator[](int seat) const { return seats_[static_cast<std::size_t>(seat)]; }
  auto begin() const { return seats_.begin(); }
  auto end() const { return seats_.end(); }

  // A player sits down at move `from_move` of the game.
  void seat_player(int seat, std::string name, const TokenHash& token_hash,
                   const std::shared_ptr<Client>& client, std::size_t from_move);
  // A server bot playing `strategy` (its name as the journal keeps it).
  void seat_bot(int seat, std::string name, std::string strategy,
                std::unique_ptr<bots::Strategy> bot);
  // A seat as the journal kept it: a bot's seat when `strategy` is not empty.
  void restore(int seat, const StoredSeat& stored, std::unique_ptr<bots::Strategy> bot);
  // An absent player's seat from now on played by `bot` until they rejoin.
  void go_away(int seat, std::unique_ptr<bots::Strategy> bot);
  // A player takes their seat again with `client` (the takeover bot, if any, steps aside).
  void come_back(int seat, const std::shared_ptr<Client>& client);
  void free(int seat);
  // The seat's new name from move `from_move` on; false (and no change) when it is the same.
  bool rename(int seat, std::string name, std::size_t from_move);
  // The client is no longer at the table (left, disconnected, or went to another seat).
  void forget(const Client* client);

  // The player's seat `client` holds.
  std::optional<int> of(const Client* client) const;
  // The player's seat whose rejoin token is `token`; an empty token matches nothing.
  std::optional<int> by_token(const std::string& token) const;
  // The first empty seat (or `only`, when it is empty).
  std::optional<int> first_empty(std::optional<int> only = std::nullopt) const;
  bool full() const;

  // What the lobby lists: seats taken, those of them a bot plays, players connected.
  int taken() const;
  int bots() const;
  int connected_players() const;

 private:
  std::vector<Info> seats_;
};

// A fresh unguessable seat token (128 bits from the operating system) and its stored hash.
std::string new_token();
TokenHash hash_token(const std::string& token);
// The hash as the journal keeps it (64 hex digits), and back: none unless it is exactly that.
std::string token_hash_hex(const TokenHash& hash);
std::optional<TokenHash> token_hash_from_hex(std::string_view hex);

}  // namespace campfire::server
