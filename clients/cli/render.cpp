#include "clients/cli/render.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

namespace campfire::cli {

namespace {

std::string name_of(const json& players, const json& seat) {
  if (!seat.is_number_integer()) return "?";
  const auto s = seat.get<std::size_t>();
  if (players.is_array() && s < players.size() && players[s].is_object()) {
    return players[s].value("name", "seat " + std::to_string(s));
  }
  return "seat " + std::to_string(s);
}

std::string seat_list(const json& seats) {
  std::string out;
  for (const json& s : seats) {
    if (!out.empty()) out += ' ';
    out += s.dump();
  }
  return out;
}

// Pinocchio: stacks and noses per player, the latest claims on the pile, the card in hand.
std::string render_pinocchio(const json& v, const json& players) {
  std::ostringstream out;
  out << "    phase " << v.value("phase", "?") << ", " << v.value("box", 0)
      << " cards in the box\n";
  const json& stacks = v["stacks"];
  const json& noses = v["noses"];
  for (std::size_t s = 0; s < stacks.size(); ++s) {
    out << "    " << name_of(players, json(s)) << ": " << stacks[s].dump() << " cards left, nose "
        << (s < noses.size() ? noses[s].dump() : "?") << "\n";
  }
  const json& pile = v["pile"];
  if (pile.is_array() && !pile.empty()) {
    constexpr std::size_t kShown = 4;  // older claims are history nobody needs to act on
    out << "    pile: " << pile.size() << " cards";
    if (pile.size() > kShown) out << ", the latest " << kShown;
    out << "\n";
    for (std::size_t i = pile.size() > kShown ? pile.size() - kShown : 0; i < pile.size(); ++i) {
      const json& c = pile[i];
      out << "      " << name_of(players, c["by"]) << " said " << card_words(c.value("claim", "?"));
      if (c.value("free", false)) out << " (free)";
      if (c.contains("revealed")) {
        out << "; " << name_of(players, c["challenger"]) << " challenged: it was "
            << card_words(c.value("revealed", "?"))
            << (c.value("truthful", false) ? ", the truth" : ", a lie");
      } else if (c.contains("card")) {
        out << "; you played " << card_words(c.value("card", "?"));
      }
      if (!c.value("challengeable", true) && !c.contains("revealed")) {
        out << "; cannot be challenged";
      }
      out << "\n";
    }
  }
  if (v.contains("mustMatch") && v["mustMatch"].is_string()) {
    out << "    the next claim must match " << card_words(v["mustMatch"].get<std::string>())
        << " in colour or clothing\n";
  } else if (v.value("freeAnnouncement", false)) {
    out << "    the next claim is free\n";
  }
  if (v.contains("yourCard") && v["yourCard"].is_string()) {
    out << "    your card: " << card_words(v["yourCard"].get<std::string>()) << "\n";
  }
  return out.str();
}

std::string render_generic(const json& v) {
  std::ostringstream out;
  if (!v.is_object()) {
    out << "    " << v.dump() << "\n";
    return out.str();
  }
  for (const auto& [key, value] : v.items()) {
    if (key == "result") continue;  // shown by the game-over line
    out << "    " << key << ": " << value.dump() << "\n";
  }
  return out.str();
}

}  // namespace

std::string card_words(const std::string& code) {
  if (code.find('-') == std::string::npos) return code;
  std::string out;
  bool start = true;
  for (char ch : code) {
    if (ch == '-') {
      out += ' ';
      start = true;
    } else {
      out += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
      start = false;
    }
  }
  return out;
}

// "7S" -> "7♠", "TH" -> "10♥", "X1" -> "Joker"; anything else unchanged.
std::string french_words(const std::string& code) {
  if (code == "X1" || code == "X2") return "Joker";
  if (code.size() != 2) return code;
  static const std::string suits = "CDHS";
  static const char* signs[] = {"♣", "♦", "♥", "♠"};
  const auto suit = suits.find(code[1]);
  if (suit == std::string::npos) return code;
  const std::string rank = code[0] == 'T' ? "10" : std::string(1, code[0]);
  return rank + signs[suit];
}

// Fib-Fibonacci: every base with its two openings as columns of runs, card and value on each
// line, then the side area, the counts and your hand.
std::string render_fib_fibonacci(const json& v, const json& players) {
  std::ostringstream out;
  const json& runs = v["runs"];
  const json& bases = v["bases"];
  const json& columns = v.value("columns", json::array());
  auto run_lines = [&](const json& ids) {
    std::vector<std::string> lines;
    for (const json& id : ids) {
      if (!id.is_number_integer() || id.get<std::size_t>() >= runs.size()) continue;
      const json& run = runs[id.get<std::size_t>()];
      for (std::size_t i = 0; i < run["cards"].size(); ++i) {
        std::string line = french_words(run["cards"][i].get<std::string>());
        if (i < run["values"].size()) line += " (" + run["values"][i].dump() + ")";
        lines.push_back(line);
      }
      if (run.value("closed", false)) {
        lines.push_back("-- closed");
      } else if (run.contains("next") && !run["next"].is_null()) {
        lines.push_back(".. next " + run["next"].dump());
      }
    }
    return lines;
  };
  if (columns.empty()) out << "    the table is empty\n";
  for (const json& col : columns) {
    const auto b = col.value("base", 0);
    const json& base = b >= 0 && static_cast<std::size_t>(b) < bases.size() ? bases[b] : json();
    out << "    base " << b + 1 << ": "
        << (base.is_object() ? french_words(base.value("card", "?")) + " (" +
                                   base.value("role", "") + ")"
                             : std::string("?"))
        << "\n";
    const auto a = run_lines(col.value("A", json::array()));
    const auto bl = run_lines(col.value("B", json::array()));
    out << "      A                  B\n";
    for (std::size_t i = 0; i < std::max(a.size(), bl.size()); ++i) {
      std::string left = i < a.size() ? a[i] : "";
      // Pad by characters shown, not bytes: suit signs take three bytes each.
      std::size_t shown = 0;
      for (unsigned char ch : left) shown += (ch & 0xC0) != 0x80;
      left += std::string(shown < 19 ? 19 - shown : 1, ' ');
      out << "      " << left << (i < bl.size() ? bl[i] : "") << "\n";
    }
  }
  if (v.contains("sideArea") && !v["sideArea"].empty()) {
    out << "    side area:";
    for (const json& c : v["sideArea"]) out << " " << french_words(c.get<std::string>());
    out << "\n";
  }
  out << "    draw pile " << v.value("drawPile", 0) << ", cards in hand";
  const json& counts = v.value("handCounts", json::array());
  for (std::size_t s = 0; s < counts.size(); ++s) {
    out << (s ? ", " : " ") << name_of(players, json(s)) << " " << counts[s].dump();
  }
  out << "\n";
  if (v.contains("hand") && v["hand"].is_array()) {
    out << "    your hand:";
    for (const json& c : v["hand"]) out << " " << french_words(c.get<std::string>());
    out << "\n";
  }
  return out.str();
}

std::string render_view(const std::string& game, const json& view, const json& players) {
  if (view.is_null()) return "";
  if (game == "fib-fibonacci" && view.contains("runs") && view.contains("bases")) {
    return render_fib_fibonacci(view, players);
  }
  if (game == "pinocchio" && view.contains("stacks") && view.contains("pile")) {
    return render_pinocchio(view, players);
  }
  return render_generic(view);
}

std::string render_state(const json& state) {
  std::ostringstream out;
  const json& players = state["players"];
  const json seat = state.value("seat", json(nullptr));
  const json& to_act = state["toAct"];
  out << "== room " << state.value("room", "?") << ", " << state.value("game", "?") << ", "
      << state.value("status", "?") << ", version " << state.value("version", 0) << ", "
      << (seat.is_number_integer() ? "you are seat " + seat.dump() : std::string("spectating"))
      << "\n";
  for (std::size_t s = 0; s < players.size(); ++s) {
    const json& p = players[s];
    out << "  seat " << s << "  ";
    if (!p.is_object()) {
      out << "(free)\n";
      continue;
    }
    out << p.value("name", "?");
    if (seat.is_number_integer() && seat.get<std::size_t>() == s) out << " (you)";
    if (p.value("bot", false)) out << " [bot]";
    if (!p.value("connected", true)) out << " [disconnected]";
    if (std::find(to_act.begin(), to_act.end(), json(s)) != to_act.end()) out << "  <- to act";
    out << "\n";
  }
  out << render_view(state.value("game", ""), state["view"], players);
  const json& window = state["window"];
  if (window.is_object()) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.1f", window.value("remainingMs", 0) / 1000.0);
    out << "  window '" << window.value("name", "?") << "' for seats " << seat_list(window["seats"])
        << " closes in " << secs << " s\n";
  }
  const json& legal = state["legal"];
  const json& labels = state["labels"];
  if (legal.is_array() && !legal.empty()) {
    out << "  your move (type its number):\n";
    for (std::size_t i = 0; i < legal.size(); ++i) {
      out << "    " << i + 1 << ". "
          << (i < labels.size() && labels[i].is_string() ? labels[i].get<std::string>()
                                                         : legal[i].dump())
          << "\n";
    }
  } else if (state.value("status", "") == "playing" && to_act.is_array() && !to_act.empty()) {
    std::string waiting;
    for (const json& s : to_act) waiting += (waiting.empty() ? "" : ", ") + name_of(players, s);
    out << "  waiting for " << waiting << "\n";
  }
  return out.str();
}

std::string render_games(const json& games) {
  std::ostringstream out;
  for (const json& g : games) {
    out << g.value("id", "?") << "  " << g.value("name", "?") << ", " << g.value("minSeats", 0)
        << "-" << g.value("maxSeats", 0) << " seats: " << g.value("summary", "") << "\n";
    for (const json& o : g.value("options", json::array())) {
      out << "    " << o.value("key", "?") << "=" << o.value("default", json()).dump() << "  ("
          << o.value("type", "?");
      if (o.contains("min")) out << " " << o["min"].dump() << ".." << o["max"].dump();
      if (o.contains("choices")) {
        std::string choices;
        for (const json& c : o["choices"]) choices += (choices.empty() ? "" : "|") + c.dump();
        out << " " << choices;
      }
      out << ") " << o.value("description", "") << "\n";
    }
  }
  if (games.empty()) out << "no games\n";
  return out.str();
}

std::string render_rooms(const json& rooms) {
  std::ostringstream out;
  for (const json& r : rooms) {
    out << r.value("room", "?") << "  " << r.value("game", "?") << "  " << r.value("taken", 0)
        << "/" << r.value("seats", 0) << " seats, " << r.value("status", "?") << ", "
        << r.value("spectators", 0) << " watching";
    const json options = r.value("options", json::object());
    if (!options.empty()) out << ", options " << options.dump();
    out << "\n";
  }
  if (rooms.empty()) out << "no open rooms\n";
  return out.str();
}

std::string render_result(const json& result, const json& players, int seat) {
  std::ostringstream out;
  out << "game over.";
  const json& places = result["places"];
  for (std::size_t s = 0; s < places.size(); ++s) {
    out << (s == 0 ? " places: " : ", ") << name_of(players, json(s)) << " " << places[s].dump();
  }
  std::string winners;
  for (const json& w : result["winners"])
    winners += (winners.empty() ? "" : ", ") + name_of(players, w);
  out << ". winners: " << (winners.empty() ? "none" : winners) << ".";
  if (seat >= 0) {
    const auto& ws = result["winners"];
    const bool won = std::find(ws.begin(), ws.end(), json(seat)) != ws.end();
    out << (won ? " you won!" : " you did not win.");
  }
  out << "\n";
  return out.str();
}

}  // namespace campfire::cli
