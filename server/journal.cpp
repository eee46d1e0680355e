#include "server/journal.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "engine/core/registry.hpp"
#include "fairness/fairness.hpp"
#include "server/sqlite_journal.hpp"

namespace campfire::server {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

// The room's shuffle record with every seat's contribution, if it has one.
std::optional<fairness::Record> fairness_of(const StoredRoom& room) {
  auto r = fairness::Record::from_stored(room.fairness, room.seats);
  if (!r) return std::nullopt;
  for (const StoredSeat& s : room.seat_list) {
    if (s.seat >= 0 && s.seat < room.seats)
      r->contributions[static_cast<std::size_t>(s.seat)] = s.entropy;
  }
  return r;
}

}  // namespace

json StoredRoom::match_json() const {
  json log_json = json::array();
  for (const StoredAction& a : log) log_json.push_back({{"seat", a.seat}, {"action", a.action}});
  // Once started, the game was dealt from the derived seed (contributions are closed by then).
  std::uint64_t dealt_from = seed;
  if (status != "waiting") {
    if (auto f = fairness_of(*this); f && !f->fixed) dealt_from = f->derivation().seed;
  }
  json j = {{"game", game},
            {"seats", seats},
            {"options", options},
            {"seed", std::to_string(dealt_from)},
            {"log", std::move(log_json)}};
  if (!deck_order.is_null()) j["deckOrder"] = deck_order;
  return j;
}

json StoredRoom::replay_json() const {
  json j = match_json();
  json names = json::array();
  for (int s = 0; s < seats; ++s) names.push_back(nullptr);
  for (const StoredSeat& seat : seat_list) {
    if (seat.seat >= 0 && seat.seat < seats) {
      // A seat's moves are shown under the name it had when it made them: `name` is the last,
      // `names` says from which move each applied.
      const std::vector<SeatName> history =
          seat.names.empty() ? std::vector<SeatName>{{seat.name, 0}} : seat.names;
      names[static_cast<std::size_t>(seat.seat)] = {
          {"name", seat.name}, {"bot", !seat.bot.empty()}, {"names", names_json(history)}};
    }
  }
  json times = json::array();
  for (const StoredAction& a : log) times.push_back(a.at_ms);
  j["room"] = code;
  j["players"] = std::move(names);
  j["status"] = status;
  j["result"] = result;
  j["createdAt"] = created_ms;
  j["finishedAt"] = finished_ms == 0 ? json(nullptr) : json(finished_ms);
  j["actionTimes"] = std::move(times);
  // The server seed and the deal are shown only once the game is over; a game still in play (in
  // test mode) shows its commitment.
  if (auto f = fairness_of(*this)) {
    if (!finished()) {
      j["fairness"] = f->public_json();
    } else if (const Game* g = Registry::builtin().find(game)) {
      if (auto parsed = g->parse_options(options, seats)) {
        j["fairness"] =
            f->reveal(*g, *parsed, seats, std::stoull(j["seed"].get<std::string>()), deck_order);
      }
    }
  }
  return j;
}

std::unique_ptr<Journal> make_journal(const std::string& kind, const std::string& dir, bool fsync,
                                      std::int64_t wal_bytes) {
  if (kind == "none") return std::make_unique<NullJournal>();
  if (kind == "sqlite") {
    return make_sqlite_journal(dir, fsync, wal_limits_for(wal_bytes));
  }
  throw std::runtime_error("unknown journal kind '" + kind + "' (sqlite or none)");
}

}  // namespace campfire::server
