// Update frames: with `"updates": "delta"` in hello the server sends one `update` per change of a
// room, its state either whole or as a merge patch (RFC 7386) against the last state this
// connection was sent, a legal list sent before given by its number and one sent whole written
// as rows (`patch` is the same with a `base` and without numbers or rows). An UpdateReader
// turns each frame back into the `event` and `state` messages a client handled before, so the
// rest of the client needs no change.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace campfire::client {

using json = nlohmann::json;

// The hello every client of ours sends: protocol 1, asking for delta update frames, and with
// `texts` false for no words (no event texts, no labels). A server that knows no `updates`
// ignores it and sends plain `event` and `state` frames, read alike.
json hello(const std::string& name, bool texts = true);

class UpdateReader {
 public:
  struct Read {
    std::vector<json> messages;       // to handle in order, as if they had come as they are
    std::optional<std::string> sync;  // a room whose full state must be asked for again
  };

  // What one message from the server amounts to. A `state` is handed on and becomes the base of
  // the room's next patch; an `update` gives its events as `event` messages, then its state,
  // whole or patched onto the state held (a delta's rows read back as the actions they stand
  // for). A patch on another version than the one held (for a delta: the one before its own),
  // naming a legal list not held, or with a row that stands for no action, cannot be applied:
  // its events still count, its state is dropped, and a sync is asked for, once, however many
  // patches miss until a full state comes. Anything else passes untouched.
  Read read(json message);

  // A new connection: the server knows no earlier state of ours, nor we of its.
  void reset();

 private:
  struct Held {
    json state;  // the last state
    // The legal lists (with their labels) numbered since the last whole state, the newest last:
    // its number is `next` - 1. Only the last 16 are ever referred to.
    std::vector<json> numbered;
    long long next = 0;
  };
  // Keeps a whole state: the base of the next patch and the first numbered legal list.
  void whole(Held& held, json state);
  static void number(Held& held);

  std::map<std::string, Held> held_;  // room code -> what is held of it
  std::set<std::string> syncing_;     // rooms waiting for the full state a sync brings
};

}  // namespace campfire::client
