#include "server/game_replay.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>

namespace campfire {

std::string with_names(const std::string& text, const std::vector<std::string>& names) {
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, 6, "{seat:") == 0) {
      const auto end = text.find('}', i);
      if (end != std::string::npos) {
        const int s = std::atoi(text.c_str() + i + 6);
        if (s >= 0 && s < static_cast<int>(names.size())) {
          const std::string& name = names[static_cast<std::size_t>(s)];
          out += name.empty() ? "seat " + std::to_string(s + 1) : name;
          i = end + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

Expected<GameReplay> GameReplay::open(const Registry& registry, const json& saved,
                                      const std::vector<std::string>& names) {
  NameHistory history;
  for (const std::string& name : names) history.push_back({NameFrom{0, name}});
  return open(registry, saved, std::move(history));
}

Expected<GameReplay> GameReplay::open(const Registry& registry, const json& saved,
                                      NameHistory names) {
  // Restoring checks the whole log once; the replay then starts again from the deal.
  auto whole = Match::restore(registry, saved);
  if (!whole) return whole.error();
  json dealt = saved;
  dealt["log"] = json::array();
  auto start = Match::restore(registry, dealt);
  if (!start) return start.error();
  names.resize(static_cast<std::size_t>(whole->seats()));
  return GameReplay(*start, whole->log(), std::move(names));
}

std::vector<std::string> GameReplay::names_at(std::size_t move) const {
  std::vector<std::string> out(names_.size());
  for (std::size_t s = 0; s < names_.size(); ++s) {
    for (const NameFrom& n : names_[s]) {
      if (n.from_move <= move) out[s] = n.name;
    }
  }
  return out;
}

json GameReplay::event_json(const Event& e, bool with_audience,
                            const std::vector<std::string>& names) const {
  json body = e.body;
  if (auto t = body.find("text"); t != body.end() && t->is_string()) {
    *t = with_names(t->get<std::string>(), names);
  }
  if (with_audience) {
    json to = nullptr;
    if (!e.to.everyone) {
      to = json::array();
      e.to.seats.for_each([&](Seat s) { to.push_back(s); });
    }
    body["to"] = std::move(to);
  }
  return body;
}

json GameReplay::steps_json(int from, int count) const {
  json out = json::array();
  const int last = std::min(steps(), from + std::max(count, 0));
  if (from < 0 || from >= last) return out;
  Match m = start_;
  Events silent(false);
  for (int k = 1; k < from; ++k) {
    const LoggedAction& a = log_[static_cast<std::size_t>(k - 1)];
    m.apply(a.seat, a.action, silent);
  }
  for (int k = from; k < last; ++k) {
    json events = json::array();
    json seat = nullptr;
    if (k > 0) {
      const LoggedAction& a = log_[static_cast<std::size_t>(k - 1)];
      Events ev;
      m.apply(a.seat, a.action, ev);
      const auto names = names_at(static_cast<std::size_t>(k - 1));
      for (const Event& e : ev.list()) events.push_back(event_json(e, true, names));
      if (a.seat >= 0) seat = a.seat;
    }
    const State& st = m.state();
    json views = json::array();
    for (Seat s = 0; s < m.seats(); ++s) views.push_back(st.view(s));
    json acting = json::array();
    st.to_act().for_each([&](Seat s) { acting.push_back(s); });
    out.push_back({{"step", k},
                   {"seat", std::move(seat)},
                   {"toAct", std::move(acting)},
                   {"events", std::move(events)},
                   {"views", std::move(views)},
                   {"public", st.view(kSpectator)}});
  }
  return out;
}

json GameReplay::recent_events(Seat viewer, int max) const {
  std::deque<json> kept;
  if (max <= 0) return json::array();
  Match m = start_;
  for (std::size_t move = 0; move < log_.size(); ++move) {
    const LoggedAction& a = log_[move];
    Events ev;
    m.apply(a.seat, a.action, ev);
    std::vector<std::string> names;
    for (const Event& e : ev.list()) {
      if (!(viewer >= 0 ? e.to.includes(viewer) : e.to.everyone)) continue;
      if (names.empty()) names = names_at(move);
      kept.push_back(event_json(e, false, names));
      if (kept.size() > static_cast<std::size_t>(max)) kept.pop_front();
    }
  }
  json out = json::array();
  for (json& e : kept) out.push_back(std::move(e));
  return out;
}

}  // namespace campfire
