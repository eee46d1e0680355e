// A room: one match, its seats and spectators, its timers and bots. Everything a room does runs on
// its own strand, so the game state needs no lock; every public method only posts to that strand.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/strategy.hpp"
#include "engine/core/match.hpp"
#include "fairness/fairness.hpp"
#include "protocol/error_codes.hpp"
#include "server/client.hpp"
#include "server/config.hpp"
#include "server/journal.hpp"
#include "server/metrics.hpp"
#include "server/move_cause.hpp"

namespace campfire::server {

class BotPool;

using json = nlohmann::json;
namespace asio = boost::asio;

enum class RoomStatus { kWaiting, kPlaying, kOver };
const char* status_name(RoomStatus s);

// What the lobby lists, kept up to date by the room under a small lock.
struct RoomSummary {
  std::string code;
  std::string game;
  int seats = 0;
  int taken = 0;
  int bots = 0;  // of the seats taken
  int spectators = 0;
  bool listed = true;
  RoomStatus status = RoomStatus::kWaiting;
  json options;
  std::chrono::steady_clock::time_point last_activity;
  int connected = 0;  // players with a live connection
};

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

class Room : public std::enable_shared_from_this<Room> {
 public:
  // `fair` is the room's shuffle secret; without one the match's own deal is used as given
  // (a fixed deal).
  Room(asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics,
       std::string code, Match match, bool listed, RoomSettings settings,
       std::optional<fairness::Record> fair = std::nullopt);
  // A room rebuilt from the journal (its match already replayed from the stored log).
  Room(asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics,
       const StoredRoom& stored, Match match);

  // Where this room's expert bots search (call before anyone can reach the room). A room
  // without one (a test's room alone) searches on its own strand.
  void use_bot_pool(BotPool* pool) { bot_pool_ = pool; }
  // Writes the room's creation to the journal; call once, before anyone can reach the room.
  void record_creation();
  // Starts the timers and bots of a room rebuilt from the journal.
  void resume();
  // Tells a client that created the room without joining it (after the creation is durable).
  void created(std::shared_ptr<Client> c, json id);

  const std::string& code() const { return code_; }
  RoomSummary summary() const;
  // Why the room takes no more requests (it is paused or the server is stopping); empty while it
  // does. Safe from any thread.
  std::string refusal() const;

  // Requests from connections. `id` is echoed in the reply.
  void join(std::shared_ptr<Client> c, std::string name, json id, std::optional<int> seat);
  void rejoin(std::shared_ptr<Client> c, std::string name, json id, std::string token);
  void spectate(std::shared_ptr<Client> c, json id);
  void leave(std::shared_ptr<Client> c, json id, bool reply);
  void add_bot(std::shared_ptr<Client> c, json id, std::optional<int> seat, std::string strategy);
  void start(std::shared_ptr<Client> c, json id);
  // A seated player's entropy for the shuffle (validated hex), replaceable until the start.
  void contribute(std::shared_ptr<Client> c, json id, std::string entropy);
  void action(std::shared_ptr<Client> c, json id, json action, std::optional<long long> version);
  // `name` is the sender's display name (a spectator has no seat to take it from).
  void chat(std::shared_ptr<Client> c, json id, std::string text, std::string name);
  void sync(std::shared_ptr<Client> c, json id);
  // The newest events of the game the member may read, for a page that reloaded (`history`).
  void history(std::shared_ptr<Client> c, json id);
  void rename(std::shared_ptr<Client> c, std::string name);
  void disconnected(std::shared_ptr<Client> c);
  // Closes timers; the room answers every later request with `reason` and does nothing more.
  void shutdown(std::string reason = "the room has closed");
  // Marks a room dropped while unfinished as abandoned in the journal (kept as a replay), or
  // removes a room that never started.
  void retire();
  // An operator closed the room: members get `room_closed` with the reason and are let go (the
  // lobby then retires and shuts the room down).
  void close(std::string reason);
  // Calls `done` (on the room's strand) with what the admin API shows of the room: status,
  // version, every seat's player, bot and connection, the spectator count.
  void describe(std::function<void(json)> done);

 private:
  struct SeatInfo {
    bool taken = false;
    // The version at which this seat's legal actions last changed, and their hash: an action
    // naming an older version is stale only if what the seat could do has changed since.
    long long legal_since = 0;
    std::size_t legal_hash = 0;
    std::string name;
    // Every name the seat went by and from which move (the last is `name`): earlier moves keep
    // the name they were made under in replays.
    std::vector<SeatName> names;
    std::string token_hash;
    std::weak_ptr<Client> client;
    // Shared with a worker while the bot searches there.
    std::shared_ptr<bots::Strategy> bot;
    std::string bot_name;  // the strategy of a server-side bot
    // What the seat was told while its bot was searching: heard once the search is back.
    std::vector<Event> unheard;
    // A player's seat played by a bot while they are away (after the grace period).
    bool away = false;
    std::unique_ptr<asio::steady_timer> grace;
  };
  // A frame held back until the journal has everything it reports.
  struct Held {
    std::uint64_t after;
    std::weak_ptr<Client> client;
    Frame frame;
  };

  template <class F>
  void on_strand(F&& f);

  std::optional<int> seat_of(const Client* c) const;
  bool is_spectator(const Client* c) const;
  // Every frame leaves through here: at once, or after the journal has caught up.
  void out(const std::shared_ptr<Client>& c, Frame f);
  void reply(const std::shared_ptr<Client>& c, const json& id, json body);
  // Refuses a request with one of the protocol's codes, or with an Error as it came (from the
  // engine: a game's refusal, which may carry the game's own code).
  void fail(const std::shared_ptr<Client>& c, const json& id, protocol::ErrorCode code,
            const std::string& message);
  void fail(const std::shared_ptr<Client>& c, const json& id, const Error& why);
  // Queues a journal record for the change about to be published.
  void record(Journal::Record r);
  void record_seat(int seat);
  void journaled(std::uint64_t seq, bool ok);
  bool is_bot(std::size_t seat) const { return seats_[seat].bot != nullptr; }
  void free_seat(int seat);
  // Gives a seat a new name from the next move on; once the game has started everyone is told
  // (in `events`) whom the new name belongs to. False when the name is the same.
  bool rename_seat(int seat, std::string name, Events& events);
  void take_seat(const std::shared_ptr<Client>& c, int seat, std::string name, const json& id);
  void forget(const Client* c);

  // Names in place of {seat:N} (an empty seat is "seat N", counted from 1 as people count);
  // "{{" stands for a plain "{", so literal() text (a player's name) is never taken for a seat.
  std::string render(const std::string& text) const;
  static std::string literal(const std::string& text);
  json render_event(const json& body) const;
  json players() const;
  json window_json() const;
  json turn_json() const;
  // The parts of a state message that every recipient shares, serialised once per change.
  struct StateParts {
    std::string head;        // up to the seat's labels
    std::string middle;      // from options to the seat number
    std::string after_seat;  // from status to the view
    std::string tail;        // the window and the end
  };
  StateParts state_parts() const;
  // A member's state message (seat -1: a spectator's); `legal_hash` receives a hash of the
  // seat's legal actions.
  std::string state_frame(const StateParts& parts, int seat,
                          std::size_t* legal_hash = nullptr) const;
  std::string state_frame(int seat) const;
  std::string event_text(const Event& e) const;

  // Who asked for a player's move: they are answered before the change is published, and the
  // time their request reached the room gives the action's latency.
  struct Asker {
    const std::shared_ptr<Client>& client;
    const json& id;
    std::chrono::steady_clock::time_point received;
  };
  // The only way a move enters the room, whatever its cause: the match applies it, the journal
  // records it, the metrics count it and every member is sent the change. `events` may already
  // hold what explains the move (a turn timer's notice). A refused move changes nothing; the
  // refusal is returned.
  Status commit(Seat seat, const Action& a, MoveCause cause, Events events = Events(),
                const Asker* asker = nullptr);
  // After every change: version, states (and events) to everyone, timers, bots, summary.
  void changed(const std::vector<Event>* events);
  // Records an accepted action (the match has already applied it).
  void record_action(int seat, const Action& a);
  void arm_window();
  void arm_turn();
  void turn_expired();
  void arm_grace(int seat);
  void grace_expired(int seat);
  // Asks the first acting bot for its move: at once, or on the bot pool for a search.
  void schedule_bots();
  // A searching bot's move, chosen on the bot pool at `version`, back on the strand: planned if
  // the table is still as it was, else dropped and the bot asked again.
  void thought(Seat seat, long long version, const bots::Strategy* bot, Action a,
               std::chrono::steady_clock::time_point asked);
  // Makes a bot's chosen move after a human-like delay counted from `asked`, unless the room
  // changes first.
  void plan_bot_move(Seat seat, Action a, std::chrono::steady_clock::time_point asked);
  // How long a bot takes to move now: a reaction time in a timed window, else a moment.
  std::chrono::milliseconds bot_delay();
  // The strategy a server bot called `name` plays by, or null for an unknown name.
  std::unique_ptr<bots::Strategy> make_bot(std::string_view name) const;
  void update_summary();

  asio::io_context& ioc_;
  asio::strand<asio::io_context::executor_type> strand_;
  const Config& config_;
  Journal& journal_;
  Metrics& metrics_;
  const std::string code_;
  const bool listed_;
  const RoomSettings settings_;
  std::int64_t created_ms_ = 0;
  Match match_;
  // The shuffle's commitment and contributions; none for a room kept before fair shuffles.
  std::optional<fairness::Record> fairness_;
  RoomStatus status_ = RoomStatus::kWaiting;
  long long version_ = 0;
  std::vector<SeatInfo> seats_;
  std::vector<std::weak_ptr<Client>> spectators_;

  asio::steady_timer window_timer_;
  std::optional<std::int32_t> armed_window_;
  std::int64_t window_ends_at_ms_ = 0;
  std::chrono::steady_clock::time_point window_ends_at_;
  // The last window that closed, so a move that arrives just too late is told so.
  struct ClosedWindow {
    std::string name;
    SeatSet seats;
    std::chrono::steady_clock::time_point at;
  };
  std::optional<ClosedWindow> last_closed_;
  std::optional<Window> open_window_;
  asio::steady_timer bot_timer_;
  // A bot's move waits on bot_timer_; bot_plan_ numbers the plans so a dropped one is ignored.
  bool bot_planned_ = false;
  std::uint64_t bot_plan_ = 0;
  BotPool* bot_pool_ = nullptr;
  // The seat whose bot is searching on the pool, and how to tell that search to stop early.
  std::optional<Seat> thinking_;
  std::shared_ptr<std::atomic<bool>> think_abandoned_;
  Rng bot_rng_;
  bool closed_ = false;
  std::string closed_reason_;

  // Journal bookkeeping: records queued and committed, and the frames waiting for them.
  std::uint64_t journal_queued_ = 0;
  std::uint64_t journal_done_ = 0;
  long long recorded_version_ = 0;
  std::deque<Held> held_;

  // The turn timer: armed for a set of acting players and what they may do.
  asio::steady_timer turn_timer_;
  std::size_t turn_key_ = 0;
  std::int64_t turn_ends_at_ms_ = 0;
  SeatSet turn_seats_;

  mutable std::mutex summary_mutex_;
  RoomSummary summary_;
  std::string refusal_;  // under summary_mutex_
};

// A fresh unguessable seat token (128 bits from the operating system) and its stored hash.
std::string new_token();
std::string hash_token(const std::string& token);

}  // namespace campfire::server
