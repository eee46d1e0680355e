#include "server/bot_scheduler.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>

#include "server/bot_pool.hpp"

namespace campfire::server {

namespace {

// A bot deciding here may ask the engine what its seat was shown earlier and draw full states the
// seat cannot tell from the real one: State::recall and State::determinize reveal nothing else.
void offer_engine(bots::Decision& decision, const State& st, Seat seat) {
  decision.offer([&st, seat] { return st.recall(seat); },
                 [&st, seat](Rng& rng) { return st.determinize(seat, rng); });
}

}  // namespace

BotScheduler::BotScheduler(const Strand& strand, const Config& config, const Match& match,
                           Seats& seats, const std::string& room, std::uint64_t seed,
                           Table table)
    : strand_(strand),
      config_(config),
      match_(match),
      seats_(seats),
      room_(room),
      table_(std::move(table)),
      rng_(seed ^ 0xB07B07ull) {}

void BotScheduler::reseed(std::uint64_t seed) {
  rng_ = Rng(seed ^ 0xB07B07ull);
}

std::unique_ptr<bots::Strategy> BotScheduler::make_bot(std::string_view name) const {
  bots::StrategyOptions options;
  options.think_ms = config_.bot_think_ms;
  return bots::make_strategy(name, match_.game(), options);
}

void BotScheduler::table_changed() {
  // A bot searching on the pool, or waiting to make its move, decided for a table that is no
  // longer there: the search may stop, the move is dropped, and the bot is asked again.
  if (abandoned_) abandoned_->store(true, std::memory_order_relaxed);
  if (planned_) {
    planned_ = false;
    ++plan_;
    timer_->cancel();
  }
}

void BotScheduler::hear(const std::vector<Event>& events) {
  for (int s = 0; s < seats_.size(); ++s) {
    Seats::Info& info = seats_[s];
    if (!info.bot_plays()) continue;
    const bool busy = thinking_ && *thinking_ == s;
    for (const Event& e : events) {
      if (!e.to.includes(s)) continue;
      if (busy) {
        unheard_.push_back(e);
      } else {
        info.bot->observe(e);
      }
    }
  }
}

void BotScheduler::schedule() {
  // One bot move at a time: while one is being decided (a search on the pool) or waits for its
  // moment, nothing more is planned. A change to the room drops the waiting move
  // (table_changed()), and a search's answer, used or dropped, plans the next one.
  if (stopped_ || !table_.playing() || planned_ || thinking_) return;
  const SeatSet acting = match_.state().to_act();
  std::optional<Seat> chosen;
  acting.for_each([&](Seat s) {
    if (!chosen && seats_[s].bot_plays()) chosen = s;
  });
  if (!chosen) return;
  const auto asked = std::chrono::steady_clock::now();
  const State& st = match_.state();
  Seats::Info& info = seats_[*chosen];
  if (pool_ != nullptr && info.bot->searches()) {
    // The search runs on the pool over a copy of the state; the room goes on answering. The
    // copy holds the true cards, but the bot only sees them through recall and determinize,
    // as it would here.
    thinking_ = *chosen;
    abandoned_ = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<const State> copy = st.clone();
    BotPool* pool = pool_;
    pool_->think([this, owner = std::weak_ptr<void>(table_.owner()),
                  legal = table_.legal(*chosen), bot = info.bot, copy = std::move(copy),
                  seat = *chosen, version = table_.version(), seed = rng_.next(),
                  abandoned = abandoned_, pool, asked, &game = match_.game()] {
      bots::Decision decision(game, seat, legal, {}, [&] { return copy->view(seat); });
      offer_engine(decision, *copy, seat);
      decision.offer_abandon(
          [&] { return abandoned->load(std::memory_order_relaxed) || pool->stopping(); });
      Rng rng(seed);
      const std::size_t pick = legal.empty() ? 0 : bot->choose(decision, rng);
      Action a = legal.empty() ? Action{} : legal[pick < legal.size() ? pick : 0];
      // The scheduler lives as long as its room: `this` (its strand too) is used only while the
      // room does. The job holds no executor of its own: a search still queued when the server
      // stops is dropped with the pool, after the io_context its strand belonged to is gone.
      if (auto room = owner.lock()) {
        asio::post(strand_, [this, room, seat, version, bot, a = std::move(a), asked]() mutable {
          thought(seat, version, bot.get(), std::move(a), asked);
        });
      }
    });
    return;
  }
  const std::vector<Action>& legal = table_.legal(*chosen);
  bots::Decision decision(match_.game(), *chosen, legal, {}, [&] { return st.view(*chosen); });
  offer_engine(decision, st, *chosen);
  const std::size_t pick = info.bot->choose(decision, rng_);
  plan(*chosen, legal[pick < legal.size() ? pick : 0], asked);
}

Action BotScheduler::choose_now(Seat seat, const std::vector<Action>& legal) {
  const State& st = match_.state();
  auto strategy = bots::make_strategy("basic", match_.game());
  bots::Decision decision(match_.game(), seat, legal, {}, [&] { return st.view(seat); });
  offer_engine(decision, st, seat);
  const std::size_t pick = strategy->choose(decision, rng_);
  return legal[pick < legal.size() ? pick : 0];
}

void BotScheduler::thought(Seat seat, long long version, const bots::Strategy* bot, Action a,
                           std::chrono::steady_clock::time_point asked) {
  thinking_.reset();
  abandoned_.reset();
  Seats::Info& info = seats_[seat];
  // The bot hears, in order, what its seat was told while it searched.
  std::vector<Event> unheard = std::move(unheard_);
  unheard_.clear();
  if (info.bot.get() == bot) {
    for (const Event& e : unheard) info.bot->observe(e);
  }
  if (stopped_ || !table_.playing()) return;
  if (version != table_.version() || info.bot.get() != bot) {
    // The table moved on while it searched (another seat acted, a window closed, someone came
    // or went): that answer is for a state that is gone. Ask again.
    schedule();
    return;
  }
  plan(seat, std::move(a), asked);
}

std::chrono::milliseconds BotScheduler::delay() {
  const auto draw = [this](int lo, int hi) {
    hi = std::max(lo, hi);
    return lo + static_cast<int>(rng_.below(static_cast<std::uint64_t>(hi - lo) + 1));
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

void BotScheduler::plan(Seat seat, Action a, std::chrono::steady_clock::time_point asked) {
  // The time a search took counts towards the delay.
  const auto waited = std::chrono::steady_clock::now() - asked;
  const auto wait = std::max<std::chrono::steady_clock::duration>(
      std::chrono::steady_clock::duration::zero(), delay() - waited);
  planned_ = true;
  const std::uint64_t number = ++plan_;
  if (!timer_) timer_ = std::make_unique<asio::steady_timer>(strand_);
  timer_->expires_after(wait);
  timer_->async_wait(
      [this, owner = table_.owner(), number, seat, a = std::move(a)](boost::system::error_code ec) {
        // A change since the move was chosen (table_changed() moves plan_ on) drops it.
        if (ec || stopped_ || plan_ != number) return;
        planned_ = false;
        const MoveCause cause = seats_[seat].occupant == Occupant::kAway ? MoveCause::kTakeoverBot
                                                                         : MoveCause::kServerBot;
        if (auto err = table_.commit(seat, a, cause)) {
          spdlog::warn("room {}: {} refused for seat {}: {}", room_,
                       match_.game().action_to_json(a).dump(), seat, err->message);
          schedule();
        }
      });
}

void BotScheduler::stop() {
  stopped_ = true;
  if (abandoned_) abandoned_->store(true, std::memory_order_relaxed);
  if (timer_) timer_->cancel();
}

}  // namespace campfire::server
