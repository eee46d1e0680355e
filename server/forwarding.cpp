#include "server/forwarding.hpp"

#include "server/cluster_admin.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <random>
#include <set>

#include "protocol/protocol.hpp"
#include "server/context.hpp"
#include "server/room_client.hpp"

namespace campfire::server {

using cluster::BusItem;
using protocol::ErrorCode;

namespace {

// A forwarded request's mark that its connection asked for no texts.
constexpr std::string_view kNoTexts = "no-texts";

protocol::UpdateMode mode_named(const std::string& name) {
  for (auto mode : {protocol::UpdateMode::kCombined, protocol::UpdateMode::kPatch,
                    protocol::UpdateMode::kDelta}) {
    if (protocol::to_string(mode) == name) return mode;
  }
  return protocol::UpdateMode::kState;
}

}  // namespace

// A connection of another node, as the rooms of this node see it: requests forwarded from that
// node are handled here like a local connection's, and whatever the rooms send it goes back over
// the bus, the frames of one change gathered into one item.
class ForwardedClient final : public RoomClient,
                              public std::enable_shared_from_this<ForwardedClient> {
 public:
  ForwardedClient(ServerContext& ctx, cluster::Bus& bus, std::string node, std::string incarnation,
                  std::uint64_t conn, std::string address)
      : RoomClient(ctx, std::move(address)),
        strand_(boost::asio::make_strand(ctx.ioc)),
        bus_(bus),
        node_(std::move(node)),
        incarnation_(std::move(incarnation)),
        conn_(conn) {}

  // The run of its node that forwarded the connection.
  const std::string& incarnation() const { return incarnation_; }

  UpdateMode updates() const override { return updates_.load(std::memory_order_relaxed); }
  bool texts() const override { return texts_.load(std::memory_order_relaxed); }

  void send(Frame frame) override {
    std::lock_guard lock(mutex_);
    frames_item().frames.push_back(*frame);
    flush_soon();
  }

  // The seat's token goes to the connection's node alone, and before any frame the room sends
  // after entering: the reply to a join must not overtake the membership it gives.
  void entered(const std::string& room, const std::string& token) override {
    {
      std::lock_guard lock(mutex_);
      seat_room_ = room;
      seat_token_ = token;
      BusItem item;
      item.kind = BusItem::Kind::kEntered;
      item.conn = conn_;
      item.room = room;
      item.text = token;
      outgoing_.push_back(std::move(item));
      flush_soon();
    }
    RoomClient::entered(room, token);
  }

  void evicted(const std::string& room) override {
    {
      std::lock_guard lock(mutex_);
      if (seat_room_ == room) let_seat_go();
      BusItem item;
      item.kind = BusItem::Kind::kEvicted;
      item.conn = conn_;
      item.room = room;
      outgoing_.push_back(std::move(item));
      flush_soon();
    }
    RoomClient::evicted(room);
  }

  std::string seat_token(const std::string& room) const override {
    std::lock_guard lock(mutex_);
    return room == seat_room_ ? seat_token_ : std::string();
  }

  // Request number `seq` of the connection: its receipt goes back at once, then it is handled
  // as a local connection's request would be.
  void request(std::int64_t seq, std::string text, std::string name, UpdateMode updates,
               bool texts) {
    {
      std::lock_guard lock(mutex_);
      BusItem& item = frames_item();
      item.number = std::max(item.number, seq);
      flush_soon();
    }
    updates_.store(updates, std::memory_order_relaxed);
    texts_.store(texts, std::memory_order_relaxed);
    boost::asio::post(strand_,
                      [self = shared_from_this(), text = std::move(text),
                       name = std::move(name)]() mutable { self->handle(text, std::move(name)); });
  }

  // The connection left `room` (empty: it closed; its seat waits as after any disconnection).
  void gone(const std::string& room) {
    {
      std::lock_guard lock(mutex_);
      if (room.empty() || room == seat_room_) let_seat_go();
    }
    boost::asio::post(strand_, [self = shared_from_this(), room] {
      if (self->room_code_.empty() || (!room.empty() && room != self->room_code_)) {
        if (room.empty()) self->gone_ = true;
        return;
      }
      if (auto r = self->ctx_.lobby.find(self->room_code_)) {
        if (room.empty()) {
          r->disconnected(self);
        } else {
          r->leave(self, nullptr, false);
        }
      }
      self->room_code_.clear();
      if (room.empty()) self->gone_ = true;
    });
  }

 protected:
  boost::asio::any_io_executor strand() override { return strand_; }
  std::shared_ptr<RoomClient> self() override { return shared_from_this(); }
  bool gone() const override { return gone_; }
  void error(const json& id, ErrorCode code, const std::string& message) override {
    ctx_.metrics.error_sent(protocol::to_string(code));
    send(make_frame(protocol::error_frame(id, code, message)));
  }
  void error(const json& id, const Error& why) override {
    ctx_.metrics.error_sent(why.code);
    send(make_frame(protocol::error_frame(id, why)));
  }
  void after_evicted(const std::string&) override {}

 private:
  void handle(const std::string& text, std::string name) {
    if (gone_) return;
    if (name != name_) {
      const bool renamed = !name_.empty();
      name_ = std::move(name);
      if (renamed && !room_code_.empty()) {
        if (auto room = ctx_.lobby.find(room_code_)) room->rename(shared_from_this(), name_);
      }
    }
    json id;
    auto r = protocol::decode(text, &id);
    if (!r) return error(id, r.error());
    // A forwarded hello only carries a new name (taken above).
    if (r->type == "hello") return;
    auto request = protocol::parse_request(*r);
    if (!request) return error(r->id, request.error());
    // A seat left is the player's no more: a join after it is a new one, as on the room's node.
    if (auto* leave = std::get_if<protocol::Leave>(&*request)) {
      std::lock_guard lock(mutex_);
      if (protocol::normalize_room_code(leave->room) == seat_room_) let_seat_go();
    }
    try {
      std::visit(
          [&](auto& m) {
            using T = std::decay_t<decltype(m)>;
            if constexpr (requires(RoomClient & c, T & t, const json& j) { c.on(t, j); }) {
              on(m, r->id);
            } else {
              error(r->id, ErrorCode::kBadRequest, r->type + " is not a room request");
            }
          },
          *request);
    } catch (const std::exception& e) {
      spdlog::error("{} (via node {}): {} failed: {}", address_, node_, r->type, e.what());
      error(r->id, ErrorCode::kInternal, "the server failed on this request");
    }
  }

  // Under mutex_.
  void let_seat_go() {
    seat_room_.clear();
    seat_token_.clear();
  }

  // The kFrames item at the end of what waits to go (a new one if the last item is another
  // kind, so nothing overtakes what was sent before it). Under mutex_.
  BusItem& frames_item() {
    if (outgoing_.empty() || outgoing_.back().kind != BusItem::Kind::kFrames) {
      BusItem item;
      item.kind = BusItem::Kind::kFrames;
      item.conn = conn_;
      outgoing_.push_back(std::move(item));
    }
    return outgoing_.back();
  }
  // Under mutex_.
  void flush_soon() {
    if (flush_posted_) return;
    flush_posted_ = true;
    boost::asio::post(strand_, [self = shared_from_this()] { self->flush(); });
  }
  void flush() {
    std::vector<BusItem> items;
    {
      std::lock_guard lock(mutex_);
      items.swap(outgoing_);
      flush_posted_ = false;
    }
    for (BusItem& item : items) bus_.send(node_, std::move(item));
  }

  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  cluster::Bus& bus_;
  const std::string node_;
  const std::string incarnation_;
  const std::uint64_t conn_;
  std::atomic<UpdateMode> updates_{UpdateMode::kState};
  std::atomic<bool> texts_{true};
  bool gone_ = false;  // on the strand
  mutable std::mutex mutex_;
  std::vector<BusItem> outgoing_;
  // The room the connection last entered and its seat's token there (empty: it watches), until
  // it leaves that room or loses the seat.
  std::string seat_room_;
  std::string seat_token_;
  bool flush_posted_ = false;
};

Forwarding::Forwarding(ServerContext& ctx)
    : ctx_(ctx), bus_(ctx.cluster->bus()), node_(ctx.cluster->node()) {
  // Connection numbers start at a random point, so a restarted node's numbers are not those a
  // proxy of its earlier run may still hold elsewhere.
  std::random_device rd;
  next_conn_ = (static_cast<std::uint64_t>(rd()) << 32 | rd()) >> 1;
  ctx.cluster->on_bus(
      [this](const cluster::BusSender& from, BusItem item) { receive(from, std::move(item)); });
  ctx.cluster->on_bus_resumed([this, alive = std::weak_ptr<bool>(alive_)] {
    if (alive.expired()) return;
    for (auto& r : remotes()) r->frames_lost("");
    // And what other nodes sent here meanwhile may have been a connection's goodbye.
    std::set<std::string> nodes;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [key, proxy] : proxies_) nodes.insert(key.first);
    }
    for (const std::string& node : nodes) tell_held(node);
  });
}

Forwarding::~Forwarding() {
  ctx_.cluster->on_bus(nullptr);
  clear();
}

std::uint64_t Forwarding::attach(std::weak_ptr<Remote> remote) {
  std::lock_guard lock(mutex_);
  const std::uint64_t conn = ++next_conn_;
  remotes_.emplace(conn, std::move(remote));
  return conn;
}

void Forwarding::detach(std::uint64_t conn) {
  std::lock_guard lock(mutex_);
  remotes_.erase(conn);
  forwards_to_.erase(conn);
  std::erase_if(following_, [&](const auto& f) { return f.second == conn; });
}

void Forwarding::follow(const std::string& room, std::uint64_t conn, bool waiting) {
  std::lock_guard lock(mutex_);
  auto [first, last] = following_.equal_range(room);
  for (auto it = first; it != last; ++it) {
    if (it->second != conn) continue;
    if (!waiting) following_.erase(it);
    return;
  }
  if (waiting) following_.emplace(room, conn);
}

void Forwarding::tell_claimed(const std::string& room) {
  std::vector<std::shared_ptr<Remote>> told;
  {
    std::lock_guard lock(mutex_);
    auto [first, last] = following_.equal_range(room);
    for (auto it = first; it != last; ++it) {
      auto r = remotes_.find(it->second);
      if (r == remotes_.end()) continue;
      if (auto remote = r->second.lock()) told.push_back(std::move(remote));
    }
  }
  for (auto& r : told) r->room_claimed(room);
}

void Forwarding::request(const std::string& node, std::uint64_t conn, std::int64_t seq,
                         const std::string& room, std::string text, const std::string& name,
                         const std::string& address, protocol::UpdateMode updates, bool texts) {
  {
    std::lock_guard lock(mutex_);
    forwards_to_[conn] = node;
    ++requests_forwarded_;
  }
  BusItem item;
  item.kind = BusItem::Kind::kRequest;
  item.conn = conn;
  item.number = seq;
  item.room = room;
  item.text = std::move(text);
  item.name = name;
  item.address = address;
  // What the connection asked for in hello rides in the frames list, which a request does not
  // otherwise use: the updates' name, then whether it reads no words.
  item.frames.emplace_back(protocol::to_string(updates));
  if (!texts) item.frames.emplace_back(kNoTexts);
  bus_.send(node, std::move(item));
}

void Forwarding::gone(const std::string& node, std::uint64_t conn, const std::string& room) {
  BusItem item;
  item.kind = BusItem::Kind::kGone;
  item.conn = conn;
  item.room = room;
  bus_.send(node, std::move(item));
}

std::shared_ptr<Forwarding::Remote> Forwarding::remote(std::uint64_t conn) const {
  std::lock_guard lock(mutex_);
  auto it = remotes_.find(conn);
  return it == remotes_.end() ? nullptr : it->second.lock();
}

std::vector<std::shared_ptr<Forwarding::Remote>> Forwarding::remotes() const {
  std::vector<std::shared_ptr<Remote>> all;
  std::lock_guard lock(mutex_);
  all.reserve(remotes_.size());
  for (const auto& [conn, weak] : remotes_) {
    if (auto r = weak.lock()) all.push_back(std::move(r));
  }
  return all;
}

void Forwarding::receive(const cluster::BusSender& from, BusItem item) {
  switch (item.kind) {
    case BusItem::Kind::kRequest: {
      if (from.node == node_) return;
      std::shared_ptr<ForwardedClient> proxy;
      {
        std::lock_guard lock(mutex_);
        ++requests_served_;
        auto& slot = proxies_[{from.node, item.conn}];
        if (!slot) {
          slot = std::make_shared<ForwardedClient>(ctx_, bus_, from.node, from.incarnation,
                                                   item.conn, item.address);
        }
        proxy = slot;
      }
      const auto mode =
          item.frames.empty() ? protocol::UpdateMode::kState : mode_named(item.frames.front());
      const bool texts = !(item.frames.size() > 1 && item.frames[1] == kNoTexts);
      proxy->request(item.number, std::move(item.text), std::move(item.name), mode, texts);
      return;
    }
    case BusItem::Kind::kGone: {
      std::shared_ptr<ForwardedClient> proxy;
      {
        std::lock_guard lock(mutex_);
        auto it = proxies_.find({from.node, item.conn});
        if (it == proxies_.end()) return;
        proxy = it->second;
        if (item.room.empty()) proxies_.erase(it);
      }
      proxy->gone(item.room);
      return;
    }
    case BusItem::Kind::kFrames:
      if (auto r = remote(item.conn)) {
        r->remote_frames(from.node, item.number, std::move(item.frames));
      }
      return;
    case BusItem::Kind::kEntered:
      if (auto r = remote(item.conn)) {
        r->remote_entered(from.node, item.room, std::move(item.text));
      }
      return;
    case BusItem::Kind::kEvicted:
      if (auto r = remote(item.conn)) r->remote_evicted(from.node, item.room);
      return;
    case BusItem::Kind::kClaimed:
      tell_claimed(item.room);
      return;
    case BusItem::Kind::kLost:
      spdlog::warn("node {} lost frames on their way here: its rooms' members here resync",
                   from.node);
      for (auto& r : remotes()) r->frames_lost(from.node);
      // Among what was lost may be the goodbye of a connection whose stand-in is here.
      tell_held(from.node);
      return;
    case BusItem::Kind::kHeld:
      check_held(from.node, item.frames);
      return;
    case BusItem::Kind::kAsk:
    case BusItem::Kind::kAnswer:
      if (ctx_.admin) ctx_.admin->receive(from, std::move(item));
      return;
    default:
      return;
  }
}

void Forwarding::node_gone(const std::string& node, const std::string& incarnation) {
  // Its connections' seats wait for them as after any disconnection.
  std::vector<std::shared_ptr<ForwardedClient>> gone;
  {
    std::lock_guard lock(mutex_);
    for (auto it = proxies_.begin(); it != proxies_.end();) {
      if (it->first.first == node && it->second->incarnation() == incarnation) {
        gone.push_back(std::move(it->second));
        it = proxies_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (!gone.empty()) {
    spdlog::info("node {} is gone: its {} connections here are disconnected", node, gone.size());
  }
  for (auto& proxy : gone) proxy->gone("");
  for (auto& r : remotes()) r->node_gone(node);
}

void Forwarding::tell_held(const std::string& node) {
  BusItem item;
  item.kind = BusItem::Kind::kHeld;
  {
    std::lock_guard lock(mutex_);
    for (auto it = proxies_.lower_bound({node, 0}); it != proxies_.end() && it->first.first == node;
         ++it) {
      item.frames.push_back(std::to_string(it->first.second));
    }
  }
  if (item.frames.empty()) return;
  bus_.send(node, std::move(item));
}

void Forwarding::check_held(const std::string& node, const std::vector<std::string>& conns) {
  std::vector<std::uint64_t> gone;
  {
    std::lock_guard lock(mutex_);
    for (const std::string& text : conns) {
      std::uint64_t conn = 0;
      try {
        conn = std::stoull(text);
      } catch (const std::exception&) {
        continue;
      }
      auto it = forwards_to_.find(conn);
      if (!remotes_.count(conn) || it == forwards_to_.end() || it->second != node) {
        gone.push_back(conn);
      }
    }
  }
  if (!gone.empty()) {
    spdlog::info("node {} held {} stand-ins of connections gone from here: it lets them go", node,
                 gone.size());
  }
  for (std::uint64_t conn : gone) this->gone(node, conn, "");
}

void Forwarding::claimed(const std::string& room) {
  BusItem item;
  item.kind = BusItem::Kind::kClaimed;
  item.room = room;
  bus_.send("", std::move(item));
  tell_claimed(room);
}

Forwarding::Stats Forwarding::stats() const {
  std::lock_guard lock(mutex_);
  return {requests_forwarded_, requests_served_, forwards_to_.size(), proxies_.size()};
}

void Forwarding::clear() {
  std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<ForwardedClient>> proxies;
  std::lock_guard lock(mutex_);
  proxies.swap(proxies_);
}

}  // namespace campfire::server
