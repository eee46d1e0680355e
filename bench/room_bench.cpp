// Room micro-benchmark: what one accepted action costs a room with every seat held by a
// connection, without the network. The room applies the action, renders the events, builds
// each seat's state frame and hands the frames to its clients; here the clients only count.
// A shadow copy of the match picks random legal moves, outside the measured step.
//
// Every game, with the seats hearing changes as event and state frames (`state`, protocol v1's
// default) and as patched update frames (`patch`), wall time per action:
//   campfire_room_bench
// Instructions per action (the Ir of room_step divided by its calls):
//   valgrind --tool=callgrind --toggle-collect='*room_step*' campfire_room_bench
//       --benchmark_filter=room/pinocchio/4seats/patch --benchmark_min_time=300x
//
// And what compressing those frames for permessage-deflate costs, per frame, with the server's
// own compressor against zlib at the settings the server used before it (a 4 KiB window, level
// 2, memLevel 3): `deflate/<game>/<compressor>`, over the frames of real games in the mode
// campfire-load asks for, one compressor per connection for the connections of 100 rooms taking
// turns (`warm`: their 400 compressors fit in this machine's last-level cache) and of 2,000 rooms
// (`cold`: 8,000 compressors do not, and each frame finds its compressor's memory gone from the
// caches, as a busy server's does). bytes_out/in is the compressed size over the text's.
#include <benchmark/benchmark.h>
#include <spdlog/spdlog.h>
#include <zlib.h>

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "server/room.hpp"
#include "server/websocket_deflate.hpp"

namespace campfire {
namespace {

using server::Frame;

class CountingClient final : public server::Client {
 public:
  CountingClient(server::UpdateMode updates, bool texts) : updates_(updates), texts_(texts) {}
  server::UpdateMode updates() const override { return updates_; }
  bool texts() const override { return texts_; }
  void send(Frame frame) override {
    ++frames;
    bytes += frame->size();
    if (keep) kept.push_back(std::move(frame));
  }
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}

  long frames = 0;
  long bytes = 0;
  bool keep = false;  // keep every frame sent (for the compression benchmark)
  std::vector<Frame> kept;

 private:
  server::UpdateMode updates_;
  bool texts_;
};

// One table: a room, its seated clients and a shadow of the room's match.
struct Table {
  Table(boost::asio::io_context& ioc, const server::Config& config, const Game& g, int seats,
        std::uint64_t seed, server::UpdateMode updates, bool texts)
      : shadow(std::move(*Match::create(g, seats, json::object(), seed))) {
    // The room's own cost: a journal that keeps nothing (campfire-journal-bench measures it).
    room = std::make_shared<server::Room>(ioc, config, *journal, metrics, "BENCH", shadow, false,
                                          server::RoomSettings{});
    for (int s = 0; s < seats; ++s) {
      clients.push_back(std::make_shared<CountingClient>(updates, texts));
      room->join(clients.back(), "Player " + std::to_string(s + 1), nullptr, s);
    }
    room->start(clients.front(), nullptr);
    ioc.poll();
    ioc.restart();
  }
  ~Table() { room->shutdown(); }
  std::unique_ptr<server::Journal> journal = server::make_journal("none", "", false);
  server::Metrics metrics;

  long frames() const {
    long n = 0;
    for (const auto& c : clients) n += c->frames;
    return n;
  }
  long bytes() const {
    long n = 0;
    for (const auto& c : clients) n += c->bytes;
    return n;
  }

  Match shadow;
  std::shared_ptr<server::Room> room;
  std::vector<std::shared_ptr<CountingClient>> clients;
};

// The measured step: one action through the room, delivered to every seat.
[[gnu::noinline]] void room_step(boost::asio::io_context& ioc, Table& t, Seat seat,
                                 const json& action) {
  t.room->action(t.clients[static_cast<std::size_t>(seat)], 1, action, std::nullopt);
  ioc.poll();
  ioc.restart();
}

void room(benchmark::State& st, const Game* g, int seats, server::UpdateMode updates,
          bool texts) {
  spdlog::set_level(spdlog::level::warn);
  boost::asio::io_context ioc;
  server::Config config;
  // Timed windows stay open for the whole run, so the room's timers never move the game on
  // behind the shadow's back.
  config.test_mode = true;
  config.window_scale = 1e6;
  std::uint64_t seed = 1;
  auto table = std::make_unique<Table>(ioc, config, *g, seats, seed, updates, texts);
  Rng rng(11);
  std::vector<Action> legal;
  Events silent(false);
  long actions = 0;
  long frames = 0;
  long bytes = 0;
  for (auto _ : st) {
    st.PauseTiming();
    // A finished game, or one waiting only for a timed window to close (the room's clock, which
    // this loop does not wait for), is replaced by a fresh one.
    int fresh = 0;
    while (fresh < 100 &&
           (table->shadow.state().over() || table->shadow.state().to_act().empty())) {
      table.reset();
      table = std::make_unique<Table>(ioc, config, *g, seats, ++seed, updates, texts);
      ++fresh;
    }
    if (table->shadow.state().over() || table->shadow.state().to_act().empty()) {
      st.SkipWithError("no game with a seat to act");
      break;
    }
    const Seat seat = table->shadow.state().to_act().first();
    table->shadow.state().legal_actions(seat, legal);
    const Action a = legal[rng.below(legal.size())];
    const json action = g->action_to_json(a);
    for (auto& c : table->clients) c->frames = c->bytes = 0;
    table->shadow.apply(seat, a, silent);
    st.ResumeTiming();
    room_step(ioc, *table, seat, action);
    st.PauseTiming();
    frames += table->frames();
    bytes += table->bytes();
    ++actions;
    st.ResumeTiming();
  }
  table.reset();
  ioc.poll();
  st.counters["actions/s"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
  if (actions > 0) {
    st.counters["frames/action"] = static_cast<double>(frames) / static_cast<double>(actions);
    st.counters["bytes/action"] = static_cast<double>(bytes) / static_cast<double>(actions);
  }
}


// The frames each of a room's seats receives over `actions` random actions (games replaced as
// they end), in the order they are sent.
std::vector<std::vector<std::string>> seat_frames(const Game* g, int seats, long actions) {
  spdlog::set_level(spdlog::level::warn);
  boost::asio::io_context ioc;
  server::Config config;
  config.test_mode = true;
  config.window_scale = 1e6;
  std::vector<std::vector<std::string>> out(static_cast<std::size_t>(seats));
  Rng rng(5);
  std::vector<Action> legal;
  Events silent(false);
  std::uint64_t seed = 100;
  for (long done = 0; done < actions;) {
    Table table(ioc, config, *g, seats, ++seed, server::UpdateMode::kDelta, false);
    for (auto& c : table.clients) c->keep = true;
    while (done < actions && !table.shadow.state().over() &&
           !table.shadow.state().to_act().empty()) {
      const Seat seat = table.shadow.state().to_act().first();
      table.shadow.state().legal_actions(seat, legal);
      const Action a = legal[rng.below(legal.size())];
      const json action = g->action_to_json(a);
      table.shadow.apply(seat, a, silent);
      room_step(ioc, table, seat, action);
      ++done;
    }
    for (std::size_t s = 0; s < table.clients.size(); ++s) {
      for (const Frame& f : table.clients[s]->kept) out[s].push_back(*f);
    }
  }
  ioc.poll();
  return out;
}

// zlib as the server used it before its own compressor.
class ZlibDeflater {
 public:
  ZlibDeflater() { deflateInit2(&z_, 2, Z_DEFLATED, -12, 3, Z_DEFAULT_STRATEGY); }
  ~ZlibDeflater() { deflateEnd(&z_); }
  ZlibDeflater(const ZlibDeflater&) = delete;
  ZlibDeflater& operator=(const ZlibDeflater&) = delete;
  void compress(std::string_view in, std::string& out) {
    out.resize(deflateBound(&z_, static_cast<uLong>(in.size())) + 16);
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_.avail_in = static_cast<uInt>(in.size());
    z_.next_out = reinterpret_cast<Bytef*>(out.data());
    z_.avail_out = static_cast<uInt>(out.size());
    deflate(&z_, Z_SYNC_FLUSH);
    out.resize(out.size() - z_.avail_out - 4);
  }

 private:
  z_stream z_{};
};

template <class Compressor>
void deflate_frames(benchmark::State& st, const Game* g, int seats, int rooms) {
  const auto frames = seat_frames(g, seats, 2000);
  // Each connection of each room gets its seat's frames, from its own compressor; connections
  // take turns as a room's seats do.
  std::vector<std::unique_ptr<Compressor>> compressors;
  for (int i = 0; i < rooms * seats; ++i) {
    if constexpr (std::is_same_v<Compressor, server::ws::Deflater>) {
      compressors.push_back(std::make_unique<Compressor>(server::ws::DeflateSettings{}));
    } else {
      compressors.push_back(std::make_unique<Compressor>());
    }
  }
  std::string out;
  std::size_t in_bytes = 0;
  std::size_t out_bytes = 0;
  std::size_t turn = 0;
  for (auto _ : st) {
    const std::size_t connection = turn % compressors.size();
    const auto& mine = frames[connection % static_cast<std::size_t>(seats)];
    const std::string& text = mine[(turn / compressors.size()) % mine.size()];
    compressors[connection]->compress(text, out);
    in_bytes += text.size();
    out_bytes += out.size();
    ++turn;
  }
  st.counters["bytes_out/in"] = static_cast<double>(out_bytes) / static_cast<double>(in_bytes);
  st.counters["bytes_in/frame"] = static_cast<double>(in_bytes) / static_cast<double>(turn);
}

}  // namespace
}  // namespace campfire

int main(int argc, char** argv) {
  using campfire::Game;
  for (const Game* g : campfire::Registry::builtin().games()) {
    const int seats = std::min(std::max(4, g->info().min_seats), g->info().max_seats);
    // What the seats hear: events and states, patches, deltas, and deltas without words (what
    // bots and the load generator ask for).
    using campfire::server::UpdateMode;
    const std::pair<UpdateMode, bool> hearings[] = {{UpdateMode::kState, true},
                                                    {UpdateMode::kPatch, true},
                                                    {UpdateMode::kDelta, true},
                                                    {UpdateMode::kDelta, false}};
    for (const auto& [updates, texts] : hearings) {
      const std::string name = "room/" + g->info().id + "/" + std::to_string(seats) + "seats/" +
                               std::string(campfire::protocol::to_string(updates)) +
                               (texts ? "" : "-notexts");
      benchmark::RegisterBenchmark(name.c_str(), campfire::room, g, seats, updates, texts);
    }
  }
  for (const char* id : {"pinocchio", "tricky-tribes"}) {
    const Game* g = campfire::Registry::builtin().find(id);
    if (g == nullptr) continue;
    for (const auto& [cache, rooms] : {std::pair{"warm", 100}, std::pair{"cold", 2000}}) {
      const std::string name = std::string("deflate/") + id + "/" + cache;
      benchmark::RegisterBenchmark((name + "/campfire").c_str(),
                                   campfire::deflate_frames<campfire::server::ws::Deflater>, g, 4,
                                   rooms);
      benchmark::RegisterBenchmark((name + "/zlib-level2").c_str(),
                                   campfire::deflate_frames<campfire::ZlibDeflater>, g, 4, rooms);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
