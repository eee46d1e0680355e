#include "server/journal_gate.hpp"

#include <algorithm>
#include <utility>

namespace campfire::server {

void JournalGate::write(Journal::Record r, const Post& post) {
  if (!journal_.durable()) {
    journal_.write(std::move(r), nullptr);
    return;
  }
  const std::uint64_t seq = ++queued_;
  journal_.write(std::move(r),
                 [this, post, seq](bool ok) { post([this, seq, ok] { journaled(seq, ok); }); });
}

void JournalGate::send(const std::shared_ptr<Client>& c, Frame f) {
  if (done_ < queued_) {
    held_.push_back({queued_, c, std::move(f)});
  } else {
    c->send(std::move(f));
  }
}

void JournalGate::journaled(std::uint64_t seq, bool ok) {
  if (!ok) {
    // What the journal could not keep must not be shown to anyone.
    held_.clear();
    failed_();
    return;
  }
  done_ = std::max(done_, seq);
  while (!held_.empty() && held_.front().after <= done_) {
    if (auto c = held_.front().client.lock()) c->send(std::move(held_.front().frame));
    held_.pop_front();
  }
}

}  // namespace campfire::server
