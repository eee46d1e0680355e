#include "server/cluster/redis_journal.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <future>
#include <map>
#include <set>

#include "server/cluster/keys.hpp"

namespace campfire::server::cluster {

namespace {

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

const char* kind_name(Journal::Record::Kind kind) {
  switch (kind) {
    case Journal::Record::Kind::kCreate:
      return "create";
    case Journal::Record::Kind::kSeat:
      return "seat";
    case Journal::Record::Kind::kFreeSeat:
      return "free";
    case Journal::Record::Kind::kAction:
      return "action";
    case Journal::Record::Kind::kStatus:
      return "status";
    case Journal::Record::Kind::kVersion:
      return "version";
    case Journal::Record::Kind::kRemove:
      return "remove";
  }
  return "?";
}

// The script's arguments for one record (see scripts.hpp). Built once: a record sent again is
// byte for byte the same, which is what makes the writes idempotent.
Connection::Args arguments(const Journal::Record& r, const Fence& fence) {
  Connection::Args a = {
      kind_name(r.kind),        r.code, fence.node, fence.incarnation, std::to_string(fence.epoch),
      std::to_string(r.version)};
  switch (r.kind) {
    case Journal::Record::Kind::kCreate: {
      const StoredRoom& room = r.room;
      a[5] = std::to_string(room.version);
      for (std::string v :
           {std::string("game"), room.game, std::string("seats"), std::to_string(room.seats),
            std::string("options"), dump(room.options), std::string("seed"),
            std::to_string(room.seed), std::string("listed"), std::string(room.listed ? "1" : "0"),
            std::string("settings"), dump(room.settings), std::string("status"), room.status,
            std::string("version"), std::to_string(room.version), std::string("created_ms"),
            std::to_string(room.created_ms)}) {
        a.push_back(std::move(v));
      }
      if (!room.deck_order.is_null()) {
        a.push_back("deck_order");
        a.push_back(dump(room.deck_order));
      }
      if (!room.fairness.is_null()) {
        a.push_back("fairness");
        a.push_back(dump(room.fairness));
      }
      break;
    }
    case Journal::Record::Kind::kSeat: {
      a.push_back(std::to_string(r.seat.seat));
      json seat = {{"name", r.seat.name},
                   {"tokenHash", r.seat.token_hash},
                   {"bot", r.seat.bot},
                   {"names", names_json(r.seat.names)}};
      if (!r.seat.entropy.empty()) seat["entropy"] = r.seat.entropy;
      a.push_back(dump(seat));
      break;
    }
    case Journal::Record::Kind::kFreeSeat:
      a.push_back(std::to_string(r.seat.seat));
      break;
    case Journal::Record::Kind::kAction:
      a.push_back(std::to_string(r.index));
      a.push_back(dump({{"seat", r.action.seat},
                        {"action", r.action.action},
                        {"at", r.action.at_ms},
                        {"version", r.version}}));
      break;
    case Journal::Record::Kind::kStatus: {
      a.push_back(r.status);
      a.push_back(r.result.is_null() ? std::string() : dump(r.result));
      const bool finished = r.status == "over" || r.status == "abandoned";
      a.push_back(finished ? std::to_string(now_ms()) : std::string());
      break;
    }
    case Journal::Record::Kind::kVersion:
    case Journal::Record::Kind::kRemove:
      break;
  }
  return a;
}

// A flat HGETALL reply as field -> value.
std::map<std::string, std::string> fields_of(const Reply& r) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i + 1 < r.elements.size(); i += 2) {
    out[r.elements[i].str] = r.elements[i + 1].str;
  }
  return out;
}

}  // namespace

struct RedisJournal::Entry {
  std::string code;
  Connection::Args args;
  Done done;
  bool sent = false;
  bool completed = false;
  bool ok = false;
  std::uint64_t attempt = 0;
  std::chrono::steady_clock::time_point queued_at;
};

RedisJournal::RedisJournal(RedisLink& link, FenceOf fence_of)
    : link_(link),
      fence_of_(std::move(fence_of)),
      resend_timer_(std::make_unique<asio::steady_timer>(link.strand())) {}

RedisJournal::~RedisJournal() {
  flush_for(std::chrono::seconds(2));
  // The timer belongs to the link's strand: cancel it there.
  std::promise<void> gone;
  auto done = gone.get_future();
  asio::post(link_.strand(), [&] {
    resend_timer_->cancel();
    // Answers still on their way find the journal gone: their records fail.
    *alive_ = false;
    gone.set_value();
  });
  if (done.wait_for(std::chrono::seconds(2)) != std::future_status::ready) return;
}

void RedisJournal::write(Record record, Done done) {
  auto fence = fence_of_ ? fence_of_(record.code) : std::nullopt;
  if (!fence) {
    spdlog::error("journal: room {} is not this node's; record refused", record.code);
    if (done) done(false);
    return;
  }
  // A room object names the ownership it was built under: Redis refuses it once that is not
  // the room's ownership any more, even if this node owns the room again since.
  if (record.epoch != 0) fence->epoch = record.epoch;
  write(std::move(record), *fence, std::move(done));
}

void RedisJournal::write(Record record, const Fence& fence, Done done) {
  auto e = std::make_shared<Entry>();
  e->code = record.code;
  e->args = arguments(record, fence);
  e->done = std::move(done);
  e->queued_at = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    ++waiting_;
  }
  asio::post(link_.strand(), [this, e = std::move(e)]() mutable { enqueue(std::move(e)); });
}

void RedisJournal::enqueue(std::shared_ptr<Entry> e) {
  queue_.push_back(e);
  // Nothing may overtake a record still waiting to be sent again.
  if (unsent_ == 0 && link_.up()) {
    send(e);
  } else {
    ++unsent_;
    resend_later();
  }
}

void RedisJournal::send(const std::shared_ptr<Entry>& e) {
  e->sent = true;
  e->attempt = ++attempts_;
  link_.script(Script::kJournal, e->args, [this, alive = alive_, e, attempt = e->attempt](Reply r) {
    if (!*alive) {
      if (!e->completed && e->done) e->done(false);
      e->completed = true;
      return;
    }
    answered(e, attempt, std::move(r));
  });
}

void RedisJournal::answered(const std::shared_ptr<Entry>& e, std::uint64_t attempt, Reply r) {
  if (e->completed || attempt != e->attempt) return;
  if (r.failed()) {
    // No answer: the connection broke. Sent again, with everything after it, once it is back.
    e->sent = false;
    ++unsent_;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_complaint_ > std::chrono::seconds(5)) {
      last_complaint_ = now;
      spdlog::warn("journal: redis did not answer ({}); rooms wait until it does", r.str);
    }
    resend_later();
    return;
  }
  e->completed = true;
  e->ok = r.type != Reply::Type::kError;
  if (!e->ok) spdlog::error("journal: room {}: {} refused: {}", e->code, e->args[0], r.str);
  complete_front();
}

void RedisJournal::complete_front() {
  std::size_t completed = 0;
  std::size_t failed = 0;
  while (!queue_.empty() && queue_.front()->completed) {
    auto e = std::move(queue_.front());
    queue_.pop_front();
    if (on_commit) {
      on_commit(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - e->queued_at),
                1);
    }
    if (e->done) e->done(e->ok);
    ++completed;
    failed += e->ok ? 0 : 1;
  }
  if (completed == 0) return;
  {
    std::lock_guard lock(mutex_);
    waiting_ -= completed;
    stats_.records += completed;
    stats_.commits += completed;
    stats_.failures += failed;
  }
  idle_.notify_all();
}

void RedisJournal::resend_later() {
  if (resend_armed_) return;
  resend_armed_ = true;
  resend_timer_->expires_after(std::chrono::milliseconds(50));
  resend_timer_->async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!*alive) return;
    resend_armed_ = false;
    if (ec) return;
    resend();
  });
}

void RedisJournal::resend() {
  if (unsent_ == 0) return;
  if (!link_.up()) return resend_later();
  unsent_ = 0;
  for (const auto& e : queue_) {
    if (!e->completed && !e->sent) send(e);
  }
}

void RedisJournal::abandon(const std::string& code) {
  asio::post(link_.strand(), [this, code] {
    std::size_t unsent = 0;
    for (const auto& e : queue_) {
      if (e->code == code && !e->completed) {
        e->completed = true;
        e->ok = false;
      }
      if (!e->completed && !e->sent) ++unsent;
    }
    unsent_ = unsent;
    complete_front();
  });
}

void RedisJournal::flush() {
  if (!flush_for(std::chrono::seconds(10))) {
    spdlog::error("journal: {} records were not answered by redis in time", backlog());
  }
}

bool RedisJournal::flush_for(std::chrono::milliseconds patience) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, patience, [&] { return waiting_ == 0; });
}

std::size_t RedisJournal::backlog() const {
  std::lock_guard lock(mutex_);
  return waiting_;
}

Journal::Stats RedisJournal::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::optional<StoredRoom> RedisJournal::load(const std::string& code) {
  const Reply r = link_.call_script(Script::kLoad, {code});
  if (r.error()) {
    spdlog::error("journal: cannot load room {}: {}", code, r.describe());
    return std::nullopt;
  }
  if (r.type != Reply::Type::kArray || r.elements.size() != 3 || r.elements[0].elements.empty()) {
    return std::nullopt;
  }
  auto f = fields_of(r.elements[0]);
  StoredRoom room;
  try {
    room.code = code;
    room.game = f.at("game");
    room.seats = std::stoi(f.at("seats"));
    room.options = json::parse(f.at("options"));
    room.seed = std::stoull(f.at("seed"));
    room.deck_order = f.count("deck_order") ? json::parse(f["deck_order"]) : json(nullptr);
    room.fairness = f.count("fairness") ? json::parse(f["fairness"]) : json(nullptr);
    room.listed = f.at("listed") == "1";
    room.settings = json::parse(f.at("settings"));
    room.status = f.at("status");
    room.version = std::stoll(f.at("version"));
    room.created_ms = std::stoll(f.at("created_ms"));
    room.finished_ms = f.count("finished_ms") ? std::stoll(f["finished_ms"]) : 0;
    room.result = f.count("result") ? json::parse(f["result"]) : json(nullptr);
    for (const auto& [seat, text] : fields_of(r.elements[1])) {
      const json s = json::parse(text);
      room.seat_list.push_back(
          {std::stoi(seat), s.at("name").get<std::string>(), s.at("tokenHash").get<std::string>(),
           s.at("bot").get<std::string>(), names_from_json(s.value("names", json())),
           s.value("entropy", std::string())});
    }
    std::sort(room.seat_list.begin(), room.seat_list.end(),
              [](const StoredSeat& a, const StoredSeat& b) { return a.seat < b.seat; });
    for (const Reply& entry : r.elements[2].elements) {
      const json a = json::parse(entry.str);
      room.log.push_back({a.at("seat").get<int>(), a.at("action"), a.at("at").get<std::int64_t>()});
      room.version = std::max(room.version, a.at("version").get<long long>());
    }
  } catch (const std::exception& e) {
    spdlog::error("journal: room {} is unreadable: {}", code, e.what());
    return std::nullopt;
  }
  return room;
}

std::vector<StoredRoom> RedisJournal::live(std::int64_t finished_since_ms) {
  std::set<std::string> codes;
  const Reply unfinished = link_.call({"SMEMBERS", keys::live()});
  for (const Reply& c : unfinished.elements) codes.insert(c.str);
  const Reply recent =
      link_.call({"ZRANGEBYSCORE", keys::finished(), std::to_string(finished_since_ms), "+inf"});
  for (const Reply& c : recent.elements) codes.insert(c.str);
  std::vector<StoredRoom> rooms;
  for (const auto& code : codes) {
    if (auto r = load(code)) rooms.push_back(std::move(*r));
  }
  std::sort(rooms.begin(), rooms.end(),
            [](const StoredRoom& a, const StoredRoom& b) { return a.created_ms < b.created_ms; });
  return rooms;
}

bool RedisJournal::has(const std::string& code) {
  const Reply r = link_.call({"EXISTS", keys::room(code)});
  if (r.error()) spdlog::warn("journal: cannot check room code {}: {}", code, r.describe());
  return r.type == Reply::Type::kInteger && r.integer == 1;
}

namespace {

// How many replays the prune script deleted, 0 (and a warning) when it failed.
std::size_t pruned(const Reply& r) {
  if (r.error()) {
    spdlog::warn("journal: pruning old replays failed: {}", r.describe());
    return 0;
  }
  return static_cast<std::size_t>(r.integer);
}

}  // namespace

std::size_t RedisJournal::prune(std::int64_t before_ms) {
  return pruned(link_.call_script(Script::kPrune, {std::to_string(before_ms), "1000"}));
}

void RedisJournal::prune_soon(std::int64_t before_ms, std::function<void(std::size_t)> done) {
  link_.script(Script::kPrune, {std::to_string(before_ms), "1000"},
               [done = std::move(done)](Reply r) { done(pruned(r)); });
}

}  // namespace campfire::server::cluster
