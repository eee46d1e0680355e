#!/usr/bin/python3
"""Checks that a room survives a restart of the Campfire container.

    restart_check.py begin  --port P --state FILE   create a room with two server bots, start,
                                                     play some moves, save room/token/version
    restart_check.py resume --port P --state FILE   rejoin with the saved token, check the game
                                                     went on from where it was, play to the end

Exits 0 when the check passes, 1 (with the reason) when it does not.
"""
import argparse
import asyncio
import json
import random
import sys
import time

import websockets


class Failed(Exception):
    pass


class Player:
    def __init__(self, ws, seed):
        self.ws = ws
        self.rng = random.Random(seed)
        self.next_id = 0
        self.pending = []
        self.last_send = 0.0

    async def send(self, message):
        # Stay well under the default limit of 20 messages per second.
        wait = self.last_send + 0.06 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last_send = time.monotonic()
        await self.ws.send(json.dumps(message))

    async def receive(self, timeout=30):
        if self.pending:
            return self.pending.pop(0)
        return json.loads(await asyncio.wait_for(self.ws.recv(), timeout))

    async def request(self, message):
        self.next_id += 1
        message["id"] = self.next_id
        await self.send(message)
        while True:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if m.get("id") == self.next_id:
                if m.get("type") == "error":
                    raise Failed(f"{message['type']} refused: {m.get('code')}: {m.get('message')}")
                return m
            self.pending.append(m)

    async def latest_state(self):
        """The newest state among what has arrived (waits for at least one)."""
        state = None
        while state is None or self.pending:
            m = await self.receive()
            if m.get("type") == "game_over":
                return m
            if m.get("type") == "state":
                state = m
        return state

    async def act(self, state):
        legal = state["legal"]
        action = legal[self.rng.randrange(len(legal))]
        try:
            return await self.request({"type": "action", "room": state["room"], "action": action,
                                       "version": state["version"]})
        except Failed as e:
            if "stale" in str(e) or "window_closed" in str(e) or "not_your_turn" in str(e):
                return None  # a newer state is on its way
            raise


async def hello(url, name, seed):
    ws = await websockets.connect(url, max_size=1 << 20)
    p = Player(ws, seed)
    await p.request({"type": "hello", "protocol": 1, "name": name})
    return p


async def begin(args):
    p = await hello(args.url, "restart-check", 1)
    joined = await p.request({"type": "create_room", "game": "pinocchio", "seats": 3})
    room, token = joined["room"], joined["token"]
    for _ in range(2):
        await p.request({"type": "add_bot", "room": room})
    await p.request({"type": "start", "room": room})
    moves = 0
    state = None
    while moves < args.moves:
        state = await p.latest_state()
        if state["type"] == "game_over":
            raise Failed("the game ended before the restart; play fewer moves")
        if state["legal"]:
            if await p.act(state):
                moves += 1
    # Settle: the state after our last move (and the bots' replies to it) with our turn next.
    while True:
        state = await p.latest_state()
        if state["type"] == "game_over":
            raise Failed("the game ended before the restart; play fewer moves")
        if state["legal"]:
            break
    await p.ws.close()
    saved = {"room": room, "token": token, "seat": joined["seat"], "version": state["version"],
             "view": state["view"]}
    with open(args.state, "w") as f:
        json.dump(saved, f)
    print(f"room {room}: {moves} moves played, version {state['version']}, our turn")


async def resume(args):
    with open(args.state) as f:
        saved = json.load(f)
    p = await hello(args.url, "restart-check", 2)
    try:
        await p.request({"type": "rejoin", "room": saved["room"], "token": saved["token"]})
    except Failed as e:
        raise Failed(f"room {saved['room']} did not survive the restart ({e})")
    state = await p.latest_state()
    if state.get("type") != "state" or state.get("status") != "playing":
        raise Failed(f"room {saved['room']} is not being played after the restart: {state}")
    if state["version"] < saved["version"]:
        raise Failed(f"room {saved['room']} went back from version {saved['version']} "
                     f"to {state['version']}")
    if state["seat"] != saved["seat"]:
        raise Failed(f"rejoined seat {state['seat']}, held seat {saved['seat']}")
    if state["version"] == saved["version"] and state["view"] != saved["view"]:
        raise Failed("the same version shows a different game after the restart")
    print(f"room {saved['room']}: back at version {state['version']} "
          f"(was {saved['version']}); playing on")
    while True:
        if state.get("type") == "game_over":
            print(f"room {saved['room']}: game over, places {state['result']['places']}")
            return
        if state["legal"]:
            await p.act(state)
        state = await p.latest_state()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phase", choices=["begin", "resume"])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--moves", type=int, default=4)
    args = parser.parse_args()
    args.url = f"ws://{args.host}:{args.port}/ws"
    try:
        asyncio.run(begin(args) if args.phase == "begin" else resume(args))
    except (Failed, OSError, asyncio.TimeoutError, websockets.WebSocketException) as e:
        print(f"restart check failed: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
