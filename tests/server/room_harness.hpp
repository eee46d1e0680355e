// A room without the network, for tests: members that keep every message they are sent, a
// journal that keeps every record, and the room's own timers on a local io_context.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/room.hpp"

namespace campfire::server::testing {

using namespace std::chrono_literals;

// Whether two objects have the same member names in the same order.
inline bool same_names(const json& a, const json& b) {
  if (a.size() != b.size()) return false;
  for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y) {
    if (x.key() != y.key()) return false;
  }
  return true;
}

// A delta's legal list back as objects: each array is the action with the member names of the
// object before it, its elements their values in that order (nlohmann keeps an object's names
// in name order, the order the server writes them in). The list must be as short as rows make
// it: an object only where the names change. Counts the rows read, and the objects after a
// list's first (where the shape changed).
inline void read_rows(json& legal, std::size_t* rows = nullptr,
                      std::size_t* objects_after_first = nullptr) {
  const json* named = nullptr;  // the last object of the list as it came
  for (json& action : legal) {
    if (action.is_object()) {
      if (named != nullptr) {
        EXPECT_FALSE(same_names(action, *named))
            << "an object where a row would do: " << legal.dump();
        if (objects_after_first != nullptr) ++*objects_after_first;
      }
      named = &action;
      continue;
    }
    ASSERT_TRUE(action.is_array()) << "an action is an object or a row: " << legal.dump();
    ASSERT_NE(named, nullptr) << "a row with no object before it: " << legal.dump();
    ASSERT_EQ(action.size(), named->size()) << "a row of the wrong length: " << legal.dump();
    json object = json::object();
    std::size_t i = 0;
    for (auto it = named->begin(); it != named->end(); ++it) object[it.key()] = action[i++];
    action = std::move(object);
    if (rows != nullptr) ++*rows;
  }
}

struct RecordingClient final : Client {
  // A client that asked for `update` frames keeps them (in `update_frames`) and, as a client of the
  // protocol would, turns each into the event and state messages it stands for: a patch is
  // applied to the last state held, whose version must be the patch's base (with `delta`: one
  // less than the frame's), a `delta` patch's legal list given by number is the one numbered
  // so since the last whole state, and one sent whole has its rows expanded first. Every such
  // list must be as short as rows make it: an object only where the member names change.
  void send(Frame frame) override {
    json m = json::parse(*frame);
    if (m.value("type", "") != "update") {
      if (m.value("type", "") == "state") whole(m);
      messages.push_back(std::move(m));
      return;
    }
    update_frames.push_back(m);
    for (const json& e : m["events"]) {
      messages.push_back(
          {{"type", "event"}, {"room", m["room"]}, {"version", m["version"]}, {"event", e}});
    }
    if (m.contains("patch")) {
      ASSERT_FALSE(held.is_null()) << "a patch came before any state";
      const json& patch = m["patch"];
      if (mode == UpdateMode::kDelta) {
        EXPECT_FALSE(m.contains("base"));
        EXPECT_FALSE(patch.contains("version"));
        ASSERT_EQ(held["version"].get<long long>() + 1, m["version"].get<long long>())
            << "a delta that does not follow the state held";
        json expanded = patch;
        if (expanded.contains("legal") && expanded["legal"].is_array()) {
          expand_rows(expanded["legal"]);
          if (::testing::Test::HasFatalFailure()) return;
          legal_bytes += patch["legal"].dump().size();
          legal_object_bytes += expanded["legal"].dump().size();
        }
        held.merge_patch(expanded);
        held["version"] = m["version"];
        if (patch.contains("legal") && patch["legal"].is_number()) {
          const long long n = patch["legal"].get<long long>();
          ASSERT_TRUE(n >= next_number - static_cast<long long>(numbered.size()) &&
                      n < next_number)
              << "legal list " << n << " is not among the last ones numbered";
          const json& list = numbered[static_cast<std::size_t>(
              n - (next_number - static_cast<long long>(numbered.size())))];
          held["legal"] = list["legal"];
          if (list.contains("labels")) held["labels"] = list["labels"];
          ++numbered_used;
        } else if (patch.contains("legal")) {
          number();
        }
      } else {
        ASSERT_EQ(held["version"], m["base"]) << "a patch against a state this client never held";
        held.merge_patch(patch);
      }
    } else {
      whole(m["state"]);
    }
    EXPECT_EQ(held["version"], m["version"]);
    messages.push_back(held);
  }
  void expand_rows(json& legal) { read_rows(legal, &rows, &objects_after_first); }
  // A whole state: the base of the next patch, and the first numbered legal list.
  void whole(const json& state) {
    held = state;
    numbered.clear();
    next_number = 0;
    number();
  }
  void number() {
    if (mode != UpdateMode::kDelta || !held["legal"].is_array() || held["legal"].empty()) return;
    json list = {{"legal", held["legal"]}};
    if (held.contains("labels")) list["labels"] = held["labels"];
    numbered.push_back(std::move(list));
    if (numbered.size() > UpdateFrames::kRemembered) numbered.erase(numbered.begin());
    ++next_number;
  }
  UpdateMode updates() const override { return mode; }
  bool texts() const override { return with_texts; }
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}

  // The messages of one type, oldest first.
  std::vector<json> of_type(const std::string& type) const {
    std::vector<json> out;
    for (const json& m : messages) {
      if (m["type"] == type) out.push_back(m);
    }
    return out;
  }
  json last_state() const {
    const auto states = of_type("state");
    return states.empty() ? json() : states.back();
  }
  std::vector<json> messages;
  UpdateMode mode = UpdateMode::kState;
  bool with_texts = true;
  std::vector<json> update_frames;  // the update frames themselves, as they came
  json held;                  // the last state, whole
  std::vector<json> numbered;  // delta: the last legal lists numbered (with their labels)
  long long next_number = 0;
  std::size_t numbered_used = 0;  // delta: legal lists that came as a number
  std::size_t rows = 0;           // delta: actions that came as rows
  std::size_t objects_after_first = 0;  // delta: objects after the first of a list (shapes changed)
  // delta: the bytes of the legal lists that came whole, as they came and as objects
  std::size_t legal_bytes = 0;
  std::size_t legal_object_bytes = 0;
};

// Keeps every record the room writes (nothing is stored; writes complete at once).
struct RecordingJournal final : NullJournal {
  void write(Record r, Done done) override {
    records.push_back(std::move(r));
    if (done) done(true);
  }
  std::vector<StoredAction> actions() const {
    std::vector<StoredAction> out;
    for (const Record& r : records) {
      if (r.kind == Record::Kind::kAction) out.push_back(r.action);
    }
    return out;
  }
  std::vector<Record> records;
};

class RoomHarness : public ::testing::Test {
 protected:
  void SetUp() override {
    spdlog::set_level(spdlog::level::warn);
    config_.test_mode = true;
    config_.window_scale = 0.01;  // a 2 s window or turn becomes 20 ms
    config_.bot_delay_ms = 1;
  }
  void TearDown() override {
    if (room_) room_->shutdown();
    ioc_.restart();
    ioc_.poll();
  }

  // A started room of `seats` players (seat 0 first), `bots` of them server bots at the end.
  void open(const char* game, int seats, RoomSettings settings, int bots = 0,
            std::uint64_t seed = 11, const json& options = json::object()) {
    const Game& g = *Registry::builtin().find(game);
    game_ = &g;
    room_ =
        std::make_shared<Room>(ioc_, config_, journal_, metrics_, "COMMIT",
                               std::move(*Match::create(g, seats, options, seed)), false, settings);
    room_->record_creation();
    for (int s = 0; s < seats - bots; ++s) {
      players_.push_back(std::make_shared<RecordingClient>());
      room_->join(players_.back(), "P" + std::to_string(s), s + 1, s);
    }
    for (int s = seats - bots; s < seats; ++s)
      room_->add_bot(players_.front(), 50 + s, s, "random");
    spectator_ = std::make_shared<RecordingClient>();
    room_->spectate(spectator_, 98);
    room_->start(players_.front(), 99);
    poll();
    ASSERT_EQ(players_.front()->last_state()["status"], "playing");
  }

  void poll() {
    ioc_.restart();
    ioc_.poll();
  }
  // Runs the room's timers until `done` holds (or a generous limit passes: a failure, not a wait).
  void run_until(const std::function<bool()>& done) {
    const auto limit = std::chrono::steady_clock::now() + 20s;
    while (!done() && std::chrono::steady_clock::now() < limit) {
      ioc_.restart();
      ioc_.run_one_for(5ms);
    }
    ASSERT_TRUE(done()) << "the room never got there";
  }

  // What every member (each seated player, and the spectator) last saw, and that the last change
  // reached each of them.
  void expect_published_to_all(std::size_t moves) {
    for (std::size_t s = 0; s < players_.size(); ++s) {
      SCOPED_TRACE("seat " + std::to_string(s));
      const json st = players_[s]->last_state();
      ASSERT_FALSE(st.is_null());
      EXPECT_EQ(st["moves"], moves);
      EXPECT_EQ(st["seat"], s);
    }
    const json watched = spectator_->last_state();
    ASSERT_FALSE(watched.is_null());
    EXPECT_EQ(watched["moves"], moves);
    EXPECT_TRUE(watched["seat"].is_null());
    EXPECT_EQ(watched["version"], players_.front()->last_state()["version"]);
  }

  std::uint64_t moves(MoveCause c) const { return metrics_.moves(c); }
  std::uint64_t all_moves() const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < kMoveCauses; ++i) n += metrics_.moves(static_cast<MoveCause>(i));
    return n;
  }
  // The acting seat of the last state seat 0 was sent.
  int acting() const { return players_.front()->last_state()["toAct"][0].get<int>(); }

  boost::asio::io_context ioc_;
  Config config_;
  RecordingJournal journal_;
  Metrics metrics_;
  const Game* game_ = nullptr;
  std::shared_ptr<Room> room_;
  std::vector<std::shared_ptr<RecordingClient>> players_;
  std::shared_ptr<RecordingClient> spectator_;
};

}  // namespace campfire::server::testing
