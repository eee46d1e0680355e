#include "server/proxy_trust.hpp"

#include <boost/asio/ip/address.hpp>

#include <charconv>

namespace campfire::server {
namespace {

namespace ip = boost::asio::ip;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<ip::address> to_address(std::string_view text) {
  boost::system::error_code ec;
  const auto a = ip::make_address(std::string(trim(text)), ec);
  if (ec) return std::nullopt;
  return a;
}

// The address as 16 bytes: IPv6 as it is, IPv4 mapped into IPv6 (::ffff:a.b.c.d).
std::array<unsigned char, 16> bytes_of(const ip::address& a) {
  if (a.is_v6()) return a.to_v6().to_bytes();
  return ip::make_address_v6(ip::v4_mapped, a.to_v4()).to_bytes();
}

}  // namespace

std::optional<ProxyTrust> ProxyTrust::parse(const std::vector<std::string>& entries,
                                            std::string* why) {
  ProxyTrust trust;
  for (const std::string& entry : entries) {
    const std::string_view text = trim(entry);
    const auto slash = text.find('/');
    const auto address = to_address(text.substr(0, slash));
    const int full = address && address->is_v4() ? 32 : 128;
    int bits = full;
    bool ok = address.has_value();
    if (ok && slash != std::string_view::npos) {
      const std::string_view b = text.substr(slash + 1);
      const auto [end, ec] = std::from_chars(b.data(), b.data() + b.size(), bits);
      ok = ec == std::errc() && end == b.data() + b.size() && !b.empty() && bits >= 0 &&
           bits <= full;
    }
    if (!ok) {
      if (why != nullptr) {
        *why = "'" + entry + "' is not an address or a network (e.g. 10.0.0.5 or 10.0.0.0/8)";
      }
      return std::nullopt;
    }
    trust.networks_.push_back({bytes_of(*address), bits + (128 - full)});
  }
  return trust;
}

bool ProxyTrust::trusts(std::string_view address) const {
  if (networks_.empty()) return false;
  const auto a = to_address(address);
  if (!a) return false;
  const auto bytes = bytes_of(*a);
  for (const Network& n : networks_) {
    int left = n.bits;
    bool same = true;
    for (std::size_t i = 0; i < bytes.size() && left > 0 && same; ++i, left -= 8) {
      const unsigned mask = left >= 8 ? 0xFFu : (0xFFu << (8 - left)) & 0xFFu;
      same = (bytes[i] & mask) == (n.bytes[i] & mask);
    }
    if (same) return true;
  }
  return false;
}

std::optional<std::string> ProxyTrust::client_address(std::string_view forwarded_for) {
  const auto comma = forwarded_for.rfind(',');
  const auto last = comma == std::string_view::npos ? forwarded_for
                                                     : forwarded_for.substr(comma + 1);
  const auto a = to_address(last);
  if (!a) return std::nullopt;
  // The listener writes an IPv4 client of an IPv6 socket as IPv4; do the same here.
  if (a->is_v6() && a->to_v6().is_v4_mapped()) {
    return ip::make_address_v4(ip::v4_mapped, a->to_v6()).to_string();
  }
  return a->to_string();
}

}  // namespace campfire::server
