#include "server/lobby.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>
#include <utility>

#include "bots/strategy.hpp"
#include "fairness/fairness.hpp"
#include "protocol/protocol.hpp"

namespace campfire::server {

using protocol::ErrorCode;

Lobby::Lobby(boost::asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics)
    : ioc_(ioc),
      config_(config),
      journal_(journal),
      metrics_(metrics),
      bot_pool_(static_cast<std::size_t>(std::max(1, config.bot_threads)), metrics),
      code_rng_(std::random_device{}()) {
  json games = json::array();
  for (const Game* g : Registry::builtin().games()) {
    json info = g->info().to_json();
    // What add_bot accepts as "strategy" for this game.
    info["strategies"] = bots::strategy_names();
    games.push_back(std::move(info));
  }
  games_json_ = games.dump();
}

Expected<Lobby::Draft> Lobby::draft(const protocol::CreateRoom& req) const {
  const std::string& game_id = req.game;
  const Game* game = Registry::builtin().find(game_id);
  if (game == nullptr) {
    return protocol::make_error(ErrorCode::kUnknownGame, "no game called '" + game_id + "'");
  }
  const int seats = req.seats;
  const bool hidden = req.is_private;
  const json& options = req.options;
  auto settings = RoomSettings::parse(req.timers, config_);
  if (!settings) return settings.error();

  // A fair room deals from a seed derived from a secret the server commits to now and the
  // players' contributions before the start (the match is dealt again then). A test-mode seed or
  // deck order fixes the deal instead, so that the game is reproducible.
  auto fair = fairness::Record::fresh(seats);
  std::uint64_t seed = fair.derivation().seed;
  json deck_order = nullptr;
  if (!req.seed.is_null() || !req.deck_order.is_null()) {
    fair = fairness::Record::fixed_deal(seats);
    if (!config_.test_mode) {
      return protocol::make_error(ErrorCode::kTestModeOnly,
                                  "seed and deckOrder are accepted only by a server in test mode");
    }
    if (!req.seed.is_null()) {
      auto s = Match::parse_seed(req.seed);
      if (!s) {
        return protocol::make_error(ErrorCode::kBadRequest,
                                    "\"seed\" must be a non-negative integer");
      }
      seed = *s;
    }
    deck_order = req.deck_order;
  }
  auto match = Match::create(*game, seats, options, seed, deck_order);
  if (!match) return match.error();
  return Draft{game_id, seats, hidden, std::move(*settings), std::move(fair), std::move(*match)};
}

void Lobby::create(const protocol::CreateRoom& req, Created done) {
  auto made = draft(req);
  if (!made) return done(made.error());
  if (!claim_code_) return done(open(std::move(*made), fresh_code(true)));
  auto shared = std::make_shared<Draft>(std::move(*made));
  claim(std::move(shared), kClaimAttempts, std::move(done));
}

std::string Lobby::fresh_code(bool check_journal) {
  std::lock_guard lock(mutex_);
  std::string code;
  do {
    code.clear();
    for (std::size_t i = 0; i < protocol::kRoomCodeLength; ++i) {
      code += protocol::kRoomCodeAlphabet[code_rng_.below(protocol::kRoomCodeAlphabet.size())];
    }
  } while (rooms_.count(code) || (check_journal && journal_.has(code)));
  return code;
}

void Lobby::claim(std::shared_ptr<Draft> draft, int attempts, Created done) {
  if (full()) return done(too_many_rooms());
  // In a cluster a code is claimed in the cluster's store, which answers later (or not): no
  // thread waits for it and the lobby's lock is not held meanwhile. The store also tells
  // whether a room of that code was ever journalled.
  std::string code = fresh_code(false);
  claim_code_(code, [this, draft = std::move(draft), attempts, done = std::move(done), code](
                        bool claimed, const std::string& error) mutable {
    if (!error.empty()) return done(protocol::make_error(ErrorCode::kUnavailable, error));
    if (claimed) return done(open(std::move(*draft), code));
    // Another node took the code first: with 32^6 codes this is rare, and a few tries more
    // settle it unless the store is nearly full.
    if (attempts <= 1) {
      return done(
          protocol::make_error(ErrorCode::kUnavailable, "no free room code was found; try again"));
    }
    claim(std::move(draft), attempts - 1, std::move(done));
  });
}

bool Lobby::full() const {
  std::lock_guard lock(mutex_);
  return rooms_.size() >= static_cast<std::size_t>(config_.max_rooms);
}

Error Lobby::too_many_rooms() {
  return protocol::make_error(ErrorCode::kTooManyRooms,
                              "the server has as many rooms as it may hold");
}

Expected<std::shared_ptr<Room>> Lobby::open(Draft draft, const std::string& code) {
  auto room =
      std::make_shared<Room>(ioc_, config_, journal_, metrics_, code, std::move(draft.match),
                             !draft.hidden, std::move(draft.settings), std::move(draft.fair));
  room->use_bot_pool(&bot_pool_);
  // A code claimed in a cluster is owned at its first epoch.
  if (claim_code_) room->owned_at(1);
  {
    std::lock_guard lock(mutex_);
    if (rooms_.size() >= static_cast<std::size_t>(config_.max_rooms)) return too_many_rooms();
    if (!rooms_.emplace(code, room).second) {
      return protocol::make_error(ErrorCode::kUnavailable, "that room code was taken meanwhile");
    }
  }
  room->record_creation();
  metrics_.room_created();
  spdlog::info("room {} created: {} for {} seats{}", code, draft.game_id, draft.seats,
               draft.hidden ? " (private)" : "");
  return room;
}

std::shared_ptr<Room> Lobby::find(const std::string& code) const {
  auto normal = protocol::normalize_room_code(code);
  if (!normal) return nullptr;
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(*normal);
  return it == rooms_.end() ? nullptr : it->second;
}

json Lobby::list_rooms() const {
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [code, room] : rooms_) rooms.push_back(room);
  }
  json list = json::array();
  for (const auto& room : rooms) {
    const RoomSummary s = room->summary();
    if (!s.listed || s.status == RoomStatus::kOver) continue;
    list.push_back({{"room", s.code},
                    {"game", s.game},
                    {"seats", s.seats},
                    {"taken", s.taken},
                    {"status", status_name(s.status)},
                    {"spectators", s.spectators},
                    {"options", s.options.to_json()}});
  }
  return list;
}

std::size_t Lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

std::vector<RoomSummary> Lobby::summaries() const {
  std::vector<RoomSummary> out;
  for (const auto& room : rooms()) out.push_back(room->summary());
  return out;
}

std::vector<std::shared_ptr<Room>> Lobby::rooms() const {
  std::vector<std::shared_ptr<Room>> out;
  std::lock_guard lock(mutex_);
  out.reserve(rooms_.size());
  for (const auto& [code, room] : rooms_) out.push_back(room);
  return out;
}

bool Lobby::close(const std::string& code, const std::string& reason) {
  auto normal = protocol::normalize_room_code(code);
  if (!normal) return false;
  std::shared_ptr<Room> room;
  {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(*normal);
    if (it == rooms_.end()) return false;
    room = it->second;
    rooms_.erase(it);
  }
  spdlog::info("room {} closed by the operator: {}", room->code(), reason);
  // Members hear why first; the journal then keeps it as abandoned, so a restart does not
  // bring it back; later requests naming it are refused.
  room->close(reason);
  room->retire();
  room->shutdown(reason);
  return true;
}

std::size_t Lobby::restore() {
  std::size_t restored = 0;
  // Games still going, and those that ended recently enough for players to see how.
  const auto since = wall_ms() - static_cast<std::int64_t>(config_.finished_room_ttl_s) * 1000;
  for (const StoredRoom& stored : journal_.live(since)) {
    if (rebuild(stored)) ++restored;
  }
  if (restored > 0) spdlog::info("journal: {} rooms rebuilt", restored);
  return restored;
}

bool Lobby::rebuild(const StoredRoom& stored, long long epoch) {
  auto match = Match::restore(Registry::builtin(), stored.match_json());
  if (!match) {
    spdlog::error("room {} cannot be rebuilt from the journal: {}", stored.code,
                  match.error().message);
    return false;
  }
  auto room = std::make_shared<Room>(ioc_, config_, journal_, metrics_, stored, std::move(*match));
  room->use_bot_pool(&bot_pool_);
  room->owned_at(epoch);
  std::shared_ptr<Room> before;
  {
    std::lock_guard lock(mutex_);
    auto& slot = rooms_[stored.code];
    before = std::exchange(slot, room);
  }
  if (before) before->shutdown("the room was rebuilt; rejoin it");
  room->resume();
  return true;
}

void Lobby::claim_codes_with(ClaimCode claim) {
  claim_code_ = std::move(claim);
}

bool Lobby::adopt(const std::string& code, long long epoch) {
  auto stored = journal_.load(code);
  if (!stored) {
    spdlog::error("room {} was claimed but the journal cannot give it back", code);
    return false;
  }
  if (!rebuild(*stored, epoch)) return false;
  spdlog::info("room {} taken over at version {} with {} moves", code, stored->version,
               stored->log.size());
  return true;
}

void Lobby::suspend_all(const std::string& reason) {
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mutex_);
    rooms.swap(rooms_);
  }
  for (auto& [code, room] : rooms) room->suspend(reason);
  if (!rooms.empty()) spdlog::warn("{} rooms stopped: {}", rooms.size(), reason);
}

void Lobby::sweep() {
  const auto now = std::chrono::steady_clock::now();
  const auto ttl = std::chrono::seconds(config_.finished_room_ttl_s);
  const auto abandoned_ttl = std::chrono::seconds(config_.abandoned_room_ttl_s);
  std::vector<std::shared_ptr<Room>> dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto it = rooms_.begin(); it != rooms_.end();) {
      const RoomSummary s = it->second->summary();
      const bool idle = now - s.last_activity > ttl;
      const bool empty = s.status == RoomStatus::kWaiting && s.connected == 0;
      const bool deserted = s.status == RoomStatus::kPlaying && s.connected == 0 &&
                            now - s.last_activity > abandoned_ttl;
      if ((idle && (s.status == RoomStatus::kOver || empty)) || deserted) {
        dropped.push_back(it->second);
        it = rooms_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& room : dropped) {
    spdlog::info("room {} closed (finished or abandoned)", room->code());
    room->retire();
    room->shutdown();
  }
  // A cluster's journal answers from its link's thread; only the count is logged there.
  journal_.prune_soon(
      wall_ms() - static_cast<std::int64_t>(config_.replay_retention_h) * 3600 * 1000,
      [](std::size_t pruned) {
        if (pruned > 0) spdlog::info("journal: {} replays past their retention deleted", pruned);
      });
}

void Lobby::clear() {
  // A search that finished would post its move to a room's strand: none may outlive the
  // io_context, so the workers stop first.
  bot_pool_.stop();
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mutex_);
    rooms.swap(rooms_);
  }
}

void Lobby::shutdown() {
  bot_pool_.stop();
  std::lock_guard lock(mutex_);
  for (auto& [code, room] : rooms_)
    room->shutdown("the server is restarting; reconnect in a moment");
}

}  // namespace campfire::server
