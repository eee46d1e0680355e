// Events: what an accepted action caused, each addressed to everyone or to listed seats.
#pragma once

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "engine/core/types.hpp"

namespace campfire {

using json = nlohmann::json;

// Who may read an event. Spectators read only public events.
struct Audience {
  bool everyone = true;
  SeatSet seats;

  static Audience all() { return {}; }
  static Audience only(Seat s) { return Audience{false, SeatSet::of(s)}; }
  static Audience only(SeatSet s) { return Audience{false, s}; }
  bool includes(Seat viewer) const { return everyone || seats.contains(viewer); }
};

// One event. `body` always has "type" and "text"; the text names seats as {seat:N}, which the
// server replaces with display names, so the engine never needs to know who is playing.
struct Event {
  Audience to;
  json body;
};

// Collects the events of one apply. Random playouts and replays switch it off: the body is built
// by a callback that only runs when events are wanted, so a silent apply pays nothing for words.
class Events {
 public:
  explicit Events(bool enabled = true) : enabled_(enabled) {}

  template <class MakeBody>
  void emit(Audience to, MakeBody&& make_body) {
    if (enabled_) list_.push_back(Event{to, std::forward<MakeBody>(make_body)()});
  }

  bool enabled() const { return enabled_; }
  const std::vector<Event>& list() const { return list_; }
  std::vector<Event>& list() { return list_; }
  void clear() { list_.clear(); }

 private:
  bool enabled_;
  std::vector<Event> list_;
};

// "{seat:3}" for event texts.
inline std::string seat_ref(Seat s) { return "{seat:" + std::to_string(s) + "}"; }

}  // namespace campfire
