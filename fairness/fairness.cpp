#include "fairness/fairness.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>

#include "engine/core/match.hpp"

namespace campfire::fairness {

namespace {

constexpr char kHex[] = "0123456789abcdef";

std::string to_hex(const unsigned char* bytes, std::size_t n) {
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0xf];
  }
  return out;
}

bool is_lower_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_server_seed(const json& v) {
  return v.is_string() && v.get_ref<const std::string&>().size() == 64 &&
         is_lower_hex(v.get_ref<const std::string&>());
}

// A member of an object, or null; never throws whatever the replay holds.
json field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? json(nullptr) : *it;
}

std::string short_json(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 200 ? s.substr(0, 200) + "..." : s;
}

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 failed");
  }
  return to_hex(digest, length);
}

std::string new_server_seed() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("the system's random generator failed");
  }
  return to_hex(bytes, sizeof bytes);
}

std::string commitment(std::string_view server_seed) {
  std::string text(kCommitmentPrefix);
  text += server_seed;
  return sha256_hex(text);
}

Derivation derive(std::string_view server_seed, const std::vector<std::string>& contributions) {
  Derivation d;
  d.material = std::string(kSeedPrefix);
  d.material += server_seed;
  for (const std::string& c : contributions) {
    d.material += ':';
    d.material += c;
  }
  d.digest = sha256_hex(d.material);
  for (std::size_t i = 0; i < 16; ++i) {
    const char c = d.digest[i];
    d.seed = (d.seed << 4) | static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  return d;
}

json cards(const Game& game, const Options& options, int seats) {
  json out = json::array();
  for (Card c : game.deck(options, seats)) out.push_back(game.card_code(c));
  return out;
}

json dealt(const Game& game, const Options& options, int seats, std::uint64_t seed) {
  // The shuffle of Game::new_state: the fixed order, Fisher-Yates from a generator on the seed.
  std::vector<Card> deck = game.deck(options, seats);
  Rng rng(seed);
  rng.shuffle(deck);
  json out = json::array();
  for (Card c : deck) out.push_back(game.card_code(c));
  return out;
}

Record Record::fresh(int seats) {
  Record r;
  r.server_seed = new_server_seed();
  r.commitment_hex = commitment(r.server_seed);
  r.contributions.assign(static_cast<std::size_t>(seats), std::string());
  return r;
}

Record Record::fixed_deal(int seats) {
  Record r;
  r.fixed = true;
  r.contributions.assign(static_cast<std::size_t>(seats), std::string());
  return r;
}

Derivation Record::derivation() const {
  return derive(server_seed, contributions);
}

json Record::public_json() const {
  json seats = json::array();
  for (std::size_t s = 0; s < contributions.size(); ++s) {
    if (!contributions[s].empty()) seats.push_back(s);
  }
  return {{"commitment", fixed ? json(nullptr) : json(commitment_hex)},
          {"contributed", std::move(seats)},
          {"fixed", fixed}};
}

json Record::stored_json() const {
  if (fixed) return {{"fixed", true}};
  return {{"serverSeed", server_seed}};
}

std::optional<Record> Record::from_stored(const json& stored, int seats) {
  if (!stored.is_object()) return std::nullopt;
  Record r;
  r.contributions.assign(static_cast<std::size_t>(std::max(seats, 0)), std::string());
  if (field(stored, "fixed") == true) {
    r.fixed = true;
    return r;
  }
  const auto seed = stored.find("serverSeed");
  if (seed == stored.end() || !is_server_seed(*seed)) return std::nullopt;
  r.server_seed = seed->get<std::string>();
  r.commitment_hex = commitment(r.server_seed);
  return r;
}

json Record::reveal(const Game& game, const Options& options, int seats, std::uint64_t seed,
                    const json& deck_order) const {
  json out = {{"fixed", fixed},
              {"cards", cards(game, options, seats)},
              {"deck", deck_order.is_array() ? deck_order : dealt(game, options, seats, seed)}};
  if (fixed) {
    out["commitment"] = nullptr;
    return out;
  }
  json given = json::array();
  for (const std::string& c : contributions) given.push_back(c.empty() ? json(nullptr) : json(c));
  out["commitment"] = commitment_hex;
  out["serverSeed"] = server_seed;
  out["contributions"] = std::move(given);
  out["derivedSeed"] = derivation().digest;
  return out;
}

Verdict verify(const Registry& registry, const json& replay) {
  Verdict v;
  auto problem = [&](std::string text) { v.problems.push_back(std::move(text)); };
  if (!replay.is_object()) {
    problem("the replay is not a JSON object");
    return v;
  }
  const json game_id = field(replay, "game");
  const Game* game = game_id.is_string() ? registry.find(game_id.get<std::string>()) : nullptr;
  if (game == nullptr) {
    problem("game: " + short_json(game_id) + " is not a game this program knows");
    return v;
  }
  const json seats_json = field(replay, "seats");
  if (!seats_json.is_number_integer()) {
    problem("seats: missing or not a number");
    return v;
  }
  const int seats = seats_json.get<int>();
  auto options =
      game->parse_options((replay.contains("options") ? replay["options"] : json::object()), seats);
  if (!options) {
    problem("options: " + options.error().message);
    return v;
  }
  const json& f = replay.contains("fairness") ? replay["fairness"] : json();
  if (!f.is_object()) {
    problem(
        "fairness: the replay has none (a room from before fair shuffles): its deal cannot be "
        "checked");
    return v;
  }
  const json engine_cards = cards(*game, *options, seats);
  if (field(f, "cards") != engine_cards) {
    problem("cards: the replay's list of the game's cards differs from the engine's");
  }
  v.checks.push_back("the game's cards are the engine's, in its fixed order");

  // The seed the game is dealt from: derived from the server seed and the contributions, or, in a
  // room whose deal its creator fixed (test mode), the replay's own.
  std::optional<std::uint64_t> seed;
  json deck_order = field(replay, "deckOrder");
  const bool fixed = field(f, "fixed") == true;
  if (fixed) {
    problem(
        "fixed deal: the room's creator chose the deal (a test-mode seed or deck order), so it is "
        "not provably fair");
    seed = Match::parse_seed(field(replay, "seed"));
    if (!seed) problem("seed: missing or not a non-negative integer");
  } else {
    const json server_seed = field(f, "serverSeed");
    const json given = field(f, "commitment");
    if (!is_server_seed(server_seed)) {
      problem("serverSeed: missing or not 64 lowercase hex digits");
    } else if (!given.is_string() ||
               given.get<std::string>() != commitment(server_seed.get<std::string>())) {
      problem("commitment: the revealed server seed does not match it (the commitment is " +
              short_json(given) + ", the server seed hashes to " +
              commitment(server_seed.get<std::string>()) + ")");
    }
    v.checks.push_back("the server seed matches the commitment every state carried");
    std::vector<std::string> contributions(static_cast<std::size_t>(seats));
    const json given_contributions = field(f, "contributions");
    if (!given_contributions.is_array() ||
        given_contributions.size() != static_cast<std::size_t>(seats)) {
      problem("contributions: not a list with one entry per seat");
    } else {
      for (std::size_t s = 0; s < contributions.size(); ++s) {
        const json& c = given_contributions[s];
        if (c.is_null()) continue;
        auto e = parse_entropy(c);
        if (!e || *e != c.get<std::string>()) {
          problem("contributions: seat " + std::to_string(s) +
                  "'s is not lowercase hex of 16 to 128 digits");
        } else {
          contributions[s] = *e;
        }
      }
    }
    if (is_server_seed(server_seed)) {
      const Derivation d = derive(server_seed.get<std::string>(), contributions);
      const json said = field(f, "derivedSeed");
      if (said != d.digest) {
        problem("derived seed: the replay says " + short_json(said) +
                ", the server seed and the contributions give " + d.digest);
      }
      const auto top = Match::parse_seed(field(replay, "seed"));
      if (!top || *top != d.seed) {
        problem("seed: the replay deals from " + short_json(field(replay, "seed")) +
                ", the derived seed gives " + std::to_string(d.seed));
      }
      seed = d.seed;
      v.checks.push_back("the seed is derived from the server seed and every contribution");
    }
    if (!deck_order.is_null()) {
      problem("deckOrder: a fairly shuffled room has no fixed deck order");
      deck_order = nullptr;
    }
  }
  if (!seed) return v;

  // The deal.
  const json deck = deck_order.is_array() ? deck_order : dealt(*game, *options, seats, *seed);
  const json said_deck = field(f, "deck");
  if (!said_deck.is_array()) {
    problem("deck order: missing");
  } else if (said_deck != deck) {
    std::size_t i = 0;
    while (i < said_deck.size() && i < deck.size() && said_deck[i] == deck[i]) ++i;
    if (i < said_deck.size() && i < deck.size()) {
      problem("deck order differs at position " + std::to_string(i) +
              " (0 is the top): the replay says " + short_json(said_deck[i]) + ", the seed deals " +
              short_json(deck[i]));
    } else {
      problem("deck order: the replay lists " + std::to_string(said_deck.size()) +
              " cards, the seed deals " + std::to_string(deck.size()));
    }
  }
  v.checks.push_back("the dealt deck order is the seed's shuffle of the game's cards");

  // Every action, in order, from that deal.
  auto match = Match::create(*game, seats, options->to_json(), *seed, deck_order);
  if (!match) {
    problem("the engine cannot start this game: " + match.error().message);
    return v;
  }
  const json log = field(replay, "log");
  if (!log.is_array()) {
    problem("log: missing or not a list");
    return v;
  }
  Events silent(false);
  for (std::size_t i = 0; i < log.size(); ++i) {
    const json& entry = log[i];
    const std::string where = "action " + std::to_string(i);
    if (!entry.is_object() || !entry.contains("seat") || !entry["seat"].is_number_integer() ||
        !entry.contains("action")) {
      problem(where + ": malformed entry " + short_json(entry));
      return v;
    }
    const int seat = entry["seat"].get<int>();
    auto action = game->action_from_json(entry["action"]);
    if (!action) {
      problem(where + " (seat " + std::to_string(seat) + ", " + short_json(entry["action"]) +
              "): " + action.error().message);
      return v;
    }
    if (match->state().over()) {
      problem(where + ": the game was already over");
      return v;
    }
    if (auto err = match->apply(seat, *action, silent)) {
      problem(where + " (seat " + std::to_string(seat) + ", " + short_json(entry["action"]) +
              ") is refused by the engine: " + err->message);
      return v;
    }
  }
  v.checks.push_back("every one of the " + std::to_string(log.size()) +
                     " actions is legal when it was played");

  // How it ended.
  if (field(replay, "status") == "over") {
    if (!match->state().over()) {
      problem("result: the replay says the game is over, but after its log it is not");
    } else if (field(replay, "result") != match->state().result().to_json()) {
      problem("result: the replay says " + short_json(field(replay, "result")) +
              ", replaying the log gives " + short_json(match->state().result().to_json()));
    }
    v.checks.push_back("the result is the one the log leads to");
  }
  v.fair = v.problems.empty();
  return v;
}

}  // namespace campfire::fairness
