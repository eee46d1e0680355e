// Which load balancers may name a connection's client (--trusted-proxies), and which client an
// X-Forwarded-For header names.
#include <gtest/gtest.h>

#include "server/proxy_trust.hpp"

namespace campfire::server::testing {
namespace {

ProxyTrust trust(const std::vector<std::string>& entries) {
  std::string why;
  auto t = ProxyTrust::parse(entries, &why);
  EXPECT_TRUE(t.has_value()) << why;
  return t.value_or(ProxyTrust());
}

TEST(ProxyTrust, NoEntriesTrustsNobody) {
  const ProxyTrust none = trust({});
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.trusts("127.0.0.1"));
  EXPECT_FALSE(none.trusts("::1"));
}

TEST(ProxyTrust, AddressesAndNetworksOfBothFamilies) {
  const ProxyTrust t = trust({"10.0.0.0/8", " 192.168.1.5 ", "fd00::/8", "172.16.0.0/12"});
  EXPECT_TRUE(t.trusts("10.1.2.3"));
  EXPECT_TRUE(t.trusts("192.168.1.5"));
  EXPECT_FALSE(t.trusts("192.168.1.6"));
  EXPECT_TRUE(t.trusts("172.31.255.254"));
  EXPECT_FALSE(t.trusts("172.32.0.1"));
  EXPECT_TRUE(t.trusts("fd12:3456::1"));
  EXPECT_FALSE(t.trusts("fe80::1"));
  EXPECT_TRUE(t.trusts("::ffff:10.9.9.9")) << "an IPv4 peer of an IPv6 socket";
  EXPECT_FALSE(t.trusts("11.0.0.1"));
  EXPECT_FALSE(t.trusts("unknown"));
  EXPECT_TRUE(trust({"0.0.0.0/0"}).trusts("8.8.8.8"));
  EXPECT_FALSE(trust({"0.0.0.0/0"}).trusts("2001:db8::1")) << "an IPv4 network holds no IPv6";
}

TEST(ProxyTrust, AnEntryThatIsNoAddressOrNetworkIsRefusedWithWhy) {
  for (const char* bad : {"", "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/8x",
                          "proxy.example.org", "10.0.0.256", "10.0.0.0/-1"}) {
    std::string why;
    EXPECT_FALSE(ProxyTrust::parse({bad}, &why).has_value()) << bad;
    EXPECT_NE(why.find(bad), std::string::npos) << why;
  }
}

TEST(ProxyTrust, TheClientIsTheLastForwardedForEntry) {
  EXPECT_EQ(ProxyTrust::client_address("203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(ProxyTrust::client_address("198.51.100.1, 203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(ProxyTrust::client_address("2001:db8::7"), "2001:db8::7");
  EXPECT_EQ(ProxyTrust::client_address("::ffff:203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(ProxyTrust::client_address("203.0.113.7, not-an-address"), std::nullopt);
  EXPECT_EQ(ProxyTrust::client_address(""), std::nullopt);
  EXPECT_EQ(ProxyTrust::client_address("203.0.113.7:4242"), std::nullopt);
}

}  // namespace
}  // namespace campfire::server::testing
