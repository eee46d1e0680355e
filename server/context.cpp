#include "server/context.hpp"

namespace campfire::server {

std::unique_ptr<ServerContext::Ticket> ServerContext::admit(const std::string& address) {
  std::lock_guard lock(mutex_);
  int& n = per_address_[address];
  if (n >= config.max_connections_per_address) return nullptr;
  ++n;
  ++connections;
  return std::make_unique<Ticket>(*this, address);
}

void ServerContext::release(const std::string& address) {
  std::lock_guard lock(mutex_);
  auto it = per_address_.find(address);
  if (it != per_address_.end() && --it->second <= 0) per_address_.erase(it);
  --connections;
}

void ServerContext::track(const std::shared_ptr<void>& session, std::function<void()> close) {
  std::lock_guard lock(mutex_);
  sessions_[session.get()] = std::move(close);
}

void ServerContext::untrack(const void* session) {
  std::lock_guard lock(mutex_);
  sessions_.erase(session);
}

void ServerContext::close_all() {
  std::map<const void*, std::function<void()>> all;
  {
    std::lock_guard lock(mutex_);
    all = sessions_;
  }
  for (auto& [session, close] : all) close();
}

}  // namespace campfire::server
