#!/usr/bin/python3
"""A cluster whose nodes die under it: every game is played to its end while the node that owns
the busiest rooms is killed with SIGKILL, again and again, and started again empty.

Every seat is a player of this script, each on its own connection, the connections of one room
spread over the nodes the way a round-robin load balancer spreads them; some rooms also have a
server bot and a spectator. It checks what a player would notice:

- every game finishes, for every seat and spectator;
- every move a player saw acknowledged (`ok` with its `move`) is in the room's log at that place;
- no connection ever sees a room's version go back, across reconnects and takeovers;
- a connection to a node that stays up is never dropped: its room moving to another node is
  told with a `notice`, and the game goes on over the same connection;
- after every kill, every room that was still being played moves again, and every node's lobby
  lists every room being played;
- with local nodes, last, Redis itself is restarted under the nodes: the rooms pause and go on,
  and nothing acknowledged is lost.

Two ways to run it:

    soak.py --server build/default/server/campfire-server      three local nodes and a Redis
    soak.py --url ws://127.0.0.1:8080/ws --http http://127.0.0.1:8080 \
            --kill 'podman kill {node}' --start 'podman start {node}' --nodes n1,n2,n3
                                                                 a cluster behind a load balancer

Prints what happened and a closing line `soak: N passed, N failed`; exits 0 only when every
check passed. CAMPFIRE_TEST_SCALE (below 1) plays fewer rooms and kills fewer times.
"""
import argparse
import asyncio
import json
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib

import websockets

# The reference Python bot's merge patch: the soak's players apply patches as a bot author would.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients",
                                "bot", "python"))
from bot import merge_patch  # noqa: E402

LEASE_MS = 2000

# The games, their seat counts and options that keep a random game short; windows are shortened
# by the nodes' --window-scale.
GAMES = [
    ("pinocchio", 3, {}),
    ("naked-gibbon", 3, {"jokers": 0}),
    ("fib-fibonacci", 2, {"turnLimit": 60}),
    ("spider-monkey", 3, {}),
    ("tricky-tribes", 3, {"endMode": "fixedRounds", "rounds": 1}),
]


class Failed(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_json(base, path, timeout=5):
    with urllib.request.urlopen(base + path, timeout=timeout) as r:
        return json.load(r)


# --- The cluster under test ---------------------------------------------------------------------

class LocalCluster:
    """A redis-server and three campfire-server nodes on free ports of 127.0.0.1."""

    def __init__(self, server, workdir, nodes=3, extra=()):
        self.server = server
        self.extra = list(extra)
        self.dir = workdir
        self.redis_port = free_port()
        self.ports = {f"n{i + 1}": free_port() for i in range(nodes)}
        self.procs = {}
        self.lives = {node: 0 for node in self.ports}
        self.redis = None
        self.start_redis()
        for node in self.ports:
            self.start(node)
        for node in self.ports:
            self.wait_ready(node)

    def restart_redis(self):
        """Redis stopped (it writes its append-only file out) and started again on the same
        port and directory, as an operator restarting it would."""
        self.redis.terminate()
        self.redis.wait()
        time.sleep(0.5)
        self.start_redis()

    def start_redis(self):
        log = open(os.path.join(self.dir, "redis.log"), "a")
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
             "--dir", self.dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.redis_port), 0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise Failed(f"redis-server did not answer on port {self.redis_port}")

    def start(self, node):
        log = open(os.path.join(self.dir, f"{node}.log"), "a")
        port = self.ports[node]
        data = os.path.join(self.dir, node)
        os.makedirs(data, exist_ok=True)
        self.procs[node] = subprocess.Popen(
            [self.server, "--bind", "127.0.0.1", "--port", str(port), "--data-dir", data,
             "--test-mode", "--window-scale", "0.05", "--bot-delay-ms", "20",
             "--rate", "5000", "--burst", "10000", "--log-level", "info",
             "--cluster", f"redis://127.0.0.1:{self.redis_port}", "--node-id", node,
             "--advertise", f"127.0.0.1:{port}", "--cluster-lease-ms", str(LEASE_MS),
             *self.extra],
            stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self, node):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.procs[node].poll() is not None:
                raise Failed(f"node {node} exited with {self.procs[node].returncode}; "
                             f"see {self.dir}/{node}.log")
            try:
                http_json(self.http(node), "/healthz", timeout=1)
                return
            except (OSError, ValueError):
                time.sleep(0.05)
        raise Failed(f"node {node} did not answer within 30 s")

    def kill(self, node):
        self.procs[node].send_signal(signal.SIGKILL)
        self.procs[node].wait()
        self.lives[node] += 1

    def life(self, node):
        return self.lives[node]

    def restart(self, node):
        self.start(node)
        self.wait_ready(node)

    def alive(self, node):
        return self.procs[node].poll() is None

    def nodes(self):
        return list(self.ports)

    def url(self, node):
        return f"ws://127.0.0.1:{self.ports[node]}/ws"

    def http(self, node):
        return f"http://127.0.0.1:{self.ports[node]}"

    def stop(self):
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs.values():
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if self.redis and self.redis.poll() is None:
            self.redis.terminate()
            self.redis.wait()


class BalancedCluster:
    """A cluster behind one address (a load balancer); nodes are killed and started by commands."""

    def __init__(self, url, http, kill, start, nodes):
        self._url, self._http = url, http
        self.kill_cmd, self.start_cmd = kill, start
        # node id -> what the commands call it (a container's name, say)
        self.names = dict(n.split("=", 1) if "=" in n else (n, n) for n in nodes)
        self.down = set()

    def run(self, command, node):
        subprocess.run(shlex.split(command.format(node=self.names[node])), check=True,
                       stdout=subprocess.DEVNULL)

    def kill(self, node):
        self.run(self.kill_cmd, node)
        self.down.add(node)

    def life(self, node):
        return 0

    def restart(self, node):
        self.run(self.start_cmd, node)
        self.down.discard(node)
        # Until the balancer's health check sees the node again.
        time.sleep(3)

    def alive(self, node):
        return node not in self.down

    def nodes(self):
        return list(self.names)

    def url(self, node):
        return self._url

    def http(self, node):
        return self._http

    def stop(self):
        pass


# --- Players --------------------------------------------------------------------------------------

class Player:
    """One seat (or a spectator) on a connection of its own, playing random legal moves."""

    def __init__(self, soak, name, seat_index, room_key, spectator=False, patch=False):
        self.soak = soak
        self.name = name
        self.index = seat_index
        self.room_key = room_key
        self.spectator = spectator
        self.patch = patch
        self.rng = random.Random(zlib.crc32(name.encode()) + soak.seed)
        self.room = None
        self.token = None
        self.seat = None
        self.ws = None
        self.node = None
        self.node_life = 0  # which run of its node the connection was made to
        self.state = None
        self.max_version = -1
        self.next_id = 0
        self.pending = {}  # id -> (kind, action)
        self.acting = False
        self.min_version = 0
        self.acked = []  # (move, action)
        self.done = False
        self.notices = 0
        self.reconnects = 0
        self.errors_in_a_row = 0
        self.gaps = 0  # patches on a state this connection did not hold
        self.joined = asyncio.Event()

    def __repr__(self):
        return f"{self.name} ({self.room})"

    def describe(self):
        """Where the player stands, for a report of a room that stopped."""
        s = self.state or {}
        return (f"{self.name} on {self.node}: done={self.done} acting={self.acting} "
                f"pending={sorted(k for k, _ in self.pending.values())} "
                f"version={s.get('version')} min_version={self.min_version} "
                f"toAct={s.get('toAct')} legal={len(s.get('legal') or [])} "
                f"status={s.get('status')} seat={self.seat}")

    async def connect(self):
        self.node = self.soak.next_node()
        self.node_life = self.soak.cluster.life(self.node)
        self.ws = await websockets.connect(self.soak.cluster.url(self.node), max_size=1 << 22,
                                           open_timeout=5, ping_interval=None)
        hello = {"type": "hello", "protocol": 1, "name": self.name}
        if self.patch:
            hello["updates"] = "patch"
        await self.request(hello)

    async def close(self, check=False):
        """Ends the connection, if any. A node killed meanwhile resets it while our close frame
        goes out (websockets then raises ConnectionClosedError): with nodes dying on purpose
        that is expected, and the connection is over either way. With `check`, a node that
        stayed up must have completed the closing handshake."""
        if self.ws is None:
            return
        try:
            await self.ws.close()
        except (OSError, websockets.WebSocketException) as e:
            if (check and self.soak.cluster.life(self.node) == self.node_life
                    and not self.soak.lb):
                self.soak.fail(f"{self}: closing the connection to node {self.node}, which "
                               f"stayed up, failed: {e}")

    async def request(self, message, kind="other", action=None):
        self.next_id += 1
        message["id"] = self.next_id
        self.pending[self.next_id] = (kind, action)
        await self.ws.send(json.dumps(message))
        return self.next_id

    async def expect(self, request_id, timeout=20):
        """Reads frames (handling pushes) until the reply to `request_id`; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failed(f"{self}: no reply to request {request_id} within {timeout} s")
            m = json.loads(await asyncio.wait_for(self.ws.recv(), left))
            reply = await self.handle(m)
            if reply is not None and reply.get("id") == request_id:
                return reply

    async def open_seat(self, create=None, room=None):
        """Creates or joins the room (first connection)."""
        await self.connect()
        if create:
            rid = await self.request(create)
        elif self.spectator:
            rid = await self.request({"type": "spectate", "room": room})
        else:
            rid = await self.request({"type": "join", "room": room})
        reply = await self.expect(rid)
        if reply["type"] == "error":
            raise Failed(f"{self}: {reply['code']}: {reply['message']}")
        self.room = reply["room"]
        if not self.spectator:
            self.token, self.seat = reply["token"], reply["seat"]
        self.joined.set()

    async def reattach(self):
        """After a lost connection: any node, rejoin (or spectate) as the protocol says."""
        self.reconnects += 1
        deadline = time.monotonic() + LEASE_MS / 1000 + 15
        while True:
            await self.close()
            try:
                await self.connect()
                if self.spectator:
                    rid = await self.request({"type": "spectate", "room": self.room})
                else:
                    rid = await self.request({"type": "rejoin", "room": self.room,
                                              "token": self.token})
                reply = await self.expect(rid)
                if reply["type"] != "error":
                    return
                if reply["code"] not in ("unavailable", "no_such_room", "room_elsewhere"):
                    raise Failed(f"{self}: rejoin refused: {reply['code']}: {reply['message']}")
            except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
                pass
            if time.monotonic() > deadline:
                raise Failed(f"{self}: could not get back into room {self.room} within "
                             f"{LEASE_MS / 1000 + 15:.0f} s")
            await asyncio.sleep(0.2)

    async def handle(self, m):
        """One frame; returns it when it is a reply to one of our requests."""
        kind = m.get("type")
        if "id" in m and m["id"] in self.pending:
            request_kind, action = self.pending.pop(m["id"])
            if request_kind == "action":
                self.acting = False
                if kind == "ok":
                    self.acked.append((m["move"], action))
                    self.min_version = m["version"]
                    self.errors_in_a_row = 0
                else:
                    self.errors_in_a_row += 1
                    if self.errors_in_a_row > 50:
                        raise Failed(f"{self}: 50 refused moves in a row, the last: {m}")
                    # Act again on the next whole state.
                    self.min_version = (self.state or {}).get("version", 0) + 1
                    await self.request({"type": "sync", "room": self.room}, "sync")
            elif request_kind == "sync" and kind == "ok":
                self.min_version = min(self.min_version, m["version"])
            elif request_kind == "sync":
                # The sync itself was lost on the way (its node died, or the bus was down): ask
                # again.
                await asyncio.sleep(0.1)
                await self.request({"type": "sync", "room": self.room}, "sync")
            return m
        if kind == "state":
            self.take_state(m)
        elif kind == "update":
            if "state" in m:
                self.take_state(m["state"])
            else:
                if self.state is None or self.state.get("version") != m["base"]:
                    # A frame went missing (the bus between nodes delivers at most once): as
                    # the protocol says, ask for the whole state and act on nothing until then.
                    if self.state is not None:
                        self.gaps += 1
                        self.state = None
                        self.acting = False
                        await self.request({"type": "sync", "room": self.room}, "sync")
                    return None
                self.take_state(merge_patch(self.state, m["patch"]))
        elif kind == "game_over":
            self.done = True
        elif kind == "notice":
            self.notices += 1
        elif kind == "error" and m.get("code") == "replaced":
            raise Failed(f"{self}: seat taken over by another connection: {m}")
        elif kind == "room_closed":
            raise Failed(f"{self}: room closed: {m}")
        return None

    def take_state(self, state):
        v = state["version"]
        if v < self.max_version:
            raise Failed(f"{self}: version went back from {self.max_version} to {v}")
        self.max_version = v
        self.state = state
        self.soak.progress(self.room_key, v)
        if state.get("status") == "over":
            self.done = True

    async def maybe_act(self):
        s = self.state
        if (self.spectator or self.acting or self.done or s is None or s.get("status") != "playing"
                or not s.get("legal") or s["version"] < self.min_version):
            return
        action = s["legal"][self.rng.randrange(len(s["legal"]))]
        self.acting = True
        await self.request({"type": "action", "room": self.room, "action": action,
                            "version": s["version"]}, "action", action)

    async def play(self):
        """Plays until the game is over, reconnecting whenever the connection is lost."""
        while not self.done:
            try:
                await self.maybe_act()
                m = json.loads(await asyncio.wait_for(self.ws.recv(), 1.0))
                await self.handle(m)
            except asyncio.TimeoutError:
                continue
            except (OSError, websockets.WebSocketException):
                if self.soak.cluster.life(self.node) == self.node_life and not self.soak.lb:
                    self.soak.fail(f"{self}: connection to node {self.node}, which stayed up, "
                                   f"was lost")
                self.acting = False
                self.pending.clear()
                self.state = None
                self.min_version = 0
                await self.reattach()
        await self.close(check=True)


# --- The soak -------------------------------------------------------------------------------------

class Soak:
    def __init__(self, cluster, args, lb):
        self.cluster = cluster
        self.args = args
        self.lb = lb
        self.seed = args.seed
        self.turn = 0
        self.versions = {}  # room key -> highest version any member saw
        self.rooms = {}  # room key -> (game, room code, [players])
        self.started = {}  # room key -> when it started (monotonic)
        self.failures = []
        self.passed = 0

    def fail(self, why):
        print(f"FAIL: {why}", flush=True)
        self.failures.append(why)

    def ok(self, what):
        print(f"ok: {what}", flush=True)
        self.passed += 1

    def next_node(self):
        live = [n for n in self.cluster.nodes() if self.cluster.alive(n)]
        self.turn += 1
        return live[self.turn % len(live)]

    def progress(self, key, version):
        self.versions[key] = max(self.versions.get(key, -1), version)

    def live_node(self):
        return next(n for n in self.cluster.nodes() if self.cluster.alive(n))

    def listed(self, node):
        rooms = http_json(self.cluster.http(node), "/api/rooms")
        return rooms["rooms"] if isinstance(rooms, dict) else rooms

    async def set_up(self, key, game, seats, options, bot, spectate):
        humans = seats - (1 if bot else 0)
        players = [Player(self, f"{game[:4]}{key}s{i}", i, key, patch=(i % 2 == 1))
                   for i in range(humans)]
        try:
            await self.seat(key, game, seats, options, bot, spectate, players)
        except BaseException:
            for p in players:
                await p.close()
            raise

    async def seat(self, key, game, seats, options, bot, spectate, players):
        create = {"type": "create_room", "game": game, "seats": seats, "options": options,
                  "seed": self.seed * 1000 + key}
        await players[0].open_seat(create=create)
        room = players[0].room
        for p in players[1:]:
            await p.open_seat(room=room)
        if bot:
            rid = await players[0].request({"type": "add_bot", "room": room, "strategy": "random"})
            await players[0].expect(rid)
        if spectate:
            watcher = Player(self, f"{game[:4]}{key}w", -1, key, spectator=True)
            await watcher.open_seat(room=room)
            players.append(watcher)
        rid = await players[0].request({"type": "start", "room": room})
        reply = await players[0].expect(rid)
        if reply["type"] == "error":
            raise Failed(f"room {room}: start refused: {reply}")
        self.rooms[key] = (game, room, players)
        self.started[key] = time.monotonic()

    async def killer(self):
        await asyncio.sleep(self.args.interval)
        await self.check_lobby()
        for round_ in range(self.args.kills):
            await asyncio.sleep(self.args.interval)
            busy = {}
            looked = time.monotonic()
            while not busy and time.monotonic() < looked + 5:
                try:
                    for r in await asyncio.to_thread(self.listed, self.live_node()):
                        if r.get("status") == "playing":
                            busy[r["node"]] = busy.get(r["node"], 0) + 1
                except (OSError, ValueError) as e:
                    self.fail(f"lobby did not answer before kill {round_ + 1}: {e}")
                    break
                if not busy:
                    await asyncio.sleep(0.2)
            if not busy:
                self.fail(f"no room was being played at kill {round_ + 1}")
                continue
            victim = max(busy, key=busy.get)
            before = self.snapshot()
            print(f"kill {round_ + 1}: {victim} (owns {busy[victim]} rooms being played)", flush=True)
            self.cluster.kill(victim)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(self.cluster.restart, victim)
            if await self.moved_on(before, f"killing {victim}"):
                await self.check_lobby()
        if hasattr(self.cluster, "restart_redis"):
            await asyncio.sleep(self.args.interval)
            before = self.snapshot()
            print("restarting Redis", flush=True)
            await asyncio.to_thread(self.cluster.restart_redis)
            if await self.moved_on(before, "restarting Redis"):
                await self.check_lobby()

    def snapshot(self):
        """The rooms being played now, with the highest version seen of each."""
        return {k: self.versions.get(k, -1) for k, (_, _, ps) in self.rooms.items()
                if not all(p.done for p in ps)}

    async def moved_on(self, before, what):
        """Whether every room of `before` moves again (or ends) within lease + 10 s."""
        deadline = time.monotonic() + LEASE_MS / 1000 + 10
        while True:
            stuck = [k for k, v in before.items() if self.versions.get(k, -1) <= v
                     and not all(p.done for p in self.rooms[k][2])]
            if not stuck:
                self.ok(f"after {what}, every room being played moved on")
                return True
            if time.monotonic() > deadline:
                self.fail(f"after {what}, rooms did not move again: "
                          f"{[self.rooms[k][1] for k in stuck]}")
                for k in stuck:
                    for p in self.rooms[k][2]:
                        print(f"  {self.rooms[k][1]}: {p.describe()}", flush=True)
                return False
            await asyncio.sleep(0.2)

    async def check_lobby(self):
        """Every node's lobby lists every room being played (each node publishes its rooms
        every second, so a room is looked for once it has been played for a few seconds)."""
        def unfinished():
            old = time.monotonic() - 3
            return {room for key, (_, room, ps) in self.rooms.items()
                    if self.started[key] < old and not all(p.done for p in ps)}

        fine = True
        for node in self.cluster.nodes():
            if not self.cluster.alive(node):
                continue
            deadline = time.monotonic() + 5
            while True:
                try:
                    listed = await asyncio.to_thread(self.listed, node)
                    missing = unfinished() - {r["room"] for r in listed}
                except (OSError, ValueError) as e:
                    missing = {f"(no answer: {e})"}
                # A room may finish between the look and the check.
                missing &= unfinished() | {m for m in missing if m.startswith("(")}
                if not missing:
                    break
                if time.monotonic() > deadline:
                    self.fail(f"the lobby of {node} does not list {sorted(missing)}")
                    fine = False
                    break
                await asyncio.sleep(0.25)
            if self.lb:
                break
        if fine:
            self.ok("every lobby lists every room being played")

    def check_logs(self):
        base = self.cluster.http(self.live_node())
        for key, (game, room, players) in sorted(self.rooms.items()):
            try:
                replay = http_json(base, f"/api/replays/{room}")
            except (OSError, ValueError) as e:
                self.fail(f"room {room}: no replay: {e}")
                continue
            log = replay["log"]
            bad = [(move, p.seat) for p in players if not p.spectator
                   for move, action in p.acked
                   if move >= len(log) or log[move] != {"seat": p.seat, "action": action}]
            acked = sum(len(p.acked) for p in players)
            if bad:
                self.fail(f"room {room} ({game}): acknowledged moves not at their place: {bad[:5]}")
            elif replay.get("result") is None:
                self.fail(f"room {room} ({game}): the replay has no result")
            else:
                self.ok(f"room {room} ({game}): {acked} acknowledged moves of {len(log)} "
                        f"at their places")

    async def slot(self, game, seats, options, extras):
        """Plays one game after another of `game` until the kills are done."""
        while True:
            self.keys += 1
            key = self.keys
            # A node may die while a room is being set up on it: then set up another (the one
            # half made is never started, so there is nothing of it to check).
            for attempt in range(5):
                try:
                    await self.set_up(key, game, seats, options, bot=extras, spectate=extras)
                    break
                except (Failed, OSError, asyncio.TimeoutError, websockets.WebSocketException) as e:
                    if attempt == 4:
                        raise Failed(f"could not set up a room of {game}: {e}") from e
                    await asyncio.sleep(0.5)
            await asyncio.gather(*(p.play() for p in self.rooms[key][2]))
            if self.kills_done.is_set():
                return

    async def run(self):
        self.keys = 0
        self.kills_done = asyncio.Event()
        slots = [self.slot(game, seats, options, r == 0)
                 for r in range(self.args.rooms_per_game) for game, seats, options in GAMES]

        async def killer():
            try:
                await self.killer()
            finally:
                self.kills_done.set()

        killing = asyncio.create_task(killer())
        deadline = (self.args.kills + 1) * (self.args.interval + LEASE_MS / 1000 + 12) + 60
        # The first failure ends the soak: what follows it would only be its echoes.
        tasks = [asyncio.create_task(slot) for slot in slots]
        done, pending = await asyncio.wait(tasks, timeout=deadline,
                                           return_when=asyncio.FIRST_EXCEPTION)
        # No kill round after that either: its rooms would stall only because their players
        # stopped.
        killing.cancel()
        for task in done:
            if task.exception() is not None:
                e = task.exception()
                self.fail(str(e) or type(e).__name__)
        if pending and not self.failures:
            unfinished = sorted({room for _, room, ps in self.rooms.values()
                                 if not all(p.done for p in ps)})
            self.fail(f"games not finished within {deadline:.0f} s: {unfinished}")
            for _, room, ps in self.rooms.values():
                if room in unfinished:
                    for p in ps:
                        print(f"  {room}: {p.describe()}", flush=True)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        await asyncio.gather(killing, return_exceptions=True)
        players = [p for _, _, ps in self.rooms.values() for p in ps]
        if not self.failures:
            self.ok(f"{len(self.rooms)} games finished over {len(self.cluster.nodes())} nodes "
                    f"({sum(len(p.acked) for p in players)} moves acknowledged, "
                    f"{sum(p.reconnects for p in players)} reconnects, "
                    f"{sum(p.notices for p in players)} notices, "
                    f"{sum(p.gaps for p in players)} missed frames mended by sync)")
            self.check_logs()

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="campfire-server binary: run three local nodes")
    parser.add_argument("--url", help="the cluster's WebSocket address (behind a balancer)")
    parser.add_argument("--http", help="the cluster's HTTP address (with --url)")
    parser.add_argument("--kill", help="command that kills node {node} (with --url)")
    parser.add_argument("--start", help="command that starts node {node} again (with --url)")
    parser.add_argument("--nodes", help="the node ids, comma-separated, each as ID or ID=NAME "
                                        "where the commands call it NAME (with --url)")
    scale = float(os.environ.get("CAMPFIRE_TEST_SCALE", "1"))
    parser.add_argument("--rooms-per-game", type=int, default=2 if scale >= 1 else 1)
    parser.add_argument("--kills", type=int, default=4 if scale >= 1 else 2)
    parser.add_argument("--interval", type=float, default=1.5, help="seconds between kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the local logs")
    args = parser.parse_args()

    workdir = None
    try:
        if args.server:
            workdir = tempfile.mkdtemp(prefix="campfire-soak-")
            cluster, lb = LocalCluster(args.server, workdir), False
        elif args.url and args.http and args.kill and args.start and args.nodes:
            cluster = BalancedCluster(args.url, args.http, args.kill, args.start,
                                      args.nodes.split(","))
            lb = True
        else:
            parser.error("give --server, or --url with --http, --kill, --start and --nodes")
    except Failed as e:
        print(f"soak: cannot start: {e}", file=sys.stderr)
        return 1
    soak = Soak(cluster, args, lb)
    started = time.monotonic()
    try:
        asyncio.run(soak.run())
    except (Failed, OSError, websockets.WebSocketException, asyncio.TimeoutError) as e:
        soak.fail(str(e) or type(e).__name__)
    finally:
        cluster.stop()
        if workdir:
            if soak.failures or args.keep:
                print(f"logs kept in {workdir}", flush=True)
            else:
                shutil.rmtree(workdir, ignore_errors=True)
    print(f"soak took {time.monotonic() - started:.0f} s")
    print(f"soak: {soak.passed} passed, {len(soak.failures)} failed")
    return 0 if not soak.failures else 1


if __name__ == "__main__":
    sys.exit(main())
