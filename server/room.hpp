// A room: one match, its seats and spectators, its timers and bots. Everything a room does runs on
// its own strand, so the game state needs no lock; every public method only posts to that strand.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "clients/bot/strategy.hpp"
#include "engine/core/match.hpp"
#include "server/client.hpp"
#include "server/config.hpp"
#include "server/metrics.hpp"

namespace campfire::server {

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
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(asio::io_context& ioc, const Config& config, std::string code, Match match, bool listed,
       Metrics& metrics);

  const std::string& code() const { return code_; }
  RoomSummary summary() const;

  // Requests from connections. `id` is echoed in the reply.
  void join(std::shared_ptr<Client> c, std::string name, json id, std::optional<int> seat);
  void rejoin(std::shared_ptr<Client> c, std::string name, json id, std::string token);
  void spectate(std::shared_ptr<Client> c, json id);
  void leave(std::shared_ptr<Client> c, json id, bool reply);
  void add_bot(std::shared_ptr<Client> c, json id, std::optional<int> seat, std::string strategy);
  void start(std::shared_ptr<Client> c, json id);
  void action(std::shared_ptr<Client> c, json id, json action, std::optional<long long> version);
  void chat(std::shared_ptr<Client> c, json id, std::string text);
  void sync(std::shared_ptr<Client> c, json id);
  void rename(std::shared_ptr<Client> c, std::string name);
  void disconnected(std::shared_ptr<Client> c);
  // Closes timers; the room does nothing more after this.
  void shutdown();
  // An operator closed the room: members get `room_closed` with the reason, then it shuts down.
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
    std::string token_hash;
    std::weak_ptr<Client> client;
    std::unique_ptr<bot::Strategy> bot;
  };

  template <class F>
  void on_strand(F&& f);

  std::optional<int> seat_of(const Client* c) const;
  bool is_spectator(const Client* c) const;
  void reply(Client& c, const json& id, json body) const;
  void fail(Client& c, const json& id, const std::string& code, const std::string& message) const;
  void take_seat(const std::shared_ptr<Client>& c, int seat, std::string name, const json& id);
  void forget(const Client* c);

  // Names in place of {seat:N}.
  std::string render(const std::string& text) const;
  json render_event(const json& body) const;
  json players() const;
  json window_json() const;
  // A member's state message; `legal_hash` receives a hash of the seat's legal actions.
  std::string state_frame(int seat, std::size_t* legal_hash = nullptr) const;

  // After every change: version, states (and events) to everyone, timers, bots, summary.
  void changed(const std::vector<Event>* events);
  void apply(int seat, const Action& a);
  void arm_window();
  void schedule_bots();
  void run_bots();
  void update_summary();

  asio::io_context& ioc_;
  asio::strand<asio::io_context::executor_type> strand_;
  const Config& config_;
  Metrics& metrics_;
  const std::string code_;
  const bool listed_;
  Match match_;
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
  bool bots_pending_ = false;
  Rng bot_rng_;
  bool closed_ = false;

  mutable std::mutex summary_mutex_;
  RoomSummary summary_;
};

// A fresh unguessable seat token (128 bits from the operating system) and its stored hash.
std::string new_token();
std::string hash_token(const std::string& token);

}  // namespace campfire::server
