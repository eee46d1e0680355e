// Fuzzes Match::restore, the path a saved or journalled game takes back into the server. Two
// kinds of input: raw JSON text (the first byte is even), restored as it is; or a script (odd
// first byte) that plays a real game prefix by legal choices, saves it, edits the saved JSON
// (seats, seed, options, deck order, log entries: changed, dropped, duplicated, swapped) and
// restores that. A restore either fails with a bad_save-style error or yields a match whose own
// save restores to an equal state; the unedited save always restores to the state it came from.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/match.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace campfire;

void check_restored(const json& saved) {
  auto m = Match::restore(Registry::builtin(), saved);
  if (!m) {
    CAMPFIRE_FUZZ_CHECK(!m.error().code.empty() && !m.error().message.empty(),
                        "a wordless refusal");
    (void)json(m.error().message).dump();  // words quoting the input stay valid UTF-8
    return;
  }
  const json again = m->save();
  auto twice = Match::restore(Registry::builtin(), again);
  CAMPFIRE_FUZZ_CHECK(twice.ok(), "a restored match's save does not restore: %s",
                      twice.ok() ? "" : twice.error().message.c_str());
  CAMPFIRE_FUZZ_CHECK(twice->state().equals(m->state()), "replaying the save differs");
  CAMPFIRE_FUZZ_CHECK(twice->save() == again, "saving is not stable");
  for (Seat v = kSpectator; v < m->seats(); ++v) (void)m->state().view(v).dump();
}

// Fuzz bytes as a string JSON text could carry: invalid UTF-8 is replaced, as a parser never
// lets it through.
std::string text(FuzzedDataProvider& in, std::size_t max_length) {
  const std::string raw = in.ConsumeRandomLengthString(max_length);
  return json::parse(json(raw).dump(-1, ' ', false, json::error_handler_t::replace))
      .get<std::string>();
}

json fuzz_value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0:
      return nullptr;
    case 1:
      return in.ConsumeIntegral<std::int64_t>();
    case 2:
      return in.ConsumeIntegral<std::uint64_t>();
    case 3:
      return in.ConsumeIntegralInRange<int>(-3, 20);
    case 4:
      return text(in, 24);
    case 5:
      return in.ConsumeBool();
    case 6:
      return json::array();
    default:
      return json::object();
  }
}

void edit(FuzzedDataProvider& in, json& saved) {
  json& log = saved["log"];
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 0: {  // a top-level field
      static const char* const kKeys[] = {"game", "seats", "options", "seed", "deckOrder", "log"};
      const char* key = kKeys[in.ConsumeIntegralInRange<int>(0, 5)];
      if (in.ConsumeBool()) {
        saved.erase(key);
      } else {
        saved[key] = fuzz_value(in);
      }
      return;
    }
    case 1:  // an option's value
      if (saved["options"].is_object() && !saved["options"].empty()) {
        auto it = saved["options"].begin();
        std::advance(it, in.ConsumeIntegralInRange<std::size_t>(0, saved["options"].size() - 1));
        *it = fuzz_value(in);
      }
      return;
    case 2:  // a seed string
      saved["seed"] = text(in, 24);
      return;
    default:
      break;
  }
  if (!log.is_array() || log.empty()) return;
  const std::size_t i = in.ConsumeIntegralInRange<std::size_t>(0, log.size() - 1);
  json& entry = log[i];
  switch (in.ConsumeIntegralInRange<int>(3, 9)) {
    case 3:
      log.erase(i);
      break;
    case 4: {
      const json copy = entry;
      log.insert(log.begin() + static_cast<std::ptrdiff_t>(i), copy);
      break;
    }
    case 5:
      std::swap(entry, log[in.ConsumeIntegralInRange<std::size_t>(0, log.size() - 1)]);
      break;
    case 6:
      if (entry.is_object()) entry["seat"] = fuzz_value(in);
      break;
    case 7:
      entry = fuzz_value(in);
      break;
    case 8: {
      if (!entry.is_object() || !entry["action"].is_object() || entry["action"].empty()) break;
      auto it = entry["action"].begin();
      std::advance(it, in.ConsumeIntegralInRange<std::size_t>(0, entry["action"].size() - 1));
      *it = fuzz_value(in);
      break;
    }
    default:
      log.erase(log.begin() + static_cast<std::ptrdiff_t>(i), log.end());
      break;
  }
}

void scripted(FuzzedDataProvider& in) {
  const auto& games = Registry::builtin().games();
  const Game& game = *games[in.ConsumeIntegralInRange<std::size_t>(0, games.size() - 1)];
  const int seats = in.ConsumeIntegralInRange<int>(game.info().min_seats, game.info().max_seats);
  auto m = Match::create(game, seats, json::object(), in.ConsumeIntegral<std::uint32_t>());
  if (!m) return;  // a seat count the default options do not allow
  const int moves = in.ConsumeIntegralInRange<int>(0, 200);
  for (int k = 0; k < moves && !m->state().over(); ++k) {
    const SeatSet acting = m->state().to_act();
    Events silent(false);
    if (acting.empty()) {
      const auto w = m->state().window();
      CAMPFIRE_FUZZ_CHECK(w.has_value(), "nobody acts and no window is open");
      CAMPFIRE_FUZZ_CHECK(!m->apply(kSystem, Action::timeout(w->id), silent), "timeout refused");
      continue;
    }
    const Seat seat = acting.first();
    const auto legal = m->state().legal_actions(seat);
    const Action a = legal[in.ConsumeIntegralInRange<std::size_t>(0, legal.size() - 1)];
    CAMPFIRE_FUZZ_CHECK(!m->apply(seat, a, silent), "a legal action was refused");
  }
  json saved = m->save();
  auto same = Match::restore(Registry::builtin(), saved);
  CAMPFIRE_FUZZ_CHECK(same.ok() && same->state().equals(m->state()),
                      "an unedited save does not restore to its state");
  const int edits = in.ConsumeIntegralInRange<int>(1, 4);
  for (int k = 0; k < edits; ++k) edit(in, saved);
  check_restored(saved);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if ((data[0] & 1) == 0) {
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    const json saved = json::parse(text, nullptr, false);
    if (!saved.is_discarded()) check_restored(saved);
    return 0;
  }
  FuzzedDataProvider in(data + 1, size - 1);
  scripted(in);
  return 0;
}
