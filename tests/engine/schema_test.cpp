// Every game's declaration (engine/core/schema.hpp) against what the game really sends: the view
// of every seat and of a spectator, every legal move and every event of random playouts over the
// game's seat counts with each option at each of its values, validated against the game's JSON
// Schema (tests/engine/schema_check.hpp), and every one of them by Debian's python3-jsonschema too,
// which also checks each schema against the 2020-12 meta-schema. Every member, move and event the
// declaration names must turn up at least once, so the declaration cannot keep what the game no
// longer sends.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unordered_set>
#include <utility>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "engine/core/schema.hpp"
#include "tests/engine/schema_check.hpp"
#include "tests/engine/test_support.hpp"

namespace campfire {
namespace {

namespace fs = std::filesystem;
using testing::scaled;

// What one game sent, each distinct instance once, and which declared parts it used.
struct Sample {
  std::vector<std::pair<std::string, std::string>> instances;  // kind, JSON text
  std::unordered_set<std::string> seen_text;
  std::set<std::string> paths;  // "view:lastClaim.by", "action:announce", "event:challenge:nose"

  void add(const std::string& kind, const json& instance) {
    std::string text = instance.dump();
    if (seen_text.insert(kind + text).second) instances.emplace_back(kind, std::move(text));
  }
};

void note_paths(const schema::Shape& shape, const json& instance, const std::string& prefix,
                std::set<std::string>& out) {
  std::vector<std::string> present;
  schema::paths_present(shape, instance, "", present);
  for (const auto& p : present) out.insert(prefix + p);
}

// One way to play a game: a seat count and options.
struct Case {
  const Game* game;
  int seats;
  json options;
};

// Every seat count with the default options and with each option on its own at each of its
// values (an integer's least, greatest and middle), where the game accepts them.
std::vector<Case> cases_of(const Game& game) {
  std::vector<json> variants = {json::object()};
  for (const OptionSpec& o : game.info().options) {
    switch (o.type) {
      case OptionSpec::Type::kBool:
        variants.push_back({{o.key, !o.default_value.get<bool>()}});
        break;
      case OptionSpec::Type::kInt:
        for (int v : {o.min, o.max, (o.min + o.max) / 2}) variants.push_back({{o.key, v}});
        break;
      case OptionSpec::Type::kChoice:
        for (const std::string& c : o.choices) variants.push_back({{o.key, c}});
        break;
    }
  }
  // And two mixtures: every switch turned from its default with every number at its least, then
  // at its greatest (options that only matter together, such as Naked Gibbon's Veterans with
  // Never My Tail).
  for (const bool greatest : {false, true}) {
    json mix = json::object();
    for (const OptionSpec& o : game.info().options) {
      if (o.type == OptionSpec::Type::kBool) mix[o.key] = !o.default_value.get<bool>();
      if (o.type == OptionSpec::Type::kInt) mix[o.key] = greatest ? o.max : o.min;
    }
    variants.push_back(std::move(mix));
  }
  std::vector<Case> cases;
  for (int seats = game.info().min_seats; seats <= game.info().max_seats; ++seats) {
    for (const json& v : variants) {
      if (game.parse_options(v, seats)) cases.push_back({&game, seats, v});
    }
  }
  return cases;
}

// How the random players of a playout choose among their legal moves: any move alike; each kind
// of move alike however many of it there are; or the kind listed first whenever it is offered.
// The last two bring out what a game rarely offers: Fib-Fibonacci's pass comes when nothing fits
// and the draw pile is empty, which a player who draws whenever they may soon meets.
enum class Policy { kAnyMove, kAnyKind, kFirstKind };

Action pick(const Game& game, const std::vector<Action>& legal, Policy policy, Rng& rng) {
  if (policy == Policy::kAnyMove) return legal[rng.below(legal.size())];
  std::map<std::string, std::vector<const Action*>> by_kind;
  for (const Action& a : legal) {
    by_kind[game.action_to_json(a)["move"].get<std::string>()].push_back(&a);
  }
  const std::vector<const Action*>* kind = nullptr;
  if (policy == Policy::kFirstKind) {
    kind = &by_kind[game.action_to_json(legal.front())["move"].get<std::string>()];
  } else {
    auto it = by_kind.begin();
    std::advance(it, static_cast<long>(rng.below(by_kind.size())));
    kind = &it->second;
  }
  return *(*kind)[rng.below(kind->size())];
}

// Plays `playouts` random games of one case, recording everything sent.
void sample_case(const Case& c, int playouts, const schema::GameSchema& declared, Sample& sample) {
  const Game& game = *c.game;
  std::map<std::string, const schema::Move*> moves;
  for (const auto& m : declared.moves) moves[m.name] = &m;
  std::map<std::string, const schema::EventType*> events;
  for (const auto& e : declared.events) events[e.type] = &e;
  std::vector<Action> legal;
  for (int i = 0; i < playouts; ++i) {
    const std::uint64_t seed = 7919ull * static_cast<std::uint64_t>(i) + 3;
    auto created = Match::create(game, c.seats, c.options, seed);
    ASSERT_TRUE(created.ok()) << created.error().message;
    Match& m = *created;
    Rng rng(seed);
    for (int step = 0;; ++step) {
      const State& s = m.state();
      for (Seat v = kSpectator; v < s.seats(); ++v) {
        const json view = s.view(v);
        sample.add("view", view);
        note_paths(declared.view, view, "view:", sample.paths);
      }
      if (s.over()) break;
      ASSERT_LT(step, game.info().max_actions);
      for (Seat seat = 0; seat < s.seats(); ++seat) {
        s.legal_actions(seat, legal);
        for (const Action& a : legal) {
          const json j = game.action_to_json(a);
          sample.add("action", j);
          const auto it = moves.find(j.value("move", ""));
          ASSERT_NE(it, moves.end()) << "a legal move the declaration lacks: " << j.dump();
          sample.paths.insert("action:" + it->first);
          note_paths(schema::move_shape(*it->second), j, "action:" + it->first + ":", sample.paths);
        }
      }
      const SeatSet acting = s.to_act();
      const auto w = s.window();
      Seat seat = kSystem;
      Action a;
      if (w && (acting.empty() || rng.below(4) == 0)) {
        a = Action::timeout(w->id);
      } else {
        std::vector<Seat> seats;
        acting.for_each([&](Seat x) { seats.push_back(x); });
        seat = seats[rng.below(seats.size())];
        s.legal_actions(seat, legal);
        a = pick(game, legal, static_cast<Policy>(i % 3), rng);
      }
      Events ev;
      ASSERT_FALSE(m.apply(seat, a, ev).has_value());
      for (const Event& e : ev.list()) {
        sample.add("event", e.body);
        const std::string type = e.body.value("type", "");
        const auto it = events.find(type);
        ASSERT_NE(it, events.end()) << "an event the declaration lacks: " << e.body.dump();
        EXPECT_EQ(it->second->is_private, !e.to.everyone)
            << type << " is declared " << (it->second->is_private ? "private" : "public")
            << " but was sent " << (e.to.everyone ? "to everyone" : "to some seats");
        sample.paths.insert("event:" + type);
        note_paths(schema::event_shape(*it->second), e.body, "event:" + type + ":", sample.paths);
      }
    }
  }
}

// Runs the validator; returns its exit status and what it printed.
std::pair<int, std::string> run(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "could not start: " + command};
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(GameSchemas, RandomPlayoutsMatchTheDeclarations) {
  const fs::path dir =
      fs::temp_directory_path() / ("campfire-schemas-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  json schemas = json::object();
  std::ofstream instances(dir / "instances.jsonl");
  for (const Game* g : Registry::builtin().games()) {
    SCOPED_TRACE(g->info().id);
    const schema::GameSchema declared = g->schema();
    schemas[g->info().id] = schema::to_json_schema(*g);
    Sample sample;
    for (const Case& c : cases_of(*g)) {
      SCOPED_TRACE(std::to_string(c.seats) + " seats, options " + c.options.dump());
      // Each policy at least once at any scale, so that the coverage check below never depends
      // on the scale.
      sample_case(c, std::max(3, scaled(3)), declared, sample);
      if (HasFatalFailure()) return;
    }
    // Every instance against the schema here, and again by python3-jsonschema below.
    const testing::SchemaCheck check(schemas[g->info().id]);
    int invalid = 0;
    // An event is also checked as a connection that asked for no texts hears it: here every
    // one, and one of each type again by python3-jsonschema.
    std::set<std::string> bare_types;
    for (const auto& [kind, text] : sample.instances) {
      std::vector<std::pair<std::string, bool>> forms = {{text, true}};
      if (kind == "event") {
        json bare = json::parse(text);
        bare.erase("text");
        forms.emplace_back(bare.dump(), bare_types.insert(bare.value("type", "")).second);
      }
      for (const auto& [form, again] : forms) {
        const auto wrong = check.check(json::parse(form), kind);
        if (wrong && ++invalid <= 5) ADD_FAILURE() << g->info().id << " " << kind << " " << *wrong;
        if (!again) continue;
        instances << R"({"game":")" << g->info().id << R"(","kind":")" << kind
                  << R"(","instance":)" << form << "}\n";
      }
    }
    EXPECT_EQ(invalid, 0) << "instances outside the schema (the first five are above)";
    // Everything declared was sent at least once.
    std::vector<std::string> declared_paths;
    schema::member_paths(declared.view, "", declared_paths);
    for (auto& p : declared_paths) p = "view:" + p;
    for (const auto& m : declared.moves) {
      declared_paths.push_back("action:" + m.name);
      std::vector<std::string> fields;
      schema::member_paths(schema::move_shape(m), "", fields);
      for (const auto& f : fields) declared_paths.push_back("action:" + m.name + ":" + f);
    }
    for (const auto& e : declared.events) {
      declared_paths.push_back("event:" + e.type);
      std::vector<std::string> fields;
      schema::member_paths(schema::event_shape(e), "", fields);
      for (const auto& f : fields) declared_paths.push_back("event:" + e.type + ":" + f);
    }
    for (const auto& p : declared_paths) {
      EXPECT_TRUE(sample.paths.count(p)) << p << " is declared but never sent";
    }
    std::cout << "[ schema   ] " << g->info().id << ": " << sample.instances.size()
              << " distinct views, moves and events; " << declared_paths.size()
              << " declared parts\n";
  }
  instances.close();
  std::ofstream(dir / "schemas.json") << schemas.dump();
  const auto [status, output] =
      run("/usr/bin/python3 " CAMPFIRE_SOURCE_DIR "/tests/engine/validate_schemas.py " +
          (dir / "schemas.json").string() + " " + (dir / "instances.jsonl").string());
  std::cout << output;
  EXPECT_EQ(status, 0) << output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace campfire
