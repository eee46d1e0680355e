// campfire-load: many protocol-speaking players (or echo clients) on a few threads, each thread an
// io_context of its own so a connection, its table and its statistics never need a lock.
// Beast compiles slowly, so the whole tool is this one translation unit.
#include <CLI/CLI.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "bench/load/counting_stream.hpp"
#include "bench/load/json_scan.hpp"

namespace campfire::load {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

enum class Mode { kHold, kPlay, kRate, kEcho };

struct Options {
  Mode mode = Mode::kPlay;
  std::string host = "127.0.0.1";
  // One port, or a cluster's nodes: each room's creator connects to the next node in turn and
  // the other seats to the nodes after it, so most seats reach their room through another node.
  std::vector<std::uint16_t> ports;
  std::string game = "pinocchio";
  int seats = 4;
  long connections = 0;  // hold and echo
  long rooms = 0;        // play and rate
  double rate = 0;       // rate: actions per second offered
  // rate: seconds over which the tables take their first moves, one after another, as players
  // arriving over a while would; 0: all at once.
  double ramp = 0;
  double duration = 5;
  double warmup = 1;
  double setup_timeout = 60;
  int threads = 1;
  std::vector<int> server_pids;  // the server, or every node of a cluster
  std::size_t frame_bytes = 512;  // echo payload
  int group = 1;                  // echo: connections per relay group (1: plain echo)
  int connect_window = 256;       // connections being opened at once per thread
  bool echo_target = false;       // hold against the bare echo server
  std::string updates = "delta";  // what hello asks for: state, combined, patch or delta
  bool texts = false;             // whether hello asks for words (event texts, labels)
  bool compression = true;        // offer permessage-deflate, as browsers do
  double settle = 1;              // hold: seconds between the last seat and the memory's measure
};

// What one thread saw; merged once the run is over.
struct Stats {
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;       // the messages' texts
  std::uint64_t wire_bytes = 0;  // what the sockets read: frame headers, compressed texts
  std::uint64_t games = 0;
  std::uint64_t errors = 0;
  std::uint64_t failures = 0;  // connections that failed or closed
  std::map<std::string, std::uint64_t> error_codes;
  std::vector<std::uint32_t> latencies_us;
  // Under `rate`, the part of each latency its slot spent waiting for a seat that may move (a
  // seat whose move is pending, or whose room is between games, cannot take it): the load
  // generator's share, not the server's.
  std::vector<std::uint32_t> waits_us;
  // With several nodes, the same latencies split by whether the seat is connected to the node
  // that owns its room or reaches it through another.
  std::vector<std::uint32_t> direct_us;
  std::vector<std::uint32_t> forwarded_us;

  void merge(const Stats& o) {
    frames += o.frames;
    bytes += o.bytes;
    wire_bytes += o.wire_bytes;
    games += o.games;
    errors += o.errors;
    failures += o.failures;
    for (const auto& [k, v] : o.error_codes) error_codes[k] += v;
    latencies_us.insert(latencies_us.end(), o.latencies_us.begin(), o.latencies_us.end());
    waits_us.insert(waits_us.end(), o.waits_us.begin(), o.waits_us.end());
    direct_us.insert(direct_us.end(), o.direct_us.begin(), o.direct_us.end());
    forwarded_us.insert(forwarded_us.end(), o.forwarded_us.begin(), o.forwarded_us.end());
  }
};

// Shared by every thread: what to do and when the measured window is.
struct Run {
  Options opt;
  std::vector<tcp::endpoint> endpoints;
  std::atomic<long> ready{0};  // tables started, or echo connections open
  std::atomic<Clock::rep> from{Clock::time_point::max().time_since_epoch().count()};
  std::atomic<Clock::rep> until{Clock::time_point::max().time_since_epoch().count()};

  bool measuring(Clock::time_point t) const {
    const auto r = t.time_since_epoch().count();
    return r >= from.load(std::memory_order_relaxed) && r < until.load(std::memory_order_relaxed);
  }
};

class Seat;

// One thread: its io_context, its statistics, the pace of an open loop, and a limit on how many
// connections it opens at once (a burst of thousands would overflow the listen backlog).
class Worker {
 public:
  Worker(Run& run, unsigned seed) : run_(run), timer_(ioc_), rng_(seed) {}

  asio::io_context& ioc() { return ioc_; }
  Run& run() { return run_; }
  Stats& stats() { return stats_; }
  std::mt19937& rng() { return rng_; }
  bool paced() const { return per_second_ > 0; }

  void start() {
    thread_ = std::thread([this] { ioc_.run(); });
  }
  void join() { thread_.join(); }

  // Queues a connection attempt behind the window.
  void admit(std::function<void()> open) {
    waiting_.push_back(std::move(open));
    admit_more();
  }
  // A connection finished opening, well or badly.
  void admitted() {
    --opening_;
    admit_more();
  }

  void set_rate(double per_second) { per_second_ = per_second; }
  // Starts issuing send slots at the offered rate (rate mode).
  void start_pacing() {
    period_ = std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(1.0 / per_second_));
    next_slot_ = Clock::now();
    pacing_start_ = next_slot_;
    do_tick();
  }
  Clock::time_point pacing_start() const { return pacing_start_; }
  // A seat has a move to make and waits for a send slot.
  void ready(std::shared_ptr<Seat> seat) {
    ready_.push_back(std::move(seat));
    drain();
  }

 private:
  void admit_more() {
    while (opening_ < run_.opt.connect_window && !waiting_.empty()) {
      ++opening_;
      auto open = std::move(waiting_.front());
      waiting_.pop_front();
      open();
    }
  }
  void do_tick();
  void on_tick(beast::error_code ec);
  void drain();

  Run& run_;
  asio::io_context ioc_;
  asio::steady_timer timer_;
  std::mt19937 rng_;
  Stats stats_;
  std::thread thread_;
  std::deque<std::function<void()>> waiting_;
  int opening_ = 0;

  double per_second_ = 0;
  Clock::duration period_{};
  Clock::time_point next_slot_{};
  bool pacing_ = false;
  Clock::time_point pacing_start_{};
  std::deque<Clock::time_point> slots_;
  std::deque<std::shared_ptr<Seat>> ready_;
};

class Table;

// Common to both kinds of client: connect, handshake, one write in flight behind a queue.
template <class Derived>
class Connection : public std::enable_shared_from_this<Derived> {
 public:
  // `node`: which of the run's endpoints to connect to.
  Connection(Worker& worker, std::size_t node)
      : worker_(worker), node_(node), ws_(worker.ioc()) {}

  void run() {
    worker_.admit([self = this->shared_from_this()] { self->do_connect(); });
  }

  void send(std::string text) {
    if (dead_) return;
    queue_.push_back(std::move(text));
    if (!writing_) do_write();
  }

 protected:
  Derived& self() { return static_cast<Derived&>(*this); }

  void do_connect() {
    beast::get_lowest_layer(ws_).async_connect(
        worker_.run().endpoints[node_],
        beast::bind_front_handler(&Connection::on_connect, this->shared_from_this()));
  }
  void on_connect(beast::error_code ec) {
    if (ec) {
      worker_.admitted();
      return fail(ec, "connect");
    }
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true), ec);
    websocket::stream_base::timeout t;
    t.handshake_timeout = std::chrono::seconds(30);
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ws_.auto_fragment(false);
    if (worker_.run().opt.compression) {
      websocket::permessage_deflate pmd;
      pmd.client_enable = true;
      // What campfire-load sends is short: compressing it would only cost its own CPU.
      pmd.msg_size_threshold = 1024;
      ws_.set_option(pmd);
    }
    ws_.async_handshake(
        worker_.run().opt.host, self().target(),
        beast::bind_front_handler(&Connection::on_handshake, this->shared_from_this()));
  }
  void on_handshake(beast::error_code ec) {
    worker_.admitted();
    if (ec) return fail(ec, "handshake");
    ws_.text(true);
    do_read();
    self().on_open();
  }
  void do_read() {
    ws_.async_read(buffer_,
                   beast::bind_front_handler(&Connection::on_read, this->shared_from_this()));
  }
  void on_read(beast::error_code ec, std::size_t bytes) {
    if (ec) return fail(ec, "read");
    const auto now = Clock::now();
    const std::uint64_t wire = ws_.next_layer().bytes_read();
    if (worker_.run().measuring(now)) {
      ++worker_.stats().frames;
      worker_.stats().bytes += bytes;
      worker_.stats().wire_bytes += wire - wire_seen_;
    }
    wire_seen_ = wire;
    const auto data = buffer_.cdata();
    self().on_message(std::string_view(static_cast<const char*>(data.data()), data.size()), now);
    buffer_.consume(buffer_.size());
    do_read();
  }
  void do_write() {
    writing_ = true;
    ws_.async_write(asio::buffer(queue_.front()),
                    beast::bind_front_handler(&Connection::on_write, this->shared_from_this()));
  }
  void on_write(beast::error_code ec, std::size_t) {
    writing_ = false;
    queue_.pop_front();
    if (ec) return fail(ec, "write");
    if (!queue_.empty()) do_write();
  }
  // Every failure counts: a benchmark that quietly loses connections measures nothing.
  void fail(beast::error_code ec, const char* what) {
    if (dead_) return;
    dead_ = true;
    ++worker_.stats().failures;
    if (worker_.stats().failures <= 3) {
      std::fprintf(stderr, "campfire-load: %s: %s\n", what, ec.message().c_str());
    }
  }

  Worker& worker_;
  std::size_t node_;
  websocket::stream<CountingStream<beast::tcp_stream>> ws_;
  std::uint64_t wire_seen_ = 0;  // bytes read up to the last message
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool dead_ = false;
};

// One player: greets, takes a seat at its table, and plays a random legal move whenever it may.
class Seat : public Connection<Seat> {
 public:
  // `forwarded`: its node is not the room's (the node seat 0 creates the room on).
  Seat(Worker& worker, Table& table, int index, std::size_t node, bool forwarded)
      : Connection<Seat>(worker, node), table_(table), index_(index), forwarded_(forwarded) {}

  std::string target() const { return "/ws"; }
  void on_open() {
    send(R"({"type":"hello","id":)" + std::to_string(next_id_++) +
         R"(,"protocol":1,"name":"Load )" + std::to_string(index_) + R"(","updates":")" +
         worker_.run().opt.updates + R"(","texts":)" +
         (worker_.run().opt.texts ? "true" : "false") + "}");
  }
  void on_message(std::string_view m, Clock::time_point now);

  void create_room();
  void join(const std::string& code);
  void start() {
    start_id_ = next_id_++;
    send(R"({"type":"start","id":)" + std::to_string(start_id_) + R"(,"room":")" + room_ + R"("})");
  }
  bool can_act() const { return !dead_ && !pending_ && !legal_.empty(); }
  // Sends a random legal move; latency runs from `t0` (now, or the open loop's slot).
  void act(Clock::time_point t0);
  void forget_room() {
    legal_.clear();
    pending_ = false;
  }
  // Under --ramp, before its table's first move is due: the seat waits for it, off the queue.
  bool waits_for_table(Clock::time_point now);
  void table_opened();

 private:
  // `legal`: the new list, or nullopt when there is none; `legal_kept`: a patch left it as it was.
  void on_state(std::string_view room, long long version, std::optional<std::string_view> legal,
                bool legal_kept, Clock::time_point now);
  void on_update(std::string_view m, Clock::time_point now);
  void on_ok(std::string_view m);
  void on_error(std::string_view m);
  void maybe_act();
  // A delta connection numbers each non-empty legal list it receives whole; a whole state
  // starts the numbering again.
  void number(const std::vector<std::string>& list);
  void restart_numbers(std::optional<std::string_view> legal);

  Table& table_;
  int index_;
  bool forwarded_;
  std::string room_;
  long long next_id_ = 1;
  long long start_id_ = -1;
  long long version_ = -1;  // of the last state: the base of the next patch
  bool base_known_ = false;  // false from a join, or a patch that missed, to the next full state
  std::vector<std::string> legal_;
  // Deltas: the legal lists received whole since the last whole state, the newest (number
  // next_number_ - 1) last; only the last 16 are ever named.
  std::deque<std::vector<std::string>> numbered_;
  long long next_number_ = 0;
  bool pending_ = false;
  bool queued_ = false;
  long long action_id_ = -1;
  long long target_version_ = -1;
  long long acted_version_ = -1;
  Clock::time_point sent_at_{};
  Clock::duration waited_{};  // how long the move's slot waited before this seat took it

  friend class Worker;
};

// A room as the generator sees it: seat 0 creates it, the others join with its code, seat 0
// starts it, and when the game is over the same players open a fresh room.
class Table {
 public:
  // Table `number` of the run: its seat i connects to node (number + i) mod the node count.
  // Under --ramp, its first move is due `number / tables` of the ramp after pacing starts.
  Table(Worker& worker, int seats, long number, long tables)
      : worker_(worker),
        opens_after_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
            worker.run().opt.ramp * static_cast<double>(number) / static_cast<double>(tables)))),
        opener_(worker.ioc()) {
    const std::size_t nodes = worker.run().endpoints.size();
    const std::size_t home = static_cast<std::size_t>(number) % nodes;
    for (int i = 0; i < seats; ++i) {
      const std::size_t node = (home + static_cast<std::size_t>(i)) % nodes;
      seats_.push_back(std::make_shared<Seat>(worker, *this, i, node, node != home));
    }
  }
  void run() {
    for (auto& s : seats_) s->run();
  }
  const std::string& game() const { return worker_.run().opt.game; }
  int size() const { return static_cast<int>(seats_.size()); }

  void greeted() {
    if (++greeted_ == size()) seats_[0]->create_room();
  }
  void joined(int index, const std::string& code) {
    if (index == 0) {
      for (int i = 1; i < size(); ++i) seats_[static_cast<std::size_t>(i)]->join(code);
    }
    if (++joined_ == size()) seats_[0]->start();
  }
  void started() {
    if (!counted_) worker_.run().ready.fetch_add(1);
    counted_ = true;
  }
  // False once the table's first move is due; until then `seat` waits for that time.
  bool hold(std::shared_ptr<Seat> seat, Clock::time_point now) {
    const auto opens = worker_.pacing_start() + opens_after_;
    if (now >= opens) return false;
    if (!opener_armed_) {
      opener_.expires_at(opens);
      opener_armed_ = true;
    }
    opener_.async_wait([seat = std::move(seat)](beast::error_code ec) {
      if (!ec) seat->table_opened();
    });
    return true;
  }
  void over() {
    if (++over_ < size()) return;
    if (worker_.run().measuring(Clock::now())) ++worker_.stats().games;
    over_ = 0;
    joined_ = 0;
    for (auto& s : seats_) s->forget_room();
    seats_[0]->create_room();
  }

 private:
  Worker& worker_;
  Clock::duration opens_after_;
  asio::steady_timer opener_;
  bool opener_armed_ = false;
  std::vector<std::shared_ptr<Seat>> seats_;
  int greeted_ = 0;
  int joined_ = 0;
  int over_ = 0;
  bool counted_ = false;
};

void Seat::create_room() {
  send(R"({"type":"create_room","id":)" + std::to_string(next_id_++) + R"(,"game":")" +
       table_.game() + R"(","seats":)" + std::to_string(table_.size()) + "}");
}

void Seat::join(const std::string& code) {
  send(R"({"type":"join","id":)" + std::to_string(next_id_++) + R"(,"room":")" + code + R"("})");
}

void Seat::on_message(std::string_view m, Clock::time_point now) {
  // Most frames are states: what a state needs is read in the same pass as the type.
  const auto f = fields<4>(m, {"type", "room", "version", "legal"});
  const auto type = unquote(f[0]);
  if (type == "state") {
    if (unquote(f[1]) == room_) {
      base_known_ = true;
      restart_numbers(f[3]);
    }
    return on_state(unquote(f[1]), to_int(f[2]).value_or(-1), f[3], false, now);
  }
  if (type == "update") return on_update(m, now);
  if (type == "event" || type == "chat") return;
  if (type == "ok") return on_ok(m);
  if (type == "error") return on_error(m);
  if (type == "welcome") return table_.greeted();
  if (type == "joined") {
    room_ = std::string(string_field(m, "room"));
    version_ = -1;
    base_known_ = false;
    forget_room();
    return table_.joined(index_, room_);
  }
  if (type == "game_over") {
    if (string_field(m, "room") != room_) return;
    forget_room();
    return table_.over();
  }
}

// One frame per change (hello's "updates"): its events do not matter here; its state comes whole
// or as a merge patch on the last one, where `legal` is present only when it changed (an array is
// replaced whole, so the patch's `legal` is the full new list: for a delta, written as rows, or
// the number of a list sent before).
void Seat::on_update(std::string_view m, Clock::time_point now) {
  const auto f = fields<5>(m, {"room", "version", "base", "patch", "state"});
  const auto room = unquote(f[0]);
  if (room != room_) return;
  const long long version = to_int(f[1]).value_or(-1);
  if (f[4] && f[4]->starts_with('{')) {
    base_known_ = true;
    const auto legal = field(*f[4], "legal");
    restart_numbers(legal);
    return on_state(room, version, legal, false, now);
  }
  // A patch applies to the version held: the one it names as its base or, for a delta (no
  // base), the one just before its own.
  const bool delta = !f[2];
  const bool follows = delta ? version == version_ + 1 : to_int(f[2]) == version_;
  std::optional<std::string_view> legal = f[3] ? field(*f[3], "legal") : std::nullopt;
  const bool whole_list = legal && legal->starts_with('[');
  const std::vector<std::string>* named = nullptr;
  if (delta && legal && !whole_list) {
    const long long n = to_int(legal).value_or(-1);
    const long long oldest = next_number_ - static_cast<long long>(numbered_.size());
    if (n >= oldest && n < next_number_) named = &numbered_[static_cast<std::size_t>(n - oldest)];
  }
  // A delta's list sent whole comes as rows: read back as the actions they stand for.
  std::optional<std::vector<std::string>> rows;
  if (delta && whole_list) rows = expand_rows(*legal);
  if (!f[3] || !base_known_ || !follows || (delta && legal && !whole_list && !named) ||
      (delta && whole_list && !rows)) {
    // A patch on a state this seat does not hold: something was missed. Ask for the whole state
    // once, and act on nothing until it comes.
    if (base_known_) {
      base_known_ = false;
      legal_.clear();
      ++worker_.stats().errors;
      ++worker_.stats().error_codes["patch_base_missed"];
      send(R"({"type":"sync","room":")" + room_ + R"("})");
    }
    return;
  }
  if (!legal) return on_state(room, version, std::nullopt, true, now);
  if (named) {
    // A list held by number: it becomes the seat's choices.
    legal_ = *named;
    return on_state(room, version, std::nullopt, true, now);
  }
  if (rows) {
    number(*rows);
    legal_ = std::move(*rows);
    return on_state(room, version, std::nullopt, true, now);
  }
  return on_state(room, version, whole_list ? legal : std::nullopt, false, now);
}

void Seat::number(const std::vector<std::string>& list) {
  if (list.empty()) return;
  numbered_.push_back(list);
  if (numbered_.size() > 16) numbered_.pop_front();
  ++next_number_;
}

void Seat::restart_numbers(std::optional<std::string_view> legal) {
  numbered_.clear();
  next_number_ = 0;
  if (!legal || !legal->starts_with('[')) return;
  std::vector<std::string> list;
  for (auto e : elements(*legal)) list.emplace_back(e);
  number(list);
}

void Seat::on_state(std::string_view room, long long version, std::optional<std::string_view> legal,
                    bool legal_kept, Clock::time_point now) {
  if (room != room_) return;  // a room this seat has left
  if (version <= version_) return;
  version_ = version;
  if (pending_ && target_version_ >= 0 && version >= target_version_) {
    pending_ = false;
    if (worker_.run().measuring(now)) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now - sent_at_);
      const auto sample = static_cast<std::uint32_t>(us.count());
      Stats& stats = worker_.stats();
      stats.latencies_us.push_back(sample);
      if (worker_.run().opt.mode == Mode::kRate) {
        stats.waits_us.push_back(static_cast<std::uint32_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(waited_).count()));
      }
      if (worker_.run().endpoints.size() > 1) {
        (forwarded_ ? stats.forwarded_us : stats.direct_us).push_back(sample);
      }
    }
  }
  if (!legal_kept) legal_.clear();
  if (worker_.run().opt.mode == Mode::kHold) return;
  if (legal) {
    for (auto e : elements(*legal)) legal_.emplace_back(e);
  }
  maybe_act();
}

void Seat::on_ok(std::string_view m) {
  const auto id = int_field(m, "id").value_or(-1);
  if (id == action_id_) {
    target_version_ = int_field(m, "version").value_or(-1);
  } else if (id == start_id_) {
    table_.started();
  }
}

void Seat::on_error(std::string_view m) {
  const auto code = std::string(string_field(m, "code"));
  ++worker_.stats().errors;
  ++worker_.stats().error_codes[code];
  if (int_field(m, "id").value_or(-1) != action_id_ || !pending_) return;
  // The move was legal in the state this seat saw, so a refusal means the room has moved on
  // (another seat was first in a simultaneous phase). The newer state may already be here: it
  // arrived while the move was pending, so act on it now; otherwise it is on its way.
  pending_ = false;
  if (version_ > acted_version_) maybe_act();
}

bool Seat::waits_for_table(Clock::time_point now) {
  if (!table_.hold(shared_from_this(), now)) return false;
  queued_ = true;  // the table's timer puts it back
  return true;
}

void Seat::table_opened() {
  queued_ = false;
  maybe_act();
}

void Seat::maybe_act() {
  if (!can_act()) return;
  if (!worker_.paced()) return act(Clock::now());
  if (queued_) return;
  queued_ = true;
  worker_.ready(shared_from_this());
}

void Seat::act(Clock::time_point t0) {
  std::uniform_int_distribution<std::size_t> pick(0, legal_.size() - 1);
  const std::string& action = legal_[pick(worker_.rng())];
  action_id_ = next_id_++;
  target_version_ = -1;
  acted_version_ = version_;
  pending_ = true;
  sent_at_ = t0;
  waited_ = Clock::now() - t0;
  send(R"({"type":"action","id":)" + std::to_string(action_id_) + R"(,"room":")" + room_ +
       R"(","action":)" + action + "}");
}

void Worker::do_tick() {
  pacing_ = true;
  const auto now = Clock::now();
  while (next_slot_ <= now) {
    slots_.push_back(next_slot_);
    next_slot_ += period_;
  }
  drain();
  timer_.expires_after(std::chrono::microseconds(250));
  timer_.async_wait([this](beast::error_code ec) { on_tick(ec); });
}

void Worker::on_tick(beast::error_code ec) {
  if (!ec) do_tick();
}

// Matches due send slots with seats that have a move to make. A slot that finds no seat waits,
// and its wait counts in the latency: a stalled server cannot hide behind a closed loop.
void Worker::drain() {
  if (!pacing_) return;
  const auto now = Clock::now();
  while (!slots_.empty() && !ready_.empty()) {
    auto seat = std::move(ready_.front());
    ready_.pop_front();
    seat->queued_ = false;
    if (!seat->can_act()) continue;
    if (seat->waits_for_table(now)) continue;
    seat->act(slots_.front());
    slots_.pop_front();
  }
}

class EchoClient;

// A relay group: connections that the echo server writes each other's frames to, like the seats
// of a room. They take turns: each frame names the member who sends next, as a move's update
// tells the next seat it may move.
struct RelayGroup {
  std::string name;
  std::vector<std::string> payloads;  // payloads[i] names member i as the next to send
  std::vector<std::shared_ptr<EchoClient>> members;
  int open = 0;
};

// An echo client: in echo mode sends a frame as soon as the last one came back; in hold mode
// sends one and then stays idle. In a relay group it sends when a frame names it next, and
// measures from its send to its own frame's return (a move to the mover's update).
class EchoClient : public Connection<EchoClient> {
 public:
  EchoClient(Worker& worker, const std::string& payload, std::size_t node,
             std::shared_ptr<RelayGroup> group = nullptr, int index = 0)
      : Connection<EchoClient>(worker, node),
        payload_(payload),
        group_(std::move(group)),
        index_(index) {}

  std::string target() const { return group_ ? "/relay/" + group_->name : "/ws"; }
  void on_open() {
    worker_.run().ready.fetch_add(1);
    if (!group_) {
      sent_at_ = Clock::now();
      send(payload_);
    } else if (++group_->open == static_cast<int>(group_->members.size())) {
      group_->members.front()->take_turn(Clock::now());
    }
  }
  void on_message(std::string_view m, Clock::time_point now) {
    if (worker_.run().opt.mode != Mode::kEcho) return;
    if (!group_ || pending_) {
      if (worker_.run().measuring(now)) {
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now - sent_at_);
        worker_.stats().latencies_us.push_back(static_cast<std::uint32_t>(us.count()));
      }
      pending_ = false;
    }
    if (!group_) {
      sent_at_ = now;
      send(payload_);
    } else if (to_int(field(m, "next")) == index_) {
      take_turn(now);
    }
  }

 private:
  void take_turn(Clock::time_point now) {
    sent_at_ = now;
    pending_ = true;
    const auto next = (static_cast<std::size_t>(index_) + 1) % group_->members.size();
    send(group_->payloads[next]);
  }

  const std::string& payload_;
  std::shared_ptr<RelayGroup> group_;
  int index_;
  bool pending_ = false;  // its own frame has not come back yet
  Clock::time_point sent_at_{};
};

// CPU seconds (user + system) used so far by process `pid` and by this process.
double cpu_seconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  unsigned long long utime = 0;
  unsigned long long stime = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) {
      stime = std::strtoull(field.c_str(), nullptr, 10);
      break;
    }
  }
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return secs(u.ru_utime) + secs(u.ru_stime);
}

long rss_kb(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return 0;
}

// Summed over every process in `pids` (none: 0).
template <class F>
auto sum_over(const std::vector<int>& pids, F f) {
  decltype(f(0)) total = 0;
  for (const int pid : pids) total += f(pid);
  return total;
}

double percentile(const std::vector<std::uint32_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto i = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

void sleep_for(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

int main_load(int argc, char** argv) {
  Run run;
  Options& opt = run.opt;
  std::string mode;
  std::vector<double> args;
  CLI::App app{"campfire-load: drives a Campfire server (or the bare echo server) with players"};
  app.add_option("mode", mode, "hold N | play R S | rate X | echo C")
      ->required()
      ->check(CLI::IsMember({"hold", "play", "rate", "echo"}));
  app.add_option("args", args, "the mode's numbers");
  app.add_option("--host", opt.host, "server address");
  app.add_option("--port", opt.ports,
                 "server port; several (comma-separated) for the nodes of a cluster: seat 0 "
                 "creates each room on the next node in turn, the other seats connect to the "
                 "nodes after it and reach the room through theirs")
      ->required()
      ->delimiter(',');
  app.add_option("--game", opt.game, "game id for hold, play and rate");
  app.add_option("--seats", opt.seats, "seats per room (hold and rate)");
  app.add_option("--rooms", opt.rooms, "rooms (rate)");
  app.add_option("--duration", opt.duration, "seconds measured");
  app.add_option("--warmup", opt.warmup, "seconds before measuring (under rate, after the ramp)");
  app.add_option("--ramp", opt.ramp,
                 "rate: seconds over which the rooms make their first moves, one after another, "
                 "as players arriving over a while would, so that their games do not all end "
                 "together; 0 (the default): all at once");
  app.add_option("--setup-timeout", opt.setup_timeout, "seconds allowed to connect and seat");
  app.add_option("--threads", opt.threads, "client threads")->check(CLI::Range(1, 64));
  app.add_option("--server-pid", opt.server_pids,
                 "server process whose CPU and memory to report (comma-separated: every node's, "
                 "summed)")
      ->delimiter(',');
  app.add_option("--size", opt.frame_bytes, "echo frame size in bytes")
      ->check(CLI::Range(16, 65000));
  app.add_option("--connect-window", opt.connect_window, "connections opened at once per thread");
  app.add_flag("--echo", opt.echo_target, "hold: the target is the bare echo server");
  app.add_option("--group", opt.group,
                 "echo: relay groups of this many connections, taking turns; each frame goes "
                 "to every member, as a move's update goes to every seat (reports actions/s)")
      ->check(CLI::Range(1, 99));
  app.add_option("--updates", opt.updates,
                 "what each change sends: state (event and state frames), combined, patch or "
                 "delta (one update frame, its state whole, patched, or patched more leanly)")
      ->check(CLI::IsMember({"state", "combined", "patch", "delta"}));
  app.add_option("--settle", opt.settle,
                 "hold: seconds from the last seat taken to measuring the server's memory");
  app.add_flag("!--no-compression", opt.compression,
               "offer no permessage-deflate (by default the players offer it, as browsers do)");
  app.add_flag("--texts", opt.texts,
               "ask for words (event texts and labels) as the browser does; without it the "
               "players read none, as bots");
  CLI11_PARSE(app, argc, argv);

  auto need = [&](std::size_t n) {
    if (args.size() != n) {
      std::fprintf(stderr, "campfire-load: %s needs %zu number(s)\n", mode.c_str(), n);
      std::exit(2);
    }
  };
  if (mode == "hold") {
    need(1);
    opt.mode = Mode::kHold;
    opt.connections = static_cast<long>(args[0]);
  } else if (mode == "play") {
    need(2);
    opt.mode = Mode::kPlay;
    opt.rooms = static_cast<long>(args[0]);
    opt.seats = static_cast<int>(args[1]);
  } else if (mode == "rate") {
    need(1);
    opt.mode = Mode::kRate;
    opt.rate = args[0];
    if (opt.rooms <= 0) opt.rooms = 250;
  } else {
    need(1);
    opt.mode = Mode::kEcho;
    opt.connections = static_cast<long>(args[0]);
  }
  for (const auto port : opt.ports) {
    run.endpoints.emplace_back(asio::ip::make_address(opt.host), port);
  }
  const bool echo = opt.mode == Mode::kEcho || (opt.mode == Mode::kHold && opt.echo_target);

  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < opt.threads; ++t) {
    workers.push_back(std::make_unique<Worker>(run, 12345u + static_cast<unsigned>(t)));
    if (opt.mode == Mode::kRate) workers.back()->set_rate(opt.rate / opt.threads);
  }

  const auto& pids = opt.server_pids;
  const long rss_before = sum_over(pids, rss_kb);
  // Echo frames look like protocol frames: a JSON object of the asked size.
  std::string payload = R"({"type":"echo","pad":")";
  payload += std::string(
      opt.frame_bytes > payload.size() + 2 ? opt.frame_bytes - payload.size() - 2 : 1, 'x');
  payload += "\"}";

  std::vector<std::unique_ptr<Table>> tables;
  std::vector<std::shared_ptr<EchoClient>> echoes;
  long expected = 0;
  long connections = 0;
  const bool relay = opt.mode == Mode::kEcho && opt.group > 1;
  if (relay && opt.connections % opt.group != 0) {
    std::fprintf(stderr, "campfire-load: echo %ld is not a multiple of --group %d\n",
                 opt.connections, opt.group);
    return 2;
  }
  if (echo && !relay) {
    for (long i = 0; i < opt.connections; ++i) {
      auto& w = *workers[static_cast<std::size_t>(i % opt.threads)];
      echoes.push_back(std::make_shared<EchoClient>(
          w, payload, static_cast<std::size_t>(i) % run.endpoints.size()));
    }
    expected = connections = opt.connections;
  } else if (relay) {
    opt.seats = opt.group;  // a group stands for a room: bytes per seat are per member
    // A group's members share one thread, so its turn-taking needs no lock. The payloads keep
    // the asked size with the next member's number in them.
    for (long g = 0; g * opt.group < opt.connections; ++g) {
      auto& w = *workers[static_cast<std::size_t>(g % opt.threads)];
      auto group = std::make_shared<RelayGroup>();
      group->name = std::to_string(g);
      for (int i = 0; i < opt.group; ++i) {
        std::string p = R"({"type":"relay","next":)" + std::to_string(i) + R"(,"pad":")";
        p += std::string(opt.frame_bytes > p.size() + 2 ? opt.frame_bytes - p.size() - 2 : 1, 'x');
        p += "\"}";
        group->payloads.push_back(std::move(p));
      }
      for (int i = 0; i < opt.group; ++i) {
        group->members.push_back(std::make_shared<EchoClient>(
            w, payload, static_cast<std::size_t>(g) % run.endpoints.size(), group, i));
        echoes.push_back(group->members.back());
      }
    }
    expected = connections = opt.connections;
  } else {
    const long count = opt.mode == Mode::kHold ? opt.connections / opt.seats : opt.rooms;
    for (long i = 0; i < count; ++i) {
      auto& w = *workers[static_cast<std::size_t>(i % opt.threads)];
      tables.push_back(std::make_unique<Table>(w, opt.seats, i, count));
    }
    expected = count;
    connections = count * opt.seats;
  }
  // Start the connections on their own threads, then run those threads.
  for (auto& e : echoes) e->run();
  for (auto& t : tables) t->run();
  for (auto& w : workers) w->start();

  const auto setup_start = Clock::now();
  const auto setup_deadline = setup_start + std::chrono::duration_cast<Clock::duration>(
                                                std::chrono::duration<double>(opt.setup_timeout));
  while (run.ready.load() < expected && Clock::now() < setup_deadline) sleep_for(0.02);
  const double setup_s = std::chrono::duration<double>(Clock::now() - setup_start).count();
  const long ready = run.ready.load();
  std::printf("%s: %ld of %ld %s ready in %.2f s\n", mode.c_str(), ready, expected,
              echo ? "connections" : "rooms", setup_s);

  if (opt.mode == Mode::kRate) {
    for (auto& w : workers) asio::post(w->ioc(), [&worker = *w] { worker.start_pacing(); });
  }
  long rss_after = 0;
  if (opt.mode == Mode::kHold) {
    // Let the last joins and states settle (and, with compression, the compressors of the
    // connections fallen idle go: the server lets them go after ten quiet seconds).
    sleep_for(opt.settle);
    rss_after = sum_over(pids, rss_kb);
  }
  const double before = opt.warmup + (opt.mode == Mode::kRate ? opt.ramp : 0);
  const auto from = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(before));
  const auto until = from + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(opt.duration));
  run.from = from.time_since_epoch().count();
  run.until = until.time_since_epoch().count();
  // How busy the server and this generator were while measuring: a side near 100% of its core
  // is the bottleneck.
  std::this_thread::sleep_until(from);
  const double server_cpu_from = sum_over(pids, cpu_seconds);
  const double own_cpu_from = own_cpu_seconds();
  std::this_thread::sleep_until(until);
  const double server_cpu = sum_over(pids, cpu_seconds) - server_cpu_from;
  const double own_cpu = own_cpu_seconds() - own_cpu_from;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (opt.mode == Mode::kHold) rss_after = std::max(rss_after, sum_over(pids, rss_kb));

  // Stop the threads; their statistics are then safe to read.
  for (auto& w : workers) w->ioc().stop();
  for (auto& w : workers) w->join();
  Stats total;
  for (auto& w : workers) total.merge(w->stats());
  std::sort(total.latencies_us.begin(), total.latencies_us.end());
  std::sort(total.waits_us.begin(), total.waits_us.end());
  std::sort(total.direct_us.begin(), total.direct_us.end());
  std::sort(total.forwarded_us.begin(), total.forwarded_us.end());

  const double secs = opt.duration;
  const double samples = static_cast<double>(total.latencies_us.size());
  std::printf("RESULT mode=%s connections=%ld ready=%ld expected=%ld setup_s=%.2f", mode.c_str(),
              connections, ready, expected, setup_s);
  if (opt.mode == Mode::kHold) {
    const long delta = rss_after - rss_before;
    std::printf(" rss_before_kb=%ld rss_after_kb=%ld bytes_per_conn=%.0f", rss_before, rss_after,
                connections > 0 ? 1024.0 * static_cast<double>(delta) / connections : 0.0);
  } else {
    std::printf(
        " actions_per_s=%.0f msgs_per_s=%.0f avg_frame_bytes=%.0f avg_wire_frame_bytes=%.0f"
        " games=%llu",
        opt.mode == Mode::kEcho && !relay ? 0.0 : samples / secs,
        static_cast<double>(total.frames) / secs,
        total.frames ? static_cast<double>(total.bytes) / static_cast<double>(total.frames) : 0.0,
        total.frames ? static_cast<double>(total.wire_bytes) / static_cast<double>(total.frames)
                     : 0.0,
        static_cast<unsigned long long>(total.games));
    if ((opt.mode != Mode::kEcho || relay) && samples > 0) {
      // What one seat receives per action, every frame counted (replies, whole states, updates):
      // as the network carried it (frame headers included, compressed frames as sent), and as
      // the texts the client read.
      std::printf(" bytes_per_seat_action=%.0f text_bytes_per_seat_action=%.0f",
                  static_cast<double>(total.wire_bytes) / samples / opt.seats,
                  static_cast<double>(total.bytes) / samples / opt.seats);
    }
    std::printf(" p50_us=%.0f p99_us=%.0f p999_us=%.0f", percentile(total.latencies_us, 0.5),
                percentile(total.latencies_us, 0.99), percentile(total.latencies_us, 0.999));
    if (opt.mode == Mode::kRate) {
      std::printf(" wait_p50_us=%.0f wait_p99_us=%.0f", percentile(total.waits_us, 0.5),
                  percentile(total.waits_us, 0.99));
    }
    if (run.endpoints.size() > 1) {
      std::printf(" nodes=%zu direct_p50_us=%.0f direct_p99_us=%.0f forwarded_p50_us=%.0f"
                  " forwarded_p99_us=%.0f",
                  run.endpoints.size(), percentile(total.direct_us, 0.5),
                  percentile(total.direct_us, 0.99), percentile(total.forwarded_us, 0.5),
                  percentile(total.forwarded_us, 0.99));
    }
    std::printf(" load_cpu_pct=%.0f", 100.0 * own_cpu / secs);
    if (!pids.empty()) {
      std::printf(" server_cpu_pct=%.0f", 100.0 * server_cpu / secs);
      if ((opt.mode != Mode::kEcho || relay) && samples > 0) {
        std::printf(" server_us_per_action=%.0f", 1e6 * server_cpu / samples);
      }
    }
  }
  std::printf(" errors=%llu failures=%llu\n", static_cast<unsigned long long>(total.errors),
              static_cast<unsigned long long>(total.failures));
  for (const auto& [code, n] : total.error_codes) {
    std::printf("  error %s: %llu\n", code.c_str(), static_cast<unsigned long long>(n));
  }
  std::fflush(stdout);
  const bool ok = ready == expected && total.failures == 0 &&
                  (opt.mode == Mode::kHold || !total.latencies_us.empty() || total.frames > 0);
  // The kernel closes every socket at once; tearing down thousands of sessions one by one would
  // only measure the teardown.
  std::_Exit(ok ? 0 : 1);
}

}  // namespace campfire::load

int main(int argc, char** argv) {
  return campfire::load::main_load(argc, argv);
}
