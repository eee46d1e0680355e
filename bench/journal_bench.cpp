// campfire-journal-bench: how fast the journal makes accepted actions durable. R rooms each keep
// one action in flight (a room sends nothing until its record is committed, so this is the
// closed loop a busy server sees); prints records per second, records per commit and the commit
// and record-to-durable latency percentiles, and the CPU time (every thread's, user and system)
// per record. Numbers are printed, never asserted.
#include <sys/resource.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "server/journal.hpp"

using namespace campfire::server;
using Clock = std::chrono::steady_clock;

namespace {

// The process's CPU time so far, user and system, in seconds.
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  int rooms = 100;
  double seconds = 3;
  bool fsync = false;
  std::string dir = (std::filesystem::temp_directory_path() / "campfire-journal-bench").string();
  CLI::App app{"Measures the journal's group commit"};
  app.add_option("--rooms", rooms, "rooms, each with one action in flight")
      ->check(CLI::Range(1, 100000));
  app.add_option("--seconds", seconds, "how long to measure")->check(CLI::Range(0.1, 600.0));
  app.add_flag("--fsync", fsync, "sync every commit to disk");
  app.add_option("--dir", dir, "where the database goes (emptied first)");
  CLI11_PARSE(app, argc, argv);
  std::filesystem::remove_all(dir);

  auto journal = make_journal("sqlite", dir, fsync);
  std::mutex m;
  std::vector<double> commit_us;
  std::vector<double> durable_us;
  std::uint64_t records_in_commits = 0;
  journal->on_commit = [&](std::chrono::nanoseconds took, std::size_t records) {
    std::lock_guard lock(m);
    commit_us.push_back(static_cast<double>(took.count()) / 1000.0);
    records_in_commits += records;
  };
  for (int r = 0; r < rooms; ++r) {
    Journal::Record c;
    c.kind = Journal::Record::Kind::kCreate;
    c.code = "R" + std::to_string(r);
    c.room.code = c.code;
    c.room.game = "pinocchio";
    c.room.seats = 4;
    c.room.status = "playing";
    journal->write(std::move(c), nullptr);
  }
  journal->flush();
  {
    std::lock_guard lock(m);
    commit_us.clear();
    records_in_commits = 0;
  }

  std::atomic<bool> running{true};
  std::atomic<std::uint64_t> done{0};
  std::vector<std::size_t> next(static_cast<std::size_t>(rooms), 0);
  // Each completion queues that room's next action, as a room does when its frames go out.
  std::function<void(int)> submit = [&](int room) {
    Journal::Record a;
    a.kind = Journal::Record::Kind::kAction;
    a.code = "R" + std::to_string(room);
    a.index = next[static_cast<std::size_t>(room)]++;
    a.version = static_cast<long long>(a.index) + 1;
    a.action = {static_cast<int>(a.index % 4),
                {{"move", "announce"}, {"colour", "red"}, {"clothing", "hat"}},
                0};
    const auto sent = Clock::now();
    journal->write(std::move(a), [&, room, sent](bool ok) {
      if (!ok) std::fprintf(stderr, "a commit failed\n");
      done.fetch_add(1, std::memory_order_relaxed);
      {
        std::lock_guard lock(m);
        durable_us.push_back(
            std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
      }
      if (running.load()) submit(room);
    });
  };
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  for (int r = 0; r < rooms; ++r) submit(r);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  running = false;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  const std::uint64_t total = done.load();
  const double cpu = cpu_seconds() - cpu_start;
  journal->flush();
  // Closed before the numbers are read: a completion that raced the end of the run may still
  // queue one more record, whose commit calls back into this thread's locks. Holding the lock
  // while the writer is joined deadlocked the benchmark.
  journal.reset();

  std::lock_guard lock(m);
  const double per_commit = commit_us.empty() ? 0
                                              : static_cast<double>(records_in_commits) /
                                                    static_cast<double>(commit_us.size());
  std::printf(
      "RESULT journal rooms=%d fsync=%d records_per_s=%.0f commits=%zu records_per_commit=%.1f "
      "commit_p50_us=%.0f commit_p99_us=%.0f durable_p50_us=%.0f durable_p99_us=%.0f "
      "cpu_us_per_record=%.1f\n",
      rooms, fsync ? 1 : 0, static_cast<double>(total) / elapsed, commit_us.size(), per_commit,
      percentile(commit_us, 0.5), percentile(commit_us, 0.99), percentile(durable_us, 0.5),
      percentile(durable_us, 0.99), total > 0 ? cpu * 1e6 / static_cast<double>(total) : 0.0);
  std::filesystem::remove_all(dir);
  return 0;
}
