// What `expert` knows of each game beyond the engine contract: how the other players' earlier
// moves weigh a sampled deal (a player who could tell the truth usually did), how good an
// unfinished position is where a playout stops early, and where that is.
#pragma once

#include <nlohmann/json.hpp>

#include "bots/policy.hpp"
#include "engine/core/state.hpp"

namespace campfire::bots {

class GameModel {
 public:
  virtual ~GameModel() = default;
  // Read once per decision, before any sample is drawn.
  virtual void prepare(const Situation& root) { (void)root; }
  // Whether the search may consider this root move at all (a bot never guesses a slap).
  virtual bool allowed(const Situation& root, const Action& move) const {
    (void)root;
    (void)move;
    return true;
  }
  // The weight in [0, 1] of a sampled state: how likely the other players' visible moves are if
  // this deal is the real one. Samples are kept with this probability.
  virtual double weight(const State& sample, Seat me) const {
    (void)sample;
    (void)me;
    return 1.0;
  }
  // Whether a playout may stop at this state (seen through `me`'s view): a later round, say.
  virtual bool stop(const json& view) const {
    (void)view;
    return false;
  }
  // Whether the seat's view leaves out what happened on the way (Pinocchio's shows only the claim
  // on top of the pile): the search then tells the seat's decisions apart by every view it saw
  // since the root, as a player remembers them, rather than by the last view alone.
  virtual bool views_forget() const { return false; }
  // The chance that a simulated player leaves the basic policy for a random move, so that
  // playouts do not all follow one line; low where one random move ruins a game.
  virtual double noise() const { return 0.05; }
  // The same for another seat, by what this seat has seen of its play: a model that judges the
  // public history (observe) may find that a player rarely does what the basic policy would.
  virtual double noise_of(Seat seat) const {
    (void)seat;
    return noise();
  }
  // One event this seat was told, in order, across its decisions (the model outlives them when
  // the strategy keeps it). A model reads only what every seat is told: a private event (the
  // seat's own cards) must change nothing here, since the search samples those anyway.
  virtual void observe(const json& event) { (void)event; }
  // Moves after which a playout stops and estimate() judges the position: far enough for the
  // searched move to show its effect, short enough for many playouts.
  virtual int horizon(int seats) const {
    (void)seats;
    return 2000;
  }
  // Whether the seat's own later moves in a playout are searched (a tree of its information
  // sets) or follow the basic policy like everyone else's. A tree pays where a sample brings the
  // seat back to an information set it met before; where the seat's next view hangs on what this
  // sample dealt (a card drawn, the others' answers), most nodes are met once, and a node met
  // for the first time tries a move at random, so the playouts would score that random move
  // rather than the searched one.
  virtual bool tree() const { return true; }
  // The worth in [0, 1] for `me` of a finished game: by default its place alone (see
  // place_value); a game whose final scores say how close a result was may blend them in, so
  // that a playout which nearly won tells the search more than one lost by far.
  virtual double final_value(const Result& result, Seat me, int seats) const;
  // The worth in [0, 1] for `me` of an unfinished state where a playout stopped.
  virtual double estimate(const State& state, Seat me) const {
    (void)state;
    (void)me;
    return 0.5;
  }
};

// 1 for the best place, 0 for the last; tied seats share the places they cover.
double place_value(const Result& result, Seat me, int seats);

// The model of a game (a neutral one for a game without its own).
std::unique_ptr<GameModel> model_for(const Game& game);

}  // namespace campfire::bots
