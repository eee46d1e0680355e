// Protocol v1's server messages (PROTOCOL.md, "Server → client"), each built here and nowhere
// else. Replies are built without their `id`; with_id adds the one of the request they answer.
// The error frame is protocol::error_frame (protocol.hpp), beside the readers whose errors it
// carries.
//
// The frames sent after every change (state, event, update) are written as text straight away:
// their members in the order nlohmann's dump() writes an object's keys (sorted), so each frame is
// byte for byte what dumping the whole object would give, and the parts every recipient shares
// are serialised once per change.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/requests.hpp"

namespace campfire::protocol::message {

using json = nlohmann::json;

// The reply to a request: the message with the request's id (none when the id is null).
json with_id(json message, const json& id);

json welcome(std::string_view server, std::string_view name, UpdateMode updates, bool texts);
json pong();
json games(json list);
json rooms(json list);
json created(std::string_view room);
json joined(std::string_view room, int seat, std::string_view token);
json spectating(std::string_view room);
json left(std::string_view room);
json ok();
// An ok that names the room's version: after sync, start or contribute.
json ok_at(long long version);
// The ok of an accepted action: the version it made and its place in the room's move log.
json ok_move(long long version, std::size_t move);
// The ok of `history`: the version and the events so far, as the room's members saw them.
json ok_history(long long version, json events);
// A chat line: the sender's seat (none for a spectator), name and text.
json chat(std::string_view room, std::optional<int> seat, std::string_view name,
          std::string_view text);
json notice(std::string_view reason, std::string_view text);
json game_over(std::string_view room, json result);
json room_closed(std::string_view room, std::string_view reason);

// What every recipient of one change's state message shares. The members that change seldom or
// that the room writes itself come as JSON text.
struct SharedState {
  std::string_view fairness;  // the room's public fairness record, or null
  std::string_view game;      // the game's id
  std::size_t moves = 0;
  std::string_view options;
  std::string_view players;
  json result;  // null until the game is over
  std::string_view room;
  std::string_view status;
  json to_act;
  json turn;
  long long version = 0;
  json window;
};

// The members of one change's state message that every recipient shares (all but labels, legal,
// seat and view), each as JSON text, in the order a state message writes them.
struct SharedTexts {
  enum Member {
    kFairness,
    kGame,
    kMoves,
    kOptions,
    kPlayers,
    kResult,
    kRoom,
    kStatus,
    kToAct,
    kTurn,
    kType,
    kVersion,
    kWindow,
    kCount
  };
  // Each member's key, with its quotes.
  static const std::array<std::string_view, kCount> kKeys;
  // Each member's value; empty for one that is absent (`result` until the game is over).
  std::array<std::string, kCount> values;
  // Never the same for two sets of texts in one process: what has been worked out between two of
  // them can be known again by their ids, without keeping them alive.
  std::uint64_t id = 0;
};

// The state message of one change, its shared members written once, then per recipient.
class StateText {
 public:
  explicit StateText(const SharedState& shared);
  // One recipient's frame: its seat (negative for a spectator), the JSON text of its labels
  // (empty: no labels member, for a recipient that reads no words) and legal actions, and of its
  // view.
  std::string frame(int seat, std::string_view labels, std::string_view legal,
                    std::string_view view) const;
  // The same frame, appended to `out`.
  void append_frame(std::string& out, int seat, std::string_view labels, std::string_view legal,
                    std::string_view view) const;
  // The length of that frame, with the seat as JSON text (seat_json).
  std::size_t frame_size(std::string_view seat, std::string_view labels, std::string_view legal,
                         std::string_view view) const;
  static std::string seat_json(int seat);
  // The members every recipient shares, kept alive by whoever still holds them as the base of a
  // patch.
  const std::shared_ptr<const SharedTexts>& shared() const { return shared_; }

 private:
  std::string head_;        // ... "game": ...
  std::string middle_;      // "moves" ... "seat":
  std::string after_seat_;  // "status" ... "view":
  std::string tail_;        // "window" ... }
  std::shared_ptr<const SharedTexts> shared_;
};

// An event message: the event's body as JSON text, the room and the version it led to.
std::string event(std::string_view room, long long version, std::string_view body);

// Appends to `out` the start of an update frame, up to its events (JSON texts) included; the
// frame goes on with `state` or with `base` and `patch`, and its closing brace.
void append_update_head(std::string& out, std::string_view room, long long version,
                        const std::vector<const std::string*>& events);
// An update frame: the change's event bodies (JSON text) and the state, whole ...
std::string update_with_state(std::string_view room, long long version,
                              const std::vector<const std::string*>& events,
                              std::string_view state);
// ... or as a merge patch (JSON text) on the state of version `base`.
std::string update_with_patch(std::string_view room, long long version,
                              const std::vector<const std::string*>& events, long long base,
                              std::string_view patch);

}  // namespace campfire::protocol::message
