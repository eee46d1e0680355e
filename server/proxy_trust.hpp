// Which peers may tell the server a client's own address: the load balancers in front of it
// (--trusted-proxies). Behind a balancer every connection comes from the balancer's address, so
// without this the per-address limits (connections, wrong rejoin tokens) would be shared by all
// of its clients, and one of them could spend everyone's budget.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace campfire::server {

class ProxyTrust {
 public:
  ProxyTrust() = default;
  // From entries "ADDRESS" or "ADDRESS/BITS" (IPv4 or IPv6); nullopt, with what is wrong in
  // `why`, when one is neither.
  static std::optional<ProxyTrust> parse(const std::vector<std::string>& entries,
                                         std::string* why);

  bool empty() const { return networks_.empty(); }
  // Whether a peer at `address` (as the listener writes it) is one of the trusted proxies.
  bool trusts(std::string_view address) const;
  // The client's address in an X-Forwarded-For value: its last entry, the one the trusted proxy
  // added itself (earlier entries are whatever the client claimed). nullopt when that entry is
  // not an IP address.
  static std::optional<std::string> client_address(std::string_view forwarded_for);

 private:
  // An IPv4 network is kept as its IPv4-mapped IPv6 network, so one comparison serves both.
  struct Network {
    std::array<unsigned char, 16> bytes{};
    int bits = 0;
  };
  std::vector<Network> networks_;
};

}  // namespace campfire::server
