// What a forwarded hop costs: the round trip of the same room request from a client of the node
// that owns the room and from a client of another node of the cluster, whose node forwards it
// over the bus and writes back the owner's frames. Start a cluster of two nodes first (same
// Redis, --cluster, and a --rate and --burst above the rounds asked for, or the message limit
// refuses the requests), then: campfire-forward-hop --owner PORT_A --other PORT_B [--rounds N].
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "clients/common/connection.hpp"

namespace {

using campfire::client::Connection;
using campfire::client::json;
using Clock = std::chrono::steady_clock;

std::unique_ptr<Connection> greet(const std::string& host, std::uint16_t port,
                                  const std::string& name) {
  auto c = std::make_unique<Connection>(host, port);
  const auto w = c->request({{"type", "hello"}, {"protocol", 1}, {"name", name}});
  if (!w || w->value("type", "") != "welcome") throw std::runtime_error("no welcome");
  return c;
}

// Round trips of `sync` (the reply is an ok; the state after it is drained before the next).
std::vector<double> round_trips(Connection& c, const std::string& room, int rounds) {
  std::vector<double> us;
  us.reserve(static_cast<std::size_t>(rounds));
  for (int i = 0; i < rounds; ++i) {
    const auto sent = Clock::now();
    const auto ok = c.request({{"type", "sync"}, {"room", room}});
    const auto took = Clock::now() - sent;
    if (!ok || ok->value("type", "") != "ok") {
      throw std::runtime_error("sync refused: " + (ok ? ok->dump() : std::string("no reply")));
    }
    while (c.receive(std::chrono::milliseconds(0))) {
    }
    us.push_back(std::chrono::duration<double, std::micro>(took).count());
  }
  std::sort(us.begin(), us.end());
  return us;
}

double at(const std::vector<double>& sorted, double q) {
  return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(q * sorted.size()))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"the extra latency of a request forwarded to the room's node"};
  std::string host = "127.0.0.1";
  std::uint16_t owner = 0;
  std::uint16_t other = 0;
  int rounds = 2000;
  app.add_option("--host", host, "where both nodes listen");
  app.add_option("--owner", owner, "port of the node that makes (and owns) the room")->required();
  app.add_option("--other", other, "port of another node of the same cluster")->required();
  app.add_option("--rounds", rounds, "requests per client")->check(CLI::Range(10, 1000000));
  CLI11_PARSE(app, argc, argv);
  try {
    auto direct = greet(host, owner, "Direct");
    const auto joined =
        direct->request({{"type", "create_room"}, {"game", "pinocchio"}, {"seats", 3}});
    if (!joined || joined->value("type", "") != "joined") throw std::runtime_error("no room");
    const std::string room = joined->at("room");
    auto forwarded = greet(host, other, "Forwarded");
    const auto second = forwarded->request({{"type", "join"}, {"room", room}});
    if (!second || second->value("type", "") != "joined") {
      throw std::runtime_error("the other node did not seat its client: " +
                               (second ? second->dump() : std::string("no reply")));
    }
    // Warm both paths, then measure them in turns so both see the same machine.
    round_trips(*direct, room, 100);
    round_trips(*forwarded, room, 100);
    const auto a = round_trips(*direct, room, rounds);
    const auto b = round_trips(*forwarded, room, rounds);
    std::printf("%-10s %10s %10s %10s\n", "path", "p50 us", "p90 us", "p99 us");
    std::printf("%-10s %10.0f %10.0f %10.0f\n", "direct", at(a, 0.5), at(a, 0.9), at(a, 0.99));
    std::printf("%-10s %10.0f %10.0f %10.0f\n", "forwarded", at(b, 0.5), at(b, 0.9), at(b, 0.99));
    std::printf("extra per forwarded request: p50 %.0f us, p99 %.0f us (%d requests each)\n",
                at(b, 0.5) - at(a, 0.5), at(b, 0.99) - at(a, 0.99), rounds);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "campfire-forward-hop: %s\n", e.what());
    return 1;
  }
  return 0;
}
