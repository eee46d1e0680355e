// A stream layer under campfire-load's WebSocket streams that counts the bytes read from the
// socket: what the network carried, frame headers included and compressed frames as sent,
// where the WebSocket stream above it reports each message's text.
#pragma once

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/beast/core/role.hpp>
#include <boost/beast/websocket/teardown.hpp>

#include <cstdint>
#include <utility>

namespace campfire::load {

template <class NextLayer>
class CountingStream {
 public:
  using next_layer_type = NextLayer;
  using executor_type = typename NextLayer::executor_type;

  template <class... Args>
  explicit CountingStream(Args&&... args) : next_(std::forward<Args>(args)...) {}

  NextLayer& next_layer() { return next_; }
  const NextLayer& next_layer() const { return next_; }
  executor_type get_executor() { return next_.get_executor(); }
  // Every byte read so far on this connection.
  std::uint64_t bytes_read() const { return read_; }

  template <class Buffers, class ReadHandler>
  auto async_read_some(const Buffers& buffers, ReadHandler&& handler) {
    return boost::asio::async_initiate<ReadHandler, void(boost::system::error_code, std::size_t)>(
        [this](auto h, const Buffers& b) {
          const auto ex = boost::asio::get_associated_executor(h, next_.get_executor());
          next_.async_read_some(b, boost::asio::bind_executor(
                                       ex, [this, h = std::move(h)](boost::system::error_code ec,
                                                                    std::size_t n) mutable {
                                         read_ += n;
                                         std::move(h)(ec, n);
                                       }));
        },
        handler, buffers);
  }

  template <class Buffers, class WriteHandler>
  auto async_write_some(const Buffers& buffers, WriteHandler&& handler) {
    return next_.async_write_some(buffers, std::forward<WriteHandler>(handler));
  }

 private:
  NextLayer next_;
  std::uint64_t read_ = 0;
};

// Closing the WebSocket closes the layer below.
template <class NextLayer>
void teardown(boost::beast::role_type role, CountingStream<NextLayer>& stream,
              boost::system::error_code& ec) {
  using boost::beast::websocket::teardown;
  teardown(role, stream.next_layer(), ec);
}

template <class NextLayer, class TeardownHandler>
void async_teardown(boost::beast::role_type role, CountingStream<NextLayer>& stream,
                    TeardownHandler&& handler) {
  using boost::beast::websocket::async_teardown;
  async_teardown(role, stream.next_layer(), std::forward<TeardownHandler>(handler));
}

}  // namespace campfire::load
