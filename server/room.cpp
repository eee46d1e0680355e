#include "server/room.hpp"

#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <cstdio>
#include <fstream>
#include <random>
#include <utility>

#include "protocol/json_text.hpp"
#include "protocol/protocol.hpp"
#include "server/bot_pool.hpp"
#include "server/game_replay.hpp"

namespace campfire::server {

using protocol::ErrorCode;

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Every frame's text: what nlohmann's dump gives, written faster.
std::string dump(const json& j) {
  return protocol::json_text(j);
}

// How many of the newest events `history` gives back.
constexpr int kHistoryEvents = 50;

}  // namespace

const char* status_name(RoomStatus s) {
  switch (s) {
    case RoomStatus::kWaiting:
      return "waiting";
    case RoomStatus::kPlaying:
      return "playing";
    case RoomStatus::kOver:
      return "over";
  }
  return "";
}

std::string new_token() {
  std::random_device rd;  // the operating system's entropy source
  std::string out;
  char buf[9];
  for (int i = 0; i < 4; ++i) {
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
    out += buf;
  }
  return out;
}

std::string hash_token(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(token.data(), token.size(), digest, &length, EVP_sha256(), nullptr);
  std::string hex;
  char buf[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", digest[i]);
    hex += buf;
  }
  return hex;
}

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

namespace {

// A room that sets no turn timer takes the game's own turn timer option (Spider Monkey's
// `turnTimeoutS`), read once when the room is made; the room's own `turnSeconds` comes first.
// The result is what the journal keeps, so a restored room keeps the same timer.
RoomSettings with_game_turn_timer(RoomSettings s, const Match& match) {
  if (s.turn_seconds > 0) return s;
  const json& options = match.options().to_json();
  if (const auto it = options.find("turnTimeoutS"); it != options.end() && it->is_number()) {
    s.turn_seconds = it->get<double>();
  }
  return s;
}

}  // namespace

Room::Room(asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics,
           std::string code, Match match, bool listed, RoomSettings settings,
           std::optional<fairness::Record> fair)
    : ioc_(ioc),
      strand_(asio::make_strand(ioc)),
      config_(config),
      journal_(journal),
      metrics_(metrics),
      code_(std::move(code)),
      listed_(listed),
      settings_(with_game_turn_timer(settings, match)),  // before match_ takes `match`
      created_ms_(wall_ms()),
      match_(std::move(match)),
      fairness_(fair ? std::move(*fair) : fairness::Record::fixed_deal(match_.seats())),
      seats_(static_cast<std::size_t>(match_.seats())),
      window_timer_(strand_),
      bot_timer_(strand_),
      bot_rng_(match_.seed() ^ 0xB07B07ull),
      turn_timer_(strand_) {
  for (auto& s : seats_) s.grace = std::make_unique<asio::steady_timer>(strand_);
  update_summary();
}

namespace {

RoomSettings stored_settings(const StoredRoom& stored, const Config& config) {
  auto s = RoomSettings::parse(stored.settings, config);
  return s ? *s : RoomSettings{};
}

}  // namespace

namespace {

// A bot deciding here may ask the engine what its seat was shown earlier and draw full states the
// seat cannot tell from the real one: State::recall and State::determinize reveal nothing else.
void offer_engine(bots::Decision& decision, const State& st, Seat seat) {
  decision.offer([&st, seat] { return st.recall(seat); },
                 [&st, seat](Rng& rng) { return st.determinize(seat, rng); });
}

}  // namespace

Room::Room(asio::io_context& ioc, const Config& config, Journal& journal, Metrics& metrics,
           const StoredRoom& stored, Match match)
    : Room(ioc, config, journal, metrics, stored.code, std::move(match), stored.listed,
           stored_settings(stored, config)) {
  created_ms_ = stored.created_ms;
  version_ = stored.version;
  fairness_ = fairness::Record::from_stored(stored.fairness, match_.seats());
  recorded_version_ = stored.version;
  status_ = stored.status == "playing"   ? RoomStatus::kPlaying
            : stored.status == "waiting" ? RoomStatus::kWaiting
                                         : RoomStatus::kOver;
  for (const StoredSeat& seat : stored.seat_list) {
    if (seat.seat < 0 || seat.seat >= match_.seats()) continue;
    SeatInfo& info = seats_[static_cast<std::size_t>(seat.seat)];
    info.taken = true;
    info.name = seat.name;
    info.names = seat.names.empty() ? std::vector<SeatName>{{seat.name, 0}} : seat.names;
    info.token_hash = seat.token_hash;
    if (fairness_) fairness_->contributions[static_cast<std::size_t>(seat.seat)] = seat.entropy;
    if (!seat.bot.empty()) {
      info.bot = make_bot(seat.bot);
      info.bot_name = seat.bot;
      if (!info.bot) info.bot = make_bot("basic");
    }
  }
  update_summary();
}

void Room::record_creation() {
  Journal::Record r;
  r.kind = Journal::Record::Kind::kCreate;
  r.room.code = code_;
  r.room.game = match_.game().info().id;
  r.room.seats = match_.seats();
  r.room.options = match_.options().to_json();
  r.room.seed = match_.seed();
  const json saved = match_.save();
  r.room.deck_order = saved.value("deckOrder", json());
  r.room.fairness = fairness_ ? fairness_->stored_json() : json(nullptr);
  r.room.listed = listed_;
  r.room.settings = settings_.to_json();
  r.room.status = status_name(status_);
  r.room.version = version_;
  r.room.created_ms = created_ms_;
  record(std::move(r));
}

void Room::resume() {
  on_strand([this] {
    arm_window();
    arm_turn();
    schedule_bots();
    // Nobody is connected to a room rebuilt after a restart: their seats wait for them.
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      if (seats_[s].taken && !is_bot(s)) arm_grace(static_cast<int>(s));
    }
    spdlog::info("room {}: resumed {} with {} actions at version {}", code_, status_name(status_),
                 match_.log().size(), version_);
  });
}

void Room::created(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    reply(c, id, {{"type", "created"}, {"room", code_}});
  });
}

template <class F>
void Room::on_strand(F&& f) {
  asio::post(strand_, [self = shared_from_this(), f = std::forward<F>(f)]() mutable {
    if (!self->closed_) f();
  });
}

std::string Room::refusal() const {
  std::lock_guard lock(summary_mutex_);
  return refusal_;
}

RoomSummary Room::summary() const {
  std::lock_guard lock(summary_mutex_);
  return summary_;
}

void Room::update_summary() {
  std::lock_guard lock(summary_mutex_);
  summary_.code = code_;
  summary_.game = match_.game().info().id;
  summary_.seats = match_.seats();
  summary_.taken = static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.taken; }));
  summary_.bots = static_cast<int>(std::count_if(
      seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.taken && s.bot; }));
  summary_.spectators = static_cast<int>(spectators_.size());
  summary_.listed = listed_;
  summary_.status = status_;
  summary_.options = match_.options().to_json();
  summary_.last_activity = std::chrono::steady_clock::now();
  summary_.connected =
      static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const SeatInfo& s) {
        return s.taken && !s.bot_name.size() && !s.client.expired();
      }));
}

std::optional<int> Room::seat_of(const Client* c) const {
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].taken && seats_[s].bot_name.empty()) {
      auto held = seats_[s].client.lock();
      if (held.get() == c) return static_cast<int>(s);
    }
  }
  return std::nullopt;
}

bool Room::is_spectator(const Client* c) const {
  return std::any_of(spectators_.begin(), spectators_.end(),
                     [&](const std::weak_ptr<Client>& w) { return w.lock().get() == c; });
}

void Room::out(const std::shared_ptr<Client>& c, Frame f) {
  if (journal_done_ < journal_queued_) {
    held_.push_back({journal_queued_, c, std::move(f)});
  } else {
    c->send(std::move(f));
  }
}

void Room::reply(const std::shared_ptr<Client>& c, const json& id, json body) {
  if (!id.is_null()) body["id"] = id;
  out(c, make_frame(dump(body)));
}

void Room::fail(const std::shared_ptr<Client>& c, const json& id, protocol::ErrorCode code,
                const std::string& message) {
  metrics_.error_sent(protocol::to_string(code));
  out(c, make_frame(protocol::error_frame(id, code, message)));
}

void Room::fail(const std::shared_ptr<Client>& c, const json& id, const Error& why) {
  metrics_.error_sent(why.code);
  out(c, make_frame(protocol::error_frame(id, why)));
}

void Room::record(Journal::Record r) {
  r.code = code_;
  r.version = version_ + 1;
  recorded_version_ = r.version;
  if (!journal_.durable()) {
    journal_.write(std::move(r), nullptr);
    return;
  }
  const std::uint64_t seq = ++journal_queued_;
  journal_.write(std::move(r), [self = shared_from_this(), seq](bool ok) {
    asio::post(self->strand_, [self, seq, ok] { self->journaled(seq, ok); });
  });
}

void Room::record_seat(int seat) {
  const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  Journal::Record r;
  if (info.taken) {
    r.kind = Journal::Record::Kind::kSeat;
    r.seat = {seat,
              info.name,
              info.token_hash,
              info.bot_name,
              info.names,
              fairness_ ? fairness_->contributions[static_cast<std::size_t>(seat)] : ""};
  } else {
    r.kind = Journal::Record::Kind::kFreeSeat;
    r.seat.seat = seat;
  }
  record(std::move(r));
}

void Room::record_action(int seat, const Action& a) {
  Journal::Record r;
  r.kind = Journal::Record::Kind::kAction;
  r.index = match_.log().size() - 1;
  r.action = {seat, match_.game().action_to_json(a), wall_ms()};
  record(std::move(r));
}

void Room::journaled(std::uint64_t seq, bool ok) {
  if (!ok) {
    // What the journal could not keep must not be shown to anyone: the room stops here, and a
    // restart brings it back from its last durable move.
    if (!closed_) {
      spdlog::critical("room {}: the journal failed; closing the room", code_);
      const Frame f = make_frame(protocol::error_frame(
          nullptr, ErrorCode::kUnavailable,
          "the server could not save this game and has paused it; it resumes from the last saved "
          "move when the server restarts"));
      for (const auto& s : seats_) {
        if (auto c = s.client.lock()) c->send(f);
      }
      for (const auto& w : spectators_) {
        if (auto c = w.lock()) c->send(f);
      }
      closed_ = true;
      closed_reason_ = "the room is paused until the server restarts";
      std::lock_guard lock(summary_mutex_);
      refusal_ = closed_reason_;
      window_timer_.cancel();
      bot_timer_.cancel();
      turn_timer_.cancel();
      for (auto& s : seats_) s.grace->cancel();
    }
    held_.clear();
    return;
  }
  journal_done_ = std::max(journal_done_, seq);
  while (!held_.empty() && held_.front().after <= journal_done_) {
    if (auto c = held_.front().client.lock()) c->send(std::move(held_.front().frame));
    held_.pop_front();
  }
}

std::string Room::render(const std::string& text) const {
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 2, "{{") == 0) {
      out += '{';
      i += 2;
      continue;
    }
    if (text.compare(i, 6, "{seat:") == 0) {
      const auto end = text.find('}', i);
      if (end != std::string::npos) {
        const int s = std::atoi(text.c_str() + i + 6);
        if (s >= 0 && s < static_cast<int>(seats_.size())) {
          out += seats_[static_cast<std::size_t>(s)].taken
                     ? seats_[static_cast<std::size_t>(s)].name
                     : "seat " + std::to_string(s + 1);
          i = end + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

std::string Room::literal(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    out += ch;
    if (ch == '{') out += '{';
  }
  return out;
}

json Room::render_event(const json& body) const {
  json e = body;
  if (e.contains("text") && e["text"].is_string()) e["text"] = render(e["text"].get<std::string>());
  return e;
}

json Room::players() const {
  json list = json::array();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    const SeatInfo& info = seats_[s];
    if (!info.taken) {
      list.push_back(nullptr);
      continue;
    }
    json player = {{"seat", s},
                   {"name", info.name},
                   {"connected", !info.bot_name.empty() || !info.client.expired()},
                   {"bot", !info.bot_name.empty()},
                   {"away", info.away}};
    if (!info.bot_name.empty()) player["strategy"] = info.bot_name;
    list.push_back(std::move(player));
  }
  return list;
}

json Room::window_json() const {
  if (status_ != RoomStatus::kPlaying) return nullptr;
  const auto w = match_.state().window();
  if (!w || !armed_window_ || *armed_window_ != w->id) return nullptr;
  json seats = json::array();
  w->seats.for_each([&](Seat s) { seats.push_back(s); });
  const auto remaining = std::chrono::duration_cast<std::chrono::milliseconds>(
                             window_ends_at_ - std::chrono::steady_clock::now())
                             .count();
  return {{"id", w->id},
          {"name", w->name},
          {"seats", std::move(seats)},
          {"endsAt", window_ends_at_ms_},
          {"remainingMs", std::max<long long>(0, remaining)}};
}

// A state message differs between recipients only in the seat, its view and its legal moves, so
// the rest is serialised once per change. The keys are written in the order nlohmann's dump
// writes an object's keys (sorted), so a frame is exactly what dumping the whole object gives.
Room::StateParts Room::state_parts() const {
  const State& st = match_.state();
  StateParts p;
  p.head = "{\"fairness\":" + dump(fairness_ ? fairness_->public_json() : json(nullptr)) +
           ",\"game\":" + dump(match_.game().info().id) + ",\"labels\":";
  p.middle = ",\"moves\":" + std::to_string(match_.log().size()) +
             ",\"options\":" + dump(match_.options().to_json()) + ",\"players\":" + dump(players());
  if (status_ == RoomStatus::kOver) p.middle += ",\"result\":" + dump(st.result().to_json());
  p.middle += ",\"room\":" + dump(code_) + ",\"seat\":";
  json to_act = json::array();
  if (status_ != RoomStatus::kWaiting) st.to_act().for_each([&](Seat s) { to_act.push_back(s); });
  p.after_seat = std::string(",\"status\":\"") + status_name(status_) +
                 "\",\"toAct\":" + dump(to_act) + ",\"turn\":" + dump(turn_json()) +
                 ",\"type\":\"state\",\"version\":" + std::to_string(version_) + ",\"view\":";
  p.tail = ",\"window\":" + dump(window_json()) + "}";
  return p;
}

std::string Room::state_frame(const StateParts& parts, int seat, std::size_t* legal_hash) const {
  const State& st = match_.state();
  const bool waiting = status_ == RoomStatus::kWaiting;
  std::string legal = "[]";
  std::string labels = "[]";
  if (!waiting && seat >= 0) {
    json legal_json = json::array();
    json labels_json = json::array();
    for (const Action& a : st.legal_actions(seat)) {
      legal_json.push_back(match_.game().action_to_json(a));
      labels_json.push_back(render(st.describe(seat, a)));
    }
    legal = dump(legal_json);
    labels = dump(labels_json);
  }
  if (legal_hash != nullptr) *legal_hash = std::hash<std::string>{}(legal);
  // The view, the largest part, is written into a buffer that keeps its capacity between frames
  // (no growing a fresh string every time), and the frame gets exactly the memory it needs:
  // frames wait in the queues of slow readers.
  thread_local std::string view;
  view.clear();
  if (waiting) {
    view = "null";
  } else {
    const Seat viewer = seat >= 0 ? seat : kSpectator;
    st.view_text(viewer, view);
  }
  const std::string seat_text = seat >= 0 ? std::to_string(seat) : "null";
  std::string out;
  out.reserve(parts.head.size() + labels.size() + 10 + legal.size() + parts.middle.size() +
              seat_text.size() + parts.after_seat.size() + view.size() + parts.tail.size());
  out += parts.head;
  out += labels;
  out += ",\"legal\":";
  out += legal;
  out += parts.middle;
  out += seat_text;
  out += parts.after_seat;
  out += view;
  out += parts.tail;
  return out;
}

std::string Room::state_frame(int seat) const {
  return state_frame(state_parts(), seat);
}

std::string Room::event_text(const Event& e) const {
  return dump(
      {{"type", "event"}, {"room", code_}, {"version", version_}, {"event", render_event(e.body)}});
}

void Room::changed(const std::vector<Event>* events) {
  // The last state of a game already says it is over and carries the result.
  const bool just_finished = status_ == RoomStatus::kPlaying && match_.state().over();
  if (just_finished) {
    status_ = RoomStatus::kOver;
    Journal::Record r;
    r.kind = Journal::Record::Kind::kStatus;
    r.status = "over";
    r.result = match_.state().result().to_json();
    record(std::move(r));
  } else if (recorded_version_ <= version_) {
    record(Journal::Record{});  // only the version moves (a player came or went)
  }
  ++version_;
  // A bot searching on the pool, or waiting to make its move, decided for a table that is no
  // longer there: the search may stop, the move is dropped, and the bot is asked again below.
  if (think_abandoned_) think_abandoned_->store(true, std::memory_order_relaxed);
  if (bot_planned_) {
    bot_planned_ = false;
    ++bot_plan_;
    bot_timer_.cancel();
  }
  arm_window();
  arm_turn();
  // Each event is rendered once and its one frame goes to every recipient; every seat gets its
  // own view, spectators share one public copy.
  std::vector<Frame> event_frames;
  if (events != nullptr) {
    for (const Event& e : *events) {
      bool wanted = e.to.everyone && !spectators_.empty();
      for (std::size_t s = 0; s < seats_.size() && !wanted; ++s) {
        wanted =
            !seats_[s].bot && e.to.includes(static_cast<Seat>(s)) && !seats_[s].client.expired();
      }
      event_frames.push_back(wanted ? make_frame(event_text(e)) : nullptr);
    }
  }
  // Bots hear what their seat is told, as a player would.
  if (events != nullptr) {
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      if (!seats_[s].bot) continue;
      const bool busy = thinking_ && static_cast<std::size_t>(*thinking_) == s;
      for (const Event& e : *events) {
        if (!e.to.includes(static_cast<Seat>(s))) continue;
        if (busy) {
          seats_[s].unheard.push_back(e);
        } else {
          seats_[s].bot->observe(e);
        }
      }
    }
  }
  const StateParts parts = state_parts();
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    auto c = seats_[s].client.lock();
    if (!c || seats_[s].bot) continue;
    for (std::size_t i = 0; i < event_frames.size(); ++i) {
      if (event_frames[i] && (*events)[i].to.includes(static_cast<Seat>(s)))
        out(c, event_frames[i]);
    }
    std::size_t legal_hash = 0;
    out(c, make_frame(state_frame(parts, static_cast<int>(s), &legal_hash)));
    if (legal_hash != seats_[s].legal_hash) {
      seats_[s].legal_hash = legal_hash;
      seats_[s].legal_since = version_;
    }
  }
  if (!spectators_.empty()) {
    const Frame state = make_frame(state_frame(parts, -1));
    for (const auto& w : spectators_) {
      if (auto c = w.lock()) {
        for (std::size_t i = 0; i < event_frames.size(); ++i) {
          if (event_frames[i] && (*events)[i].to.everyone) out(c, event_frames[i]);
        }
        out(c, state);
      }
    }
  }
  if (just_finished) {
    const Frame over = make_frame(dump(
        {{"type", "game_over"}, {"room", code_}, {"result", match_.state().result().to_json()}}));
    for (const auto& s : seats_) {
      if (auto c = s.client.lock(); c && !s.bot) out(c, over);
    }
    for (const auto& w : spectators_) {
      if (auto c = w.lock()) out(c, over);
    }
    spdlog::info("room {} game over after {} actions", code_, match_.log().size());
  }
  schedule_bots();
  update_summary();
}

void Room::arm_window() {
  // Remember a window that just closed, for late moves (see action()).
  const auto now_open = status_ == RoomStatus::kPlaying ? match_.state().window() : std::nullopt;
  if (open_window_ && (!now_open || now_open->id != open_window_->id)) {
    last_closed_ =
        ClosedWindow{open_window_->name, open_window_->seats, std::chrono::steady_clock::now()};
  }
  open_window_ = now_open;
  if (status_ != RoomStatus::kPlaying) {
    window_timer_.cancel();
    armed_window_.reset();
    return;
  }
  const auto w = match_.state().window();
  if (!w) {
    if (armed_window_) window_timer_.cancel();
    armed_window_.reset();
    return;
  }
  if (armed_window_ && *armed_window_ == w->id) return;
  armed_window_ = w->id;
  const auto millis = static_cast<std::int64_t>(static_cast<double>(w->millis) *
                                                (config_.test_mode ? config_.window_scale : 1.0));
  window_ends_at_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(millis);
  window_ends_at_ms_ = now_ms() + millis;
  window_timer_.expires_at(window_ends_at_);
  const std::int32_t id = w->id;
  window_timer_.async_wait([self = shared_from_this(), id](boost::system::error_code ec) {
    if (ec || self->closed_) return;
    const auto open = self->match_.state().window();
    if (!open || open->id != id) return;
    if (auto err = self->commit(kSystem, Action::timeout(id), MoveCause::kWindowTimeout)) {
      spdlog::warn("room {}: closing window {} was refused: {}", self->code_, id, err->message);
    }
  });
}

Status Room::commit(Seat seat, const Action& a, MoveCause cause, Events events,
                    const Asker* asker) {
  if (auto err = match_.apply(seat, a, events)) return err;
  record_action(seat, a);
  metrics_.move_committed(cause);
  if (asker != nullptr) {
    reply(asker->client, asker->id,
          {{"type", "ok"}, {"version", version_ + 1}, {"move", match_.log().size() - 1}});
  }
  changed(&events.list());
  if (asker != nullptr) metrics_.action_applied(asker->received);
  return std::nullopt;
}

json Room::turn_json() const {
  if (turn_seats_.empty() || turn_ends_at_ms_ == 0) return nullptr;
  json seats = json::array();
  turn_seats_.for_each([&](Seat s) { seats.push_back(s); });
  return {{"seats", std::move(seats)},
          {"endsAt", turn_ends_at_ms_},
          {"remainingMs", std::max<std::int64_t>(0, turn_ends_at_ms_ - wall_ms())}};
}

void Room::arm_turn() {
  // Players (not bots) who must act outside a timed window have `turnSeconds` to do it (the
  // room's, or the game's own when the room set none: see with_game_turn_timer); the clock
  // restarts whenever what one of them may do changes.
  SeatSet humans;
  std::size_t key = 0;
  if (settings_.turn_seconds > 0 && status_ == RoomStatus::kPlaying && !match_.state().window()) {
    const State& st = match_.state();
    st.to_act().for_each([&](Seat s) {
      if (is_bot(static_cast<std::size_t>(s))) return;
      humans.insert(s);
      std::string legal;
      for (const Action& a : st.legal_actions(s)) legal += match_.game().action_to_json(a).dump();
      key = key * 1000003u ^ std::hash<std::string>{}(legal) ^ static_cast<std::size_t>(s);
    });
  }
  if (humans.empty()) {
    if (!turn_seats_.empty()) turn_timer_.cancel();
    turn_seats_ = {};
    turn_ends_at_ms_ = 0;
    return;
  }
  if (humans == turn_seats_ && key == turn_key_) return;
  turn_seats_ = humans;
  turn_key_ = key;
  const auto millis = static_cast<std::int64_t>(settings_.turn_seconds * 1000.0 *
                                                (config_.test_mode ? config_.window_scale : 1.0));
  turn_ends_at_ms_ = wall_ms() + millis;
  turn_timer_.expires_after(std::chrono::milliseconds(millis));
  turn_timer_.async_wait([self = shared_from_this(), key](boost::system::error_code ec) {
    if (ec || self->closed_ || self->turn_key_ != key) return;
    self->turn_expired();
  });
}

void Room::turn_expired() {
  const SeatSet late = turn_seats_;
  turn_seats_ = {};
  turn_ends_at_ms_ = 0;
  if (status_ != RoomStatus::kPlaying) return;
  // Each late player's move is a change of its own (the games time out one player at a time:
  // simultaneous choices happen in timed windows, which have no turn timer).
  late.for_each([&](Seat s) {
    const State& st = match_.state();
    if (status_ != RoomStatus::kPlaying || !st.to_act().contains(s) ||
        is_bot(static_cast<std::size_t>(s))) {
      return;
    }
    Action a;
    if (settings_.timeout_bot) {
      const auto legal = st.legal_actions(s);
      if (legal.empty()) return;
      auto strategy = bots::make_strategy("basic", match_.game());
      bots::Decision decision(match_.game(), s, legal, {}, [&] { return st.view(s); });
      offer_engine(decision, st, s);
      const std::size_t pick = strategy->choose(decision, bot_rng_);
      a = legal[pick < legal.size() ? pick : 0];
    } else {
      a = st.fallback_action(s);
    }
    const std::string words = st.describe(s, a);
    Events notice;
    notice.emit(Audience::all(), [&] {
      return json{{"type", "turn_timeout"},
                  {"seat", s},
                  {"text", "{seat:" + std::to_string(s) + "} ran out of time: " + words}};
    });
    if (auto err = commit(s, a, MoveCause::kTurnTimer, std::move(notice))) {
      spdlog::error("room {}: the timeout move for seat {} was refused: {}", code_, s,
                    err->message);
    }
  });
}

void Room::arm_grace(int seat) {
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  const auto millis = static_cast<std::int64_t>(settings_.grace_seconds * 1000.0 *
                                                (config_.test_mode ? config_.window_scale : 1.0));
  info.grace->expires_after(std::chrono::milliseconds(millis));
  info.grace->async_wait([self = shared_from_this(), seat](boost::system::error_code ec) {
    if (ec || self->closed_) return;
    self->grace_expired(seat);
  });
}

void Room::grace_expired(int seat) {
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  if (!info.taken || !info.bot_name.empty() || !info.client.expired() || info.away) return;
  if (status_ == RoomStatus::kWaiting) {
    spdlog::info("room {}: seat {} given back ('{}' did not return)", code_, seat, info.name);
    free_seat(seat);
    changed(nullptr);
    return;
  }
  if (status_ != RoomStatus::kPlaying || !settings_.bot_takeover) return;
  info.away = true;
  info.bot = bots::make_strategy("basic", match_.game());
  Events events;
  events.emit(Audience::all(), [&] {
    return json{{"type", "bot_takeover"},
                {"seat", seat},
                {"text", "a bot plays for {seat:" + std::to_string(seat) + "} until they return"}};
  });
  spdlog::info("room {}: a bot plays seat {} while '{}' is away", code_, seat, info.name);
  changed(&events.list());
}

void Room::schedule_bots() {
  // One bot move at a time: while one is being decided (a search on the pool) or waits for its
  // moment, nothing more is planned. A change to the room drops the waiting move (changed()),
  // and a search's answer, used or dropped, plans the next one.
  if (status_ != RoomStatus::kPlaying || bot_planned_ || thinking_) return;
  const SeatSet acting = match_.state().to_act();
  std::optional<Seat> chosen;
  acting.for_each([&](Seat s) {
    if (!chosen && seats_[static_cast<std::size_t>(s)].bot) chosen = s;
  });
  if (!chosen) return;
  const auto asked = std::chrono::steady_clock::now();
  const State& st = match_.state();
  SeatInfo& info = seats_[static_cast<std::size_t>(*chosen)];
  if (bot_pool_ != nullptr && info.bot->searches()) {
    // The search runs on the pool over a copy of the state; the room goes on answering. The
    // copy holds the true cards, but the bot only sees them through recall and determinize,
    // as it would here.
    thinking_ = *chosen;
    think_abandoned_ = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<const State> copy = st.clone();
    BotPool* pool = bot_pool_;
    bot_pool_->think([self = weak_from_this(), bot = info.bot, copy = std::move(copy),
                      seat = *chosen, version = version_, seed = bot_rng_.next(),
                      abandoned = think_abandoned_, pool, asked, &game = match_.game()] {
      const auto legal = copy->legal_actions(seat);
      bots::Decision decision(game, seat, legal, {}, [&] { return copy->view(seat); });
      offer_engine(decision, *copy, seat);
      decision.offer_abandon(
          [&] { return abandoned->load(std::memory_order_relaxed) || pool->stopping(); });
      Rng rng(seed);
      const std::size_t pick = legal.empty() ? 0 : bot->choose(decision, rng);
      Action a = legal.empty() ? Action{} : legal[pick < legal.size() ? pick : 0];
      if (auto room = self.lock()) {
        asio::post(room->strand_, [room, seat, version, bot, a = std::move(a), asked]() mutable {
          room->thought(seat, version, bot.get(), std::move(a), asked);
        });
      }
    });
    return;
  }
  const auto legal = st.legal_actions(*chosen);
  bots::Decision decision(match_.game(), *chosen, legal, {}, [&] { return st.view(*chosen); });
  offer_engine(decision, st, *chosen);
  const std::size_t pick = info.bot->choose(decision, bot_rng_);
  plan_bot_move(*chosen, legal[pick < legal.size() ? pick : 0], asked);
}

void Room::thought(Seat seat, long long version, const bots::Strategy* bot, Action a,
                   std::chrono::steady_clock::time_point asked) {
  thinking_.reset();
  think_abandoned_.reset();
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  // The bot hears, in order, what its seat was told while it searched.
  std::vector<Event> unheard = std::move(info.unheard);
  info.unheard.clear();
  if (info.bot.get() == bot) {
    for (const Event& e : unheard) info.bot->observe(e);
  }
  if (closed_ || status_ != RoomStatus::kPlaying) return;
  if (version != version_ || info.bot.get() != bot) {
    // The table moved on while it searched (another seat acted, a window closed, someone came
    // or went): that answer is for a state that is gone. Ask again.
    schedule_bots();
    return;
  }
  plan_bot_move(seat, std::move(a), asked);
}

std::chrono::milliseconds Room::bot_delay() {
  const auto draw = [this](int lo, int hi) {
    hi = std::max(lo, hi);
    return lo + static_cast<int>(bot_rng_.below(static_cast<std::uint64_t>(hi - lo) + 1));
  };
  if (match_.state().window()) {
    // A timed window (a slap, a peek, a vote) is a race: a bot reacts as a person does, after
    // a reaction time a person can beat, scaled as the window is.
    // Never quicker than the bot's moment elsewhere.
    const double scale = config_.test_mode ? config_.window_scale : 1.0;
    const int ms = draw(config_.bot_reaction_min_ms, config_.bot_reaction_max_ms);
    return std::chrono::milliseconds(
        std::max<std::int64_t>(static_cast<std::int64_t>(ms * scale), config_.bot_delay_ms));
  }
  // Elsewhere a bot takes a person's moment to move: between the delay and twice it.
  return std::chrono::milliseconds(draw(config_.bot_delay_ms, 2 * config_.bot_delay_ms));
}

void Room::plan_bot_move(Seat seat, Action a, std::chrono::steady_clock::time_point asked) {
  // The time a search took counts towards the delay.
  const auto waited = std::chrono::steady_clock::now() - asked;
  const auto wait = std::max<std::chrono::steady_clock::duration>(
      std::chrono::steady_clock::duration::zero(), bot_delay() - waited);
  bot_planned_ = true;
  const std::uint64_t plan = ++bot_plan_;
  bot_timer_.expires_after(wait);
  bot_timer_.async_wait(
      [self = shared_from_this(), plan, seat, a = std::move(a)](boost::system::error_code ec) {
        // A change since the move was chosen (changed() moves bot_plan_ on) drops it.
        if (ec || self->closed_ || self->bot_plan_ != plan) return;
        self->bot_planned_ = false;
        const SeatInfo& info = self->seats_[static_cast<std::size_t>(seat)];
        const MoveCause cause = info.away ? MoveCause::kTakeoverBot : MoveCause::kServerBot;
        if (auto err = self->commit(seat, a, cause)) {
          spdlog::warn("room {}: {} refused for seat {}: {}", self->code_,
                       self->match_.game().action_to_json(a).dump(), seat, err->message);
          self->schedule_bots();
        }
      });
}

std::unique_ptr<bots::Strategy> Room::make_bot(std::string_view name) const {
  bots::StrategyOptions options;
  options.think_ms = config_.bot_think_ms;
  return bots::make_strategy(name, match_.game(), options);
}

void Room::take_seat(const std::shared_ptr<Client>& c, int seat, std::string name, const json& id) {
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  const std::string token = new_token();
  info.taken = true;
  info.name = std::move(name);
  info.names = {{info.name, match_.log().size()}};
  info.token_hash = hash_token(token);
  info.client = c;
  info.grace->cancel();
  c->entered(code_);
  // The seat and its token's hash are durable before the token is handed out.
  record_seat(seat);
  json body = {{"type", "joined"}, {"room", code_}, {"seat", seat}, {"token", token}};
  reply(c, id, std::move(body));
  spdlog::info("room {}: seat {} taken by '{}'", code_, seat, info.name);
  changed(nullptr);
}

void Room::forget(const Client* c) {
  for (auto& s : seats_) {
    if (!s.bot && s.client.lock().get() == c) s.client.reset();
  }
  std::erase_if(spectators_, [&](const std::weak_ptr<Client>& w) {
    auto p = w.lock();
    return !p || p.get() == c;
  });
}

void Room::join(std::shared_ptr<Client> c, std::string name, json id, std::optional<int> seat) {
  on_strand([this, c = std::move(c), name = std::move(name), id = std::move(id), seat]() mutable {
    if (auto held = seat_of(c.get())) {
      return fail(c, id, ErrorCode::kRoomFull,
                  "you already hold seat " + std::to_string(*held + 1) + " of this room");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has started; ask for a rejoin link");
    }
    std::optional<int> free;
    if (seat) {
      if (*seat < 0 || *seat >= match_.seats()) {
        return fail(c, id, ErrorCode::kRoomFull,
                    "\"seat\" is 0 to " + std::to_string(match_.seats() - 1) +
                        " in this room (seats are counted from 0 here)");
      }
      if (!seats_[static_cast<std::size_t>(*seat)].taken) free = *seat;
    } else {
      for (int s = 0; s < match_.seats() && !free; ++s) {
        if (!seats_[static_cast<std::size_t>(s)].taken) free = s;
      }
    }
    if (!free) {
      return fail(c, id, ErrorCode::kRoomFull, seat ? "that seat is taken" : "the room is full");
    }
    forget(c.get());
    take_seat(c, *free, std::move(name), id);
  });
}

void Room::rejoin(std::shared_ptr<Client> c, std::string name, json id, std::string token) {
  on_strand([this, c = std::move(c), name = std::move(name), id = std::move(id),
             token = std::move(token)]() mutable {
    const std::string hash = hash_token(token);
    for (std::size_t s = 0; s < seats_.size(); ++s) {
      SeatInfo& info = seats_[s];
      if (!info.taken || !info.bot_name.empty() || info.token_hash != hash) continue;
      auto previous = info.client.lock();
      if (previous && previous != c) previous->evicted(code_);
      forget(c.get());
      info.client = c;
      info.grace->cancel();
      if (info.away) {
        // Back from being away: the bot that kept the seat warm steps aside.
        info.away = false;
        info.bot.reset();
      }
      c->entered(code_);
      Events events;
      rename_seat(static_cast<int>(s), std::move(name), events);
      reply(c, id, {{"type", "joined"}, {"room", code_}, {"seat", s}, {"token", token}});
      c->rejoin_answered(true);
      spdlog::info("room {}: seat {} resumed by '{}'", code_, s, info.name);
      changed(&events.list());
      return;
    }
    fail(c, id, ErrorCode::kBadToken, "that token does not belong to a seat of room " + code_);
    c->rejoin_answered(false);
  });
}

void Room::spectate(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    forget(c.get());
    spectators_.push_back(c);
    c->entered(code_);
    reply(c, id, {{"type", "spectating"}, {"room", code_}});
    out(c, make_frame(state_frame(-1)));
    update_summary();
  });
}

void Room::leave(std::shared_ptr<Client> c, json id, bool send_reply) {
  on_strand([this, c = std::move(c), id = std::move(id), send_reply] {
    const auto seat = seat_of(c.get());
    const bool spectator = is_spectator(c.get());
    if (!seat && !spectator) {
      if (send_reply) fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
      return;
    }
    forget(c.get());
    if (seat && status_ == RoomStatus::kWaiting) {
      free_seat(*seat);
    } else if (seat && status_ == RoomStatus::kPlaying) {
      arm_grace(*seat);
    }
    if (send_reply) reply(c, id, {{"type", "left"}, {"room", code_}});
    if (seat) {
      changed(nullptr);
    } else {
      update_summary();
    }
  });
}

void Room::disconnected(std::shared_ptr<Client> c) {
  on_strand([this, c = std::move(c)] {
    const auto seat = seat_of(c.get());
    forget(c.get());
    // The seat waits for its player (a reload, a flaky phone): before the start it is given
    // back after the grace period; during the game a bot may take it over then.
    if (seat && status_ != RoomStatus::kOver) arm_grace(*seat);
    if (seat) {
      spdlog::info("room {}: seat {} disconnected", code_, *seat);
      changed(nullptr);
    } else {
      update_summary();
    }
  });
}

void Room::add_bot(std::shared_ptr<Client> c, json id, std::optional<int> seat,
                   std::string strategy) {
  on_strand([this, c = std::move(c), id = std::move(id), seat, strategy = std::move(strategy)] {
    if (!seat_of(c.get())) {
      return fail(c, id, ErrorCode::kNotSeated, "only seated players may add bots");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has started");
    }
    auto bot = make_bot(strategy);
    if (!bot) return fail(c, id, ErrorCode::kBadRequest, "unknown bot strategy '" + strategy + "'");
    std::optional<int> free;
    for (int s = 0; s < match_.seats() && !free; ++s) {
      if ((!seat || *seat == s) && !seats_[static_cast<std::size_t>(s)].taken) free = s;
    }
    if (!free) {
      return fail(c, id, ErrorCode::kRoomFull, seat ? "that seat is taken" : "the room is full");
    }
    SeatInfo& info = seats_[static_cast<std::size_t>(*free)];
    info.taken = true;
    info.name = "Bot " + std::to_string(*free + 1);
    info.names = {{info.name, 0}};
    info.bot = std::move(bot);
    info.bot_name = strategy;
    record_seat(*free);
    reply(c, id, {{"type", "ok"}});
    changed(nullptr);
  });
}

void Room::start(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    if (!seat_of(c.get())) {
      return fail(c, id, ErrorCode::kNotSeated, "only seated players may start");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has already started");
    }
    const bool full =
        std::all_of(seats_.begin(), seats_.end(), [](const SeatInfo& s) { return s.taken; });
    if (!full) return fail(c, id, ErrorCode::kNotReady, "every seat needs a player or a bot first");
    if (fairness_ && !fairness_->fixed) {
      // The deal the server committed to, mixed with every contribution in seat order.
      auto dealt = Match::create(match_.game(), match_.seats(), match_.options().to_json(),
                                 fairness_->derivation().seed);
      if (!dealt) return fail(c, id, ErrorCode::kInternal, dealt.error().message);
      match_ = std::move(*dealt);
      bot_rng_ = Rng(match_.seed() ^ 0xB07B07ull);
    }
    status_ = RoomStatus::kPlaying;
    Journal::Record r;
    r.kind = Journal::Record::Kind::kStatus;
    r.status = "playing";
    record(std::move(r));
    reply(c, id, {{"type", "ok"}});
    spdlog::info("room {}: {} started with {} seats", code_, match_.game().info().id,
                 match_.seats());
    changed(nullptr);
  });
}

void Room::contribute(std::shared_ptr<Client> c, json id, std::string entropy) {
  on_strand([this, c = std::move(c), id = std::move(id), entropy = std::move(entropy)] {
    const auto seat = seat_of(c.get());
    if (!seat) return fail(c, id, ErrorCode::kNotSeated, "only seated players may contribute");
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "contributions close when the game starts");
    }
    if (!fairness_ || fairness_->fixed) {
      return fail(c, id, ErrorCode::kBadRequest,
                  fairness_ ? "this room's deal was fixed by its creator (test mode); it takes no "
                              "contributions"
                            : "this room was created before fair shuffles; it takes no "
                              "contributions");
    }
    fairness_->contributions[static_cast<std::size_t>(*seat)] = entropy;
    record_seat(*seat);
    reply(c, id, {{"type", "ok"}});
    changed(nullptr);
  });
}

void Room::action(std::shared_ptr<Client> c, json id, json action,
                  std::optional<long long> version) {
  on_strand([this, c = std::move(c), id = std::move(id), action = std::move(action), version,
             received = std::chrono::steady_clock::now()] {
    const auto seat = seat_of(c.get());
    if (!seat) return fail(c, id, ErrorCode::kNotSeated, "spectators cannot act");
    if (status_ == RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kNotYourTurn, "the game has not started yet");
    }
    if (status_ == RoomStatus::kOver) return fail(c, id, ErrorCode::kGameOver, "the game is over");
    // Stale only when what this seat may do changed after the state it acted on (others
    // acting in a simultaneous window does not make a still-legal move stale).
    const long long since = seats_[static_cast<std::size_t>(*seat)].legal_since;
    if (version && (*version < since || *version > version_)) {
      return fail(c, id, ErrorCode::kStale,
                  "your choices changed at version " + std::to_string(since) + "; look again");
    }
    auto a = match_.game().action_from_json(action);
    if (!a) return fail(c, id, a.error());
    if (a->is_timeout()) {
      return fail(c, id, ErrorCode::kNotAllowed, "only the server closes windows");
    }
    const Asker asker{c, id, received};
    if (auto err = commit(*seat, *a, MoveCause::kPlayer, Events{}, &asker)) {
      // A move for a window that closed a moment ago lost the race: say so plainly.
      if (err->code == protocol::to_string(ErrorCode::kNotYourTurn) && last_closed_ &&
          last_closed_->seats.contains(*seat) &&
          std::chrono::steady_clock::now() - last_closed_->at < std::chrono::seconds(3)) {
        return fail(c, id, ErrorCode::kWindowClosed,
                    "too late: the " + last_closed_->name + " window has closed");
      }
      return fail(c, id, *err);
    }
  });
}

void Room::chat(std::shared_ptr<Client> c, json id, std::string text, std::string name) {
  on_strand(
      [this, c = std::move(c), id = std::move(id), text = std::move(text), name = std::move(name)] {
        const auto seat = seat_of(c.get());
        if (!seat && !is_spectator(c.get())) {
          return fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
        }
        const std::string& sender = seat ? seats_[static_cast<std::size_t>(*seat)].name : name;
        const Frame f = make_frame(dump({{"type", "chat"},
                                         {"room", code_},
                                         {"seat", seat ? json(*seat) : json(nullptr)},
                                         {"name", sender},
                                         {"text", text}}));
        for (const auto& s : seats_) {
          if (auto p = s.client.lock(); p && !s.bot) out(p, f);
        }
        for (const auto& w : spectators_) {
          if (auto p = w.lock()) out(p, f);
        }
        if (!id.is_null()) reply(c, id, {{"type", "ok"}});
      });
}

void Room::sync(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    const auto seat = seat_of(c.get());
    if (!seat && !is_spectator(c.get())) {
      return fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
    }
    if (!id.is_null()) reply(c, id, {{"type", "ok"}, {"version", version_}});
    out(c, make_frame(state_frame(seat ? *seat : -1)));
  });
}

void Room::history(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    const auto seat = seat_of(c.get());
    if (!seat && !is_spectator(c.get())) {
      return fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
    }
    // The game is replayed from its log, so what comes back is exactly what this member was
    // sent: a seat's own private events and everyone's public ones, a spectator's only those.
    json events = json::array();
    if (status_ != RoomStatus::kWaiting) {
      // Each event names the seats as they were called when it was sent.
      NameHistory names;
      for (const SeatInfo& s : seats_) {
        auto& history = names.emplace_back();
        if (!s.taken) continue;
        for (const SeatName& n : s.names) history.push_back({n.from_move, n.name});
        if (history.empty()) history.push_back({0, s.name});
      }
      auto replay = GameReplay::open(Registry::builtin(), match_.save(), std::move(names));
      if (replay) {
        events = replay->recent_events(seat ? *seat : kSpectator, kHistoryEvents);
      } else {
        spdlog::error("room {}: history: {}", code_, replay.error().message);
      }
    }
    reply(c, id, {{"type", "ok"}, {"version", version_}, {"events", std::move(events)}});
  });
}

void Room::rename(std::shared_ptr<Client> c, std::string name) {
  on_strand([this, c = std::move(c), name = std::move(name)]() mutable {
    if (auto seat = seat_of(c.get())) {
      Events events;
      if (rename_seat(*seat, std::move(name), events)) changed(&events.list());
    }
  });
}

bool Room::rename_seat(int seat, std::string name, Events& events) {
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  if (name.empty() || name == info.name) return false;
  const std::string before = std::exchange(info.name, std::move(name));
  // Moves already made keep the old name; the new one applies from the next move.
  const std::size_t from = match_.log().size();
  if (!info.names.empty() && info.names.back().from_move == from) info.names.pop_back();
  if (info.names.empty() || info.names.back().name != info.name) {
    info.names.push_back({info.name, from});
  }
  record_seat(seat);
  if (status_ != RoomStatus::kWaiting) {
    events.emit(Audience::all(), [&] {
      return json{{"type", "renamed"},
                  {"seat", seat},
                  {"from", before},
                  {"text", literal(before) + " is now called {seat:" + std::to_string(seat) + "}"}};
    });
  }
  return true;
}

void Room::free_seat(int seat) {
  SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
  info.grace->cancel();
  auto grace = std::move(info.grace);
  info = SeatInfo{};
  info.grace = std::move(grace);
  // A contribution belongs to the player who gave it.
  if (fairness_) fairness_->contributions[static_cast<std::size_t>(seat)].clear();
  record_seat(seat);
}

void Room::shutdown(std::string reason) {
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason)] {
    self->closed_ = true;
    self->closed_reason_ = reason;
    if (self->think_abandoned_) self->think_abandoned_->store(true, std::memory_order_relaxed);
    std::lock_guard lock(self->summary_mutex_);
    self->refusal_ = reason;
    self->window_timer_.cancel();
    self->bot_timer_.cancel();
    self->turn_timer_.cancel();
    for (auto& s : self->seats_) s.grace->cancel();
  });
}

void Room::retire() {
  asio::post(strand_, [self = shared_from_this()] {
    if (self->status_ == RoomStatus::kOver) return;
    Journal::Record r;
    if (self->status_ == RoomStatus::kWaiting) {
      r.kind = Journal::Record::Kind::kRemove;
    } else {
      r.kind = Journal::Record::Kind::kStatus;
      r.status = "abandoned";
    }
    r.code = self->code_;
    r.version = self->version_;
    self->journal_.write(std::move(r), nullptr);
  });
}

void Room::close(std::string reason) {
  on_strand([this, reason = std::move(reason)] {
    const Frame f =
        make_frame(dump({{"type", "room_closed"}, {"room", code_}, {"reason", reason}}));
    for (auto& s : seats_) {
      if (auto c = s.client.lock(); c && !s.bot) c->send(f);
      s.client.reset();
    }
    for (const auto& w : spectators_) {
      if (auto c = w.lock()) c->send(f);
    }
    spectators_.clear();
  });
}

void Room::describe(std::function<void(json)> done) {
  // Not on_strand: a room closed meanwhile still answers, so the caller is never left waiting.
  asio::post(strand_, [self = shared_from_this(), done = std::move(done)] {
    done({{"room", self->code_},
          {"game", self->match_.game().info().id},
          {"status", status_name(self->status_)},
          {"private", !self->listed_},
          {"seats", self->match_.seats()},
          {"version", self->version_},
          {"players", self->players()},
          {"spectators", self->spectators_.size()},
          {"closed", self->closed_}});
  });
}

}  // namespace campfire::server
