#include "server/cluster/bus.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <mutex>

#include "server/cluster/keys.hpp"

namespace campfire::server::cluster {

namespace {

constexpr std::uint8_t kWireVersion = 1;
// Generous bounds a sane batch never reaches; anything beyond is refused as malformed.
constexpr std::uint32_t kMaxItems = 1u << 20;
constexpr std::uint32_t kMaxString = 64u << 20;

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    out_.append(s.data(), s.size());
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  bool ok() const { return ok_; }
  bool done() const { return pos_ == in_.size(); }
  std::uint8_t u8() {
    if (!need(1)) return 0;
    return static_cast<std::uint8_t>(in_[pos_++]);
  }
  std::uint32_t u32() {
    if (!need(4)) return 0;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
      v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(in_[pos_ + i])) << (8 * i);
    pos_ += 4;
    return v;
  }
  std::uint64_t u64() {
    if (!need(8)) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(in_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  std::string str() {
    const std::uint32_t n = u32();
    if (n > kMaxString || !need(n)) {
      ok_ = false;
      return {};
    }
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }

 private:
  bool need(std::size_t n) {
    if (!ok_ || in_.size() - pos_ < n) {
      ok_ = false;
      return false;
    }
    return true;
  }
  std::string_view in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace

std::string encode_batch(const BusSender& from, const std::vector<BusItem>& items) {
  Writer w;
  w.u8(kWireVersion);
  w.str(from.node);
  w.str(from.incarnation);
  w.u32(static_cast<std::uint32_t>(items.size()));
  for (const BusItem& item : items) {
    w.u8(static_cast<std::uint8_t>(item.kind));
    w.u64(item.conn);
    w.u64(static_cast<std::uint64_t>(item.number));
    w.u8(item.flag ? 1 : 0);
    w.str(item.room);
    w.str(item.text);
    w.str(item.name);
    w.str(item.address);
    w.u32(static_cast<std::uint32_t>(item.frames.size()));
    for (const auto& f : item.frames) w.str(f);
  }
  return w.take();
}

std::optional<std::pair<BusSender, std::vector<BusItem>>> decode_batch(std::string_view bytes) {
  Reader r(bytes);
  if (r.u8() != kWireVersion) return std::nullopt;
  BusSender from;
  from.node = r.str();
  from.incarnation = r.str();
  const std::uint32_t count = r.u32();
  if (!r.ok() || count > kMaxItems) return std::nullopt;
  std::vector<BusItem> items;
  items.reserve(std::min<std::uint32_t>(count, 1024));
  for (std::uint32_t i = 0; i < count && r.ok(); ++i) {
    BusItem item;
    const std::uint8_t kind = r.u8();
    if (kind == 0 || kind >= static_cast<std::uint8_t>(BusItem::Kind::kCount)) return std::nullopt;
    item.kind = static_cast<BusItem::Kind>(kind);
    item.conn = r.u64();
    item.number = static_cast<std::int64_t>(r.u64());
    const std::uint8_t flag = r.u8();
    if (flag > 1) return std::nullopt;
    item.flag = flag == 1;
    item.room = r.str();
    item.text = r.str();
    item.name = r.str();
    item.address = r.str();
    const std::uint32_t frames = r.u32();
    if (frames > kMaxItems) return std::nullopt;
    for (std::uint32_t f = 0; f < frames && r.ok(); ++f) item.frames.push_back(r.str());
    items.push_back(std::move(item));
  }
  if (!r.ok() || !r.done()) return std::nullopt;
  return std::make_pair(std::move(from), std::move(items));
}

Bus::Bus(RedisLink& link, std::string node, Receive receive)
    : link_(link), node_(std::move(node)), receive_(std::move(receive)) {
  auto handler = [this](std::string_view, std::string_view message) {
    auto batch = decode_batch(message);
    if (!batch) {
      std::lock_guard lock(mutex_);
      ++stats_.dropped;
      spdlog::warn("bus: a malformed message of {} bytes was dropped", message.size());
      return;
    }
    {
      std::lock_guard lock(mutex_);
      // A node hears its own messages to everyone: they are not for it.
      if (batch->first.node == node_ && batch->first.incarnation == incarnation_) return;
      ++stats_.batches_received;
      stats_.items_received += batch->second.size();
    }
    for (BusItem& item : batch->second) receive_(batch->first, std::move(item));
  };
  link_.subscribe(keys::bus(node_), handler);
  link_.subscribe(keys::bus_all(), handler);
}

void Bus::set_incarnation(std::string incarnation) {
  std::lock_guard lock(mutex_);
  incarnation_ = std::move(incarnation);
}

void Bus::send(const std::string& node, BusItem item) {
  {
    std::lock_guard lock(mutex_);
    if (pending_.empty() || pending_.back().first != node)
      pending_.emplace_back(node, std::vector<BusItem>());
    pending_.back().second.push_back(std::move(item));
    if (flush_posted_) return;
    flush_posted_ = true;
  }
  asio::post(link_.strand(), [this] { flush(); });
}

namespace {
// How soon a node that lost items is told, and told again while the link cannot publish.
constexpr std::chrono::milliseconds kLostRetry{250};
// Notices that reached no subscriber before the notice is given up (about 5 s): a node
// resubscribing hears a later one, a node that is gone never will.
constexpr int kLostUnheard = 20;
}  // namespace

void Bus::flush() {
  std::vector<std::pair<std::string, std::vector<BusItem>>> batches;
  std::map<std::string, int> notices;
  BusSender from;
  {
    std::lock_guard lock(mutex_);
    batches.swap(pending_);
    notices.swap(lost_to_);
    flush_posted_ = false;
    from = {node_, incarnation_};
    // A node that lost items hears so before anything newer: it then asks for whole states.
    for (const auto& [node, unheard] : notices) {
      BusItem item;
      item.kind = BusItem::Kind::kLost;
      batches.insert(batches.begin(), {node, std::vector<BusItem>{std::move(item)}});
      ++stats_.lost_told;
    }
    stats_.batches_sent += batches.size();
    for (const auto& [node, items] : batches) stats_.items_sent += items.size();
  }
  for (const auto& [node, items] : batches) {
    const std::string channel = node.empty() ? keys::bus_all() : keys::bus(node);
    const bool notice = items.size() == 1 && items.front().kind == BusItem::Kind::kLost;
    const int unheard = notice ? notices[node] : 0;
    link_.command({"PUBLISH", channel, encode_batch(from, items)},
                  [this, node, notice, unheard](Reply r) {
                    if (r.error()) return lost(node, unheard, true);
                    // PUBLISH answers how many subscribers heard it.
                    if (notice && r.integer == 0 && unheard + 1 < kLostUnheard) {
                      lost(node, unheard + 1, false);
                    }
                  });
  }
}

void Bus::lost(const std::string& node, int unheard, bool failed) {
  {
    std::lock_guard lock(mutex_);
    if (failed) ++stats_.dropped;
    // Items for every node are not owed a notice: a connection following a moved room looks
    // for it again on its own timer, and an admin question that got no answer says so.
    if (node.empty()) return;
    int& count = lost_to_[node];
    count = std::max(count, unheard);
    if (lost_retry_armed_) return;
    lost_retry_armed_ = true;
  }
  auto timer = std::make_shared<asio::steady_timer>(link_.ioc(), kLostRetry);
  timer->async_wait([this, timer](const boost::system::error_code& ec) {
    if (ec) return;
    {
      std::lock_guard lock(mutex_);
      lost_retry_armed_ = false;
      if (flush_posted_) return;
      flush_posted_ = true;
    }
    asio::post(link_.strand(), [this] { flush(); });
  });
}

Bus::Stats Bus::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace campfire::server::cluster
