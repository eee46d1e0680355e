#include "clients/cli/seat_store.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>

namespace campfire::cli {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

HeldSeat from_json(const std::string& room, const json& j) {
  HeldSeat s;
  s.room = room;
  s.server = j.value("server", "");
  s.game = j.value("game", "");
  s.token = j.value("token", "");
  s.name = j.value("name", "");
  s.seat = j.value("seat", -1);
  s.over = j.value("over", false);
  s.private_room = j.value("private", false);
  s.since = j.value("since", std::int64_t{0});
  return s;
}

}  // namespace

std::string room_code(const std::string& text) {
  std::string out = text;
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

SeatStore::SeatStore(fs::path path) : path_(std::move(path)) {}

fs::path SeatStore::default_path() {
  const char* state = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path home_dir = home != nullptr && *home != '\0' ? fs::path(home) : fs::path(".");
  const fs::path dir = state != nullptr && *state == '/'
                           ? fs::path(state) / "campfire"
                           : home_dir / ".local" / "state" / "campfire";
  const fs::path path = dir / "seats.json";
  const fs::path legacy = home_dir / ".campfire" / "tokens.json";
  std::error_code ec;
  if (!fs::exists(path, ec) && fs::exists(legacy, ec)) {
    fs::create_directories(dir, ec);
    fs::permissions(dir, fs::perms::owner_all, ec);
    fs::copy_file(legacy, path, ec);
  }
  return path;
}

json SeatStore::load() const {
  std::ifstream in(path_);
  if (!in) return json::object();
  json all = json::parse(in, nullptr, false);
  return all.is_object() ? all : json::object();
}

void SeatStore::save(const json& all) const {
  std::error_code ec;
  if (path_.has_parent_path()) {
    fs::create_directories(path_.parent_path(), ec);
    fs::permissions(path_.parent_path(), fs::perms::owner_all, ec);
  }
  // Written beside and renamed over, so a crash never leaves half a file; tokens are secrets,
  // so the file is the owner's alone.
  const fs::path temp = path_.string() + ".tmp";
  {
    std::ofstream out(temp);
    out << all.dump(2) << "\n";
    if (!out) return;
  }
  fs::permissions(temp, fs::perms::owner_read | fs::perms::owner_write, ec);
  fs::rename(temp, path_, ec);
}

void SeatStore::put(const HeldSeat& seat) {
  json all = load();
  all[room_code(seat.room)] = {{"server", seat.server},
                               {"game", seat.game},
                               {"token", seat.token},
                               {"name", seat.name},
                               {"seat", seat.seat},
                               {"over", seat.over},
                               {"private", seat.private_room},
                               {"since", seat.since}};
  save(all);
}

std::optional<HeldSeat> SeatStore::get(const std::string& room) const {
  const json all = load();
  const std::string code = room_code(room);
  auto it = all.find(code);
  if (it == all.end() || !it->is_object() || !it->contains("token") || !(*it)["token"].is_string())
    return std::nullopt;
  return from_json(code, *it);
}

std::vector<HeldSeat> SeatStore::on_server(const std::string& server) const {
  std::vector<HeldSeat> out;
  const json all = load();
  for (const auto& [room, entry] : all.items()) {
    if (!entry.is_object() || !entry.contains("token") || !entry["token"].is_string()) continue;
    HeldSeat s = from_json(room, entry);
    if (s.server == server) out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const HeldSeat& a, const HeldSeat& b) { return a.since > b.since; });
  return out;
}

void SeatStore::mark_over(const std::string& room) {
  json all = load();
  auto it = all.find(room_code(room));
  if (it == all.end() || !it->is_object() || it->value("over", false)) return;
  (*it)["over"] = true;
  save(all);
}

void SeatStore::forget(const std::string& room) {
  json all = load();
  if (all.erase(room_code(room)) > 0) save(all);
}

}  // namespace campfire::cli
