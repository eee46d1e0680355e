#include "server/legal_moves.hpp"

#include "protocol/json_text.hpp"

namespace campfire::server {

namespace {

// A game has a bounded set of distinct actions, most a few dozen; past this many texts the cache
// starts again rather than grow with a game that has very many.
constexpr std::size_t kMaxTexts = 4096;

}  // namespace

std::size_t LegalMoves::ActionHash::operator()(const Action& a) const {
  std::size_t h = a.kind * 31u + a.argc;
  for (int i = 0; i < a.argc; ++i) h = h * 1000003u ^ static_cast<std::uint32_t>(a.args[i]);
  return h;
}

const LegalMoves::ActionText& LegalMoves::action_text(const Action& a) {
  // An action's texts depend on its game alone, so every room of the game on this thread shares
  // one cache: a room keeps none of its own for its whole life.
  using Texts = std::unordered_map<Action, ActionText, ActionHash>;
  thread_local std::unordered_map<const Game*, Texts> by_game;
  Texts& texts = by_game[&match_.game()];
  if (const auto it = texts.find(a); it != texts.end()) return it->second;
  if (texts.size() >= kMaxTexts) texts.clear();
  const json j = match_.game().action_to_json(a);
  ActionText t;
  protocol::append_json(j, t.text);
  if (j.is_object()) {
    // The members in the order the text has them (nlohmann keeps an object's names sorted, at
    // every depth), so that a row lists the values in the order of the names it stands for.
    t.object = true;
    t.row += '[';
    for (const auto& [key, value] : j.items()) {
      if (t.row.size() > 1) {
        t.row += ',';
        t.names += ',';
      }
      protocol::append_json_string(key, t.names);
      protocol::append_json(value, t.row);
    }
    t.row += ']';
  }
  return texts.emplace(a, std::move(t)).first->second;
}

const LegalMoves::Choices& LegalMoves::of(Seat seat, long long version) {
  if (seats_.empty()) seats_.resize(static_cast<std::size_t>(match_.seats()));
  Slot& slot = seats_[static_cast<std::size_t>(seat)];
  if (slot.version == version && slot.choices) return *slot.choices;
  ++computed_;
  const bool same_unknown = slot.actions_gone;
  slot.actions_gone = false;
  Choices c;
  c.actions = match_.state().legal_actions(seat);
  // Held while the room idles: no spare room.
  c.actions.shrink_to_fit();
  std::optional<Choices>& was = slot.choices;
  if (was && !same_unknown && was->actions == c.actions) {
    c.text = was->text;
    c.hash = was->hash;
  } else {
    // Written as text straight away, as dump() would write it.
    std::string actions = "[";
    for (const Action& a : c.actions) {
      if (actions.size() > 1) actions += ',';
      actions += action_text(a).text;
    }
    actions += ']';
    if (was && *was->text == actions) {
      // The list was let go of: the same text says the same actions.
      c.text = was->text;
      c.hash = was->hash;
    } else {
      actions.shrink_to_fit();
      c.hash = std::hash<std::string>{}(actions);
      c.text = std::make_shared<const std::string>(std::move(actions));
    }
  }
  // The words may change while the actions do not (a seat's new name): they are written again
  // when asked for at this version, and keep the text of the last ones when the same.
  if (was && was->labels_text) slot.last_labels = std::move(was->labels_text);
  slot.version = version;
  slot.choices = std::move(c);
  return *slot.choices;
}

const std::vector<Action>& LegalMoves::listed(Seat seat, const Slot& slot,
                                              std::vector<Action>& again) const {
  if (!slot.actions_gone) return slot.choices->actions;
  again = match_.state().legal_actions(seat);
  return again;
}

const std::shared_ptr<const std::string>& LegalMoves::labels(Seat seat, long long version) {
  of(seat, version);
  Slot& slot = seats_[static_cast<std::size_t>(seat)];
  Choices& c = *slot.choices;
  if (c.labels_text) return c.labels_text;
  std::vector<Action> again;
  std::string labels = "[";
  for (const Action& a : listed(seat, slot, again)) {
    if (labels.size() > 1) labels += ',';
    protocol::append_json_string(label_(seat, a), labels);
  }
  labels += ']';
  if (slot.last_labels && *slot.last_labels == labels) {
    c.labels_text = std::move(slot.last_labels);
  } else {
    labels.shrink_to_fit();
    c.labels_text = std::make_shared<const std::string>(std::move(labels));
  }
  slot.last_labels.reset();
  return c.labels_text;
}

const std::shared_ptr<const std::string>& LegalMoves::rows(Seat seat, long long version) {
  of(seat, version);
  Slot& slot = seats_[static_cast<std::size_t>(seat)];
  Choices& c = *slot.choices;
  if (c.rows_text) return c.rows_text;
  std::vector<Action> again;
  std::string rows = "[";
  // The names of the last action written as an object: a copy, since the cache may start again
  // while the list is written.
  std::string names;
  bool named = false;
  for (const Action& a : listed(seat, slot, again)) {
    const ActionText& t = action_text(a);
    if (!t.object) {
      // Every game's actions are objects (an action a client sends must be one); a list with
      // anything else goes as it is.
      c.rows_text = c.text;
      return c.rows_text;
    }
    if (rows.size() > 1) rows += ',';
    if (named && t.names == names) {
      rows += t.row;
    } else {
      rows += t.text;
      names = t.names;
      named = true;
    }
  }
  rows += ']';
  c.rows_text = std::make_shared<const std::string>(std::move(rows));
  return c.rows_text;
}

const std::vector<Action>& LegalMoves::actions(Seat seat, long long version) {
  const Choices& c = of(seat, version);
  Slot& slot = seats_[static_cast<std::size_t>(seat)];
  if (slot.actions_gone) {
    slot.choices->actions = match_.state().legal_actions(seat);
    slot.actions_gone = false;
  }
  return c.actions;
}

void LegalMoves::let_go_of_actions() {
  for (Slot& slot : seats_) {
    // Words nobody asked for at this version are not kept for a later one.
    slot.last_labels.reset();
    if (slot.choices) slot.choices->rows_text.reset();
    if (!slot.choices || slot.actions_gone) continue;
    slot.choices->actions = std::vector<Action>();
    slot.actions_gone = true;
  }
}

}  // namespace campfire::server
