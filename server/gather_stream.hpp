// A stream layer under a WebSocket stream that lets several messages leave in one write.
//
// The WebSocket stream writes each message with writes of its own. While `gather` is on, this
// layer takes those writes into a buffer and reports them done at once (on the next turn of the
// executor) without touching the socket. The first write made with `gather` off sends what was
// gathered and its own bytes together, in one write to the layer below, and reports its own bytes
// written when that write ends. Because that last write is made by the WebSocket stream itself, the
// stream's own control frames (a pong, a close) never interleave with gathered bytes.
//
// A connection turns `gather` on while more frames wait behind the one being written and off for
// the last one: a burst of frames costs one send. Reads pass straight through.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/teardown.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace campfire::server {

template <class NextLayer>
class GatherStream {
 public:
  using next_layer_type = NextLayer;
  using executor_type = typename NextLayer::executor_type;

  template <class... Args>
  explicit GatherStream(Args&&... args) : next_(std::forward<Args>(args)...) {}

  NextLayer& next_layer() { return next_; }
  const NextLayer& next_layer() const { return next_; }
  executor_type get_executor() { return next_.get_executor(); }

  // Whether writes from now on are gathered (see above).
  void gather(bool on) { gather_ = on; }
  bool gathering() const { return gather_; }
  // Adds one to `counter` for each write made to the layer below (one per burst, plus any frame
  // written alone); null counts nothing.
  void count_writes(std::atomic<std::uint64_t>* counter) { writes_ = counter; }

  template <class Buffers, class ReadHandler>
  auto async_read_some(const Buffers& buffers, ReadHandler&& handler) {
    return next_.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

  template <class Buffers, class WriteHandler>
  auto async_write_some(const Buffers& buffers, WriteHandler&& handler) {
    return boost::asio::async_initiate<WriteHandler, void(boost::system::error_code, std::size_t)>(
        [this](auto h, const Buffers& b) { start_write(std::move(h), b); }, handler, buffers);
  }

 private:
  template <class Handler, class Buffers>
  void start_write(Handler h, const Buffers& buffers) {
    const std::size_t n = boost::asio::buffer_size(buffers);
    if (gather_ || (!pending_ && n == 0)) {
      append(buffers, n);
      boost::asio::post(next_.get_executor(),
                        boost::beast::bind_front_handler(std::move(h), boost::system::error_code{}, n));
      return;
    }
    if (writes_) writes_->fetch_add(1, std::memory_order_relaxed);
    if (!pending_) {
      next_.async_write_some(buffers, std::move(h));
      return;
    }
    // What was gathered and this write's bytes, in one write. The text lives in a shared buffer
    // until the write ends; the handler is told only of this write's own bytes.
    append(buffers, n);
    auto text = std::move(pending_);
    const auto ex = boost::asio::get_associated_executor(h, next_.get_executor());
    boost::asio::async_write(
        next_, boost::asio::buffer(*text),
        boost::asio::bind_executor(
            ex, [text, n, h = std::move(h)](boost::system::error_code ec, std::size_t) mutable {
              std::move(h)(ec, ec ? 0 : n);
            }));
  }

  template <class Buffers>
  void append(const Buffers& buffers, std::size_t n) {
    if (n == 0) return;
    if (!pending_) pending_ = std::make_shared<std::string>();
    const std::size_t at = pending_->size();
    pending_->resize(at + n);
    boost::asio::buffer_copy(boost::asio::buffer(pending_->data() + at, n), buffers);
  }

  NextLayer next_;
  // Gathered bytes; null when none (an idle connection holds no buffer).
  std::shared_ptr<std::string> pending_;
  bool gather_ = false;
  std::atomic<std::uint64_t>* writes_ = nullptr;
};

// Closing the WebSocket closes the layer below.
template <class NextLayer>
void teardown(boost::beast::role_type role, GatherStream<NextLayer>& stream,
              boost::system::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

template <class NextLayer, class TeardownHandler>
void async_teardown(boost::beast::role_type role, GatherStream<NextLayer>& stream,
                    TeardownHandler&& handler) {
  using boost::beast::websocket::async_teardown;
  async_teardown(role, stream.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace campfire::server
