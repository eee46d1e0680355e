// What every connection shares: configuration, the lobby, the connection counts.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "server/config.hpp"
#include "server/lobby.hpp"

namespace campfire::server {

class Client;

class ServerContext {
 public:
  ServerContext(boost::asio::io_context& io, const Config& cfg)
      : ioc(io),
        config(cfg),
        journal(make_journal(cfg.journal, cfg.data_dir, cfg.journal_fsync)),
        lobby(io, cfg, *journal) {}

  boost::asio::io_context& ioc;
  const Config& config;
  // Destroyed by the server before the io_context (its completions post to rooms' strands).
  std::unique_ptr<Journal> journal;
  Lobby lobby;
  std::atomic<std::size_t> connections{0};
  std::atomic<bool> draining{false};

  // Per-address connection counting; a Ticket gives its place back when destroyed.
  class Ticket {
   public:
    Ticket(ServerContext& ctx, std::string address) : ctx_(ctx), address_(std::move(address)) {}
    ~Ticket() { ctx_.release(address_); }
    Ticket(const Ticket&) = delete;
    Ticket& operator=(const Ticket&) = delete;
    const std::string& address() const { return address_; }

   private:
    ServerContext& ctx_;
    std::string address_;
  };
  std::unique_ptr<Ticket> admit(const std::string& address);

  // Rejoin attempts per address, a token bucket (Config::bad_token_burst and
  // bad_tokens_per_minute): each attempt takes a token, a rejoin that resumes a seat gives it
  // back, so only wrong tokens use the budget and guessing is slow from any one address.
  bool take_rejoin(const std::string& address);
  void give_back_rejoin(const std::string& address);

  // Live WebSocket sessions, so a shutdown can tell every one of them.
  void track(const std::shared_ptr<void>& session, std::function<void()> close);
  void untrack(const void* session);
  void close_all();

 private:
  void release(const std::string& address);

  std::mutex mutex_;
  std::map<std::string, int> per_address_;
  struct Bucket {
    double tokens = 0;
    std::chrono::steady_clock::time_point refilled;
  };
  Bucket& refill(const std::string& address, std::chrono::steady_clock::time_point now);
  std::map<std::string, Bucket> rejoin_buckets_;
  std::map<const void*, std::function<void()>> sessions_;
};

}  // namespace campfire::server
