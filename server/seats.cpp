#include "server/seats.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace campfire::server {

std::vector<SeatName> Seats::Info::all_names() const {
  std::vector<SeatName> all = earlier_names;
  all.push_back({name, name_from});
  return all;
}

void Seats::seat_player(int seat, std::string name, const TokenHash& token_hash,
                        const std::shared_ptr<Client>& client, std::size_t from_move) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kHuman;
  info.name = std::move(name);
  info.name_from = from_move;
  info.earlier_names.clear();
  info.token_hash = token_hash;
  info.client = client;
}

void Seats::seat_bot(int seat, std::string name, std::string strategy,
                     std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kBot;
  info.name = std::move(name);
  info.name_from = 0;
  info.earlier_names.clear();
  info.bot = std::move(bot);
  info.bot_name = std::move(strategy);
}

void Seats::restore(int seat, const StoredSeat& stored, std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = stored.bot.empty() ? Occupant::kHuman : Occupant::kBot;
  info.name = stored.name;
  info.name_from = 0;
  info.earlier_names.clear();
  if (!stored.names.empty()) {
    // The last stored name is the seat's name now (a journal written before names were kept
    // has none: the seat had its name throughout).
    info.name_from = stored.names.back().from_move;
    info.earlier_names.assign(stored.names.begin(), stored.names.end() - 1);
  }
  info.token_hash = token_hash_from_hex(stored.token_hash);
  if (!stored.bot.empty()) {
    info.bot = std::move(bot);
    info.bot_name = stored.bot;
  }
}

void Seats::go_away(int seat, std::unique_ptr<bots::Strategy> bot) {
  Info& info = (*this)[seat];
  info.occupant = Occupant::kAway;
  info.bot = std::move(bot);
}

void Seats::come_back(int seat, const std::shared_ptr<Client>& client) {
  Info& info = (*this)[seat];
  info.client = client;
  if (info.occupant == Occupant::kAway) {
    info.occupant = Occupant::kHuman;
    info.bot.reset();
  }
}

void Seats::free(int seat) {
  (*this)[seat] = Info{};
}

bool Seats::rename(int seat, std::string name, std::size_t from_move) {
  Info& info = (*this)[seat];
  if (name.empty() || name == info.name) return false;
  // Moves already made keep the old name; the new one applies from `from_move`. A name that
  // applied to no move at all is not kept.
  if (info.name_from != from_move) {
    info.earlier_names.push_back({std::move(info.name), info.name_from});
  } else if (!info.earlier_names.empty() && info.earlier_names.back().name == name) {
    // Back to the name before, with no move made under the one between: that name goes on.
    info.name_from = info.earlier_names.back().from_move;
    info.earlier_names.pop_back();
    info.name = std::move(name);
    return true;
  }
  info.name = std::move(name);
  info.name_from = from_move;
  return true;
}

void Seats::forget(const Client* client) {
  for (Info& info : seats_) {
    if (!info.bot_plays() && info.client.lock().get() == client) info.client.reset();
  }
}

std::optional<int> Seats::of(const Client* client) const {
  for (int s = 0; s < size(); ++s) {
    const Info& info = (*this)[s];
    if (info.player() && info.client.lock().get() == client) return s;
  }
  return std::nullopt;
}

std::optional<int> Seats::by_token(const std::string& token) const {
  if (token.empty()) return std::nullopt;
  const TokenHash hash = hash_token(token);
  for (int s = 0; s < size(); ++s) {
    const Info& info = (*this)[s];
    if (info.player() && info.token_hash == hash) return s;
  }
  return std::nullopt;
}

std::optional<int> Seats::first_empty(std::optional<int> only) const {
  for (int s = 0; s < size(); ++s) {
    if ((!only || *only == s) && !(*this)[s].taken()) return s;
  }
  return std::nullopt;
}

bool Seats::full() const {
  return std::all_of(seats_.begin(), seats_.end(), [](const Info& s) { return s.taken(); });
}

int Seats::taken() const {
  return static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const Info& s) { return s.taken(); }));
}

int Seats::bots() const {
  return static_cast<int>(
      std::count_if(seats_.begin(), seats_.end(), [](const Info& s) { return s.bot_plays(); }));
}

int Seats::connected_players() const {
  return static_cast<int>(std::count_if(seats_.begin(), seats_.end(), [](const Info& s) {
    return s.player() && !s.client.expired();
  }));
}

std::string new_token() {
  // From the process's one cryptographic generator, seeded once by the operating system (the
  // one that makes the shuffles' server seeds), rather than a source opened for every token.
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    throw std::runtime_error("the system's random generator failed");
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(2 * sizeof bytes, '0');
  for (std::size_t i = 0; i < sizeof bytes; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 0xf];
  }
  return out;
}

TokenHash hash_token(const std::string& token) {
  TokenHash hash{};
  unsigned int length = 0;
  EVP_Digest(token.data(), token.size(), hash.data(), &length, EVP_sha256(), nullptr);
  return hash;
}

std::string token_hash_hex(const TokenHash& hash) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex(2 * hash.size(), '0');
  for (std::size_t i = 0; i < hash.size(); ++i) {
    hex[2 * i] = kHex[hash[i] >> 4];
    hex[2 * i + 1] = kHex[hash[i] & 0xf];
  }
  return hex;
}

std::optional<TokenHash> token_hash_from_hex(std::string_view hex) {
  TokenHash hash{};
  if (hex.size() != 2 * hash.size()) return std::nullopt;
  const auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < hash.size(); ++i) {
    const int high = digit(hex[2 * i]);
    const int low = digit(hex[2 * i + 1]);
    if (high < 0 || low < 0) return std::nullopt;
    hash[i] = static_cast<unsigned char>(high * 16 + low);
  }
  return hash;
}

}  // namespace campfire::server
