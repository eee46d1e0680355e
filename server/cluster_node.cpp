#include "server/cluster_node.hpp"

#include <spdlog/spdlog.h>

#include <set>
#include <stdexcept>

#include "server/cluster/keys.hpp"
#include "server/room.hpp"

namespace campfire::server {

namespace {

using cluster::Reply;

// A code is reserved this long before its room's creation record must have made it the room's
// own; far longer than a creation takes.
constexpr std::chrono::milliseconds kCodeReservation{60000};

cluster::RedisUrl url_of(const Config& config) {
  std::string why;
  auto url = cluster::parse_redis_url(config.cluster, &why);
  if (!url) throw std::runtime_error("--cluster: " + why);
  return *url;
}

}  // namespace

ClusterNode::ClusterNode(const Config& config) : config_(config), node_(config.node_id) {
  cluster::RedisLink::Options o;
  o.url = url_of(config);
  o.node = node_;
  link_ = std::make_unique<cluster::RedisLink>(o);
  // The bus subscribes before the link connects.
  bus_ = std::make_unique<cluster::Bus>(
      *link_, node_, [this](const cluster::BusSender& from, cluster::BusItem item) {
        std::lock_guard lock(receive_mutex_);
        if (receive_) receive_(from, std::move(item));
      });
  try {
    link_->start(std::chrono::seconds(5));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("the cluster's redis cannot be reached: ") + e.what());
  }
}

ClusterNode::~ClusterNode() {
  on_bus(nullptr);
  stop(false);
  link_->stop();
}

std::unique_ptr<Journal> ClusterNode::make_journal() {
  return std::make_unique<cluster::RedisJournal>(
      *link_, [this](const std::string& code) -> std::optional<cluster::Fence> {
        if (!directory_) return std::nullopt;
        return directory_->fence(code);
      });
}

void ClusterNode::start(std::string advertise, cluster::Directory::Callbacks callbacks) {
  cluster::Directory::Options o;
  o.node = node_;
  o.lease = std::chrono::milliseconds(config_.cluster_lease_ms);
  o.advertise = std::move(advertise);
  callbacks.new_incarnation = [bus = bus_.get()](const std::string& incarnation) {
    bus->set_incarnation(incarnation);
  };
  directory_ = std::make_unique<cluster::Directory>(*link_, std::move(o), std::move(callbacks));
  directory_->start();
  bus_->set_incarnation(directory_->incarnation());
}

void ClusterNode::on_bus(cluster::Bus::Receive receive) {
  std::lock_guard lock(receive_mutex_);
  receive_ = std::move(receive);
}

void ClusterNode::stop(bool release) {
  if (directory_) directory_->stop(release);
}

void ClusterNode::disconnect() {
  if (directory_) {
    directory_->stop(false);
    directory_.reset();
  }
  link_->stop();
}

void ClusterNode::claim_code(const std::string& code,
                             std::function<void(bool, const std::string&)> done) {
  if (!directory_ || !directory_->acting()) {
    return done(false,
                "this node cannot make rooms now: it has lost contact with the cluster's store");
  }
  // One script reserves the code unless a room of that code is journalled or another node
  // reserved it first; the reservation expires if the room is never created.
  link_->script(cluster::Script::kReserve, {code, node_, std::to_string(kCodeReservation.count())},
                [this, code, done = std::move(done)](Reply reserved) {
                  if (reserved.error()) {
                    return done(false,
                                "cannot reserve a room code in redis: " + reserved.describe());
                  }
                  if (reserved.integer != 1) return done(false, "");
                  directory_->adopt_new(code);
                  done(true, "");
                });
}

std::vector<std::string> ClusterNode::live_nodes() const {
  return directory_ ? directory_->live_nodes() : std::vector<std::string>{node_};
}

bool ClusterNode::owns(const std::string& code) const {
  return directory_ && directory_->fence(code).has_value();
}

void ClusterNode::locate(const std::string& code, Located done) {
  // Three short questions in a row on the command connection, none of which blocks a thread:
  // the room's owner, whether that owner's lease is alive, and the address it advertises.
  auto shared = std::make_shared<Located>(std::move(done));
  link_->command({"HGET", cluster::keys::room(code), "owner"}, [this, shared](Reply owner) {
    if (owner.error()) {
      Whereabouts unknown;
      unknown.unknown = true;
      return (*shared)(unknown);
    }
    if (owner.nil()) return (*shared)(std::nullopt);
    const auto slash = owner.str.rfind('/');
    if (slash == std::string::npos) return (*shared)(std::nullopt);
    auto w = std::make_shared<Whereabouts>();
    w->node = owner.str.substr(0, slash);
    w->mine = w->node == node_;
    const std::string incarnation = owner.str.substr(slash + 1);
    link_->command({"GET", cluster::keys::node_lease(w->node)}, [w, incarnation](Reply lease) {
      w->alive = !lease.error() && !lease.nil() && lease.str == incarnation;
    });
    link_->command({"HGET", cluster::keys::nodes(), w->node}, [w, shared](Reply about) {
      if (!about.error() && !about.nil()) {
        const json j = json::parse(about.str, nullptr, false);
        if (j.is_object()) w->advertise = j.value("advertise", std::string());
      }
      (*shared)(*w);
    });
  });
}

void ClusterNode::publish(const std::vector<RoomSummary>& rooms) {
  if (!directory_ || !directory_->acting()) return;
  cluster::Connection::Args set = {"HSET", cluster::keys::summaries()};
  std::set<std::string> here;
  for (const RoomSummary& s : rooms) {
    if (!owns(s.code)) continue;
    here.insert(s.code);
    std::string text = json{
        {"room", s.code},
        {"game", s.game},
        {"seats", s.seats},
        {"taken", s.taken},
        {"status", status_name(s.status)},
        {"spectators", s.spectators},
        {"options", s.options.to_json()},
        {"listed", s.listed},
        {"node", node_}}.dump();
    auto& last = published_[s.code];
    if (last == text) continue;
    last = text;
    set.push_back(s.code);
    set.push_back(std::move(text));
  }
  std::vector<std::string> gone;
  for (auto it = published_.begin(); it != published_.end();) {
    if (here.count(it->first)) {
      ++it;
      continue;
    }
    gone.push_back(it->first);
    it = published_.erase(it);
  }
  if (set.size() > 2) {
    link_->command(std::move(set), [](Reply r) {
      if (r.error()) spdlog::warn("cluster: the room list could not be written: {}", r.describe());
    });
  }
  // A room dropped here (finished, abandoned, closed; its last record was written when it was
  // dropped, well before this) leaves the list and is claimed by nobody. The script leaves a
  // room another node owns now alone.
  for (const std::string& code : gone) directory_->release(code);
}

namespace {

json listed_rooms(const Reply& all) {
  json list = json::array();
  for (const Reply& text : all.elements) {
    json s = json::parse(text.str, nullptr, false);
    if (!s.is_object() || !s.value("listed", false) || s.value("status", "") == "over") continue;
    s.erase("listed");
    list.push_back(std::move(s));
  }
  return list;
}

}  // namespace

void ClusterNode::list_rooms(std::function<void(std::optional<json>)> done) {
  link_->command({"HVALS", cluster::keys::summaries()}, [done = std::move(done)](Reply all) {
    if (all.error()) return done(std::nullopt);
    done(listed_rooms(all));
  });
}

}  // namespace campfire::server
