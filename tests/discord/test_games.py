"""Real games on Discord: a whole Hold'em hand and a house-game round by three members, through the adapter."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import text
from tests.bot.helpers import cards_in, ledger_ok
from tests.discord.fake_discord import ACK_SECONDS, EPHEMERAL, FakeDiscord, Member

MY_CARDS = text("en", "button.my_cards")


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
            if custom_id.rsplit("|", 1)[1].split()[0] == command:
                return custom_id
    raise AssertionError(f"none of {preferred} in {ids}")


async def play_out(fake: FakeDiscord, bot, channel: int, *preferred: str,
                   styles: dict[str, tuple[str, ...]] | None = None) -> int:
    """Press the preferred action for whoever must act (a member named in `styles`: his own preferred actions) until
    no action button is left; return the presses."""
    presses = 0
    while True:
        table = current_table(fake, channel) if _has_actions(fake, channel) else None
        if table is None or not re.search(r"<@\d+>", table["content"]):
            return presses
        member = to_act(fake, table)
        pressed = await fake.press(member, table, action(fake, table, *(styles or {}).get(member.name, preferred)))
        await bot.settled()
        assert pressed.callbacks[0]["type"] in (4, 6, 7)
        assert pressed.callbacks[0]["type"] != 4 or pressed.callbacks[0]["data"]["flags"] & EPHEMERAL
        presses += 1
        assert presses < 60


async def start_tournament(fake: FakeDiscord, bot, channel: int, *members: Member) -> None:
    """The first member creates a tournament with the defaults, every member joins it, and the first starts it."""
    await fake.slash(members[0], channel, "tournament", subcommand="create")
    for member in members:
        await fake.slash(member, channel, "join")
    await fake.slash(members[0], channel, "tournament", subcommand="start")
    await bot.settled()


def _has_actions(fake: FakeDiscord, channel: int) -> bool:
    last_tables = [m for m in fake.channel_messages(channel) if m["components"]]
    return bool(last_tables) and any(":a:" in str(b.get("custom_id")) for b in fake.buttons(last_tables[-1]))


async def test_a_holdem_hand_by_three_members(fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    for member in members:
        await fake.slash(member, channel, "join", chips=200)
    dealt = await fake.slash(members[0], channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    hole: dict[str, set[str]] = {"Ann": cards_in(dealt.ephemeral_text())}
    assert len(hole["Ann"]) == 2, dealt.ephemeral_text()  # the dealer's own cards come with his answer
    for member in members[1:]:  # the others read theirs with the button, privately
        mine = await fake.press(member, table, fake.button(table, MY_CARDS))
        await bot.settled()
        assert mine.texts(ephemeral=False) == []
        hole[member.name] = cards_in(mine.ephemeral_text())
        assert len(hole[member.name]) == 2, mine.ephemeral_text()
    secret = set().union(*hole.values())
    assert len(secret) == 6

    presses = await play_out(fake, bot, channel, "check", "call")
    public = fake.public_versions()
    showdown = next(i for i, text in enumerate(public) if "Showdown" in text)
    assert not any(cards_in(text) & secret for text in public[:showdown])  # no hole card before the showdown
    assert presses >= 3 and "wins the main pot" in "\n".join(public)
    assert all(ix.acked_after is not None and ix.acked_after <= ACK_SECONDS for ix in fake.interactions.values())
    await ledger_ok(bot.service)


@pytest.mark.parametrize(("game", "side"), [("three-card", {"pairplus": 5}), ("russian", {})])
async def test_a_house_round_by_three_members(fake, make_bot, game: str, side: dict[str, int]) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    members = [fake.add_member(name) for name in ("Ann", "Bob", "Cat")]
    chosen = await fake.slash(members[0], channel, "game", game=game)  # Ann, the first player, organizes
    assert chosen.texts(ephemeral=False)[0].startswith("This table now plays")
    for member in members:
        ante = await fake.slash(member, channel, "ante", amount=10, **side)
        assert ante.callbacks[0]["type"] == 4
    await bot.settled()
    table = await fake.slash(members[0], channel, "table")
    await bot.settled()
    message = [m for m in fake.channel_messages(channel) if m["components"]][-1]
    dealt = await fake.press(members[2], message, action(fake, message, "deal"))
    await bot.settled()
    assert dealt.acked_after <= ACK_SECONDS and table.acked_after <= ACK_SECONDS
    boxes = {}
    message = current_table(fake, channel)
    for member in members:
        mine = await fake.press(member, message, fake.button(message, MY_CARDS))
        await bot.settled()
        boxes[member.name] = cards_in(mine.ephemeral_text())
        assert len(boxes[member.name]) >= 3, mine.ephemeral_text()
    presses = await play_out(fake, bot, channel, "play", "check", "call", "bet", "decline", "fold")
    assert presses >= 3
    assert any("Round over" in text for text in fake.public_versions())
    public = fake.public_versions()
    over = next(i for i, text in enumerate(public) if "Round over" in text)
    for version in public[:over]:  # no box card in the channel before the round is over
        for name, cards in boxes.items():
            assert not cards_in(version) & cards, f"{name}'s box {cards} was public mid-round: {version!r}"
    await ledger_ok(bot.service)


async def test_a_three_card_box_with_pairplus_alone(fake, make_bot) -> None:
    bot = await make_bot(default_game="three-card")
    ante = {option["name"]: option for option in
            {command["name"]: command for command in fake.synced[-1][1]}["ante"]["options"]}
    assert ante["amount"]["min_value"] == 0 and ante["pairplus"]["min_value"] == 1
    ann = fake.add_member("Ann")
    placed = await fake.slash(ann, fake.channels[0], "ante", amount=0, pairplus=5)
    await bot.settled()
    assert placed.ephemeral_text() == "Done."
    assert "Ann bets on box 1: PAIRPLUS 5." in fake.public_versions()[-1].splitlines()
    nothing = await fake.slash(fake.add_member("Bob"), fake.channels[0], "ante", amount=0)
    await bot.settled()
    assert nothing.ephemeral_text() == ("An ANTE of 0 is for a box with the PAIRPLUS bet alone: add it, or bet an "
                                        "ANTE of 1 to 50.")
    await ledger_ok(bot.service)


async def test_an_omaha_hand_keeps_its_four_cards_private_and_a_rabbit_hunt_follows_a_fold_on_the_flop(
        fake, make_bot) -> None:
    bot = await make_bot(default_game="holdem")
    channel = fake.channels[0]
    ann, bob, cat = (fake.add_member(name) for name in ("Ann", "Bob", "Cat"))
    chosen = await fake.slash(ann, channel, "game", game="omaha")
    assert chosen.texts(ephemeral=False)[0].startswith("This table now plays")
    for member in (ann, bob):
        await fake.slash(member, channel, "join", chips=400)
    dealt = await fake.slash(ann, channel, "deal")
    await bot.settled()
    table = current_table(fake, channel)
    assert table["content"].startswith("Omaha — hand #1 · blinds 10/20 · pot-limit")
    mine = await fake.press(bob, table, fake.button(table, MY_CARDS))
    await bot.settled()
    assert mine.texts(ephemeral=False) == []
    hole = {"Ann": cards_in(dealt.ephemeral_text()), "Bob": cards_in(mine.ephemeral_text())}
    assert [len(cards) for cards in hole.values()] == [4, 4], (dealt.ephemeral_text(), mine.ephemeral_text())
    secret = hole["Ann"] | hole["Bob"]

    for command in ("call", "check", "bet", "fold"):  # heads-up: the button calls, the big blind checks; the flop
        table = current_table(fake, channel)  # is bet into and folded to
        await fake.press(to_act(fake, table), table, action(fake, table, command))
        await bot.settled()
    public = fake.public_versions()
    assert any("folds." in text for text in public) and not any("Turn:" in text for text in public)
    assert not any(cards_in(text) & secret for text in public), "a hole card reached the channel"

    hunted = await fake.slash(cat, channel, "rabbit")  # anyone in the channel may ask
    await bot.settled()
    said = "\n".join(hunted.texts(ephemeral=False) + fake.public_versions()[len(public):])
    found = re.search(r"🐇 Cat hunts the rabbit of hand #1: with (.+) on the board, the rest of it would have been "
                      r"(.+)\. Nothing changes\.", said)
    assert found is not None, said
    flop, rabbit = cards_in(found.group(1)), cards_in(found.group(2))
    assert any(f"Flop: {found.group(1)}" in text for text in public)
    assert len(flop) == 3 and len(rabbit) == 2  # the turn and the river that would have come
    assert not rabbit & (secret | flop), "the rabbit comes from the undealt cards"
    await ledger_ok(bot.service)
