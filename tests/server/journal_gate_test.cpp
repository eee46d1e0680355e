// The journal gate: frames wait for the records they report, leave in the order they were sent
// once those records are durable, and are never sent if the journal fails to keep them.
#include "server/journal_gate.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace campfire::server::testing {
namespace {

struct TextClient final : Client {
  void send(Frame frame) override { got.push_back(*frame); }
  void entered(const std::string&, const std::string&) override {}
  void evicted(const std::string&) override {}
  std::vector<std::string> got;
};

// A durable journal that answers only when the test says so, in the order records came.
struct SlowJournal final : NullJournal {
  bool durable() const override { return keeps; }
  void write(Record r, Done done) override {
    written.push_back(r.version);
    pending.push_back(std::move(done));
  }
  // The journal's answer for the oldest record not yet answered.
  void answer(bool ok) {
    ASSERT_FALSE(pending.empty());
    Done done = std::move(pending.front());
    pending.erase(pending.begin());
    ASSERT_TRUE(done) << "a durable journal's writer is always told";
    done(ok);
  }
  bool keeps = true;
  std::vector<long long> written;
  std::vector<Done> pending;
};

Journal::Record record(long long version) {
  Journal::Record r;
  r.version = version;
  return r;
}

class JournalGateTest : public ::testing::Test {
 protected:
  // The owner's strand, run at once: the answer arrives as the journal gives it.
  const JournalGate::Post post_ = [](std::function<void()> f) { f(); };
  SlowJournal journal_;
  int failures_ = 0;
  JournalGate gate_{journal_, [this] { ++failures_; }};
  std::shared_ptr<TextClient> ann_ = std::make_shared<TextClient>();
  std::shared_ptr<TextClient> bob_ = std::make_shared<TextClient>();
};

TEST_F(JournalGateTest, WithNothingOutstandingAFrameGoesAtOnce) {
  gate_.send(ann_, make_frame("hello"));
  EXPECT_EQ(ann_->got, std::vector<std::string>{"hello"});
  EXPECT_EQ(gate_.held(), 0u);
}

TEST_F(JournalGateTest, FramesLeaveInOrderOnlyAfterTheirRecordIsDurable) {
  gate_.write(record(1), post_);
  gate_.send(ann_, make_frame("a1"));
  gate_.send(bob_, make_frame("b1"));
  gate_.send(ann_, make_frame("a2"));
  gate_.write(record(2), post_);
  gate_.send(ann_, make_frame("a3"));
  EXPECT_TRUE(ann_->got.empty()) << "nothing is shown before the journal keeps it";
  EXPECT_EQ(gate_.held(), 4u);

  journal_.answer(true);
  EXPECT_EQ(ann_->got, (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(bob_->got, std::vector<std::string>{"b1"});
  EXPECT_EQ(gate_.held(), 1u) << "a3 waits for the second record";

  journal_.answer(true);
  EXPECT_EQ(ann_->got, (std::vector<std::string>{"a1", "a2", "a3"}));
  EXPECT_EQ(gate_.held(), 0u);
  EXPECT_EQ(journal_.written, (std::vector<long long>{1, 2}));
  EXPECT_EQ(failures_, 0);
}

TEST_F(JournalGateTest, AFrameForAClientThatLeftIsDropped) {
  gate_.write(record(1), post_);
  gate_.send(ann_, make_frame("a1"));
  gate_.send(bob_, make_frame("b1"));
  bob_.reset();
  journal_.answer(true);
  EXPECT_EQ(ann_->got, std::vector<std::string>{"a1"});
  EXPECT_EQ(gate_.held(), 0u);
}

TEST_F(JournalGateTest, AFailedRecordIsNeverShownAndTheOwnerIsTold) {
  gate_.write(record(1), post_);
  gate_.send(ann_, make_frame("kept?"));
  journal_.answer(false);
  EXPECT_TRUE(ann_->got.empty());
  EXPECT_EQ(gate_.held(), 0u);
  EXPECT_EQ(failures_, 1);
  // The owner pauses after a failure; anything it still sends shows nothing unkept either.
  gate_.send(ann_, make_frame("after"));
  EXPECT_TRUE(ann_->got.empty());
}

TEST_F(JournalGateTest, AJournalThatKeepsNothingHoldsNothingBack) {
  journal_.keeps = false;
  gate_.write(record(1), post_);
  gate_.send(ann_, make_frame("now"));
  EXPECT_EQ(ann_->got, std::vector<std::string>{"now"});
  ASSERT_EQ(journal_.pending.size(), 1u);
  EXPECT_FALSE(journal_.pending.front()) << "nobody waits for a journal that keeps nothing";
}

}  // namespace
}  // namespace campfire::server::testing
