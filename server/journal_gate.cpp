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
    // Room for a change's frames to every seat of a usual table at once.
    if (held_.capacity() == 0) held_.reserve(8);
    held_.push_back({queued_, c, std::move(f)});
  } else {
    c->send(std::move(f));
  }
}

void JournalGate::journaled(std::uint64_t seq, bool ok) {
  if (!ok) {
    // What the journal could not keep must not be shown to anyone.
    held_ = std::vector<Held>();
    failed_();
    return;
  }
  done_ = std::max(done_, seq);
  auto waiting = held_.begin();  // the first frame still waiting
  for (; waiting != held_.end() && waiting->after <= done_; ++waiting) {
    if (auto c = waiting->client.lock()) c->send(std::move(waiting->frame));
  }
  if (waiting == held_.end()) {
    held_ = std::vector<Held>();
  } else {
    held_.erase(held_.begin(), waiting);
  }
}

}  // namespace campfire::server
