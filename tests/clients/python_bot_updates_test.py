"""clients/bot/python/bot.py with update frames, without a server: its merge patch, and the patch
and delta frames it turns back into events and states (or a sync when a patch does not fit)."""
import argparse
import asyncio
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "clients", "bot", "python"))

import bot  # noqa: E402  (found through the path above)


class MergePatch(unittest.TestCase):
    def test_examples_of_the_definition(self):
        # RFC 7386, appendix A.
        cases = [
            ({"a": "b"}, {"a": "c"}, {"a": "c"}),
            ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
            ({"a": "b"}, {"a": None}, {}),
            ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
            ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
            ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
            ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
            ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
            (["a", "b"], ["c", "d"], ["c", "d"]),
            ({"a": "b"}, ["c"], ["c"]),
            ({"a": "foo"}, None, None),
            ({"a": "foo"}, "bar", "bar"),
            ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
            ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
            ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
        ]
        for target, patch, result in cases:
            with self.subTest(target=target, patch=patch):
                self.assertEqual(bot.merge_patch(target, patch), result)

    def test_the_target_is_left_as_it_was(self):
        target = {"view": {"stacks": [3, 3], "yourCard": "red-hat"}, "toAct": [0]}
        kept = json.loads(json.dumps(target))
        after = bot.merge_patch(target, {"view": {"stacks": [2, 3], "yourCard": None}})
        self.assertEqual(after, {"view": {"stacks": [2, 3]}, "toAct": [0]})
        self.assertEqual(target, kept)


class Socket:
    """Records what the bot sends."""

    def __init__(self):
        self.sent = []

    async def send(self, text):
        self.sent.append(json.loads(text))


STATE = {"type": "state", "room": "K7QX2M", "version": 11, "status": "playing", "seat": 1,
         "players": [], "toAct": [0], "view": {"phase": "play", "stacks": [3, 3]},
         "legal": [], "labels": [], "fairness": None}


class Updates(unittest.TestCase):
    def setUp(self):
        args = argparse.Namespace(seed=1, room="K7QX2M", fill_bots=False)
        self.bot = bot.Bot(args)
        self.ws = Socket()
        self.seen = []
        handle = self.bot.on_push

        async def on_push(ws, message, **how):
            if message["type"] != "update":
                self.seen.append(message)
            return await handle(ws, message, **how)

        self.bot.on_push = on_push

    def push(self, message):
        return asyncio.run(self.bot.on_push(self.ws, message))

    def test_a_patch_on_the_state_held_gives_its_events_then_the_new_state(self):
        self.push(STATE)
        self.push({"type": "update", "room": "K7QX2M", "version": 12, "base": 11,
                   "events": [{"type": "announce", "text": "Andrea plays"}],
                   "patch": {"version": 12, "toAct": [1],
                             "legal": [{"move": "pass"}], "labels": ["pass"]}})
        self.assertEqual(self.seen[1:], [
            {"type": "event", "room": "K7QX2M", "version": 12,
             "event": {"type": "announce", "text": "Andrea plays"}},
            dict(STATE, version=12, toAct=[1], legal=[{"move": "pass"}], labels=["pass"])])
        self.assertEqual(self.ws.sent, [{"type": "action", "id": 1, "room": "K7QX2M",
                                         "version": 12, "action": {"move": "pass"}}],
                         "it acts on the patched state")

    def test_a_whole_state_in_an_update_is_the_next_base(self):
        self.push({"type": "update", "room": "K7QX2M", "version": 11, "events": [],
                   "state": STATE})
        self.push({"type": "update", "room": "K7QX2M", "version": 12, "base": 11,
                   "events": [], "patch": {"version": 12}})
        self.assertEqual(self.seen, [STATE, dict(STATE, version=12)])
        self.assertEqual(self.ws.sent, [])

    def test_a_patch_on_another_version_asks_for_a_sync_once(self):
        self.push(STATE)
        self.push({"type": "update", "room": "K7QX2M", "version": 14, "base": 13,
                   "events": [{"type": "drew", "text": "you drew"}], "patch": {"version": 14}})
        self.push({"type": "update", "room": "K7QX2M", "version": 15, "base": 14,
                   "events": [], "patch": {"version": 15}})
        self.assertEqual(self.ws.sent, [{"type": "sync", "room": "K7QX2M"}])
        self.assertEqual(self.seen[1:], [{"type": "event", "room": "K7QX2M", "version": 14,
                                          "event": {"type": "drew", "text": "you drew"}}])
        fresh = dict(STATE, version=15)
        self.push(fresh)
        self.push({"type": "update", "room": "K7QX2M", "version": 16, "base": 15,
                   "events": [], "patch": {"version": 16}})
        self.assertEqual(self.seen[-1], dict(STATE, version=16))
        self.push({"type": "update", "room": "K7QX2M", "version": 18, "base": 17,
                   "events": [], "patch": {"version": 18}})
        self.assertEqual(self.ws.sent[-1], {"type": "sync", "room": "K7QX2M"},
                         "after a full state the next miss asks again")

    def test_deltas_follow_the_state_held_and_name_legal_lists_by_number(self):
        bids = [{"move": "pass"}, {"move": "bid"}]
        self.bot.acted_version = 99  # watch the states, do not act
        self.push(dict(STATE, toAct=[1], legal=bids, labels=["pass", "bid"]))  # list 0
        self.push({"type": "update", "room": "K7QX2M", "version": 12, "events": [],
                   "patch": {"legal": [], "labels": []}})
        self.assertEqual(self.seen[-1], dict(STATE, version=12, toAct=[1]))
        self.push({"type": "update", "room": "K7QX2M", "version": 13, "events": [],
                   "patch": {"legal": [{"move": "play"}], "labels": ["play"]}})  # list 1
        self.push({"type": "update", "room": "K7QX2M", "version": 14, "events": [],
                   "patch": {"legal": 0}})
        self.assertEqual(self.seen[-1], dict(STATE, version=14, toAct=[1], legal=bids,
                                             labels=["pass", "bid"]))
        self.push({"type": "update", "room": "K7QX2M", "version": 15, "events": [],
                   "patch": {"legal": 1}})
        self.assertEqual(self.seen[-1]["legal"], [{"move": "play"}])
        self.assertEqual(self.ws.sent, [])
        self.push({"type": "update", "room": "K7QX2M", "version": 16, "events": [],
                   "patch": {"legal": 2}})
        self.assertEqual(self.ws.sent, [{"type": "sync", "room": "K7QX2M"}], "no list 2 was sent")

    def test_a_deltas_rows_are_read_back_as_the_actions_they_stand_for(self):
        rows = [{"card": "4C", "move": "respond"}, ["5C", "respond"], {"move": "pass"},
                ["concede"], {"move": "place", "slots": [0, 2]}, ["place", [1]], ["place", []]]
        actions = [{"card": "4C", "move": "respond"}, {"card": "5C", "move": "respond"},
                   {"move": "pass"}, {"move": "concede"}, {"move": "place", "slots": [0, 2]},
                   {"move": "place", "slots": [1]}, {"move": "place", "slots": []}]
        self.bot.acted_version = 99  # watch the states, do not act
        self.push(STATE)
        self.push({"type": "update", "room": "K7QX2M", "version": 12, "events": [],
                   "patch": {"legal": rows}})  # list 0 (the state had none)
        self.assertEqual(self.seen[-1], dict(STATE, version=12, legal=actions))
        self.push({"type": "update", "room": "K7QX2M", "version": 13, "events": [],
                   "patch": {"legal": []}})
        self.push({"type": "update", "room": "K7QX2M", "version": 14, "events": [],
                   "patch": {"legal": 0}})
        self.assertEqual(self.seen[-1]["legal"], actions, "a number gives back the actions")
        self.assertEqual(self.ws.sent, [])

    def test_a_bot_acts_on_an_action_read_from_a_row(self):
        self.push(STATE)
        self.push({"type": "update", "room": "K7QX2M", "version": 12, "events": [],
                   "patch": {"legal": [{"card": "4C", "move": "respond"}, ["5C", "respond"],
                                       ["6C", "respond"]]}})
        self.assertEqual(len(self.ws.sent), 1)
        self.assertIn(self.ws.sent[0]["action"], [{"card": c, "move": "respond"}
                                                  for c in ("4C", "5C", "6C")])

    def test_a_row_that_stands_for_no_action_asks_for_a_sync(self):
        for bad in ([["4C", "respond"]], [{"card": "4C", "move": "respond"}, ["5C"]],
                    [{"move": "pass"}, ["pass", 1]]):
            with self.subTest(bad=bad):
                self.setUp()
                self.push(STATE)
                self.push({"type": "update", "room": "K7QX2M", "version": 12,
                           "events": [{"type": "drew"}], "patch": {"legal": bad}})
                self.assertEqual(self.ws.sent, [{"type": "sync", "room": "K7QX2M"}])
                self.assertEqual(self.seen[1:], [{"type": "event", "room": "K7QX2M",
                                                  "version": 12, "event": {"type": "drew"}}])
                self.push({"type": "update", "room": "K7QX2M", "version": 13, "events": [],
                           "patch": {}})
                self.assertEqual(len(self.ws.sent), 1, "asked once")

    def test_a_delta_that_does_not_follow_asks_for_a_sync(self):
        self.push(STATE)
        self.push({"type": "update", "room": "K7QX2M", "version": 13, "events": [],
                   "patch": {"toAct": [1]}})
        self.assertEqual(self.ws.sent, [{"type": "sync", "room": "K7QX2M"}])
        self.assertEqual(self.seen, [STATE])

    def test_the_game_ends_on_a_patched_state(self):
        self.push(STATE)
        result = {"winners": [1], "losers": [0], "places": [2, 1], "scores": [1, 0]}
        got = self.push({"type": "update", "room": "K7QX2M", "version": 12, "base": 11,
                         "events": [], "patch": {"version": 12, "status": "over",
                                                 "result": result}})
        self.assertEqual(got, result)


if __name__ == "__main__":
    unittest.main()
