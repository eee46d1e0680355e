// Bot scheduling: when a seat a bot plays (a server bot, or a takeover bot for an away player)
// must act, its bot chooses, at once or on the shared bot pool for a search, and the move is made
// after a human-like delay. A bot's move is just another move: it enters the room through the
// room's one commit, like a player's. The scheduler reads the match and the seats, and never
// applies a move, writes the journal or sends a frame itself.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/strategy.hpp"
#include "engine/core/match.hpp"
#include "server/config.hpp"
#include "server/move_cause.hpp"
#include "server/seats.hpp"

namespace campfire::server {

namespace asio = boost::asio;

class BotPool;

class BotScheduler {
 public:
  using Strand = asio::strand<asio::io_context::executor_type>;
  // What the scheduler asks of its room.
  struct Table {
    std::function<bool()> playing;       // the game is on (not waiting, not over)
    std::function<long long()> version;  // the room's version, moved on by every change
    // The seat's legal actions now, as the room computed them for this change.
    std::function<const std::vector<Action>&(Seat)> legal;
    // The room's one commit; a refused move is returned.
    std::function<Status(Seat, const Action&, MoveCause)> commit;
    // The room itself, kept alive while a bot's move waits for its moment.
    std::function<std::shared_ptr<void>()> owner;
  };

  // `match` and `seats` are the room's (read, and each bot told what its seat hears), as is its
  // code `room` (for the log); `seed` starts the bots' generator, so a room's bots play the same
  // way on every replay of a run.
  BotScheduler(const Strand& strand, const Config& config, const Match& match, Seats& seats,
               const std::string& room, std::uint64_t seed, Table table);

  // Where expert bots search (call before anyone can reach the room); without a pool a bot
  // searches on the room's strand.
  void use_pool(BotPool* pool) { pool_ = pool; }
  // The match was dealt again (a fair start): the bots' generator starts from its seed.
  void reseed(std::uint64_t seed);
  // The strategy a server bot called `name` plays by, or null for an unknown name.
  std::unique_ptr<bots::Strategy> make_bot(std::string_view name) const;

  // The room changed: a bot's search for the table that was is told to stop early and a move
  // waiting for its moment is dropped (schedule() asks again).
  void table_changed();
  // Each bot hears the events addressed to its seat, as a player would (a searching bot once
  // its search is back).
  void hear(const std::vector<Event>& events);
  // Asks the first acting bot for its move, unless one is already being decided or waits.
  void schedule();
  // A basic bot's choice for `seat` now among `legal` (not empty), from the same generator (the
  // turn timer's "onTimeout": "bot").
  Action choose_now(Seat seat, const std::vector<Action>& legal);
  // The room closed or paused: nothing more is planned or made.
  void stop();

 private:
  // A searching bot's move, chosen on the pool at `version`, back on the strand: planned if
  // the table is still as it was, else dropped and the bot asked again.
  void thought(Seat seat, long long version, const bots::Strategy* bot, Action a,
               std::chrono::steady_clock::time_point asked);
  // Makes a bot's chosen move after a human-like delay counted from `asked`, unless the room
  // changes first.
  void plan(Seat seat, Action a, std::chrono::steady_clock::time_point asked);
  // How long a bot takes to move now: a reaction time in a timed window, else a moment.
  std::chrono::milliseconds delay();

  Strand strand_;
  const Config& config_;
  const Match& match_;
  Seats& seats_;
  const std::string& room_;
  Table table_;
  Rng rng_;
  BotPool* pool_ = nullptr;
  bool stopped_ = false;
  // A bot's move waits on timer_ (made for the first: a room without bots never needs it, and a
  // timer is over a hundred bytes); plan_ numbers the plans so a dropped one is ignored.
  std::unique_ptr<asio::steady_timer> timer_;
  bool planned_ = false;
  std::uint64_t plan_ = 0;
  // The seat whose bot is searching on the pool, and how to tell that search to stop early.
  std::optional<Seat> thinking_;
  // What that seat was told while its bot searched: heard once the search is back (one seat at
  // a time searches, so the seats need no list each).
  std::vector<Event> unheard_;
  std::shared_ptr<std::atomic<bool>> abandoned_;
};

}  // namespace campfire::server
