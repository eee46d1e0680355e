#include "server/cluster_admin.hpp"

#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/messages.hpp"
#include "server/context.hpp"
#include "server/forwarding.hpp"

namespace campfire::server {

using cluster::BusItem;

// A question on its way: the answer's callback and the timer that gives up on it.
struct ClusterAdmin::Pending {
  std::function<void(std::optional<json>)> done;
  std::unique_ptr<boost::asio::steady_timer> timer;
};

ClusterAdmin::ClusterAdmin(ServerContext& ctx, std::chrono::milliseconds patience)
    : ctx_(ctx), patience_(patience) {}

ClusterAdmin::~ClusterAdmin() {
  std::lock_guard lock(mutex_);
  *alive_ = false;
  for (auto& [id, p] : pending_) p->timer->cancel();
  pending_.clear();
}

void ClusterAdmin::ask(const std::string& node, const json& question,
                       std::function<void(std::optional<json>)> done) {
  auto pending = std::make_shared<Pending>();
  pending->done = std::move(done);
  pending->timer = std::make_unique<boost::asio::steady_timer>(ctx_.ioc, patience_);
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    pending_[id] = pending;
  }
  // Whichever comes first, the answer or the time, takes the question off the list.
  pending->timer->async_wait([this, id, alive = alive_](const boost::system::error_code& ec) {
    if (ec) return;
    std::shared_ptr<Pending> p;
    {
      std::lock_guard lock(mutex_);
      if (!*alive) return;
      auto it = pending_.find(id);
      if (it == pending_.end()) return;
      p = std::move(it->second);
      pending_.erase(it);
    }
    p->done(std::nullopt);
  });
  BusItem item;
  item.kind = BusItem::Kind::kAsk;
  item.number = id;
  item.text = question.dump();
  ctx_.cluster->bus().send(node, std::move(item));
}

void ClusterAdmin::ask_all(
    const json& question, std::function<void(std::map<std::string, std::optional<json>>)> done) {
  std::vector<std::string> others = ctx_.cluster->live_nodes();
  std::erase(others, ctx_.cluster->node());
  struct Gather {
    std::mutex mutex;
    std::map<std::string, std::optional<json>> answers;
    std::size_t left = 0;
    std::function<void(std::map<std::string, std::optional<json>>)> done;
  };
  auto gather = std::make_shared<Gather>();
  gather->left = others.size();
  gather->done = std::move(done);
  if (others.empty()) return gather->done({});
  for (const std::string& node : others) {
    ask(node, question, [gather, node](std::optional<json> answer) {
      std::map<std::string, std::optional<json>> all;
      {
        std::lock_guard lock(gather->mutex);
        gather->answers[node] = std::move(answer);
        if (--gather->left > 0) return;
        all = std::move(gather->answers);
      }
      gather->done(std::move(all));
    });
  }
}

void ClusterAdmin::rooms(Rooms done) {
  struct Both {
    std::mutex mutex;
    json rooms = json::array();
    std::vector<std::string> unanswered;
    int left = 2;
    Rooms done;
  };
  auto both = std::make_shared<Both>();
  both->done = std::move(done);
  auto finish = [both](json some, std::vector<std::string> unanswered) {
    json all;
    {
      std::lock_guard lock(both->mutex);
      for (auto& r : some) both->rooms.push_back(std::move(r));
      both->unanswered.insert(both->unanswered.end(), unanswered.begin(), unanswered.end());
      if (--both->left > 0) return;
      all = std::move(both->rooms);
    }
    std::sort(all.begin(), all.end(),
              [](const json& a, const json& b) { return a["room"] < b["room"]; });
    std::sort(both->unanswered.begin(), both->unanswered.end());
    both->done(std::move(all), std::move(both->unanswered));
  };
  const std::string here = ctx_.cluster->node();
  ctx_.describe_rooms([finish, here](json rooms) {
    for (auto& r : rooms) r["node"] = here;
    finish(std::move(rooms), {});
  });
  ask_all({{"ask", "rooms"}}, [finish](std::map<std::string, std::optional<json>> answers) {
    json rooms = json::array();
    std::vector<std::string> unanswered;
    for (auto& [node, answer] : answers) {
      if (!answer || !answer->contains("rooms") || !(*answer)["rooms"].is_array()) {
        unanswered.push_back(node);
        continue;
      }
      for (auto& r : (*answer)["rooms"]) {
        r["node"] = node;
        rooms.push_back(std::move(r));
      }
    }
    finish(std::move(rooms), std::move(unanswered));
  });
}

void ClusterAdmin::close(const std::string& code, const std::string& reason,
                         std::function<void(Closed)> done) {
  if (ctx_.lobby.close(code, reason)) return done(Closed::kClosed);
  ctx_.cluster->locate(code, [this, code, reason, done = std::move(done)](
                                 std::optional<ClusterNode::Whereabouts> where) {
    if (!where) return done(Closed::kNoSuchRoom);
    if (where->unknown || !where->alive || where->node == ctx_.cluster->node()) {
      return done(Closed::kUnavailable);
    }
    ask(where->node, {{"ask", "close"}, {"room", code}, {"reason", reason}},
        [done](std::optional<json> answer) {
          if (!answer || !answer->contains("closed")) return done(Closed::kUnavailable);
          done((*answer)["closed"] == true ? Closed::kClosed : Closed::kNoSuchRoom);
        });
  });
}

void ClusterAdmin::notice(
    const std::string& text,
    std::function<void(std::size_t sent, std::vector<std::string> unanswered)> done) {
  const std::size_t here =
      ctx_.broadcast(make_frame(protocol::message::notice("operator", text).dump()));
  ask_all({{"ask", "notice"}, {"text", text}},
          [here, done = std::move(done)](std::map<std::string, std::optional<json>> answers) {
            std::size_t sent = here;
            std::vector<std::string> unanswered;
            for (const auto& [node, answer] : answers) {
              if (answer && answer->contains("sent") && (*answer)["sent"].is_number_unsigned()) {
                sent += (*answer)["sent"].get<std::size_t>();
              } else {
                unanswered.push_back(node);
              }
            }
            done(sent, std::move(unanswered));
          });
}

void ClusterAdmin::receive(const cluster::BusSender& from, BusItem item) {
  if (item.kind == BusItem::Kind::kAnswer) {
    std::shared_ptr<Pending> p;
    {
      std::lock_guard lock(mutex_);
      auto it = pending_.find(item.number);
      if (it == pending_.end()) return;  // given up on already
      p = std::move(it->second);
      pending_.erase(it);
    }
    p->timer->cancel();
    json answer = json::parse(item.text, nullptr, false);
    if (answer.is_discarded()) return p->done(std::nullopt);
    return p->done(std::move(answer));
  }
  if (item.kind != BusItem::Kind::kAsk) return;
  json question = json::parse(item.text, nullptr, false);
  if (question.is_discarded() || !question.is_object()) {
    spdlog::warn("cluster: a malformed question from node {}", from.node);
    return;
  }
  answer(from, item.number, question);
}

void ClusterAdmin::answer(const cluster::BusSender& from, std::int64_t id, const json& question) {
  auto reply = [this, node = from.node, id](const json& answer) {
    BusItem item;
    item.kind = BusItem::Kind::kAnswer;
    item.number = id;
    item.text = answer.dump();
    ctx_.cluster->bus().send(node, std::move(item));
  };
  const std::string ask = question.value("ask", "");
  if (ask == "rooms") {
    return ctx_.describe_rooms([reply](json rooms) { reply({{"rooms", std::move(rooms)}}); });
  }
  if (ask == "close" && question.contains("room") && question["room"].is_string()) {
    const std::string reason = question.value("reason", "the operator closed this room");
    const bool closed = ctx_.lobby.close(question["room"].get<std::string>(), reason);
    if (closed) {
      spdlog::info("admin API (through node {}): room {} closed", from.node,
                   question["room"].get<std::string>());
    }
    return reply({{"closed", closed}});
  }
  if (ask == "notice" && question.contains("text") && question["text"].is_string()) {
    const std::string text = question["text"].get<std::string>();
    const std::size_t sent =
        ctx_.broadcast(make_frame(protocol::message::notice("operator", text).dump()));
    spdlog::info("admin API (through node {}): notice to {} connections: {}", from.node, sent,
                 text);
    return reply({{"sent", sent}});
  }
  spdlog::warn("cluster: an unknown question from node {}: {}", from.node, question.dump());
}

}  // namespace campfire::server
