// The journal: everything needed to rebuild every room after a crash or a restart, written before
// any client hears of it. Rooms hand it small records (a room was created, a seat changed hands, an
// action was accepted, the game ended); a writer thread commits them in batches (group commit) and
// calls each record's completion in order, after which the room lets its frames go.
//
// The interface is small so that other stores (Redis, say) can sit behind it; SQLite in WAL mode in
// the data directory is the default. A process crash (even SIGKILL) loses nothing that any client
// was told; with `fsync` set, neither does a power cut.
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace campfire::server {

using json = nlohmann::json;

// A name a seat went by, from the move it was taken on (0: from before the first move).
struct SeatName {
  std::string name;
  std::size_t from_move = 0;
};

struct StoredSeat {
  int seat = 0;
  std::string name;
  std::string token_hash;  // empty for a bot
  std::string bot;         // the strategy of a server-side bot; empty for a player
  // Every name the seat has gone by, oldest first; the last is `name`. Empty in journals written
  // before names were kept (the seat then had `name` throughout).
  std::vector<SeatName> names{};
  std::string entropy{};  // the player's contribution to the shuffle (hex); empty for none
};

// The names as the journal and replays write them: [{"name": "Ann", "fromMove": 0}, ...].
// Inline: the cluster's Redis journal writes them too, without the SQLite journal.
inline json names_json(const std::vector<SeatName>& names) {
  json out = json::array();
  for (const SeatName& n : names) out.push_back({{"name", n.name}, {"fromMove", n.from_move}});
  return out;
}

// Reads what names_json wrote; anything else gives no names.
inline std::vector<SeatName> names_from_json(const json& j) {
  std::vector<SeatName> out;
  if (!j.is_array()) return out;
  for (const json& n : j) {
    if (!n.is_object() || !n.contains("name") || !n["name"].is_string() ||
        !n.contains("fromMove") || !n["fromMove"].is_number_unsigned()) {
      return {};
    }
    out.push_back({n["name"].get<std::string>(), n["fromMove"].get<std::size_t>()});
  }
  return out;
}

struct StoredAction {
  int seat = 0;
  json action;
  std::int64_t at_ms = 0;
};

// One room as the journal holds it.
struct StoredRoom {
  std::string code;
  std::string game;
  int seats = 0;
  json options = json::object();
  std::uint64_t seed = 0;
  json deck_order = nullptr;
  // The shuffle's secret and kind (fairness::Record::stored_json); null for a room kept before
  // fair shuffles. The seats hold the contributions.
  json fairness = nullptr;
  bool listed = true;
  json settings = json::object();  // room settings (timers) as given at creation
  std::string status = "waiting";  // waiting, playing, over, abandoned
  long long version = 0;           // the room's version after its last record
  std::int64_t created_ms = 0;
  std::int64_t finished_ms = 0;
  json result = nullptr;
  std::vector<StoredSeat> seat_list;  // taken seats only
  std::vector<StoredAction> log;

  bool finished() const { return status == "over" || status == "abandoned"; }
  // The replay a player downloads: configuration, names, the whole log and the result.
  json replay_json() const;
  // What Match::restore takes. A started game's seed is derived from the server seed and the
  // seats' contributions.
  json match_json() const;
};

class Journal {
 public:
  // Called once the record is durable (ok) or could not be written (!ok); from the writer thread.
  using Done = std::function<void(bool ok)>;

  struct Record {
    enum class Kind { kCreate, kSeat, kFreeSeat, kAction, kStatus, kVersion, kRemove };
    Kind kind = Kind::kVersion;
    std::string code;
    long long version = 0;
    StoredRoom room;                 // kCreate
    StoredSeat seat;                 // kSeat; kFreeSeat uses seat.seat
    std::size_t index = 0;           // kAction: position in the log
    StoredAction action;             // kAction
    std::string status;              // kStatus
    json result = nullptr;           // kStatus
    // In a cluster, the epoch of the ownership the room object writing it was built under, so
    // that an object left over from an earlier ownership can never write under a later one; 0
    // outside a cluster.
    long long epoch = 0;
  };

  struct Stats {
    std::uint64_t records = 0;
    std::uint64_t commits = 0;
    std::uint64_t failures = 0;
  };

  virtual ~Journal() = default;

  // False when nothing is stored (the rooms need not wait for completions).
  virtual bool durable() const = 0;
  // Queues a record; `done` runs after it is committed, in the order records were queued.
  virtual void write(Record record, Done done) = 0;
  // Blocks until every queued record is committed.
  virtual void flush() = 0;

  // Runs a function later, after whatever the event loop has ready now (a post to the
  // io_context).
  using Defer = std::function<void(std::function<void()>)>;
  // From now on, records gather until a function given to `defer` runs, and then reach the
  // writer together: the records of one turn of the event loop cost one wake of the writer and
  // one commit, not one each. A journal that already gathers them (or keeps nothing) ignores it.
  virtual void gather_by_turn(Defer defer) { (void)defer; }

  // Rooms whose games are not finished, and those finished at or after `finished_since_ms`, with
  // their seats and logs (at start).
  virtual std::vector<StoredRoom> live(std::int64_t finished_since_ms) = 0;
  // One room, finished or not.
  virtual std::optional<StoredRoom> load(const std::string& code) = 0;
  // Whether a code is taken by a room in the journal (live or kept as a replay).
  virtual bool has(const std::string& code) = 0;
  // Deletes finished rooms that ended before `before_ms`; returns how many.
  virtual std::size_t prune(std::int64_t before_ms) = 0;
  // The same without waiting for a remote store: `done` gets how many, perhaps later and on
  // another thread. The server's periodic sweep uses it, so that its thread never waits.
  virtual void prune_soon(std::int64_t before_ms, std::function<void(std::size_t)> done) {
    done(prune(before_ms));
  }
  virtual Stats stats() const = 0;

  // Observes each commit's duration (for metrics); set before the first write.
  std::function<void(std::chrono::nanoseconds, std::size_t records)> on_commit;
};

// Nothing is kept: writes complete at once, nothing is live or loadable (`--journal none`).
// Tests derive from it for journals that only need to see or hold back the writes.
class NullJournal : public Journal {
 public:
  bool durable() const override { return false; }
  void write(Record, Done done) override {
    if (done) done(true);
  }
  void flush() override {}
  std::vector<StoredRoom> live(std::int64_t) override { return {}; }
  std::optional<StoredRoom> load(const std::string&) override { return std::nullopt; }
  bool has(const std::string&) override { return false; }
  std::size_t prune(std::int64_t) override { return 0; }
  Stats stats() const override { return {}; }
};

// kind "sqlite" (a file `campfire.db` in `dir`) or "none" (nothing kept). `fsync` makes every
// commit wait for the disk (survives power loss; slower). `wal_bytes`, when not 0, is the size its
// WAL file is written out to and kept at (WalLimits::presize_bytes). Throws std::runtime_error
// when it cannot open.
std::unique_ptr<Journal> make_journal(const std::string& kind, const std::string& dir, bool fsync,
                                      std::int64_t wal_bytes = 0);

std::int64_t wall_ms();

}  // namespace campfire::server
