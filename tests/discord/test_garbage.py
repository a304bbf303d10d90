"""What a Discord table leaves for the collector: nothing. The views the adapter sends, the one discord.py makes from a
pressed message, and each interaction with its response objects (a refused one's too) are let go of once used, so a
busy bot's presses do not fill the oldest generation with views, buttons, interactions, members and messages in
reference cycles, which only a full collection frees (half a second at 10,000 tables: `bot.collector`)."""

from __future__ import annotations

import copy
import gc
import threading
import time
import weakref
from collections import Counter

import pytest
from discord.gateway import KeepAliveHandler

from bot.i18n import text
from tests.bot.helpers import kept_garbage
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_games import action, current_table, to_act
from tests.discord.test_pace import instant_presses


async def test_hands_pressed_out_leave_nothing_in_a_cycle(fake: FakeDiscord, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    await bot.settled()
    with kept_garbage() as garbage:
        presses = 0
        for _ in range(2):
            await fake.slash(members[0], channel, "deal")
            await bot.settled()
            presses += len(await instant_presses(fake, channel, "check", "call"))
            await bot.settled()

        # a button whose custom id names another channel (forged) on the message as Discord has it, refused at the edge
        table = current_table(fake, channel)
        forged = [{**item, "custom_id": item["custom_id"].replace(f":{channel}:", ":1:")}
                  for item in fake.buttons(table)]
        table["components"] = [{"type": 1, "components": forged[:5]}]
        refused = await fake.press(members[0], table, fake.buttons(table)[0]["custom_id"])
        await bot.settled()
        gc.collect()
        found = Counter(f"{type(thing).__module__}.{type(thing).__qualname__}" for thing in garbage)

    assert presses >= 6
    assert refused.ephemeral_text() == text("en", "discord.other_table")
    # (what is left, a few classes and tuples of the standard library's `email` parsing multipart bodies, is not ours)
    assert {kind: count for kind, count in found.items() if kind.startswith(("discord.", "bot."))} == {}


async def test_a_bot_stopped_before_the_block_is_not_its_garbage(fake: FakeDiscord, make_bot,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot stopped before `kept_garbage` (an earlier test's, in the same worker) whose gateway keep-alive thread
    ends late, as on a loaded machine: its objects, reachable from that thread until it ends, are freed before the
    block, not found in it. Its thread is held past the client's close and let go shortly after the block is asked
    for; the test then waits for it inside the block, where it would have ended."""
    release = threading.Event()
    run = KeepAliveHandler.run

    def ends_late(self: KeepAliveHandler) -> None:
        run(self)
        release.wait(10)

    monkeypatch.setattr(KeepAliveHandler, "run", ends_late)
    earlier = await make_bot(default_game="holdem")
    [keep_alive] = [weakref.ref(thread) for thread in threading.enumerate() if isinstance(thread, KeepAliveHandler)]
    await earlier.stop()
    assert _alive(keep_alive)
    threading.Timer(0.2, release.set).start()
    with kept_garbage() as garbage:
        while _alive(keep_alive):  # where it ends, unless the block waited for it
            time.sleep(0.01)
        gc.collect()
        found = {f"{type(thing).__module__}.{type(thing).__qualname__}" for thing in garbage}
    assert sorted(kind for kind in found if kind.startswith(("discord.", "bot."))) == []


def _alive(thread: weakref.ref[KeepAliveHandler]) -> bool:
    """Whether the thread runs still (holding no reference to it: the thread object holds the closed client)."""
    found = thread()
    return found is not None and found.is_alive()


async def test_presses_of_buttons_the_message_no_longer_carries_leave_nothing_in_a_cycle(fake: FakeDiscord,
                                                                                        make_bot) -> None:
    """Ann's client still shows the hand's first turn, hers, after her call moved it on (each button's id names the
    turn): her presses of that Call again come with the message as it is now, whose buttons are Bob's turn's, and
    are answered as a turn already over. Of each, discord.py made a view from the message's buttons, found hers in none
    and dropped it, a view and its buttons in a reference cycle; with the collector off, none may be left for a full
    collection to find."""
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = (fake.add_member(name) for name in ("Ann", "Bob", "Cat"))
    for member in (ann, bob, cat):
        await fake.slash(member, channel, "join", chips=200)
    await fake.slash(ann, channel, "deal")
    await bot.settled()
    first = copy.deepcopy(current_table(fake, channel))  # as Ann's client still shows it
    old_call = action(fake, first, "call")
    await fake.press(to_act(fake, first), first, old_call)
    await bot.settled()
    assert to_act(fake, current_table(fake, channel)) is bob
    with kept_garbage(paused=True) as garbage:
        stale = [await fake.press(ann, first, old_call) for _ in range(5)]
        await bot.settled()
        gc.collect()
        found = Counter(f"{type(thing).__module__}.{type(thing).__qualname__}" for thing in garbage)
    assert [press.ephemeral_text() for press in stale] == [text("en", "stale_turn")] * 5
    assert {kind: count for kind, count in found.items() if kind.startswith(("discord.", "bot."))} == {}
