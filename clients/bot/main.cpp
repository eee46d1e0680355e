// campfire-bot: the reference bot. It plays any registered game over the public protocol with a
// strategy of the bots library (the same ones the server's bots use), and exits with the result:
// 0 when every game it set out to play finished, 1 on any error.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bots/strategy.hpp"
#include "clients/bot/json_adapter.hpp"
#include "clients/common/connection.hpp"
#include "clients/common/http_get.hpp"
#include "clients/common/pacer.hpp"
#include "clients/common/updates.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "fairness/fairness.hpp"
#include "protocol/requests.hpp"

namespace proto = campfire::protocol;

namespace {

using campfire::client::Connection;
using json = nlohmann::json;
using namespace std::chrono_literals;

struct Flags {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  std::string name = "campfire-bot";
  std::string game = "pinocchio";
  int seats = 0;
  std::string options = "{}";
  std::string room;
  bool fill_bots = false;
  std::string strategy = "random";
  std::optional<std::uint64_t> seed;
  std::optional<std::uint64_t> deal_seed;
  int games = 1;
  bool tls = false;
  bool insecure = false;
  bool quiet = false;
  int idle_timeout_s = 300;
  int drop_after = 0;
  bool verify = true;  // fetch the replay after each game and check its shuffle
};

// A request the server refused, or a connection that could not be (re)established.
struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string describe_error(const json& e) {
  return e.value("code", std::string("error")) + ": " + e.value("message", std::string());
}

class Bot {
 public:
  Bot(Flags flags, std::uint64_t seed) : flags_(std::move(flags)), rng_(seed) {}

  // Plays one game to its end; returns true when this seat is among the winners.
  bool play_one() {
    room_.clear();
    token_.clear();
    seat_ = -1;
    acted_version_ = -1;
    pending_.clear();
    actions_sent_ = 0;
    dropped_once_ = false;
    start_sent_ = false;
    refusals_ = 0;
    strategy_.reset();
    entropy_.clear();
    commitment_.clear();
    connect();
    take_seat();
    const bool won = play();
    if (flags_.verify) check_shuffle();
    return won;
  }

 private:
  void say(const std::string& line) const {
    if (!flags_.quiet) std::cout << line << std::endl;
  }

  void connect() {
    conn_ = std::make_unique<Connection>(flags_.host, flags_.port, flags_.tls, flags_.insecure);
    updates_.reset();
    pacer_.wait();
    // A quiet bot prints no words, so it asks for none: smaller frames.
    const auto welcome = conn_->request(campfire::client::hello(flags_.name, !flags_.quiet));
    if (!welcome) throw Failure("no answer to hello");
    if (welcome->value("type", "") == "error") throw Failure(describe_error(*welcome));
  }

  json must(json request) {
    const std::string what = request.value("type", "");
    pacer_.wait();
    auto reply = conn_->request(std::move(request), 10s);
    if (!reply) throw Failure("no answer to " + what);
    if (reply->value("type", "") == "error")
      throw Failure(what + " refused: " + describe_error(*reply));
    return *reply;
  }

  void take_seat() {
    json joined;
    if (!flags_.room.empty()) {
      joined = must(proto::encode(proto::Join{flags_.room, std::nullopt}));
    } else {
      proto::CreateRoom create;
      create.game = flags_.game;
      create.seats = flags_.seats;
      create.options = json::parse(flags_.options);
      if (flags_.deal_seed) create.seed = *flags_.deal_seed;
      joined = must(proto::encode(create));
    }
    room_ = joined.value("room", "");
    seat_ = joined.value("seat", -1);
    token_ = joined.value("token", "");
    creator_ = flags_.room.empty();
    // Printed even when quiet: whoever launched the other players needs the code.
    std::cout << "room " << room_ << " seat " << seat_ << std::endl;
    contribute();
    if (creator_ && flags_.fill_bots) {
      for (int s = 0; s < flags_.seats; ++s) {
        if (s != seat_) must(proto::encode(proto::AddBot{room_, s, std::nullopt}));
      }
      must(proto::encode(proto::Start{room_}));
      start_sent_ = true;
    }
  }

  // Reconnects and takes the seat back with its token, as PROTOCOL.md's "Writing a bot" says.
  void rejoin() {
    auto backoff = 100ms;
    for (int attempt = 1;; ++attempt) {
      try {
        connect();
        must(proto::encode(proto::Rejoin{room_, token_}));
        say("rejoined room " + room_ + " as seat " + std::to_string(seat_));
        acted_version_ = -1;
        pending_.clear();
        return;
      } catch (const std::exception& e) {
        if (attempt == 10) throw Failure(std::string("cannot rejoin: ") + e.what());
        say(std::string("reconnecting: ") + e.what());
        std::this_thread::sleep_for(backoff);
        backoff = std::min(backoff * 2, std::chrono::milliseconds(2000));
      }
    }
  }

  void send(const json& message) {
    pacer_.wait();
    conn_->send(message);
  }

  bool play() {
    auto last_heard = std::chrono::steady_clock::now();
    for (;;) {
      auto message = conn_->receive(1s);
      if (!message) {
        if (!conn_->open()) {
          say("connection lost; rejoining");
          rejoin();
          last_heard = std::chrono::steady_clock::now();
          continue;
        }
        if (std::chrono::steady_clock::now() - last_heard >
            std::chrono::seconds(flags_.idle_timeout_s)) {
          throw Failure("nothing happened for " + std::to_string(flags_.idle_timeout_s) + " s");
        }
        continue;
      }
      last_heard = std::chrono::steady_clock::now();
      // An update frame stands for the events and the state that used to come one by one.
      auto read = updates_.read(std::move(*message));
      for (const json& m : read.messages) {
        if (auto result = handle(m)) return finish(*result);
      }
      if (read.sync) send(proto::encode(proto::Sync{*read.sync}));
    }
  }

  // One message from the server; the result once the game is over.
  std::optional<json> handle(const json& message) {
    const std::string type = message.value("type", "");
    if (type == "state") return on_state(message);
    if (type == "game_over") return message.at("result");
    if (type == "event") {
      if (strategy_) strategy_->observe(campfire::bot::observed_event(message, seat_));
      say("* " + message.at("event").value("text", ""));
    } else if (type == "chat") {
      say(message.value("name", "?") + ": " + message.value("text", ""));
    } else if (type == "ok") {
      on_ok(message);
    } else if (type == "error") {
      on_error(message);
    }
    return std::nullopt;
  }

  // Acts once per decision (PROTOCOL.md, "Writing a bot"): never while its last action waits for
  // its reply, and then only on a state at least as new as the version that action produced. In
  // a simultaneous phase or a window the other seats' moves bring states that still offer the
  // choice just made; acting on them again would only be refused as stale. Returns the result
  // once the game is over.
  std::optional<json> on_state(const json& state) {
    if (!strategy_) make_strategy(state.value("game", ""));
    if (commitment_.empty()) {
      const json& fairness = state.value("fairness", json());
      // A fixed deal's commitment is null: there is nothing to hold the replay to.
      if (fairness.is_object()) {
        const json& c = fairness.value("commitment", json());
        if (c.is_string()) commitment_ = c.get<std::string>();
      }
    }
    const std::string status = state.value("status", "");
    if (status == "over" && state.contains("result")) return state["result"];
    if (status == "waiting") {
      const json& players = state["players"];
      const bool full =
          std::all_of(players.begin(), players.end(), [](const json& p) { return !p.is_null(); });
      if (creator_ && full && !start_sent_) {
        send(proto::encode(proto::Start{room_}, "start"));
        start_sent_ = true;
      }
      return std::nullopt;
    }
    const json& legal = state["legal"];
    const long long version = state.value("version", 0LL);
    if (status != "playing" || legal.empty() || !pending_.empty() || version <= acted_version_) {
      return std::nullopt;
    }
    auto choice = campfire::bot::StateChoice::read(state, campfire::Registry::builtin());
    if (!choice) throw Failure("cannot play this state: " + choice.error().message);
    std::size_t pick = strategy_->choose(choice->decision(), rng_);
    if (pick >= legal.size()) pick = 0;
    acted_version_ = version;
    if (!flags_.quiet) {
      const json& labels = state["labels"];
      std::cout << "> "
                << (pick < labels.size() ? labels[pick].get<std::string>() : legal[pick].dump())
                << std::endl;
    }
    pending_ = "act-" + std::to_string(version);
    send(proto::encode(proto::Act{room_, legal[pick], version}, pending_));
    ++actions_sent_;
    if (flags_.drop_after > 0 && actions_sent_ == flags_.drop_after && !dropped_once_) {
      // Simulates a failing network once per game, to exercise the rejoin path.
      dropped_once_ = true;
      conn_->abort();
    }
    return std::nullopt;
  }

  // The strategy is made for the game once the first state names it (a room joined by code
  // says its game only then), so it hears every event of the game.
  void make_strategy(const std::string& game_id) {
    const campfire::Game* game = campfire::Registry::builtin().find(game_id);
    if (game == nullptr) throw Failure("the server plays '" + game_id + "', unknown here");
    strategy_ = campfire::bots::make_strategy(flags_.strategy, *game);
    if (!strategy_) throw Failure("no strategy '" + flags_.strategy + "' for " + game_id);
  }

  // The reply to our action names the version it produced: the state of that version (or a later
  // one) is the next to act on; states that came before the reply are already out of date.
  bool answers_pending(const json& reply) const {
    const auto id = reply.find("id");
    return !pending_.empty() && id != reply.end() && id->is_string() &&
           id->get_ref<const std::string&>() == pending_;
  }

  void on_ok(const json& ok) {
    if (!answers_pending(ok)) return;
    pending_.clear();
    acted_version_ = ok.value("version", 0LL) - 1;
  }

  void on_error(const json& error) {
    const std::string code = error.value("code", "");
    if (answers_pending(error)) pending_.clear();
    if (code == "replaced") throw Failure("our seat was taken over by another connection");
    // A refused action (a window closed, the room moved on) is answered by the next state; ask
    // for one so a lost update cannot leave the bot waiting, and allow acting on it again.
    say("refused: " + describe_error(error));
    if (code == "already_started") return;  // another player started first
    if (++refusals_ > 20) throw Failure("too many refusals: " + describe_error(error));
    if (code == "rate_limited") std::this_thread::sleep_for(1s);
    acted_version_ = -1;
    send(proto::encode(proto::Sync{room_}));
  }

  // Adds fresh entropy to the shuffle (PROTOCOL.md, "Writing a bot"), so that not even the
  // server alone chose the deal. A room that started already, or whose creator fixed the deal,
  // refuses it: the bot plays on.
  void contribute() {
    std::random_device device;
    std::string entropy;
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = 0; i < 8; ++i) {
      const std::uint32_t word = device();
      for (int shift = 28; shift >= 0; shift -= 4) entropy += kHex[(word >> shift) & 0xf];
    }
    pacer_.wait();
    const auto reply = conn_->request(proto::encode(proto::Contribute{room_, entropy}), 10s);
    if (!reply) throw Failure("no answer to contribute");
    if (reply->value("type", "") == "error") {
      say("no contribution to the shuffle: " + describe_error(*reply));
      return;
    }
    entropy_ = entropy;
    say("contributed to the shuffle");
  }

  // After the game: fetches the replay and checks that the deal came from the seed committed to
  // at the start and every contribution, ours among them. An unfair shuffle is a failure.
  void check_shuffle() {
    const auto got = campfire::client::http_get(flags_.host, flags_.port, flags_.tls,
                                                flags_.insecure, "/api/replays/" + room_);
    if (got.status != 200) {
      throw Failure("cannot fetch the replay to check the shuffle: HTTP " +
                    std::to_string(got.status));
    }
    const json replay = json::parse(got.body, nullptr, false);
    if (!replay.is_object()) throw Failure("the replay to check the shuffle is not JSON");
    json fairness = replay.value("fairness", json::object());
    if (!fairness.is_object()) fairness = json::object();
    if (fairness.value("fixed", json()) == json(true)) {
      say("shuffle: a fixed deal, chosen by the room's creator; not provably fair");
      return;
    }
    auto verdict = campfire::fairness::verify(campfire::Registry::builtin(), replay);
    std::vector<std::string>& problems = verdict.problems;
    const json said = fairness.value("commitment", json());
    if (!commitment_.empty() && said != json(commitment_)) {
      problems.push_back("commitment: the game started with " + commitment_ +
                         ", the replay says " + said.dump());
    }
    const json given = fairness.value("contributions", json::array());
    const auto at = static_cast<std::size_t>(seat_);
    if (!entropy_.empty() &&
        (!given.is_array() || at >= given.size() || given[at] != json(entropy_))) {
      problems.push_back("contribution: ours (" + entropy_ +
                         ") is not the one the replay lists for seat " + std::to_string(seat_));
    }
    if (problems.empty()) {
      std::cout << "shuffle: fair (commitment, our contribution, seed and deck order)"
                << std::endl;
      return;
    }
    std::string all;
    for (const std::string& p : problems) all += "\n  " + p;
    throw Failure("shuffle: NOT FAIR" + all);
  }

  bool finish(const json& result) {
    const json& places = result["places"];
    const bool seated = seat_ >= 0 && static_cast<std::size_t>(seat_) < places.size();
    const int place = seated ? places[static_cast<std::size_t>(seat_)].get<int>() : 0;
    bool won = false;
    for (const json& w : result["winners"]) won |= w.get<int>() == seat_;
    std::cout << "game over in room " << room_ << ": seat " << seat_ << " placed " << place
              << " of " << places.size() << (won ? ", won" : ", did not win") << std::endl;
    const json line = {
        {"room", room_}, {"seat", seat_}, {"place", place}, {"won", won}, {"result", result}};
    std::cout << "result " << line.dump() << std::endl;
    conn_->close();
    return won;
  }

  Flags flags_;
  std::unique_ptr<campfire::bots::Strategy> strategy_;
  campfire::Rng rng_;
  std::unique_ptr<Connection> conn_;
  campfire::client::Pacer pacer_;
  campfire::client::UpdateReader updates_;
  std::string room_;
  std::string token_;
  int seat_ = -1;
  bool creator_ = false;
  bool start_sent_ = false;
  long long acted_version_ = -1;
  std::string pending_;  // the id of our action while it waits for its reply
  int actions_sent_ = 0;
  bool dropped_once_ = false;
  int refusals_ = 0;
  std::string entropy_;     // what we contributed to this game's shuffle, if it was taken
  std::string commitment_;  // the shuffle's commitment in the first state we saw
};

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  CLI::App app{"campfire-bot: plays Campfire games over the protocol from the legal actions alone"};
  app.add_option("--host", flags.host, "server host");
  app.add_option("--port", flags.port, "server port");
  app.add_option("--name", flags.name, "display name");
  app.add_option("--game", flags.game, "game to create (ignored with --room)");
  app.add_option("--seats", flags.seats, "seats of the room to create")->check(CLI::Range(1, 64));
  app.add_option("--options", flags.options, "game options as a JSON object");
  auto* room = app.add_option("--room", flags.room, "join this room instead of creating one");
  app.add_flag("--fill-bots", flags.fill_bots,
               "fill the other seats with server bots and start at once")
      ->excludes(room);
  app.add_option("--strategy", flags.strategy, "move-choosing strategy")
      ->check(CLI::IsMember(campfire::bots::strategy_names()));
  app.add_option("--seed", flags.seed, "seed of the strategy's choices (random when absent)");
  app.add_option("--deal-seed", flags.deal_seed,
                 "seed of the room's shuffle (servers in test mode only)");
  app.add_option("--games", flags.games, "games to play one after the other")
      ->check(CLI::Range(1, 1000000));
  app.add_flag("--tls", flags.tls, "connect with wss://");
  app.add_flag("--insecure", flags.insecure, "do not verify the server's certificate");
  app.add_flag("--quiet", flags.quiet, "print only the room and the result");
  app.add_option("--idle-timeout", flags.idle_timeout_s,
                 "give up after this many seconds without a message")
      ->check(CLI::Range(1, 86400));
  app.add_option("--drop-after", flags.drop_after,
                 "drop the connection once after this many actions (tests the rejoin path)")
      ->check(CLI::Range(0, 1000000));
  app.add_flag("--no-verify{false}", flags.verify,
               "do not fetch the replay after a game to check its shuffle");
  CLI11_PARSE(app, argc, argv);

  if (flags.room.empty() && flags.seats == 0) {
    std::cerr << "campfire-bot: --seats is needed to create a room (or give --room)\n";
    return 2;
  }
  if (!flags.room.empty() && flags.games != 1) {
    std::cerr << "campfire-bot: --games works only when the bot creates its rooms\n";
    return 2;
  }
  try {
    if (!json::parse(flags.options).is_object()) throw std::invalid_argument("not an object");
  } catch (const std::exception&) {
    std::cerr << "campfire-bot: --options must be a JSON object\n";
    return 2;
  }
  const std::uint64_t seed = flags.seed.value_or(std::random_device{}());
  if (!flags.quiet) std::cout << "strategy " << flags.strategy << " seed " << seed << std::endl;

  Bot bot(flags, seed);
  int wins = 0;
  try {
    for (int g = 0; g < flags.games; ++g) wins += bot.play_one() ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "campfire-bot: " << e.what() << std::endl;
    return 1;
  }
  if (flags.games > 1)
    std::cout << "won " << wins << " of " << flags.games << " games" << std::endl;
  return 0;
}
