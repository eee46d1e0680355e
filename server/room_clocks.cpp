#include "server/room_clocks.hpp"

#include <algorithm>
#include <utility>

#include "protocol/protocol.hpp"
#include "server/journal.hpp"

namespace campfire::server {

using protocol::ErrorCode;

namespace {

// How long after a window closed a move for it is still answered "too late" rather than
// "not your turn".
constexpr auto kLateMove = std::chrono::seconds(3);

}  // namespace

json RoomSettings::to_json() const {
  return {{"turnSeconds", turn_seconds},
          {"onTimeout", timeout_bot ? "bot" : "default"},
          {"graceSeconds", grace_seconds},
          {"botTakeover", bot_takeover}};
}

Expected<RoomSettings> RoomSettings::parse(const json& timers, const Config& config) {
  RoomSettings s;
  s.grace_seconds = config.disconnect_grace_s;
  if (timers.is_null()) return s;
  if (!timers.is_object()) {
    return protocol::make_error(ErrorCode::kBadRequest, "\"timers\" must be an object");
  }
  for (const auto& [key, value] : timers.items()) {
    if (key == "turnSeconds" || key == "graceSeconds") {
      if (!value.is_number() || value.get<double>() < 0 || value.get<double>() > 86400) {
        return protocol::make_error(ErrorCode::kBadRequest,
                                    "\"" + key + "\" must be a number of seconds, 0 to 86400");
      }
      const double v = value.get<double>();
      if (key == "turnSeconds" && v != 0 && v < 1) {
        return protocol::make_error(ErrorCode::kBadRequest,
                                    "\"turnSeconds\" must be 0 (no timer) or at least 1");
      }
      (key == "turnSeconds" ? s.turn_seconds : s.grace_seconds) = v;
    } else if (key == "onTimeout") {
      if (!value.is_string() || (value != "bot" && value != "default")) {
        return protocol::make_error(ErrorCode::kBadRequest,
                                    "\"onTimeout\" is \"default\" or \"bot\"");
      }
      s.timeout_bot = value == "bot";
    } else if (key == "botTakeover") {
      if (!value.is_boolean()) {
        return protocol::make_error(ErrorCode::kBadRequest,
                                    "\"botTakeover\" must be true or false");
      }
      s.bot_takeover = value.get<bool>();
    } else {
      return protocol::make_error(ErrorCode::kBadRequest, "unknown timer setting \"" + key + "\"");
    }
  }
  return s;
}

RoomClocks::RoomClocks(const Strand& strand, const Config& config, RoomSettings settings, int seats,
                       std::function<std::shared_ptr<void>()> owner, Expiry expiry)
    : config_(config),
      settings_(std::move(settings)),
      owner_(std::move(owner)),
      expiry_(std::move(expiry)),
      window_timer_(strand) {
  grace_.resize(static_cast<std::size_t>(seats));
}

std::chrono::milliseconds RoomClocks::scaled(double millis) const {
  return std::chrono::milliseconds(
      static_cast<std::int64_t>(millis * (config_.test_mode ? config_.window_scale : 1.0)));
}

void RoomClocks::window(const std::optional<Window>& open) {
  // Remember a window that just closed, for late moves (see just_closed()).
  if (open_window_ && (!open || open->id != open_window_->id)) {
    last_closed_ =
        ClosedWindow{open_window_->name, open_window_->seats, std::chrono::steady_clock::now()};
  }
  open_window_ = open;
  if (!open) {
    if (armed_window_) window_timer_.cancel();
    armed_window_.reset();
    return;
  }
  if (armed_window_ && *armed_window_ == open->id) return;
  armed_window_ = open->id;
  const auto length = scaled(static_cast<double>(open->millis));
  window_ends_at_ = std::chrono::steady_clock::now() + length;
  window_ends_at_ms_ = wall_ms() + length.count();
  window_timer_.expires_at(window_ends_at_);
  const std::int32_t id = open->id;
  window_timer_.async_wait([this, owner = owner_(), id](boost::system::error_code ec) {
    if (!ec) expiry_.window(id);
  });
}

std::optional<std::string> RoomClocks::just_closed(Seat seat) const {
  if (!last_closed_ || !last_closed_->seats.contains(seat) ||
      std::chrono::steady_clock::now() - last_closed_->at >= kLateMove) {
    return std::nullopt;
  }
  return last_closed_->name;
}

json RoomClocks::window_json(const std::optional<Window>& open) const {
  if (!open || !armed_window_ || *armed_window_ != open->id) return nullptr;
  json seats = json::array();
  open->seats.for_each([&](Seat s) { seats.push_back(s); });
  const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
                             window_ends_at_ - std::chrono::steady_clock::now())
                             .count();
  return {{"id", open->id},
          {"name", open->name},
          {"seats", std::move(seats)},
          {"endsAt", window_ends_at_ms_},
          {"remainingMs", std::max<long long>(0, remaining)}};
}

void RoomClocks::turn(SeatSet players, std::size_t key) {
  if (players.empty()) {
    if (!turn_seats_.empty()) turn_timer_->cancel();
    turn_seats_ = {};
    turn_ends_at_ms_ = 0;
    return;
  }
  if (players == turn_seats_ && key == turn_key_) return;
  turn_seats_ = players;
  turn_key_ = key;
  const auto length = scaled(settings_.turn_seconds * 1000.0);
  turn_ends_at_ms_ = wall_ms() + length.count();
  if (!turn_timer_) turn_timer_ = std::make_unique<asio::steady_timer>(window_timer_.get_executor());
  turn_timer_->expires_after(length);
  turn_timer_->async_wait([this, owner = owner_(), key](boost::system::error_code ec) {
    if (ec || turn_key_ != key) return;
    const SeatSet late = turn_seats_;
    turn_seats_ = {};
    turn_ends_at_ms_ = 0;
    expiry_.turn(late);
  });
}

json RoomClocks::turn_json() const {
  if (turn_seats_.empty() || turn_ends_at_ms_ == 0) return nullptr;
  json seats = json::array();
  turn_seats_.for_each([&](Seat s) { seats.push_back(s); });
  return {{"seats", std::move(seats)},
          {"endsAt", turn_ends_at_ms_},
          {"remainingMs", std::max<std::int64_t>(0, turn_ends_at_ms_ - wall_ms())}};
}

void RoomClocks::arm_grace(int seat) {
  auto& timer = grace_[static_cast<std::size_t>(seat)];
  if (!timer) timer = std::make_unique<asio::steady_timer>(window_timer_.get_executor());
  asio::steady_timer& grace = *timer;
  grace.expires_after(scaled(settings_.grace_seconds * 1000.0));
  grace.async_wait([this, owner = owner_(), seat](boost::system::error_code ec) {
    if (!ec) expiry_.grace(seat);
  });
}

void RoomClocks::cancel_grace(int seat) {
  if (const auto& timer = grace_[static_cast<std::size_t>(seat)]) timer->cancel();
}

void RoomClocks::cancel_all() {
  window_timer_.cancel();
  if (turn_timer_) turn_timer_->cancel();
  for (const auto& g : grace_) {
    if (g) g->cancel();
  }
}

}  // namespace campfire::server
