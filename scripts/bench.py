#!/usr/bin/env python3
"""Runs campfire-load against campfire-server and the bare echo server and prints one table.

Every measurement gets a fresh server (memory baselines stay clean, finished rooms do not pile
up). Server and load generator are pinned to different cores when there are at least two. The
matrix runs --runs times; the table shows medians and the spread (min-max) over the runs.

  scripts/bench.py                 the standard matrix (make bench)
  scripts/bench.py --quick         a small one that proves the harness works
  scripts/bench.py --smoke         what ctest runs: play 4 4 for 2 s, rate 200 over 8 rooms,
                                   echo 10 and a relay of 8

A second table (--only parts) runs the same play against the server with its journal,
its compression or both turned off, beside the relay of the same frames: what each part costs a
move. With redis-server installed it also measures a cluster (--cluster-rooms): one node on Redis, then
three nodes with each room's seats spread over them, so that most seats reach their room through
another node; the difference in latency is the forwarded hop's.
"""
import argparse
import json
import os
import platform
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

GAMES = [("pinocchio", 4), ("tricky-tribes", 4), ("spider-monkey", 6)]
FDS_WANTED = 40000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for want in (FDS_WANTED, hard):
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(want, soft), max(want, hard)))
            break
        except (ValueError, OSError):
            continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Pinning:
    """taskset prefixes: the server on one core, the load generator on another."""

    def __init__(self):
        cpus = sorted(os.sched_getaffinity(0))
        self.ok = len(cpus) >= 2 and shutil.which("taskset") is not None
        self.server = ["taskset", "-c", str(cpus[0])] if self.ok else []
        self.load = ["taskset", "-c", str(cpus[1])] if self.ok else []

    def describe(self):
        if not self.ok:
            return "not pinned (one core or no taskset)"
        return f"server on CPU {self.server[2]}, load generator on CPU {self.load[2]}"


def wait_port(port, proc, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start listening")


class Server:
    """A campfire-server or echo server on a fresh port, stopped on exit; `extra` flags make it
    a node of a cluster."""

    def __init__(self, args, binary, echo, pin, extra=()):
        self.port = free_port()
        self.data = tempfile.mkdtemp(prefix="campfire-bench-")
        if echo:
            cmd = [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--threads", "1"]
        else:
            cmd = [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--threads", "1",
                   "--bot-delay-ms", "0", "--log-level", "warn", "--data-dir", self.data,
                   "--max-connections-per-address", "100000", "--max-rooms", "100000",
                   "--rate", "100000", "--burst", "100000", *extra]
        self.proc = subprocess.Popen(pin + cmd, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        wait_port(self.port, self.proc)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


def load(args, pin, port, mode_args, extra=(), server_pid=None):
    """One campfire-load run; `port` and `server_pid` may be lists (a cluster's nodes)."""
    ports = ",".join(map(str, port)) if isinstance(port, (list, tuple)) else str(port)
    cmd = pin + [args.load, *map(str, mode_args), "--port", ports,
                 "--duration", str(args.duration), "--warmup", str(args.warmup), *map(str, extra)]
    if server_pid:
        pids = server_pid if isinstance(server_pid, (list, tuple)) else [server_pid]
        cmd += ["--server-pid", ",".join(map(str, pids))]
    if getattr(args, "updates", None) and mode_args[0] in ("play", "rate"):
        cmd += ["--updates", args.updates]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.duration + 240)
    result = {"exit": out.returncode}
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            for pair in line.split()[1:]:
                k, v = pair.split("=", 1)
                try:
                    result[k] = float(v)
                except ValueError:
                    result[k] = v
    if "mode" not in result:
        result["error"] = (out.stderr or out.stdout).strip()[-300:]
    if args.verbose:
        print("   ", " ".join(cmd[len(pin):]), "->", out.stdout.strip().splitlines()[-1:],
              file=sys.stderr)
    return result


def listed_games(server_bin, pin):
    with Server(None, server_bin, False, pin) as s:
        with urllib.request.urlopen(f"http://127.0.0.1:{s.port}/api/games", timeout=10) as r:
            return {g["id"] for g in json.load(r)}


def play_cell(args, pin, game, seats, conns):
    rooms = conns // seats
    with Server(args, args.server, False, pin.server) as s:
        play = load(args, pin.load, s.port, ["play", rooms, seats], ["--game", game],
                    server_pid=s.proc.pid)
    with Server(args, args.echo_server, True, pin.server) as e:
        # Frames of the size the play run's frames had on the wire (compressed, as a browser's
        # or campfire-load's connection receives them).
        size = int(play.get("avg_wire_frame_bytes", 0) or play.get("avg_frame_bytes", 0)) or 512
        # The relay: the echo server writes each frame to every member of a group of a room's
        # size, in turns, as a move's update goes to every seat.
        echo = load(args, pin.load, e.port, ["echo", rooms * seats],
                    ["--size", size, "--group", seats], server_pid=e.proc.pid)
    rates = {}
    if args.rate_levels and play.get("actions_per_s"):
        for level in args.rate_levels:
            with Server(args, args.server, False, pin.server) as s:
                offered = max(1, round(play["actions_per_s"] * level / 100))
                rates[level] = load(args, pin.load, s.port, ["rate", offered],
                                    ["--game", game, "--seats", seats, "--rooms", rooms,
                                     "--ramp", args.ramp])
    return play, echo, rates


# The games whose idle seated connections the hold table measures (the targets name both).
HOLD_GAMES = ["pinocchio", "tricky-tribes"]


def hold_cell(args, pin, conns):
    """One run at `conns` connections: each game's hold on a fresh server, and the echo server's
    hold, which every game's row is compared with."""
    holds = {}
    for game in HOLD_GAMES:
        with Server(args, args.server, False, pin.server) as s:
            time.sleep(0.3)
            # Measured once the seats are idle and the server has let their compressors go:
            # Tricky Tribes' exchange window closes by itself after 30 s (every room changes
            # then), a compressor goes after ten quiet seconds, found by a sweep every five,
            # and its pages are handed back at the next sweep.
            holds[game] = load(args, pin.load, s.port, ["hold", conns],
                               ["--game", game, "--seats", 4, "--setup-timeout", 120,
                                "--settle", 50],
                               server_pid=s.proc.pid)
    with Server(args, args.echo_server, True, pin.server) as e:
        time.sleep(0.3)
        echo = load(args, pin.load, e.port, ["hold", conns, "--echo"],
                    ["--setup-timeout", 120], server_pid=e.proc.pid)
    return holds, echo


class Redis:
    """A redis-server on a fresh port and directory (append-only, synced on every write: what
    the cluster's promise rests on), stopped and removed on exit."""

    def __init__(self, pin):
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="campfire-bench-redis-")
        self.proc = subprocess.Popen(
            pin + ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
                   self.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, self.proc)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def cluster_cell(args, pin, game, seats, nodes):
    """`play` against `nodes` nodes of one cluster, every server process on the server's core."""
    rooms = args.cluster_rooms
    with Redis(pin.server) as redis:
        servers = []
        try:
            for i in range(nodes):
                servers.append(Server(args, args.server, False, pin.server, [
                    "--cluster", f"redis://127.0.0.1:{redis.port}", "--node-id", f"n{i + 1}"]))
            return load(args, pin.load, [s.port for s in servers], ["play", rooms, seats],
                        ["--game", game], server_pid=[s.proc.pid for s in servers])
        finally:
            for s in servers:
                s.__exit__()


def cluster_table(args, pin, out):
    out("")
    out(f"Cluster on one Redis (append-only, `appendfsync always`), {args.cluster_rooms} rooms of "
        "4 seats playing Pinocchio, every node and Redis on the server's core. With three nodes "
        "seat 0 creates each room on the next node in turn and the other seats connect to the "
        "nodes after it, so three seats in four reach their room through another node.")
    out("")
    out("| nodes | actions/s | server µs/action | p50 ms | p99 ms | p50/p99 ms on the room's node "
        "| p50/p99 ms forwarded | refused/failed |")
    out("|---|---|---|---|---|---|---|---|")
    for nodes in (1, 3):
        runs = [cluster_cell(args, pin, "pinocchio", 4, nodes) for _ in range(args.runs)]

        def col(key, scale=1.0):
            return med([r[key] * scale for r in runs if key in r])

        refused = sum(int(r.get("errors", 0)) for r in runs)
        failed = sum(int(r.get("failures", 0)) for r in runs)
        broken = [r.get("error") for r in runs if "error" in r]
        split = ("-", "-") if nodes == 1 else (
            f"{col('direct_p50_us', 1e-3)}/{col('direct_p99_us', 1e-3)}",
            f"{col('forwarded_p50_us', 1e-3)}/{col('forwarded_p99_us', 1e-3)}")
        out(f"| {nodes} | {col('actions_per_s')} | {col('server_us_per_action')} "
            f"| {col('p50_us', 1e-3)} | {col('p99_us', 1e-3)} | {split[0]} | {split[1]} "
            f"| {refused}/{failed}{' ' + broken[0] if broken else ''} |")
        sys.stderr.write(f"done: cluster of {nodes}\n")
    out("")
    out("server µs/action: CPU time of every node together per action (Redis not counted).")


def med(values):
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    m = statistics.median(values)
    if len(values) == 1:
        return fmt(m)
    return f"{fmt(m)} ({fmt(min(values))}-{fmt(max(values))})"


def fmt(v):
    if v < 0:
        return "-" + fmt(-v)
    if v >= 10000:
        return f"{v / 1000:.0f}k"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 1:
        return f"{v:.1f}"
    return f"{v:.2f}"


def machine():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def loadavg():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def smoke(args, pin):
    args.duration, args.warmup = 2, 0.5
    with Server(args, args.server, False, pin.server) as s:
        play = load(args, pin.load, s.port, ["play", 4, 4], ["--game", "pinocchio"])
    with Server(args, args.server, False, pin.server) as s:
        rate = load(args, pin.load, s.port, ["rate", 200],
                    ["--game", "pinocchio", "--seats", 4, "--rooms", 8, "--ramp", 0.5])
    with Server(args, args.echo_server, True, pin.server) as e:
        args.duration = 1
        echo = load(args, pin.load, e.port, ["echo", 10])
        relay = load(args, pin.load, e.port, ["echo", 8], ["--group", 4])
    print("play 4 4:", play)
    print("rate 200 --rooms 8 --ramp 0.5:", rate)
    print("echo 10:", echo)
    print("echo 8 --group 4:", relay)
    ok = (play.get("exit") == 0 and play.get("actions_per_s", 0) > 0 and echo.get("exit") == 0
          and rate.get("exit") == 0 and rate.get("actions_per_s", 0) > 150
          and rate.get("p99_us", 0) > 0
          and echo.get("msgs_per_s", 0) > 0 and relay.get("exit") == 0
          and relay.get("actions_per_s", 0) > 0
          and relay.get("msgs_per_s", 0) >= 3.5 * relay["actions_per_s"])
    return 0 if ok else 1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    build = os.path.join(here, "..", "build", "release")
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--server", default=os.path.join(build, "server", "campfire-server"))
    p.add_argument("--load", default=os.path.join(build, "bench", "campfire-load"))
    p.add_argument("--echo-server", default=os.path.join(build, "bench", "campfire-echo-server"))
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--duration", type=float, default=5)
    p.add_argument("--warmup", type=float, default=1)
    p.add_argument("--connections", type=int, nargs="+", default=[100, 1000])
    p.add_argument("--holds", type=int, nargs="+", default=[1000, 5000, 15000])
    p.add_argument("--rate-levels", type=int, nargs="*", default=[10, 50, 80])
    p.add_argument("--ramp", type=float, default=5,
                   help="rate runs: seconds over which the rooms make their first moves, so that "
                        "their games do not all end in the same half second (0: all at once)")
    p.add_argument("--updates", choices=["state", "combined", "patch", "delta"],
                   help="what the players' hello asks for (campfire-load's own default when absent)")
    p.add_argument("--cluster-rooms", type=int, default=100,
                   help="rooms for the cluster rows (0: no cluster rows)")
    p.add_argument("--parts-connections", type=int, default=100,
                   help="connections for the table of what the parts cost")
    p.add_argument("--only", nargs="+", choices=["play", "parts", "hold", "cluster"],
                   default=["play", "parts", "hold", "cluster"], help="which tables to measure")
    p.add_argument("--quick", action="store_true", help="one run, small scale")
    p.add_argument("--smoke", action="store_true", help="the ctest check")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--output", help="also write the table to this file")
    args = p.parse_args()
    pin = Pinning()
    fds = raise_fd_limit()
    if args.smoke:
        return smoke(args, pin)
    if args.quick:
        args.runs, args.duration = 1, 2
        args.connections, args.holds = [100], [1000]

    started_load = loadavg()
    listed = listed_games(args.server, pin.server)
    lines = []
    out = lines.append
    out(f"Machine: {machine()}; {pin.describe()}; open files allowed: {fds}.")
    out(f"Load average before: {started_load}. Runs: {args.runs}, {args.duration:g} s measured "
        f"after {args.warmup:g} s warm-up. Median (min-max).")
    out("")
    if "play" in args.only:
        play_table(args, pin, listed, out)
    if "parts" in args.only:
        parts_table(args, pin, listed, out)
    if "hold" in args.only:
        hold_table(args, pin, fds, out)
    if "cluster" in args.only and args.cluster_rooms > 0 and shutil.which("redis-server"):
        cluster_table(args, pin, out)
    out("")
    out(f"Load average after: {loadavg()}.")
    text = "\n".join(lines)
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")
    return 0



def play_table(args, pin, listed, out):
    out("| game | seats | conns | actions/s | relay actions/s | of relay | msgs/s | frame B "
        "| B/seat/action | text B/seat/action | server µs/action | relay µs/action | CPU % server/load (relay) "
        "| p50 ms | p99 ms | p99.9 ms | p99 ms at 10/50/80% of max | refused/failed |")
    out("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game, seats in GAMES:
        if game not in listed:
            out(f"| {game} | {seats} | - | skipped: the server does not list this game |"
                " | | | | | | | | | | | | | |")
            continue
        for conns in args.connections:
            cells = [play_cell(args, pin, game, seats, conns) for _ in range(args.runs)]
            plays = [c[0] for c in cells]
            echoes = [c[1] for c in cells]

            def col(rs, key, scale=1.0):
                return med([r[key] * scale for r in rs if key in r])

            fraction = med([p["actions_per_s"] / e["actions_per_s"] * 100
                            for p, e in zip(plays, echoes)
                            if p.get("actions_per_s") and e.get("actions_per_s")])
            rate_p99 = "/".join(
                med([c[2][lv]["p99_us"] / 1000 for c in cells
                     if lv in c[2] and "p99_us" in c[2][lv]])
                for lv in args.rate_levels) if args.rate_levels else "-"
            every = plays + echoes + [r for c in cells for r in c[2].values()]
            refused = sum(int(r.get("errors", 0)) for r in every)
            failed = sum(int(r.get("failures", 0)) for r in every)
            broken = [r.get("error") for r in plays + echoes if "error" in r]
            out(f"| {game} | {seats} | {(conns // seats) * seats} | {col(plays, 'actions_per_s')} "
                f"| {col(echoes, 'actions_per_s')} | {fraction}% | {col(plays, 'msgs_per_s')} "
                f"| {col(plays, 'avg_wire_frame_bytes')} | {col(plays, 'bytes_per_seat_action')} "
                f"| {col(plays, 'text_bytes_per_seat_action')} "
                f"| {col(plays, 'server_us_per_action')} | {col(echoes, 'server_us_per_action')} "
                f"| {col(plays, 'server_cpu_pct')}/{col(plays, 'load_cpu_pct')} "
                f"({col(echoes, 'server_cpu_pct')}/{col(echoes, 'load_cpu_pct')}) "
                f"| {col(plays, 'p50_us', 1e-3)} "
                f"| {col(plays, 'p99_us', 1e-3)} | {col(plays, 'p999_us', 1e-3)} | {rate_p99} "
                f"| {refused}/{failed}{' ' + broken[0] if broken else ''} |")
            sys.stderr.write(f"done: {game} {conns}\n")
    out("")
    out("relay: the echo server with as many connections, in groups of a room's size taking "
        "turns, each frame (of the play run's mean size) written to every member: the least any "
        "server must do for a move (read one frame, write one to each seat), so its actions/s "
        "and CPU per action are the ceiling and floor of this machine's transport. frame B and "
        "B/seat/action: bytes on the wire (frame headers included, compressed as the players "
        "agreed to permessage-deflate, as browsers do); text B/seat/action: the same frames' "
        "JSON text as the players read it. msgs/s: "
        "WebSocket frames delivered to clients (updates, states, replies). Latency: from sending "
        "an action to the acting seat receiving the state that contains it; under `rate` from the "
        "scheduled send time. server µs/action: CPU time (user and system) the server used per "
        "action while measuring; CPU %: of one core, for the server and the load generator in the "
        "play run and (in brackets) in the relay run. A side near 100% is the bottleneck; both far "
        "below it means the cores were busy with other work. refused: actions the server turned "
        "down because another seat moved first; failed: connections lost.")


# The same play run with parts of the server turned off, to show what each costs a move: the
# journal (`--journal none`: nothing kept across a restart) and permessage-deflate
# (`--no-compression`: every frame leaves as plain text, as to a client that offers none).
PARTS = [("whole server", []),
         ("no journal", ["--journal", "none"]),
         ("no compression", ["--no-compression"]),
         ("neither", ["--journal", "none", "--no-compression"])]
PARTS_GAMES = [("pinocchio", 4), ("tricky-tribes", 4)]


def parts_table(args, pin, listed, out):
    out("")
    out(f"What the parts cost, {args.parts_connections} connections: `play` against the whole "
        "server and against it with the journal, compression or both turned off, each run on a "
        "fresh server and the variants taken in turn, so that the machine's drift touches them "
        "alike; the relay is the echo server writing frames of the whole server's size to groups "
        "of a room's size.")
    out("")
    out("| game | server | actions/s | server µs/action | µs/action less than the whole server "
        "| B/seat/action | CPU % server/load |")
    out("|---|---|---|---|---|---|---|")
    for game, seats in PARTS_GAMES:
        if game not in listed:
            out(f"| {game} | skipped: the server does not list this game | | | | | |")
            continue
        rooms = args.parts_connections // seats
        runs = {name: [] for name, _ in PARTS}
        relays = []
        for _ in range(args.runs):
            for name, flags in PARTS:
                with Server(args, args.server, False, pin.server, flags) as s:
                    runs[name].append(load(args, pin.load, s.port, ["play", rooms, seats],
                                           ["--game", game], server_pid=s.proc.pid))
            whole = runs[PARTS[0][0]][-1]
            size = int(whole.get("avg_wire_frame_bytes", 0) or 0) or 512
            with Server(args, args.echo_server, True, pin.server) as e:
                relays.append(load(args, pin.load, e.port, ["echo", rooms * seats],
                                   ["--size", size, "--group", seats], server_pid=e.proc.pid))

        def col(rs, key):
            return med([r[key] for r in rs if key in r])

        for name, _ in PARTS:
            rs = runs[name]
            # Each run against the whole server's run of the same turn.
            saved = med([w["server_us_per_action"] - r["server_us_per_action"]
                         for w, r in zip(runs[PARTS[0][0]], rs)
                         if "server_us_per_action" in w and "server_us_per_action" in r])
            broken = [r.get("error") for r in rs if "error" in r]
            out(f"| {game} | {name} | {col(rs, 'actions_per_s')} "
                f"| {col(rs, 'server_us_per_action')} | {'-' if rs is runs[PARTS[0][0]] else saved} "
                f"| {col(rs, 'bytes_per_seat_action')} "
                f"| {col(rs, 'server_cpu_pct')}/{col(rs, 'load_cpu_pct')}"
                f"{' ' + broken[0] if broken else ''} |")
        out(f"| {game} | relay (transport alone) | {col(relays, 'actions_per_s')} "
            f"| {col(relays, 'server_us_per_action')} | - | - "
            f"| {col(relays, 'server_cpu_pct')}/{col(relays, 'load_cpu_pct')} |")
        sys.stderr.write(f"done: parts {game}\n")


def hold_table(args, pin, fds, out):
    out("")
    out("| hold | game | server bytes/conn | echo bytes/conn | ratio | ready | errors |")
    out("|---|---|---|---|---|---|---|")
    for conns in args.holds:
        if conns + 200 > fds:
            out(f"| {conns} | | skipped: {fds} open files allowed | | | | |")
            continue
        cells = [hold_cell(args, pin, conns) for _ in range(args.runs)]
        echoes = [c[1] for c in cells]
        echo_errors = sum(int(e.get("errors", 0) + e.get("failures", 0)) for e in echoes)
        for game in HOLD_GAMES:
            pairs = [(c[0][game], c[1]) for c in cells]
            holds = [h for h, _ in pairs]
            ratio = med([h["bytes_per_conn"] / e["bytes_per_conn"] for h, e in pairs
                         if h.get("bytes_per_conn") and e.get("bytes_per_conn")])
            ready = med([h["ready"] * 4 for h in holds if "ready" in h])
            errors = echo_errors + sum(int(h.get("errors", 0) + h.get("failures", 0))
                                       for h in holds)
            out(f"| {conns} | {game} "
                f"| {med([h['bytes_per_conn'] for h in holds if 'bytes_per_conn' in h])} "
                f"| {med([e['bytes_per_conn'] for e in echoes if 'bytes_per_conn' in e])} "
                f"| {ratio} | {ready} | {errors} |")
        sys.stderr.write(f"done: hold {conns}\n")

if __name__ == "__main__":
    sys.exit(main())
