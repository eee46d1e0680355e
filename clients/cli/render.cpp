#include "clients/cli/render.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "clients/cli/table.hpp"

namespace campfire::cli {

namespace {

constexpr int kLineWidth = 100;  // the line mode's tables are drawn this wide

bool contains(const json& list, const json& v) {
  return list.is_array() && std::find(list.begin(), list.end(), v) != list.end();
}

std::string seat_list(const json& state, const json& seats) {
  std::string out;
  for (const json& s : seats) out += (out.empty() ? "" : ", ") + seat_name(state, s);
  return out;
}

struct Phrase {
  const char* text;
  Color color;
};

}  // namespace

std::string plain(const Lines& lines) {
  std::string out;
  for (const Line& l : lines) {
    std::string text = l.plain();
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  return out;
}

std::string game_name(const json& games, const std::string& id) {
  if (games.is_array()) {
    for (const json& g : games) {
      if (g.value("id", "") == id) return g.value("name", id);
    }
  }
  return id;
}

Line decorate(const std::string& text) {
  static const char* const suits[] = {"♣", "♦", "♥", "♠"};
  static const char* const colours[] = {"Red ", "Yellow ", "Blue "};
  static const Color colour_of[] = {Color::red, Color::yellow, Color::blue};
  static const char* const clothes[] = {"Hat", "Bow Tie", "Shirt", "Trousers", "Shoes"};
  Line out;
  std::string run;
  const auto word_start = [&](std::size_t i) {
    return i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1]));
  };
  for (std::size_t i = 0; i < text.size();) {
    // A French card: rank, then a suit sign.
    if (word_start(i)) {
      std::size_t rank = 0;
      if (text.compare(i, 2, "10") == 0) {
        rank = 2;
      } else if (std::string("23456789JQKA").find(text[i]) != std::string::npos) {
        rank = 1;
      }
      if (rank > 0) {
        for (int s = 0; s < 4; ++s) {
          if (text.compare(i + rank, 3, suits[s]) == 0) {
            out.add(run);
            run.clear();
            const Style style =
                s == 1 || s == 2 ? Style{Color::red, Color::none, true} : styles::bold;
            out.add(text.substr(i, rank + 3), style);
            i += rank + 3;
            rank = 0;
            break;
          }
        }
        if (rank == 0) continue;
      }
      if (text.compare(i, 5, "Joker") == 0) {
        out.add(run);
        run.clear();
        out.add("Joker", {Color::magenta, Color::none, true});
        i += 5;
        continue;
      }
      // A Pinocchio card: colour, then clothing.
      bool matched = false;
      for (int c = 0; c < 3 && !matched; ++c) {
        const std::size_t cl = std::char_traits<char>::length(colours[c]);
        if (text.compare(i, cl, colours[c]) != 0) continue;
        for (const char* item : clothes) {
          const std::size_t il = std::char_traits<char>::length(item);
          if (text.compare(i + cl, il, item) == 0) {
            out.add(run);
            run.clear();
            out.add(text.substr(i, cl + il), {colour_of[c], Color::none, true});
            i += cl + il;
            matched = true;
            break;
          }
        }
      }
      if (matched) continue;
    }
    run += text[i++];
  }
  out.add(run);
  return out;
}

std::string render_state(const json& state) {
  std::ostringstream out;
  const int me = my_seat(state);
  const json& to_act = field(state, "toAct");
  out << "== room " << state.value("room", "?") << ", " << state.value("game", "?") << ", "
      << state.value("status", "?") << ", version " << state.value("version", 0) << ", "
      << (me >= 0 ? "you are seat " + std::to_string(me + 1) : std::string("spectating")) << "\n";
  const std::string status = state.value("status", "");
  if (status == "waiting" || !field(state, "view").is_object()) {
    for (const SeatInfo& who : seat_infos(state)) {
      out << "  seat " << who.seat + 1 << "  ";
      if (who.empty) {
        out << "(free)\n";
        continue;
      }
      out << who.name;
      if (who.me) out << " (you)";
      if (who.bot) out << " [bot]" << (who.strategy.empty() ? "" : " " + who.strategy);
      if (who.away) out << " [away: a bot plays]";
      if (!who.connected && !who.bot) out << " [disconnected]";
      if (contains(to_act, json(who.seat))) out << "  <- to act";
      out << "\n";
    }
  }
  TableInput in{state, kLineWidth, 0, nullptr};
  for (const Line& l : render_table(in)) {
    std::string text = l.plain();
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << "  " << text << "\n";
  }
  const json& window = field(state, "window");
  if (window.is_object()) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", window.value("remainingMs", 0) / 1000.0);
    out << "  " << window.value("name", "window") << " window for "
        << seat_list(state, field(window, "seats")) << " closes in " << secs << " s\n";
  }
  // The room's turn timer: who must act, and how long they have before the server moves.
  const json& turn = field(state, "turn");
  if (turn.is_object() && !window.is_object()) {
    const long long secs = (turn.value("remainingMs", 0LL) + 999) / 1000;
    out << "  turn timer: " << seat_list(state, field(turn, "seats")) << " "
        << (field(turn, "seats").size() == 1 ? "has " : "have ") << secs << " s to act\n";
  }
  const json& legal = field(state, "legal");
  const json& labels = field(state, "labels");
  if (legal.is_array() && !legal.empty()) {
    out << "  your move (type its number):\n";
    for (std::size_t i = 0; i < legal.size(); ++i) {
      out << "    " << i + 1 << ". "
          << (i < labels.size() && labels[i].is_string() ? labels[i].get<std::string>()
                                                         : "move " + std::to_string(i + 1))
          << "\n";
    }
  } else if (status == "playing" && to_act.is_array() && !to_act.empty()) {
    out << "  waiting for " << seat_list(state, to_act) << "\n";
  }
  return out.str();
}

Lines games_lines(const json& games) {
  Lines out;
  for (const json& g : games) {
    Line head;
    head.add(g.value("id", "?"), styles::accent);
    head.add("  " + g.value("name", "?"), styles::bold);
    head.add(", " + std::to_string(g.value("minSeats", 0)) + "-" +
             std::to_string(g.value("maxSeats", 0)) + " seats: " + g.value("summary", ""));
    out.push_back(std::move(head));
    for (const json& o : g.value("options", json::array())) {
      Line l("    ");
      l.add(o.value("key", "?") + "=" + value_words(o.value("default", json())).plain(),
            styles::bold);
      std::string kind = "  (" + o.value("type", "?");
      if (o.contains("min")) kind += " " + field(o, "min").dump() + ".." + field(o, "max").dump();
      if (o.contains("choices")) {
        std::string choices;
        for (const json& c : field(o, "choices")) {
          choices +=
              (choices.empty() ? "" : "|") + (c.is_string() ? c.get<std::string>() : c.dump());
        }
        kind += " " + choices;
      }
      l.add(kind + ") ", styles::dim);
      l.add(o.value("description", ""));
      out.push_back(std::move(l));
    }
  }
  if (games.empty()) out.push_back(Line("no games"));
  return out;
}

std::string render_games(const json& games) {
  return plain(games_lines(games));
}

Lines rooms_lines(const json& rooms, const std::vector<HeldSeat>& held, const json& games) {
  Lines out;
  const auto listed = [&](const std::string& code) -> const json* {
    for (const json& r : rooms) {
      if (r.value("room", "") == code) return &r;
    }
    return nullptr;
  };
  std::vector<const HeldSeat*> mine;
  for (const HeldSeat& h : held) {
    // A listed room that has left the list is finished (or gone): nothing to take back.
    if (h.over || (!h.private_room && listed(h.room) == nullptr && !h.game.empty() &&
                   std::time(nullptr) - h.since > 5)) {
      continue;
    }
    mine.push_back(&h);
  }
  if (!mine.empty()) {
    out.push_back(Line("your seats (rejoin CODE takes one back):", styles::bold));
    for (const HeldSeat* h : mine) {
      Line l("  ");
      l.add(h->room, styles::accent);
      l.add("  " + (h->game.empty() ? std::string("?") : game_name(games, h->game)));
      l.add("  seat " + std::to_string(h->seat + 1) + " as " + h->name);
      if (const json* r = listed(h->room)) {
        l.add(", " + r->value("status", "?"), styles::dim);
      } else if (h->private_room) {
        l.add(", private", styles::dim);
      }
      out.push_back(std::move(l));
    }
    out.emplace_back();
  }
  if (!mine.empty() && !rooms.empty()) out.push_back(Line("open rooms:", styles::bold));
  for (const json& r : rooms) {
    Line l;
    l.add(r.value("room", "?"), styles::accent);
    l.add("  " + r.value("game", "?") + "  " + std::to_string(r.value("taken", 0)) + "/" +
          std::to_string(r.value("seats", 0)) + " seats, " + r.value("status", "?") + ", " +
          std::to_string(r.value("spectators", 0)) + " watching");
    const json options = r.value("options", json::object());
    if (!options.empty()) {
      l.add(", options ");
      bool first = true;
      for (const auto& [k, v] : options.items()) {
        l.add(std::string(first ? "" : " ") + k + "=" +
              (v.is_string() ? v.get<std::string>() : v.dump()));
        first = false;
      }
    }
    out.push_back(std::move(l));
  }
  if (rooms.empty()) out.push_back(Line("no open rooms", styles::dim));
  return out;
}

std::string render_rooms(const json& rooms, const std::vector<HeldSeat>& held, const json& games) {
  return plain(rooms_lines(rooms, held, games));
}

Lines result_lines(const json& result, const json& players, int seat) {
  const json state = {{"players", players}};
  Lines out;
  Line head("game over.", styles::bold);
  const json& places = field(result, "places");
  const json& scores = field(result, "scores");
  for (std::size_t s = 0; s < places.size(); ++s) {
    std::string part =
        (s == 0 ? " places: " : ", ") + seat_name(state, json(s)) + " " + places[s].dump();
    if (scores.is_array() && s < scores.size()) part += " (score " + scores[s].dump() + ")";
    head.add(part);
  }
  std::string winners;
  for (const json& w : field(result, "winners"))
    winners += (winners.empty() ? "" : ", ") + seat_name(state, w);
  head.add(". winners: " + (winners.empty() ? std::string("none") : winners) + ".");
  if (seat >= 0) {
    const bool won = contains(field(result, "winners"), json(seat));
    head.add(won ? " you won!" : " you did not win.", won ? styles::good : styles::plain);
  }
  out.push_back(std::move(head));
  return out;
}

std::string render_result(const json& result, const json& players, int seat) {
  return plain(result_lines(result, players, seat));
}

}  // namespace campfire::cli
