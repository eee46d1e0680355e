#!/usr/bin/python3
"""A Campfire bot in a few lines of Python, written from protocol/PROTOCOL.md alone.

It creates a room (or joins one with --room), adds its own entropy to the shuffle, plays random
legal actions until the game is over and prints the result. Then it fetches the game's replay and
checks the shuffle against the commitment it saw at the start (verify.py beside it): it exits 0
when the shuffle was fair, 1 when it was not. A dropped connection is resumed with the seat token.

    /usr/bin/python3 bot.py --port 8080 --seats 3 --fill-bots
    /usr/bin/python3 bot.py --port 8080 --room K7QX2M

Needs only the standard library and websockets (Debian's python3-websockets).
"""
import argparse
import asyncio
import json
import random
import secrets
import sys
import time
import urllib.request

import websockets

import verify


def merge_patch(target, patch):
    """The target changed by a JSON merge patch (RFC 7386), the target itself left as it was: a
    member set to None is removed, a dict merges into the member (or into {}), anything else
    replaces it."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def expand_rows(legal):
    """A delta's legal list back as the actions it stands for: each list is the action with the
    member names of the nearest dict before it, in their order (json keeps the order of the text),
    and the list's items as their values. None for a row with no dict before it or of another
    length: the list cannot be read."""
    names, actions = None, []
    for action in legal:
        if isinstance(action, list):
            if names is None or len(action) != len(names):
                return None
            actions.append(dict(zip(names, action)))
        else:
            if isinstance(action, dict):
                names = list(action)
            actions.append(action)
    return actions


class Refused(Exception):
    """The server answered a request with an error."""


class Bot:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.next_id = 0
        self.room = args.room
        self.token = None
        self.seat = None
        self.acted_version = -1
        self.pending = None  # id of our action waiting for its reply
        self.start_sent = False
        self.last_send = 0.0
        self.entropy = None     # what we added to the shuffle, if the room took it
        self.commitment = None  # the shuffle's commitment in the first state we saw
        self.held = None        # the last state we got: the base of the next patch
        self.syncing = False    # a patch did not fit the state held; a sync is on its way
        self.numbered = []      # legal lists (with labels) sent whole since the last full state
        self.next_number = 0    # the number the next one gets

    async def send(self, ws, message):
        # Stay under the server's rate limit (20 messages per second): fast opponents, such as
        # server bots that do not think, would otherwise make us flood.
        delay = self.last_send + 0.06 - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        self.last_send = time.monotonic()
        await ws.send(json.dumps(message))

    def fresh_id(self):
        self.next_id += 1
        return self.next_id

    async def request(self, ws, message):
        """Sends a request and waits for the reply with the same id; pushes in between are
        handled as they come."""
        message["id"] = self.fresh_id()
        await self.send(ws, message)
        while True:
            reply = json.loads(await ws.recv())
            if reply.get("id") == message["id"]:
                if reply["type"] == "error":
                    raise Refused(f"{message['type']}: {reply['code']}: {reply['message']}")
                return reply
            await self.on_push(ws, reply)

    async def connect(self):
        ws = await websockets.connect(f"ws://{self.args.host}:{self.args.port}/ws")
        # A new connection: the server knows no state of ours to patch, we hold none of its.
        self.held = None
        self.syncing = False
        # Deltas: the smallest update frames. A quiet bot prints no words, so it asks for none.
        hello = {"type": "hello", "protocol": 1, "name": self.args.name, "updates": "delta"}
        if getattr(self.args, "quiet", False):
            hello["texts"] = False
        await self.request(ws, hello)
        return ws

    async def take_seat(self, ws):
        if self.room:
            joined = await self.request(ws, {"type": "join", "room": self.room})
        else:
            joined = await self.request(ws, {"type": "create_room", "game": self.args.game,
                                             "seats": self.args.seats})
        self.room, self.seat, self.token = joined["room"], joined["seat"], joined["token"]
        print(f"room {self.room} seat {self.seat}", flush=True)
        await self.contribute(ws)
        if self.args.fill_bots and not self.args.room:
            self.start_sent = True  # started just below, once the bots are seated
            for _ in range(self.args.seats - 1):
                await self.request(ws, {"type": "add_bot", "room": self.room})
            await self.request(ws, {"type": "start", "room": self.room})

    async def contribute(self, ws):
        """Adds fresh entropy to the shuffle, so that not even the server alone chose the deal.
        A room that already started, or whose deal its creator fixed, refuses it: play on."""
        entropy = secrets.token_hex(16)
        try:
            await self.request(ws, {"type": "contribute", "room": self.room, "entropy": entropy})
            self.entropy = entropy
            print("contributed to the shuffle", flush=True)
        except Refused as e:
            print("no contribution to the shuffle:", e, flush=True)

    def check_shuffle(self):
        """Fetches the replay and checks the shuffle; returns the differences found, or None for
        a deal the room's creator fixed."""
        url = f"http://{self.args.host}:{self.args.port}/api/replays/{self.room}"
        with urllib.request.urlopen(url, timeout=10) as reply:
            replay = json.load(reply)
        fairness = replay.get("fairness") or {}
        if fairness.get("fixed") is True:
            return None  # the creator chose the deal (a test-mode seed): there is nothing to prove
        problems = verify.check(replay)
        if self.commitment and fairness.get("commitment") != self.commitment:
            problems.append(f"commitment: the game started with {self.commitment}, the replay "
                            f"says {fairness.get('commitment')!r}")
        given = fairness.get("contributions") or []
        if self.entropy and (self.seat >= len(given) or given[self.seat] != self.entropy):
            problems.append(f"contribution: ours ({self.entropy}) is not the one the replay "
                            f"lists for seat {self.seat}")
        return problems

    def say(self, *words):
        if not getattr(self.args, "quiet", False):
            print(*words, flush=True)

    def number(self, state):
        """A legal list that came whole gets the next number; a delta may name it later."""
        if state.get("legal"):
            self.numbered.append({"legal": state["legal"], "labels": state.get("labels")})
            self.numbered = self.numbered[-16:]  # only the last 16 are ever named
            self.next_number += 1

    async def on_push(self, ws, message, patched=False):
        """Handles a pushed message; returns the result once the game is over."""
        kind = message["type"]
        if kind == "update":
            return await self.on_update(ws, message)
        if kind == "state" and not patched:
            # A whole state: the numbering of legal lists starts again from it.
            self.numbered, self.next_number = [], 0
            self.number(message)
        if kind == "event":
            self.say("*", message["event"].get("text", message["event"]["type"]))
        elif kind == "game_over":
            return message["result"]
        elif kind == "state":
            self.held = message
            self.syncing = False
            if self.commitment is None and message.get("fairness"):
                self.commitment = message["fairness"].get("commitment")
            if message["status"] == "over":
                return message.get("result")
            # The creator starts once every seat is taken.
            if (message["status"] == "waiting" and not self.args.room and not self.start_sent
                    and None not in message["players"]):
                self.start_sent = True
                await self.send(ws, {"type": "start", "room": self.room})
            # Act once per decision: never while our last action awaits its reply, and only on a
            # state at least as new as the one that action produced. In a simultaneous phase or
            # a window other seats' moves bring new states that still offer the choice we just
            # made; acting on them again would only be refused as stale.
            if (message["legal"] and self.pending is None
                    and message["version"] > self.acted_version):
                self.acted_version = message["version"]
                i = self.rng.randrange(len(message["legal"]))
                self.say(">", (message.get("labels") or message["legal"])[i])
                self.pending = self.fresh_id()
                await self.send(ws, {"type": "action", "id": self.pending, "room": self.room,
                                     "version": message["version"],
                                     "action": message["legal"][i]})
        elif kind == "ok" and self.pending is not None and message.get("id") == self.pending:
            # The state of the version our move produced (or a later one) is the next to act on.
            self.pending = None
            self.acted_version = message["version"] - 1
        elif kind == "error":
            print("refused:", message["code"], message["message"], flush=True)
            if message["code"] == "replaced":
                raise Refused("our seat was resumed elsewhere")
            if self.pending is not None and message.get("id") == self.pending:
                self.pending = None
            # Look again: act on the fresh state the sync brings.
            self.acted_version = -1
            await self.send(ws, {"type": "sync", "room": self.room})
        return None

    async def on_update(self, ws, update):
        """One frame for one change of the room: its events, then its state, sent whole or as a
        merge patch on the state we hold (a delta: on the version just before its own, with no
        version in the patch, a legal list sent before given as its number and one sent whole as
        rows). A patch that does not follow the state we hold, or has a row that stands for no
        action, means we missed something: its events still count, its state waits for the full
        one a sync brings."""
        for event in update["events"]:
            await self.on_push(ws, {"type": "event", "room": update["room"],
                                    "version": update["version"], "event": event})
        if "state" in update:
            return await self.on_push(ws, update["state"])
        held, patch = self.held, update["patch"]
        delta = "base" not in update
        legal = patch.get("legal")
        readable = True
        if delta and isinstance(legal, list):
            # Rows are read back first: from here on the list is what a whole state would hold.
            legal = expand_rows(legal)
            readable = legal is not None
            patch = dict(patch, legal=legal)
        first = self.next_number - len(self.numbered)
        fits = held is not None and (held["version"] + 1 == update["version"] if delta
                                     else held["version"] == update["base"])
        if fits and delta and isinstance(legal, int) and not first <= legal < self.next_number:
            fits = False
        if not fits or not readable:
            self.held = None
            if not self.syncing:
                self.syncing = True
                await self.send(ws, {"type": "sync", "room": update["room"]})
            return None
        state = merge_patch(held, patch)
        state["version"] = update["version"]
        if delta and isinstance(legal, int):
            named = self.numbered[legal - first]
            state["legal"] = named["legal"]
            if named["labels"] is not None:
                state["labels"] = named["labels"]
        elif delta and legal is not None:
            self.number(state)
        return await self.on_push(ws, state, patched=True)

    async def play(self):
        ws = await self.connect()
        await self.take_seat(ws)
        while True:
            try:
                result = await self.on_push(ws, json.loads(await ws.recv()))
                if result is not None:
                    await ws.close()
                    return result
            except websockets.ConnectionClosed:
                print("connection lost; rejoining", flush=True)
                ws = await self.connect()
                self.pending = None
                self.acted_version = -1
                await self.request(ws, {"type": "rejoin", "room": self.room,
                                        "token": self.token})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--name", default="python-bot")
    parser.add_argument("--game", default="pinocchio")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--room", help="join this room instead of creating one")
    parser.add_argument("--fill-bots", action="store_true",
                        help="fill the other seats with server bots and start")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    parser.add_argument("--quiet", action="store_true",
                        help="print only the room and the result (and ask the server for no words)")
    parser.add_argument("--no-verify", action="store_true",
                        help="do not fetch the replay to check the shuffle")
    args = parser.parse_args()
    bot = Bot(args)
    try:
        result = asyncio.run(bot.play())
    except (Refused, OSError, websockets.WebSocketException) as e:
        print("error:", e, file=sys.stderr)
        return 1
    won = bot.seat in result["winners"]
    print(f"game over: seat {bot.seat} placed {result['places'][bot.seat]} of "
          f"{len(result['places'])}, {'won' if won else 'did not win'}", flush=True)
    if args.no_verify:
        return 0
    try:
        problems = bot.check_shuffle()
    except (OSError, ValueError) as e:
        print("error: cannot fetch the replay to check the shuffle:", e, file=sys.stderr)
        return 1
    if problems is None:
        print("shuffle: a fixed deal, chosen by the room's creator; not provably fair", flush=True)
        return 0
    if not problems:
        print("shuffle: fair (commitment, our contribution, seed and deck order)", flush=True)
        return 0
    print("shuffle: NOT FAIR", flush=True)
    for p in problems:
        print("  " + p, flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
