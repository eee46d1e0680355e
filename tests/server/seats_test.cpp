// A room's seat table: one occupant kind per seat, and the lookups the room relies on (a client's
// seat, a rejoin token's seat, the first free seat) and the lobby's counts.
#include "server/seats.hpp"

#include <gtest/gtest.h>

#include "engine/core/registry.hpp"

namespace campfire::server::testing {
namespace {

struct SilentClient final : Client {
  void send(Frame) override {}
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}
};

std::unique_ptr<bots::Strategy> basic_bot() {
  return bots::make_strategy("basic", *Registry::builtin().find("pinocchio"));
}

TEST(Seats, ANewTableIsEmptyAndFillsInSeatOrder) {
  Seats seats(3);
  EXPECT_EQ(seats.size(), 3);
  EXPECT_EQ(seats.taken(), 0);
  EXPECT_FALSE(seats.full());
  EXPECT_EQ(seats.first_empty(), 0);
  auto ann = std::make_shared<SilentClient>();
  seats.seat_player(0, "Ann", hash_token("ann"), ann, 0);
  EXPECT_EQ(seats[0].occupant, Occupant::kHuman);
  EXPECT_EQ(seats.first_empty(), 1);
  EXPECT_EQ(seats.first_empty(2), 2);
  EXPECT_EQ(seats.first_empty(0), std::nullopt) << "seat 0 is taken";
  seats.seat_bot(1, "Bot 2", "random", basic_bot());
  seats.seat_bot(2, "Bot 3", "basic", basic_bot());
  EXPECT_TRUE(seats.full());
  EXPECT_EQ(seats.first_empty(), std::nullopt);
}

TEST(Seats, AClientFindsOnlyItsOwnPlayersSeat) {
  Seats seats(2);
  auto ann = std::make_shared<SilentClient>();
  auto bob = std::make_shared<SilentClient>();
  seats.seat_player(1, "Ann", hash_token("ann"), ann, 0);
  EXPECT_EQ(seats.of(ann.get()), 1);
  EXPECT_EQ(seats.of(bob.get()), std::nullopt);
  seats.forget(ann.get());
  EXPECT_EQ(seats.of(ann.get()), std::nullopt) << "a forgotten client holds no seat";
  EXPECT_EQ(seats[1].occupant, Occupant::kHuman) << "the seat still waits for its player";
}

TEST(Seats, ATokenFindsItsPlayersSeatAndAnEmptyTokenNothing) {
  Seats seats(3);
  auto ann = std::make_shared<SilentClient>();
  seats.seat_player(0, "Ann", hash_token("ann-token"), ann, 0);
  seats.seat_bot(1, "Bot 2", "basic", basic_bot());
  EXPECT_EQ(seats.by_token("ann-token"), 0);
  EXPECT_EQ(seats.by_token("bob-token"), std::nullopt);
  EXPECT_EQ(seats.by_token(""), std::nullopt) << "a bot's seat has no token to match";
  seats.go_away(0, basic_bot());
  EXPECT_EQ(seats.by_token("ann-token"), 0) << "an away player may still come back";
}

TEST(Seats, AnAwayPlayersBotStepsAsideWhenTheyComeBack) {
  Seats seats(2);
  auto ann = std::make_shared<SilentClient>();
  seats.seat_player(0, "Ann", hash_token("ann"), ann, 0);
  ann.reset();
  EXPECT_FALSE(seats[0].connected());
  seats.go_away(0, basic_bot());
  EXPECT_EQ(seats[0].occupant, Occupant::kAway);
  EXPECT_TRUE(seats[0].bot_plays());
  EXPECT_TRUE(seats[0].player());
  EXPECT_EQ(seats.bots(), 1) << "the lobby counts a seat a bot plays";
  auto again = std::make_shared<SilentClient>();
  seats.come_back(0, again);
  EXPECT_EQ(seats[0].occupant, Occupant::kHuman);
  EXPECT_EQ(seats[0].bot, nullptr);
  EXPECT_EQ(seats.of(again.get()), 0);
  EXPECT_EQ(seats.bots(), 0);
}

TEST(Seats, TheLobbyCountsSeatsBotsAndConnectedPlayers) {
  Seats seats(4);
  auto ann = std::make_shared<SilentClient>();
  auto bob = std::make_shared<SilentClient>();
  seats.seat_player(0, "Ann", hash_token("ann"), ann, 0);
  seats.seat_player(1, "Bob", hash_token("bob"), bob, 0);
  seats.seat_bot(2, "Bot 3", "random", basic_bot());
  bob.reset();  // Bob's connection dropped; his seat waits
  EXPECT_EQ(seats.taken(), 3);
  EXPECT_EQ(seats.bots(), 1);
  EXPECT_EQ(seats.connected_players(), 1);
  EXPECT_TRUE(seats[2].connected()) << "a server bot is always there";
  EXPECT_FALSE(seats[1].connected());
  EXPECT_FALSE(seats[3].taken());
}

TEST(Seats, ARenameStartsAtTheNextMoveAndFreeingForgetsEverything) {
  Seats seats(2);
  auto ann = std::make_shared<SilentClient>();
  seats.seat_player(0, "Ann", hash_token("ann"), ann, 0);
  EXPECT_FALSE(seats.rename(0, "Ann", 3)) << "the same name changes nothing";
  EXPECT_FALSE(seats.rename(0, "", 3));
  EXPECT_TRUE(seats.rename(0, "Anna", 3));
  EXPECT_TRUE(seats.rename(0, "Annie", 3)) << "a second name at the same move replaces the first";
  const std::vector<SeatName> names = seats[0].all_names();
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0].name, "Ann");
  EXPECT_EQ(names[1].name, "Annie");
  EXPECT_EQ(names[1].from_move, 3u);
  EXPECT_TRUE(seats.rename(0, "Ann", 3)) << "back to the name before, which goes on";
  ASSERT_EQ(seats[0].all_names().size(), 1u);
  EXPECT_EQ(seats[0].all_names()[0].from_move, 0u);
  EXPECT_TRUE(seats[0].earlier_names.empty());
  seats.free(0);
  EXPECT_EQ(seats[0].occupant, Occupant::kEmpty);
  EXPECT_TRUE(seats[0].name.empty());
  EXPECT_FALSE(seats[0].token_hash);
  EXPECT_EQ(seats.of(ann.get()), std::nullopt);
}

TEST(Seats, ARestoredSeatIsAPlayerOrABotAsTheJournalKeptIt) {
  Seats seats(2);
  seats.restore(0, StoredSeat{0, "Ann", token_hash_hex(hash_token("ann")), ""}, nullptr);
  seats.restore(1, StoredSeat{1, "Bot 2", "", "random"}, basic_bot());
  EXPECT_EQ(seats[0].occupant, Occupant::kHuman);
  const std::vector<SeatName> names = seats[0].all_names();
  ASSERT_EQ(names.size(), 1u) << "a journal without names had one name throughout";
  EXPECT_EQ(names[0].name, "Ann");
  EXPECT_EQ(names[0].from_move, 0u);
  EXPECT_EQ(seats.by_token("ann"), 0);
  EXPECT_EQ(seats[1].occupant, Occupant::kBot);
  EXPECT_EQ(seats[1].bot_name, "random");
  EXPECT_NE(seats[1].bot, nullptr);
}

TEST(Seats, TokensAreFreshAndTheirHashesStable) {
  const std::string a = new_token();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_NE(a, new_token());
  EXPECT_EQ(hash_token(a), hash_token(a));
  EXPECT_NE(hash_token(a), hash_token(new_token()));
}

TEST(Seats, ATokenHashIsKeptAsHexAndReadBackOnlyWhole) {
  const TokenHash hash = hash_token("ann");
  const std::string hex = token_hash_hex(hash);
  EXPECT_EQ(hex.size(), 64u);
  EXPECT_EQ(token_hash_from_hex(hex), hash);
  EXPECT_EQ(token_hash_from_hex(""), std::nullopt);
  EXPECT_EQ(token_hash_from_hex(hex.substr(1)), std::nullopt);
  EXPECT_EQ(token_hash_from_hex(std::string(63, '0') + "g"), std::nullopt);
  EXPECT_EQ(token_hash_from_hex(std::string(63, '0') + "A"), std::nullopt)
      << "the journal writes lower case";
}

TEST(Seats, AStoredPlayerSeatWithABrokenHashIsReachedByNoToken) {
  Seats seats(1);
  seats.restore(0, StoredSeat{0, "Ann", "not-a-hash", ""}, nullptr);
  EXPECT_EQ(seats[0].occupant, Occupant::kHuman);
  EXPECT_EQ(seats.by_token("ann"), std::nullopt);
  EXPECT_EQ(seats.by_token("not-a-hash"), std::nullopt);
}

}  // namespace
}  // namespace campfire::server::testing
