// A WebSocket connection in rooms of other nodes of a cluster: its requests for such a room go
// to the room's node, what comes back is checked against what was sent, and when that node dies
// the connection follows the room to its new owner.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "protocol/messages.hpp"
#include "protocol/requests.hpp"
#include "server/forwarding.hpp"
#include "server/websocket_forwarded.hpp"

namespace campfire::server {

using namespace std::chrono_literals;
using protocol::ErrorCode;
namespace message = protocol::message;

// ---- Rooms of other nodes ----

namespace {

// What a request of this type does when sent again (a join or leave repeated by the same
// connection included: see ForwardedClient's seat_token() and elsewhere()).
Again again_of(std::string_view type) {
  if (type == "action" || type == "add_bot") return Again::kTwice;
  if (type == "join" || type == "rejoin" || type == "spectate") return Again::kEnters;
  return Again::kSame;
}

}  // namespace

WebSocketSession::Forwarded& WebSocketSession::forwarded() {
  if (!forwarded_) {
    forwarded_ = std::make_unique<Forwarded>(executor());
    std::weak_ptr<WebSocketSession> weak = shared_from_this();
    forwarded_->conn = ctx_.forwarding->attach(std::move(weak));
  }
  return *forwarded_;
}

bool WebSocketSession::elsewhere(const json& id, const std::string& code) {
  if (!forwarded_) return false;
  Forwarded& f = *forwarded_;
  if (code != room_code_) {
    // A leave repeated after the first got no answer: the first may never have reached the
    // room's node, where the seat would stay taken by a connection its player thinks is out. The
    // room's node answers it (`not_in_room` if the first one did reach it).
    if (current_type_ != "leave" || code != f.left_room || f.left_node.empty()) return false;
    forward(f.left_node, code, id, std::string(current_text_));
    return true;
  }
  if (f.moving && !f.attempting) {
    error(id, ErrorCode::kUnavailable,
          "room " + code +
              " is moving to another server (its server stopped); you are put back "
              "in it in a moment");
    return true;
  }
  if (f.node.empty()) return false;
  forward(f.node, code, id, std::string(current_text_));
  if (current_type_ == "leave") {
    f.left_room = code;
    f.left_node = f.node;
    room_code_.clear();
    f.node.clear();
    f.token.clear();
  }
  return true;
}

void WebSocketSession::not_here(const json& id, const std::string& code,
                                const std::string& otherwise) {
  const auto normal = protocol::normalize_room_code(code);
  if (!ctx_.forwarding || !normal) return refuse_missing(id, code, otherwise);
  // Asked of Redis without blocking; the request goes on to the room's owner once it is known.
  ctx_.cluster->locate(
      *normal,
      [self = shared_from_this(), id, code = *normal, otherwise, text = std::string(current_text_),
       again = again_of(current_type_)](std::optional<ClusterNode::Whereabouts> where) mutable {
        boost::asio::post(self->executor(), [self, id, code, otherwise, text = std::move(text),
                                             again, where = std::move(where)]() mutable {
          if (self->closed_) return;
          if (where && !where->unknown && !where->mine && where->alive) {
            self->forward(where->node, code, id, std::move(text));
            self->forwarded_->waiting.back().again = again;
            return;
          }
          self->refuse(id, code, otherwise, where);
        });
      });
}

void WebSocketSession::forward(const std::string& node, const std::string& room, const json& id,
                               std::string text) {
  Forwarded& f = forwarded();
  const std::int64_t seq = ++f.sent;
  f.proxies.insert(node);
  f.waiting.push_back({seq, node, id, std::chrono::steady_clock::now() + kForwardPatience});
  f.waiting.back().again = again_of(current_type_);
  if (f.waiting.size() == 1) arm_patience();
  ctx_.forwarding->request(node, f.conn, seq, room, std::move(text), name_, address_,
                           updates_.load(std::memory_order_relaxed),
                           texts_.load(std::memory_order_relaxed));
}

void WebSocketSession::answered(const std::string& node, std::int64_t received,
                                const std::vector<json>& replied) {
  if (!forwarded_) return;
  auto& waiting = forwarded_->waiting;
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(waiting, [&](Forwarded::Waiting& w) {
    if (w.node != node) return false;
    if (!w.id.is_null() && std::find(replied.begin(), replied.end(), w.id) != replied.end()) {
      return true;
    }
    if (w.received || w.seq > received) return false;
    if (w.id.is_null()) return true;  // nothing to wait for
    w.received = true;
    w.until = now + kReplyPatience;
    return false;
  });
  arm_patience();
}

void WebSocketSession::arm_patience() {
  Forwarded& f = *forwarded_;
  f.patience.cancel();
  if (f.waiting.empty()) return;
  auto first = f.waiting.front().until;
  for (const auto& w : f.waiting) first = std::min(first, w.until);
  f.patience.expires_at(first);
  f.patience.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->patience_over();
  });
}

void WebSocketSession::patience_over() {
  if (closed_ || !forwarded_) return;
  auto& waiting = forwarded_->waiting;
  const auto now = std::chrono::steady_clock::now();
  std::vector<Forwarded::Waiting> late;
  std::erase_if(waiting, [&](const Forwarded::Waiting& w) {
    if (w.until > now) return false;
    late.push_back(w);
    return true;
  });
  bool resync = false;
  for (const auto& w : late) {
    // A sync made for the player that its node never took (published while that node was
    // still subscribing again after Redis came back, it reached no one) goes again: nothing
    // else would mend the frames it was to replace.
    if (w.resync && w.node == forwarded_->node) resync = true;
    if (w.id.is_null()) continue;
    if (w.received && w.again == Again::kEnters) {
      // Its membership notice may have been lost too: a sync would be refused as not_in_room.
      error(w.id, ErrorCode::kUnavailable,
            "the answer from node " + w.node +
                ", which serves the room, was lost on the way; send the request again: it is "
                "answered as the first time");
    } else if (w.received) {
      error(w.id, ErrorCode::kUnavailable,
            "the answer from node " + w.node +
                ", which serves the room, was lost on the way; send sync to see whether the "
                "request was applied");
    } else if (w.again == Again::kTwice) {
      // Its receipt may be what was lost: sent again, a request that did arrive would be
      // applied twice.
      error(w.id, ErrorCode::kUnavailable,
            "node " + w.node +
                ", which serves the room, did not answer in time; it may have applied the "
                "request all the same: send sync to see whether it did before sending it again");
    } else {
      error(w.id, ErrorCode::kUnavailable,
            "node " + w.node +
                ", which serves the room, did not answer in time; try again in a "
                "moment");
    }
  }
  arm_patience();
  if (resync) frames_lost(forwarded_->node);
}

void WebSocketSession::remote_frames(const std::string& node, std::int64_t received,
                                     std::vector<std::string> frames) {
  // The ids of the replies among the frames: a request whose reply has come waits no more.
  std::vector<json> replied;
  for (const std::string& f : frames) {
    const bool entering = f.find("\"type\":\"joined\"") != std::string::npos ||
                          f.find("\"type\":\"spectating\"") != std::string::npos;
    if (!entering && f.find("\"id\":") == std::string::npos) continue;
    const json m = json::parse(f, nullptr, false);
    if (!m.is_object()) continue;
    if (m.contains("id")) replied.push_back(m["id"]);
    // A reply that seats the connection (or lets it watch) says so as well as the kEntered that
    // went before it, which the bus may have lost (it delivers at most once: Redis restarting
    // between the two loses the one and delays the other behind the journal). Without the
    // membership this node would refuse the player's every request for the room as not_in_room
    // and would not mend the room's lost frames; taken twice it changes nothing.
    const std::string type = m.value("type", "");
    const bool seated = type == "joined" && m.contains("token") && m["token"].is_string();
    if ((seated || type == "spectating") && m.contains("room") && m["room"].is_string()) {
      remote_entered(node, m["room"].get<std::string>(),
                     seated ? m["token"].get<std::string>() : std::string());
    }
  }
  for (std::string& f : frames) send(make_frame(std::move(f)));
  if (received > 0 || !replied.empty()) {
    boost::asio::post(executor(),
                      [self = shared_from_this(), node, received, replied = std::move(replied)] {
                        self->answered(node, received, replied);
                      });
  }
}

void WebSocketSession::remote_entered(const std::string& node, const std::string& room,
                                      std::string token) {
  boost::asio::post(executor(),
                    [self = shared_from_this(), node, room, token = std::move(token)]() mutable {
                      if (self->closed_) return;
                      Forwarded& f = self->forwarded();
                      const bool moved_here = f.moving && room == self->room_code_;
                      if (!self->room_code_.empty() && self->room_code_ != room) {
                        self->left_for_another(self->room_code_);
                      }
                      self->room_code_ = room;
                      f.node = node;
                      f.token = std::move(token);
                      self->let_left_room_go(room);
                      if (moved_here) self->end_move(true);
                    });
}

void WebSocketSession::remote_evicted(const std::string& node, const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), node, room] {
    if (!self->forwarded_) return;
    Forwarded& f = *self->forwarded_;
    if (self->room_code_ == room && f.node == node) {
      self->room_code_.clear();
      f.node.clear();
      f.token.clear();
    }
    self->after_evicted(room);
  });
}

void WebSocketSession::left_for_another(const std::string& old) {
  if (forwarded_ && !forwarded_->node.empty()) {
    ctx_.forwarding->gone(forwarded_->node, forwarded_->conn, old);
    forwarded_->node.clear();
    forwarded_->token.clear();
    return;
  }
  RoomClient::left_for_another(old);
}

void WebSocketSession::after_entered(const std::string& room, const std::string&) {
  // A room of this node: nothing of it is elsewhere any more.
  if (!forwarded_) return;
  Forwarded& f = *forwarded_;
  const bool moved_here = f.moving && room == room_code_;
  f.node.clear();
  f.token.clear();
  let_left_room_go(room);
  if (moved_here) end_move(true);
}

void WebSocketSession::let_left_room_go(const std::string& room) {
  Forwarded& f = *forwarded_;
  // A player told its leave went unanswered may go to another room without leaving again: the
  // seat would stay taken there by a connection that is still open. Nothing happens there if the
  // leave did arrive. Back in the same room, the seat is its own again (a repeated join).
  if (!f.left_node.empty() && f.left_room != room) {
    ctx_.forwarding->gone(f.left_node, f.conn, f.left_room);
  }
  f.left_room.clear();
  f.left_node.clear();
}

void WebSocketSession::after_evicted(const std::string& room) {
  error(nullptr, ErrorCode::kReplaced, "your seat in room " + room + " was resumed elsewhere");
}

void WebSocketSession::node_gone(const std::string& node) {
  boost::asio::post(executor(), [self = shared_from_this(), node] {
    if (self->closed_ || !self->forwarded_) return;
    Forwarded& f = *self->forwarded_;
    f.proxies.erase(node);
    // Its stand-ins are let go there: a seat the connection left stays taken no longer.
    if (f.left_node == node) {
      f.left_room.clear();
      f.left_node.clear();
    }
    // What was sent there is not coming back, and neither are the replies it still owed.
    std::deque<Forwarded::Waiting> lost;
    std::erase_if(f.waiting, [&](const Forwarded::Waiting& w) {
      if (w.node != node) return false;
      lost.push_back(w);
      return true;
    });
    for (const auto& w : lost) {
      if (w.id.is_null()) continue;
      self->error(w.id, ErrorCode::kUnavailable,
                  "node " + node + ", which served the room, stopped" +
                      (w.received ? " before answering; send sync to see whether the request "
                                    "was applied"
                                  : "; the room moves to another server in a moment"));
    }
    self->arm_patience();
    if (f.node == node && !self->room_code_.empty()) self->start_move(node);
  });
}

void WebSocketSession::frames_lost(const std::string& node) {
  boost::asio::post(executor(), [self = shared_from_this(), node] {
    if (self->closed_ || !self->forwarded_ || self->room_code_.empty()) return;
    Forwarded& f = *self->forwarded_;
    if (f.node.empty() || f.moving || (!node.empty() && node != f.node)) return;
    // What the room's node sent meanwhile never came: a whole state mends it.
    ++f.resync_replies;
    const std::string text =
        protocol::encode(protocol::ClientRequest(protocol::Sync{self->room_code_}), kResyncId)
            .dump();
    self->forward(f.node, self->room_code_, nullptr, text);
    f.waiting.back().resync = true;
  });
}

void WebSocketSession::room_claimed(const std::string& room) {
  boost::asio::post(executor(), [self = shared_from_this(), room] {
    if (self->forwarded_ && self->forwarded_->moving && room == self->room_code_) {
      self->try_move();
    }
  });
}

void WebSocketSession::start_move(const std::string& dead) {
  Forwarded& f = *forwarded_;
  if (f.moving) return;
  spdlog::info("{}: room {} lost its node {}; following it to its new owner", address_, room_code_,
               dead);
  f.moving = true;
  f.node.clear();
  f.told = false;
  f.moving_since = std::chrono::steady_clock::now();
  ctx_.forwarding->follow(room_code_, f.conn, true);
  try_move();
}

void WebSocketSession::try_move_later(std::chrono::milliseconds after) {
  Forwarded& f = *forwarded_;
  f.move_timer.expires_after(after);
  f.move_timer.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->try_move();
  });
}

// Finds where the room is now: here (this node took it over) or on a live node that owns it in
// the directory; then rejoins the seat with the token its old node gave (or watches again).
void WebSocketSession::try_move() {
  if (closed_ || !forwarded_ || !forwarded_->moving || forwarded_->move_replies > 0) return;
  Forwarded& f = *forwarded_;
  const auto patience = std::chrono::milliseconds(ctx_.config.cluster_lease_ms) + 15s;
  if (std::chrono::steady_clock::now() - f.moving_since > patience) return end_move(false);
  auto attempt = [this](const std::string& node) {
    Forwarded& fw = *forwarded_;
    fw.node = node;
    if (!fw.told) {
      fw.told = true;
      queue(make_frame(
          message::notice("moved", "room " + room_code_ +
                                       " moved to another server because its server stopped; "
                                       "your place is kept and the game goes on")
              .dump()));
    }
    protocol::ClientRequest request;
    if (fw.token.empty()) {
      request = protocol::Spectate{room_code_};
    } else {
      request = protocol::Rejoin{room_code_, fw.token};
    }
    const std::string text = protocol::encode(request, kMoveId).dump();
    const std::string type(protocol::type_name(request));
    current_text_ = text;
    current_type_ = type;
    ++fw.move_replies;
    fw.attempting = true;
    std::visit(
        [&](auto& m) {
          if constexpr (requires(RoomClient & c, decltype(m) r, const json& j) { c.on(r, j); }) {
            RoomClient::on(m, json(kMoveId));
          }
        },
        request);
    fw.attempting = false;
    current_text_ = {};
    current_type_ = {};
  };
  if (auto room = ctx_.lobby.find(room_code_); room && room->refusal().empty()) {
    return attempt(std::string());
  }
  ctx_.cluster->locate(room_code_, [self = shared_from_this(), attempt, code = room_code_](
                                       std::optional<ClusterNode::Whereabouts> where) {
    boost::asio::post(self->executor(), [self, attempt, code, where = std::move(where)] {
      if (self->closed_ || !self->forwarded_ || !self->forwarded_->moving ||
          self->room_code_ != code || self->forwarded_->move_replies > 0) {
        return;
      }
      if (!where) return self->end_move(false);  // the cluster no longer has the room
      // Alive means the owner's lease is the one the room names: a node back from a lapse that
      // claimed the room again counts, the dead incarnation does not.
      if (!where->unknown && where->alive && !where->mine) return attempt(where->node);
      self->try_move_later(kMoveRetry);
    });
  });
}

void WebSocketSession::move_reply(const std::string& frame) {
  Forwarded& f = *forwarded_;
  --f.move_replies;
  if (!f.moving) return;
  const json reply = json::parse(frame, nullptr, false);
  const std::string type = reply.is_object() ? reply.value("type", "") : "";
  if (type == "joined" || type == "spectating") return;  // entered() ends the move
  // Refused (the new owner is not ready yet, or did not answer): try again, unless the seat is
  // gone for good.
  if (reply.is_object() && reply.value("code", "") == "bad_token") return end_move(false);
  try_move_later(kMoveRetry);
}

void WebSocketSession::end_move(bool found) {
  Forwarded& f = *forwarded_;
  f.moving = false;
  f.move_timer.cancel();
  ctx_.forwarding->follow(room_code_, f.conn, false);
  if (found) {
    spdlog::info("{}: room {} found again{}", address_, room_code_,
                 f.node.empty() ? " on this node" : " on node " + f.node);
    return;
  }
  error(nullptr, ErrorCode::kUnavailable,
        "room " + room_code_ + " could not be found again after its server stopped; rejoin it");
  room_code_.clear();
  f.node.clear();
  f.token.clear();
}

}  // namespace campfire::server
