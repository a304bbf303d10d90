"""Real games on Discord: a whole Hold'em hand and a house-game round by three members, through the adapter."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games import CONTROLLERS
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord, Member

pytest.importorskip("bot.games.registry")  # fills CONTROLLERS with the real games

CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[♠♥♦♣shdc](?![\w])")


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def current_table(fake: FakeDiscord, channel: int) -> dict[str, Any]:
    """The newest message with action buttons (the table message of the hand in progress)."""
    with_buttons = [m for m in fake.channel_messages(channel) if any(
        ":a:" in str(b.get("custom_id")) for b in fake.buttons(m))]
    assert with_buttons, [m["content"] for m in fake.channel_messages(channel)]
    return with_buttons[-1]


def to_act(fake: FakeDiscord, message: dict[str, Any]) -> Member:
    mentioned = re.findall(r"<@(\d+)>", message["content"])
    assert mentioned, message["content"]
    return fake.members[int(mentioned[-1])]


def action(fake: FakeDiscord, message: dict[str, Any], *preferred: str) -> str:
    ids = [str(b["custom_id"]) for b in fake.buttons(message) if ":a:" in str(b.get("custom_id"))]
    for command in preferred:
        for custom_id in ids:
            if custom_id.split("|", 1)[1].split()[0] == command:
                return custom_id
    raise AssertionError(f"none of {preferred} in {ids}")


async def play_out(fake: FakeDiscord, bot, channel: int, *preferred: str) -> int:
    """Press the preferred action for whoever must act until no action button is left; return the presses."""
    presses = 0
    while True:
        table = current_table(fake, channel) if _has_actions(fake, channel) else None
        if table is None or not re.search(r"<@\d+>", table["content"]):
            return presses
        member = to_act(fake, table)
        pressed = await fake.press(member, table, action(fake, table, *preferred))
        await bot.settled()
        assert pressed.callbacks[0]["type"] in (4, 6)
        assert pressed.callbacks[0]["type"] != 4 or pressed.callbacks[0]["data"]["flags"] & EPHEMERAL
        presses += 1
        assert presses < 60


def _has_actions(fake: FakeDiscord, channel: int) -> bool:
    last_tables = [m for m in fake.channel_messages(channel) if m["components"]]
    return bool(last_tables) and any(":a:" in str(b.get("custom_id")) for b in fake.buttons(last_tables[-1]))


@pytest.mark.skipif("holdem" not in CONTROLLERS, reason="the Hold'em controller is not registered")
async def test_a_holdem_hand_by_three_members(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for member in members:
        joined = await fake.slash(member, channel, "join")
        await bot.settled()
        assert joined.acked_after < 3
    dealt = await fake.slash(members[0], channel, "deal")
    await bot.settled()
    hole: dict[str, set[str]] = {}
    table = current_table(fake, channel)
    for member in members:
        mine = await fake.press(member, table, fake.button(table, _my_cards_label(fake, table)))
        await bot.settled()
        hole[member.name] = cards_in(mine.ephemeral_text())
        assert len(hole[member.name]) == 2, mine.ephemeral_text()
    assert cards_in(dealt.ephemeral_text()) in ({*()}, hole["Ann"])
    everyone = set().union(*hole.values())
    assert not any(cards_in(text) & everyone for text in fake.public_versions())  # nothing private in the channel

    presses = await play_out(fake, bot, channel, "check", "call")
    assert presses >= 3
    transcript = "\n".join(fake.public_versions())
    assert "over" in transcript.lower() or "wins" in transcript.lower()
    balances = []
    for member in members:
        answer = await fake.slash(member, channel, "balance")
        await bot.settled()
        balances.append(int(re.findall(r"\d+", answer.ephemeral_text())[0]))
    assert await bot.service.store.read(lambda tx: tx.check_ledger()) == []


@pytest.mark.skipif("three-card" not in CONTROLLERS, reason="the house games are not registered")
async def test_a_three_card_round_by_three_members(fake, make_bot) -> None:
    bot = await make_bot(default_game="three-card")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for box, member in enumerate(members, start=1):
        ante = await fake.slash(member, channel, "ante", amount=10, pairplus=5 if box == 2 else None)
        await bot.settled()
        assert ante.acked_after < 3, ante.callbacks
    dealt = await fake.slash(members[0], channel, "deal")
    await bot.settled()
    assert dealt.acked_after < 3
    presses = await play_out(fake, bot, channel, "play")
    assert presses >= 1
    assert await bot.service.store.read(lambda tx: tx.check_ledger()) == []


def _my_cards_label(fake: FakeDiscord, message: dict[str, Any]) -> str:
    for button in fake.buttons(message):
        if ":p:" in str(button.get("custom_id")):
            return str(button["label"])
    raise AssertionError("no private button")
