#include "server/metrics.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

namespace campfire::server {

namespace {

void append_number(std::string& out, double v) {
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%.9g", v);
  out.append(buf, static_cast<std::size_t>(n));
}

void append_number(std::string& out, std::uint64_t v) {
  out += std::to_string(v);
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

// Label values are escaped as the text format asks: backslash, double quote and newline.
std::string label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

template <class T>
void sample(std::string& out, std::string_view name, std::string_view labels, T value) {
  out += name;
  if (!labels.empty()) {
    out += '{';
    out += labels;
    out += '}';
  }
  out += ' ';
  append_number(out, value);
  out += '\n';
}

constexpr std::size_t kMaxErrorCodes = 256;

}  // namespace

Histogram::Histogram(std::vector<double> bounds_seconds)
    : bounds_(std::move(bounds_seconds)),
      buckets_(std::make_unique<std::atomic<std::uint64_t>[]>(bounds_.size() + 1)) {
  for (double b : bounds_) bounds_ns_.push_back(static_cast<std::int64_t>(b * 1e9));
  for (std::size_t i = 0; i <= bounds_.size(); ++i) buckets_[i].store(0);
}

void Histogram::observe(std::chrono::nanoseconds d) {
  const std::int64_t ns = d.count() < 0 ? 0 : d.count();
  std::size_t i = 0;
  while (i < bounds_ns_.size() && ns > bounds_ns_[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(ns), std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
}

void Histogram::render(std::string& out, std::string_view name) const {
  const std::string bucket = std::string(name) + "_bucket";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    std::string le = "le=\"";
    if (i < bounds_.size()) {
      append_number(le, bounds_[i]);
    } else {
      le += "+Inf";
    }
    le += '"';
    sample(out, bucket, le, cumulative);
  }
  sample(out, std::string(name) + "_sum", "",
         static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9);
  // The count is the +Inf bucket, so the two never disagree within one scrape.
  sample(out, std::string(name) + "_count", "", cumulative);
}

Metrics::Metrics()
    : actions_(0),
      action_latency_(
          {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1}),
      journal_write_({0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                      0.1, 0.25, 1}) {
  for (auto& slot : per_second_) slot.store(0);
  for (auto& n : moves_) n.store(0);
}

std::int64_t Metrics::now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void Metrics::action_applied(std::chrono::steady_clock::time_point received) {
  const auto now = std::chrono::steady_clock::now();
  actions_.fetch_add(1, std::memory_order_relaxed);
  action_latency_.observe(now - received);

  const auto second = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count());
  const std::uint64_t tag = (second & 0xffffffffu) << 32;
  auto& slot = per_second_[second % per_second_.size()];
  std::uint64_t v = slot.load(std::memory_order_relaxed);
  for (;;) {
    // A slot still holding an older second starts over at one.
    const std::uint64_t next = (v & ~0xffffffffull) == tag ? v + 1 : tag | 1u;
    if (slot.compare_exchange_weak(v, next, std::memory_order_relaxed)) break;
  }
}

std::uint64_t Metrics::actions_last_second() const {
  const auto second = static_cast<std::uint64_t>(now_seconds() - 1);
  const std::uint64_t v = per_second_[second % per_second_.size()].load(std::memory_order_relaxed);
  return (v >> 32) == (second & 0xffffffffu) ? (v & 0xffffffffu) : 0;
}

void Metrics::error_sent(std::string_view code) {
  std::lock_guard lock(errors_mutex_);
  auto it = errors_.find(code);
  if (it != errors_.end()) {
    ++it->second;
  } else if (errors_.size() < kMaxErrorCodes) {
    errors_.emplace(std::string(code), 1);
  } else {
    ++errors_["other"];
  }
}

namespace {

// Every sample line of `text` with `label` first among its labels (comments unchanged).
std::string with_label(const std::string& text, const std::string& label) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    if (line.empty() || line.front() == '#') {
      out.append(line);
    } else {
      const std::size_t name_end = line.find_first_of("{ ");
      out.append(line.substr(0, name_end));
      if (name_end != std::string_view::npos && line[name_end] == '{') {
        out.append("{" + label + ",");
        out.append(line.substr(name_end + 1));
      } else {
        out.append("{" + label + "}");
        if (name_end != std::string_view::npos) out.append(line.substr(name_end));
      }
    }
    if (end < text.size()) out.push_back('\n');
    at = end + 1;
  }
  return out;
}

}  // namespace

namespace {

void render_cluster(std::string& out, const MetricsSnapshot::Cluster& c) {
  header(out, "campfire_cluster_nodes", "gauge", "Nodes of the cluster whose lease is alive.");
  sample(out, "campfire_cluster_nodes", "", static_cast<std::uint64_t>(c.live_nodes));
  header(out, "campfire_cluster_redis_up", "gauge",
         "1 while this node's command connection to Redis is up.");
  sample(out, "campfire_cluster_redis_up", "", std::uint64_t{c.redis_up ? 1u : 0u});
  header(out, "campfire_bus_batches_total", "counter",
         "Batches of items on the bus between nodes (one PUBLISH each), by direction.");
  sample(out, "campfire_bus_batches_total", "direction=\"sent\"", c.bus_batches_sent);
  sample(out, "campfire_bus_batches_total", "direction=\"received\"", c.bus_batches_received);
  header(out, "campfire_bus_items_total", "counter",
         "Items (requests, frames, answers) on the bus between nodes, by direction.");
  sample(out, "campfire_bus_items_total", "direction=\"sent\"", c.bus_items_sent);
  sample(out, "campfire_bus_items_total", "direction=\"received\"", c.bus_items_received);
  header(out, "campfire_bus_dropped_total", "counter",
         "Bus batches dropped: malformed, or not published for want of a connection to Redis.");
  sample(out, "campfire_bus_dropped_total", "", c.bus_dropped);
  header(out, "campfire_bus_lost_notices_total", "counter",
         "Nodes told that items meant for them were lost (their connections then resync).");
  sample(out, "campfire_bus_lost_notices_total", "", c.bus_lost_told);
  header(out, "campfire_forwarded_requests_total", "counter",
         "Room requests forwarded between nodes: by this node's connections to a room's owner "
         "(out), and from other nodes' connections to rooms here (in).");
  sample(out, "campfire_forwarded_requests_total", "direction=\"out\"", c.requests_forwarded);
  sample(out, "campfire_forwarded_requests_total", "direction=\"in\"", c.requests_served);
  header(out, "campfire_forwarding_connections", "gauge",
         "Open connections here that have sent room requests to another node.");
  sample(out, "campfire_forwarding_connections", "", static_cast<std::uint64_t>(c.forwarding));
  header(out, "campfire_stand_ins", "gauge",
         "Stand-ins here of other nodes' connections that sent requests to this node's rooms.");
  sample(out, "campfire_stand_ins", "", static_cast<std::uint64_t>(c.stand_ins));
}

}  // namespace

std::string Metrics::render(const MetricsSnapshot& snap) const {
  std::string out;
  out.reserve(4096);

  header(out, "campfire_connections", "gauge", "Open TCP connections (HTTP and WebSocket).");
  sample(out, "campfire_connections", "", static_cast<std::uint64_t>(snap.connections));
  header(out, "campfire_websocket_connections", "gauge", "Open WebSocket sessions.");
  sample(out, "campfire_websocket_connections", "", static_cast<std::uint64_t>(snap.websockets));
  header(out, "campfire_connections_accepted_total", "counter",
         "TCP connections accepted since the server started.");
  sample(out, "campfire_connections_accepted_total", "",
         connections_accepted_.load(std::memory_order_relaxed));
  header(out, "campfire_connections_refused_total", "counter",
         "TCP connections refused by the per-address limit.");
  sample(out, "campfire_connections_refused_total", "",
         connections_refused_.load(std::memory_order_relaxed));

  header(out, "campfire_rooms", "gauge", "Rooms by game and status.");
  std::vector<std::string> labels;
  for (const auto& r : snap.rooms) {
    labels.push_back("game=\"" + label_value(r.game) + "\",status=\"" + label_value(r.status) +
                     "\"");
  }
  for (std::size_t i = 0; i < snap.rooms.size(); ++i) {
    sample(out, "campfire_rooms", labels[i], static_cast<std::uint64_t>(snap.rooms[i].rooms));
  }
  header(out, "campfire_rooms_created_total", "counter", "Rooms created since the server started.");
  sample(out, "campfire_rooms_created_total", "", rooms_created_.load(std::memory_order_relaxed));
  header(out, "campfire_frames_written_total", "counter",
         "WebSocket frames written to connections.");
  sample(out, "campfire_frames_written_total", "", frames_written_.load(std::memory_order_relaxed));
  header(out, "campfire_socket_writes_total", "counter",
         "Writes to connections' sockets; the frames a connection owes after one change leave in "
         "one.");
  sample(out, "campfire_socket_writes_total", "", socket_writes_.load(std::memory_order_relaxed));
  header(out, "campfire_players", "gauge",
         "Seats taken by people and by bots, by game and status.");
  for (std::size_t i = 0; i < snap.rooms.size(); ++i) {
    sample(out, "campfire_players", labels[i] + ",kind=\"human\"",
           static_cast<std::uint64_t>(snap.rooms[i].humans));
    sample(out, "campfire_players", labels[i] + ",kind=\"bot\"",
           static_cast<std::uint64_t>(snap.rooms[i].bots));
  }
  header(out, "campfire_spectators", "gauge", "Spectators by game and status.");
  for (std::size_t i = 0; i < snap.rooms.size(); ++i) {
    sample(out, "campfire_spectators", labels[i],
           static_cast<std::uint64_t>(snap.rooms[i].spectators));
  }

  header(out, "campfire_actions_total", "counter",
         "Actions from players' requests applied by rooms (rate() gives actions per second).");
  sample(out, "campfire_actions_total", "", actions());
  header(out, "campfire_actions_last_second", "gauge",
         "Actions from players' requests applied during the last whole second.");
  sample(out, "campfire_actions_last_second", "", actions_last_second());
  header(out, "campfire_action_latency_seconds", "histogram",
         "From an action request reaching its room to every member's new state being queued.");
  action_latency_.render(out, "campfire_action_latency_seconds");

  header(out, "campfire_moves_total", "counter",
         "Moves accepted by rooms, by cause: a player's action, a timed window closing, a turn "
         "timer, a server bot, a bot playing for an away player.");
  for (std::size_t i = 0; i < kMoveCauses; ++i) {
    const auto cause = static_cast<MoveCause>(i);
    sample(out, "campfire_moves_total", std::string("cause=\"") + cause_name(cause) + "\"",
           moves(cause));
  }

  header(out, "campfire_bot_searches", "gauge",
         "Server bots searching for a move right now (on the bot pool, off the rooms' threads).");
  sample(out, "campfire_bot_searches", "",
         static_cast<std::uint64_t>(std::max<std::int64_t>(0, bot_searches())));

  header(out, "campfire_errors_total", "counter", "Error replies sent to clients, by code.");
  {
    std::lock_guard lock(errors_mutex_);
    for (const auto& [code, n] : errors_) {
      sample(out, "campfire_errors_total", "code=\"" + label_value(code) + "\"", n);
    }
  }

  header(out, "campfire_journal_write_seconds", "histogram",
         "Time to commit one batch of journal records (group commit).");
  journal_write_.render(out, "campfire_journal_write_seconds");
  if (snap.cluster) render_cluster(out, *snap.cluster);
  return node_.empty() ? out : with_label(out, "node=\"" + label_value(node_) + "\"");
}

}  // namespace campfire::server
