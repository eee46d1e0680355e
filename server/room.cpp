#include "server/room.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <utility>

#include "protocol/json_text.hpp"
#include "protocol/messages.hpp"
#include "protocol/protocol.hpp"
#include "server/game_replay.hpp"

namespace campfire::server {

using protocol::ErrorCode;
namespace message = protocol::message;

namespace {

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
      journal_(journal),
      metrics_(metrics),
      code_(std::move(code)),
      listed_(listed),
      created_ms_(wall_ms()),
      match_(std::move(match)),
      fairness_(fair ? std::move(*fair) : fairness::Record::fixed_deal(match_.seats())),
      seats_(match_.seats()),
      legal_(match_, [this](Seat seat,
                            const Action& a) { return render(match_.state().describe(seat, a)); }),
      clocks_(strand_, config, with_game_turn_timer(settings, match_), match_.seats(),
              [this] { return std::shared_ptr<void>(shared_from_this()); },
              {.window = [this](std::int32_t id) { window_expired(id); },
               .turn =
                   [this](SeatSet late) {
                     if (!closed_) turn_expired(late);
                   },
               .grace =
                   [this](int seat) {
                     if (!closed_) grace_expired(seat);
                   }}),
      bots_(strand_, config, match_, seats_, code_, match_.seed(),
            {.playing = [this] { return status_ == RoomStatus::kPlaying; },
             .version = [this] { return version_; },
             .legal = [this](Seat seat) -> const std::vector<Action>& {
               return legal_.actions(seat, version_);
             },
             .commit = [this](Seat seat, const Action& a,
                              MoveCause cause) { return commit(seat, a, cause); },
             .owner = [this] { return std::shared_ptr<void>(shared_from_this()); }}),
      gate_(journal, [this] { journal_failed(); }) {
  update_summary();
}

namespace {

RoomSettings stored_settings(const StoredRoom& stored, const Config& config) {
  auto s = RoomSettings::parse(stored.settings, config);
  return s ? *s : RoomSettings{};
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
    std::unique_ptr<bots::Strategy> bot;
    if (!seat.bot.empty()) {
      bot = bots_.make_bot(seat.bot);
      if (!bot) bot = bots_.make_bot("basic");
    }
    seats_.restore(seat.seat, seat, std::move(bot));
    if (fairness_) fairness_->contributions[static_cast<std::size_t>(seat.seat)] = seat.entropy;
  }
  fairness_changed();
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
  r.room.settings = clocks_.settings().to_json();
  r.room.status = status_name(status_);
  r.room.version = version_;
  r.room.created_ms = created_ms_;
  record(std::move(r));
}

void Room::resume() {
  on_strand([this] {
    arm_window();
    arm_turn();
    bots_.schedule();
    // Nobody is connected to a room rebuilt after a restart: their seats wait for them.
    for (int s = 0; s < seats_.size(); ++s) {
      if (seats_[s].occupant == Occupant::kHuman) arm_grace(s);
    }
    spdlog::info("room {}: resumed {} with {} actions at version {}", code_, status_name(status_),
                 match_.log().size(), version_);
  });
}

void Room::created(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    reply(c, id, message::created(code_));
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
  summary_.taken = seats_.taken();
  summary_.bots = seats_.bots();
  summary_.spectators = static_cast<int>(spectators_.size());
  summary_.listed = listed_;
  summary_.status = status_;
  // The match's (the start deals a new match with the same options, and the first one goes).
  summary_.options = match_.options();
  summary_.last_activity = std::chrono::steady_clock::now();
  summary_.connected = seats_.connected_players();
}

void Room::out(const std::shared_ptr<Client>& c, Frame f) {
  gate_.send(c, std::move(f));
}

void Room::reply(const std::shared_ptr<Client>& c, const json& id, json body) {
  out(c, make_frame(dump(message::with_id(std::move(body), id))));
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
  r.epoch = epoch_;
  recorded_version_ = r.version;
  // The journal answers from its own thread; the room stays alive until its answer is back.
  gate_.write(std::move(r), [self = shared_from_this()](std::function<void()> f) {
    asio::post(self->strand_, [self, f = std::move(f)] { f(); });
  });
}

void Room::record_seat(int seat) {
  const Seats::Info& info = seats_[seat];
  Journal::Record r;
  if (info.taken()) {
    r.kind = Journal::Record::Kind::kSeat;
    r.seat = {seat,
              info.name,
              info.token_hash ? token_hash_hex(*info.token_hash) : "",
              info.bot_name,
              info.all_names(),
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

void Room::journal_failed() {
  // What the journal could not keep is shown to nobody (the gate drops it): the room stops here,
  // and a restart brings it back from its last durable move.
  if (closed_) return;
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
  std::lock_guard lock(summary_mutex_);
  refusal_ = "the room is paused until the server restarts";
  clocks_.cancel_all();
  bots_.stop();
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
  // A bot deciding for the table that was drops its move; it is asked again below.
  bots_.table_changed();
  arm_window();
  arm_turn();
  // Each event is rendered once (once more without its text when a member asked for no words),
  // when a member first needs it, and its one frame goes to every recipient that hears events on
  // their own; every seat gets its own view, spectators share one public copy. A member who asked
  // for updates gets one frame instead: the events it is told and its state.
  const std::size_t n_events = events != nullptr ? events->size() : 0;
  std::vector<std::string> bodies(n_events);
  std::vector<std::string> bare(n_events);
  std::vector<Frame> event_frames(n_events);
  std::vector<Frame> bare_frames(n_events);
  const auto body_of = [&](std::size_t i, bool texts) -> const std::string& {
    std::string& body = texts ? bodies[i] : bare[i];
    if (body.empty()) body = event_body((*events)[i], texts);
    return body;
  };
  const auto event_frame_of = [&](std::size_t i, bool texts) {
    Frame& frame = texts ? event_frames[i] : bare_frames[i];
    if (!frame) frame = make_frame(event_frame(body_of(i, texts)));
    return frame;
  };
  // Bots hear what their seat is told, as a player would.
  if (events != nullptr) bots_.hear(*events);
  const StateParts parts = state_parts();
  std::vector<const std::string*> told;
  // One buffer for every seat's view: it keeps its capacity from seat to seat.
  OwnState own;
  for (int s = 0; s < seats_.size(); ++s) {
    auto c = seats_[s].client.lock();
    if (!c || seats_[s].bot_plays()) continue;
    const bool texts = c->texts();
    own_state(s, texts, c->updates() == UpdateMode::kDelta, own);
    const UpdateFrames::Own mine = own.parts(texts);
    if (c->updates() == UpdateMode::kState) {
      for (std::size_t i = 0; i < n_events; ++i) {
        if ((*events)[i].to.includes(s)) out(c, event_frame_of(i, texts));
      }
      out(c, make_frame(parts.frame(s, **mine.labels, **mine.legal, mine.view)));
    } else {
      told.clear();
      for (std::size_t i = 0; i < n_events; ++i) {
        if ((*events)[i].to.includes(s)) told.push_back(&body_of(i, texts));
      }
      out(c, make_frame(updates_.update(*c, code_, version_, told, parts, mine)));
    }
    if (own.legal_hash != seats_[s].legal_hash) {
      seats_[s].legal_hash = own.legal_hash;
      seats_[s].legal_since = version_;
    }
  }
  if (!spectators_.empty()) {
    own_state(-1, false, false, own);  // a spectator has no choices, nor their words
    Frame states[2];  // without and with labels
    for (const auto& w : spectators_) {
      auto c = w.lock();
      if (!c) continue;
      const bool texts = c->texts();
      const UpdateFrames::Own theirs = own.parts(texts);
      if (c->updates() != UpdateMode::kState) {
        told.clear();
        for (std::size_t i = 0; i < n_events; ++i) {
          if ((*events)[i].to.everyone) told.push_back(&body_of(i, texts));
        }
        out(c, make_frame(updates_.update(*c, code_, version_, told, parts, theirs)));
        continue;
      }
      for (std::size_t i = 0; i < n_events; ++i) {
        if ((*events)[i].to.everyone) out(c, event_frame_of(i, texts));
      }
      Frame& state = states[texts ? 1 : 0];
      if (!state) state = make_frame(parts.frame(-1, **theirs.labels, **theirs.legal, theirs.view));
      out(c, state);
    }
  }
  if (just_finished) {
    const Frame over =
        make_frame(dump(message::game_over(code_, match_.state().result().to_json())));
    for (const auto& s : seats_) {
      if (auto c = s.client.lock(); c && !s.bot_plays()) out(c, over);
    }
    for (const auto& w : spectators_) {
      if (auto c = w.lock()) out(c, over);
    }
    spdlog::info("room {} game over after {} actions", code_, match_.log().size());
  }
  bots_.schedule();
  // The frames are written and the bots have chosen: until the next change the room needs the
  // seats' texts, not their lists of actions.
  legal_.let_go_of_actions();
  update_summary();
}

void Room::arm_window() {
  clocks_.window(status_ == RoomStatus::kPlaying ? match_.state().window() : std::nullopt);
}

void Room::window_expired(std::int32_t id) {
  if (closed_) return;
  const auto open = match_.state().window();
  if (!open || open->id != id) return;
  if (auto err = commit(kSystem, Action::timeout(id), MoveCause::kWindowTimeout)) {
    spdlog::warn("room {}: closing window {} was refused: {}", code_, id, err->message);
  }
}

Status Room::commit(Seat seat, const Action& a, MoveCause cause, Events events,
                    const Asker* asker) {
  if (auto err = match_.apply(seat, a, events)) return err;
  record_action(seat, a);
  metrics_.move_committed(cause);
  if (asker != nullptr) {
    reply(asker->client, asker->id, message::ok_move(version_ + 1, match_.log().size() - 1));
  }
  changed(&events.list());
  if (asker != nullptr) metrics_.action_applied(asker->received);
  return std::nullopt;
}

void Room::arm_turn() {
  // Players (not bots) who must act outside a timed window have `turnSeconds` to do it (the
  // room's, or the game's own when the room set none: see with_game_turn_timer); the clock
  // restarts whenever what one of them may do changes.
  SeatSet humans;
  std::size_t key = 0;
  if (clocks_.settings().turn_seconds > 0 && status_ == RoomStatus::kPlaying &&
      !match_.state().window()) {
    const State& st = match_.state();
    st.to_act().for_each([&](Seat s) {
      if (seats_[s].bot_plays()) return;
      humans.insert(s);
      key = key * 1000003u ^ legal_.of(s, version_).hash ^ static_cast<std::size_t>(s);
    });
  }
  clocks_.turn(humans, key);
}

void Room::turn_expired(SeatSet late) {
  if (status_ != RoomStatus::kPlaying) return;
  // Each late player's move is a change of its own (the games time out one player at a time:
  // simultaneous choices happen in timed windows, which have no turn timer).
  late.for_each([&](Seat s) {
    const State& st = match_.state();
    if (status_ != RoomStatus::kPlaying || !st.to_act().contains(s) || seats_[s].bot_plays()) {
      return;
    }
    Action a;
    if (clocks_.settings().timeout_bot) {
      const std::vector<Action>& legal = legal_.actions(s, version_);
      if (legal.empty()) return;
      a = bots_.choose_now(s, legal);
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
  clocks_.arm_grace(seat);
}

void Room::grace_expired(int seat) {
  const Seats::Info& info = seats_[seat];
  if (info.occupant != Occupant::kHuman || !info.client.expired()) return;
  if (status_ == RoomStatus::kWaiting) {
    spdlog::info("room {}: seat {} given back ('{}' did not return)", code_, seat, info.name);
    free_seat(seat);
    changed(nullptr);
    return;
  }
  if (status_ != RoomStatus::kPlaying || !clocks_.settings().bot_takeover) return;
  seats_.go_away(seat, bots::make_strategy("basic", match_.game()));
  Events events;
  events.emit(Audience::all(), [&] {
    return json{{"type", "bot_takeover"},
                {"seat", seat},
                {"text", "a bot plays for {seat:" + std::to_string(seat) + "} until they return"}};
  });
  spdlog::info("room {}: a bot plays seat {} while '{}' is away", code_, seat, info.name);
  changed(&events.list());
}

void Room::start(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    if (!seat_of(c.get())) {
      return fail(c, id, ErrorCode::kNotSeated, "only seated players may start");
    }
    if (status_ != RoomStatus::kWaiting) {
      return fail(c, id, ErrorCode::kAlreadyStarted, "the game has already started");
    }
    if (!seats_.full()) {
      return fail(c, id, ErrorCode::kNotReady, "every seat needs a player or a bot first");
    }
    if (fairness_ && !fairness_->fixed) {
      // The deal the server committed to, mixed with every contribution in seat order.
      auto dealt = Match::create(match_.game(), match_.seats(), match_.options().to_json(),
                                 fairness_->derivation().seed);
      if (!dealt) return fail(c, id, ErrorCode::kInternal, dealt.error().message);
      match_ = std::move(*dealt);
      options_text_.clear();
      bots_.reseed(match_.seed());
    }
    status_ = RoomStatus::kPlaying;
    Journal::Record r;
    r.kind = Journal::Record::Kind::kStatus;
    r.status = "playing";
    record(std::move(r));
    reply(c, id, message::ok());
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
    fairness_changed();
    record_seat(*seat);
    reply(c, id, message::ok());
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
    const long long since = seats_[*seat].legal_since;
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
      if (err->code == protocol::to_string(ErrorCode::kNotYourTurn)) {
        if (const auto window = clocks_.just_closed(*seat)) {
          return fail(c, id, ErrorCode::kWindowClosed,
                      "too late: the " + *window + " window has closed");
        }
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
        const std::string& sender = seat ? seats_[*seat].name : name;
        const Frame f = make_frame(dump(message::chat(code_, seat, sender, text)));
        for (const auto& s : seats_) {
          if (auto p = s.client.lock(); p && !s.bot_plays()) out(p, f);
        }
        for (const auto& w : spectators_) {
          if (auto p = w.lock()) out(p, f);
        }
        if (!id.is_null()) reply(c, id, message::ok());
      });
}

void Room::sync(std::shared_ptr<Client> c, json id) {
  on_strand([this, c = std::move(c), id = std::move(id)] {
    const auto seat = seat_of(c.get());
    if (!seat && !is_spectator(c.get())) {
      return fail(c, id, ErrorCode::kNotInRoom, "you are not in room " + code_);
    }
    if (!id.is_null()) reply(c, id, message::ok_at(version_));
    send_state(c, seat ? *seat : -1);
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
      for (const Seats::Info& s : seats_) {
        auto& history = names.emplace_back();
        if (!s.taken()) continue;
        for (const SeatName& n : s.all_names()) history.push_back({n.from_move, n.name});
      }
      auto replay = GameReplay::open(Registry::builtin(), match_.save(), std::move(names));
      if (replay) {
        events = replay->recent_events(seat ? *seat : kSpectator, kHistoryEvents);
      } else {
        spdlog::error("room {}: history: {}", code_, replay.error().message);
      }
    }
    reply(c, id, message::ok_history(version_, std::move(events)));
  });
}

void Room::shutdown(std::string reason) {
  asio::post(strand_, [self = shared_from_this(), reason = std::move(reason)] {
    self->closed_ = true;
    std::lock_guard lock(self->summary_mutex_);
    self->refusal_ = std::move(reason);
    self->clocks_.cancel_all();
    self->bots_.stop();
  });
}

void Room::suspend(std::string reason) {
  on_strand([this, reason = std::move(reason)] {
    const Frame f = make_frame(protocol::error_frame(nullptr, ErrorCode::kUnavailable, reason));
    for (const auto& s : seats_) {
      if (auto c = s.client.lock(); c && !s.bot_plays()) c->send(f);
    }
    for (const auto& w : spectators_) {
      if (auto c = w.lock()) c->send(f);
    }
  });
  shutdown(std::move(reason));
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
        make_frame(dump(message::room_closed(code_, reason)));
    for (int s = 0; s < seats_.size(); ++s) {
      if (auto c = seats_[s].client.lock(); c && !seats_[s].bot_plays()) c->send(f);
      seats_[s].client.reset();
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
