// The journal gate: a change is shown to nobody before the journal has kept it. Frames sent while
// a record is still being written wait here, in order, and leave when the journal reports that
// record durable; if the journal fails, they are never sent. A journal that keeps nothing
// (`--journal none`) holds nothing back.
// The gate does not know rooms: it fills in no record (the room does) and decides nothing about
// a failure beyond dropping what it held; the owner is told and pauses itself.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "server/client.hpp"
#include "server/journal.hpp"

namespace campfire::server {

class JournalGate {
 public:
  // Runs a function later on the owner's strand, keeping the owner (and so the gate) alive until
  // it has run: the journal answers from its own thread.
  using Post = std::function<void(std::function<void()>)>;

  // `failed` runs on the owner's strand each time the journal could not keep a record.
  JournalGate(Journal& journal, std::function<void()> failed)
      : journal_(journal), failed_(std::move(failed)) {}
  JournalGate(const JournalGate&) = delete;
  JournalGate& operator=(const JournalGate&) = delete;

  // Hands `r` to the journal; every frame sent from now on waits until it is kept.
  void write(Journal::Record r, const Post& post);
  // Sends `f` to `c` now, or once every record written so far is kept (in the order sent).
  void send(const std::shared_ptr<Client>& c, Frame f);
  // Frames waiting for the journal.
  std::size_t held() const { return held_.size(); }

 private:
  // A frame held back until the journal has everything it reports.
  struct Held {
    std::uint64_t after;  // the record it waits for
    std::weak_ptr<Client> client;
    Frame frame;
  };
  // The journal's answer for record `seq`, on the owner's strand.
  void journaled(std::uint64_t seq, bool ok);

  Journal& journal_;
  std::function<void()> failed_;
  std::uint64_t queued_ = 0;  // records handed to the journal and awaited
  std::uint64_t done_ = 0;    // the last of them it has kept
  // In the order sent. Emptied, it gives its memory back: most rooms sit idle with nothing held,
  // and an empty deque would still keep a block of its own in every one of them.
  std::vector<Held> held_;
};

}  // namespace campfire::server
