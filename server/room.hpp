// A room: one match, its seats and spectators, its timers and bots. Everything a room does runs on
// its own strand, so the game state needs no lock; every public method only posts to that strand.
// The room wires parts that each do one job: Seats (who sits where), RoomClocks (window, turn and
// grace timers), BotScheduler (when bots move), LegalMoves (each seat's choices per change) and
// JournalGate (frames wait until the journal has kept what they show). Every move, whatever its
// cause, enters through commit(). The class is written in three files: room.cpp (creation, the
// commit path, publishing, the game's requests), room_frames.cpp (what members are sent) and
// room_members.cpp (joining, leaving and the seats).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
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
#include "protocol/messages.hpp"
#include "server/bot_scheduler.hpp"
#include "server/client.hpp"
#include "server/config.hpp"
#include "server/journal.hpp"
#include "server/journal_gate.hpp"
#include "server/legal_moves.hpp"
#include "server/metrics.hpp"
#include "server/move_cause.hpp"
#include "server/room_clocks.hpp"
#include "server/seats.hpp"
#include "server/updates.hpp"

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
  Options options;  // the match's own, shared: not a copy of its values
  std::chrono::steady_clock::time_point last_activity;
  int connected = 0;  // players with a live connection
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
  void use_bot_pool(BotPool* pool) { bots_.use_pool(pool); }
  // In a cluster: the epoch of the ownership this room object was built under (call before
  // anyone can reach the room). Every record it writes carries it.
  void owned_at(long long epoch) { epoch_ = epoch; }
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
  // The same, telling every member `reason` first (an `unavailable` error): this node may no
  // longer act for the room.
  void suspend(std::string reason);
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
  // The journal could not keep a change: the room pauses until a restart.
  void journal_failed();
  void free_seat(int seat);
  // Gives a seat a new name from the next move on; once the game has started everyone is told
  // (in `events`) whom the new name belongs to. False when the name is the same.
  bool rename_seat(int seat, std::string name, Events& events);
  void take_seat(const std::shared_ptr<Client>& c, int seat, std::string name, const json& id);
  // Gives seat `seat` back to `c`, which named its `token` (a rejoin, or a join repeated by the
  // connection that took the seat); whoever held it is told it lost the seat.
  void resume(const std::shared_ptr<Client>& c, int seat, const std::string& token,
              std::string name, const json& id);
  void forget(const Client* c);

  // Names in place of {seat:N} (an empty seat is "seat N", counted from 1 as people count);
  // "{{" stands for a plain "{", so literal() text (a player's name) is never taken for a seat.
  std::string render(const std::string& text) const;
  static std::string literal(const std::string& text);
  json render_event(const json& body) const;
  json players() const;
  // The text of players(), written directly: it is part of every state frame.
  void append_players(std::string& out) const;
  // The texts of the room's options and public fairness record, written when first needed and
  // kept until they change (the options never do; the record does when a contribution comes or
  // goes, which calls fairness_changed).
  const std::string& options_text() const;
  const std::string& fairness_text() const;
  void fairness_changed() { fairness_text_.clear(); }
  json window_json() const;
  json turn_json() const;
  // The parts of a state message that every recipient shares, serialised once per change.
  using StateParts = protocol::message::StateText;
  StateParts state_parts() const;
  // A member's own part of a state message (seat -1: a spectator's), and a hash of the seat's
  // legal actions; with the labels when `texts` (the member reads words).
  struct OwnState {
    int seat = -1;
    const UpdateFrames::Text* labels = nullptr;
    const UpdateFrames::Text* legal = nullptr;
    std::string view;
    std::size_t legal_hash = 0;
    const UpdateFrames::Text* rows = nullptr;  // the legal actions as rows, when asked for
    // As a member sees it: without labels when it asked for no words.
    UpdateFrames::Own parts(bool texts) const {
      return {seat, texts ? labels : &UpdateFrames::no_labels(), legal, view, legal_hash, rows};
    }
  };
  // With the legal actions as rows too when `rows` (the member reads deltas).
  void own_state(int seat, bool texts, bool rows, OwnState& own) const;
  // An event's body as its recipients read it (names filled in; without `text` for members that
  // read no words), and its own frame.
  std::string event_body(const Event& e, bool texts) const;
  std::string event_frame(const std::string& body) const;
  // A whole state sent on its own (after spectate or sync) to the member at `seat` (-1: a
  // spectator): also the base of the member's next patch.
  void send_state(const std::shared_ptr<Client>& c, int seat);

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
  // Tells the clocks which window is open and whose turn is timed.
  void arm_window();
  void arm_turn();
  // The turn timer ran out for these players: each gets a move made for them.
  void turn_expired(SeatSet late);
  // The window with this id ran out: the room closes it with a system move, if still open.
  void window_expired(std::int32_t id);
  void arm_grace(int seat);
  void grace_expired(int seat);
  void update_summary();

  asio::io_context& ioc_;
  asio::strand<asio::io_context::executor_type> strand_;
  Journal& journal_;
  Metrics& metrics_;
  const std::string code_;
  const bool listed_;
  std::int64_t created_ms_ = 0;
  Match match_;
  // The shuffle's commitment and contributions; none for a room kept before fair shuffles.
  std::optional<fairness::Record> fairness_;
  // See options_text and fairness_text; empty until written.
  mutable std::string options_text_;
  mutable std::string fairness_text_;
  RoomStatus status_ = RoomStatus::kWaiting;
  long long version_ = 0;
  Seats seats_;
  std::vector<std::weak_ptr<Client>> spectators_;
  // The last state each member who asked for patches was sent.
  UpdateFrames updates_;
  // Each seat's choices at the current version, computed when first needed (mutable: a cache
  // that frames, built in const members, fill).
  mutable LegalMoves legal_;

  // The window's end, the turn timer and the grace periods, with the room's timer settings.
  RoomClocks clocks_;
  // When and how the bots that hold seats move.
  BotScheduler bots_;
  bool closed_ = false;

  // The version the last journal record will bring, and the frames waiting for the journal.
  long long recorded_version_ = 0;
  long long epoch_ = 0;  // see owned_at
  JournalGate gate_;

  mutable std::mutex summary_mutex_;
  RoomSummary summary_;
  std::string refusal_;  // under summary_mutex_
};

// Runs `f` on the room's strand, unless the room has closed by then (in a header: the room's
// requests live in several files).
template <class F>
void Room::on_strand(F&& f) {
  asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable {
    if (!self->closed_) f();
  });
}

}  // namespace campfire::server
