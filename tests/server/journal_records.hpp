// Journal records for the journal tests (SQLite and Redis): a room's creation with values that
// test the edges of their storage, and a numbered action.
#pragma once

#include <cstdint>
#include <string>

#include "server/journal.hpp"

namespace campfire::server::testing {

inline Journal::Record create_record(const std::string& code) {
  Journal::Record r;
  r.kind = Journal::Record::Kind::kCreate;
  r.code = code;
  r.room.code = code;
  r.room.game = "pinocchio";
  r.room.seats = 2;
  r.room.seed = 18446744073709551615ull;  // the largest seed survives as text
  r.room.settings = {{"turnSeconds", 30}};
  r.room.created_ms = 1000;
  r.room.deck_order = {3, 1, 2};
  return r;
}

// Action number `index` of the room, taking it to `version`: seats 0 and 1 in turn.
inline Journal::Record action_record(const std::string& code, std::size_t index,
                                     long long version) {
  Journal::Record a;
  a.kind = Journal::Record::Kind::kAction;
  a.code = code;
  a.index = index;
  a.version = version;
  a.action = {static_cast<int>(index % 2),
              {{"type", "play"}, {"n", index}},
              5000 + static_cast<std::int64_t>(index)};
  return a;
}

}  // namespace campfire::server::testing
