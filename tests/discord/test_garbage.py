"""What a Discord table leaves for the collector: the views the adapter sends and the one discord.py makes from a
pressed message are let go of once used, so a busy bot's presses do not fill the oldest generation with views and
buttons in reference cycles, which only a full collection frees (half a second at 10,000 tables: `bot.collector`)."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator

import discord
import pytest

from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_pace import instant_presses


@pytest.fixture
def kept_garbage() -> Iterator[list[object]]:
    """What each full collection finds unreachable, kept (`gc.DEBUG_SAVEALL`) for the test to read."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.garbage.clear()
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_hands_pressed_out_leave_no_view_or_button_in_a_cycle(fake: FakeDiscord, make_bot,
                                                                    kept_garbage: list[object]) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    presses = 0
    for _ in range(2):
        await fake.slash(members[0], channel, "deal")
        await bot.settled()
        presses += len(await instant_presses(fake, channel, "check", "call"))
        await bot.settled()
    gc.collect()

    assert presses >= 6
    kinds = Counter(type(thing) for thing in kept_garbage)
    views_and_buttons = {kind: count for kind, count in kinds.items()
                         if issubclass(kind, discord.ui.View | discord.ui.Item)}
    assert views_and_buttons == {}
    # what is left is discord.py's own cycle, an interaction and its response, one each: 3 joins, 2 deals, the presses
    assert kinds[discord.Interaction] <= presses + 5
