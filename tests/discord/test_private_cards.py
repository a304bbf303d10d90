"""Private cards stay private on Discord, in every game: each hand or round is played in the channel (the fake with
Discord's rate limits), each player learns his cards from the ephemeral answer only he sees, and every version of
every message the fake kept is read for a card shown to anyone but its holder before RULES.md makes it public."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from bot.i18n import text
from engine.house import GAMES as HOUSE_GAMES
from tests.bot.helpers import CASES, REVEALS, Case, cards_in, never_shown, shown_to_others
from tests.discord.fake_discord import EPHEMERAL, FakeDiscord, Member
from tests.discord.test_games import current_table, start_tournament, to_act


def reader(fake: FakeDiscord, version: dict[str, Any]) -> int | None:
    """Whom a message version shows its text to: the member whose interaction an ephemeral answers, or None for the
    channel."""
    if not version["flags"] & EPHEMERAL:
        return None
    return next(interaction.user.id for interaction in fake.interactions.values()
                if any(message["id"] == version["id"] for message in interaction.messages))


def shown(version: dict[str, Any]) -> str:
    """Everything a message version shows: its content, embeds, each button's label and id, each picture's alt
    text."""
    buttons = [f"{item.get('label', '')} {item.get('custom_id', '')}" for row in version["components"]
               for item in row.get("components", [])]
    embeds = [f"{embed.get('title', '')} {embed.get('description', '')}" for embed in version["embeds"]]
    alt = [attachment.get("description") or "" for attachment in version["attachments"]]
    return "\n".join([version["content"], *embeds, *buttons, *alt])


def leaks(fake: FakeDiscord, secrets: dict[int, set[str]], start: int, stop: int | None = None) -> list[str]:
    """Each message version of `start:stop` that showed a player's secret cards to someone else (the channel, or
    another member in an ephemeral): its reader and text."""
    seen = [(version, reader(fake, version), shown(version)) for version in fake.versions[start:stop]]
    return [f"→ {reader(fake, version) or 'the channel'}: {shown(version)!r}"
            for version in shown_to_others(seen, secrets)]


def revealed(fake: FakeDiscord, start: int) -> int:
    """The index of the first public version from `start` on that shows cards by the rules (showdown, settlement)."""
    return next(index for index, version in enumerate(fake.versions[start:], start)
                if not version["flags"] & EPHEMERAL and any(reveal in shown(version) for reveal in REVEALS))


def custom_id(fake: FakeDiscord, message: dict[str, Any], command: str) -> str:
    """The id of the message's first button whose command begins with `command`."""
    ids = [str(item["custom_id"]) for item in fake.buttons(message) if "custom_id" in item]
    found = [pressed for pressed in ids if pressed.rsplit("|", 1)[1].startswith(command)]
    assert found, f"no {command!r} in {ids}"
    return found[0]


class Table:
    """Ann, Bob and Cat at a table of one channel, and Dan, who is not seated."""

    def __init__(self, fake: FakeDiscord, bot: Any) -> None:
        self.fake, self.bot, self.channel = fake, bot, fake.channels[0]
        self.game, self.boxes = "", 1
        self.ann, self.bob, self.cat, self.dan = (fake.add_member(name) for name in ("Ann", "Bob", "Cat", "Dan"))

    async def slash(self, member: Member, name: str, **options: Any) -> str:
        """A member runs a slash command; returns what only he was shown."""
        said = await self.fake.slash(member, self.channel, name, **options)
        await self.bot.settled()
        return said.ephemeral_text()

    async def press(self, member: Member, message: dict[str, Any], command: str) -> str:
        """A member presses the message's button for `command`; returns what only he was shown."""
        pressed = await self.fake.press(member, message, custom_id(self.fake, message, command))
        await self.bot.settled()
        return pressed.ephemeral_text()

    async def start(self, case: Case) -> None:
        """The case's first hand or round: Ann chooses the game and everyone sits down or bets."""
        self.game, self.boxes = case.game, case.boxes
        if case.game == "tournament":
            await start_tournament(self.fake, self.bot, self.channel, self.ann, self.bob, self.cat)
            return
        await self.slash(self.ann, "game", game=case.game)
        if case.game not in HOUSE_GAMES:
            for member in (self.ann, self.bob, self.cat):
                await self.slash(member, "join", chips=200)
        await self.deal()

    async def deal(self) -> None:
        """The next hand or round: Ann deals Hold'em; at a house game everyone bets an ANTE of 10 (and a PAIRPLUS
        of 5 at Three Card Poker), Ann on each of her boxes, and Cat presses Deal."""
        if self.game not in HOUSE_GAMES:
            await self.slash(self.ann, "deal")
            return
        side = {"pairplus": 5} if self.game == "three-card" else {}
        for member, box in [(self.ann, box) for box in range(1, self.boxes + 1)] + [(self.bob, 1), (self.cat, 1)]:
            await self.slash(member, "ante", amount=10, box=box if box > 1 else None, **side)
        betting = [message for message in self.fake.channel_messages(self.channel) if message["components"]][-1]
        await self.press(self.cat, betting, "deal")

    async def learn(self, table: dict[str, Any]) -> dict[int, set[str]]:
        """Each seated member's cards, as "My cards" shows them to him alone."""
        return {member.id: cards_in(await self.press(member, table, "cards"))
                for member in (self.ann, self.bob, self.cat)}

    def acting(self) -> dict[str, Any] | None:
        """The table message while it names a member to act, with his buttons; None once nobody must act."""
        tables = [message for message in self.fake.channel_messages(self.channel) if message["components"]]
        if not tables or not re.search(r"<@\d+>", tables[-1]["content"]) or ":a:" not in str(tables[-1]["components"]):
            return None
        return tables[-1]

    async def play_out(self, plan: dict[int, list[str]], secrets: dict[int, set[str]]) -> None:
        """Press for whoever the table names to act until nobody is: his planned commands first, then the cheapest
        way on. At a house game, what "My cards" shows a member after each of his decisions joins his secrets (a
        draw's new cards, his next box's)."""
        for _ in range(60):
            table = self.acting()
            if table is None:
                return
            member = to_act(self.fake, table)
            planned = plan.get(member.id, [])
            wanted = [planned.pop(0)] if planned else ["check", "call", "play", "decline", "fold"]
            commands = [str(item["custom_id"]).rsplit("|", 1)[1] for item in self.fake.buttons(table)]
            command = next((command for word in wanted for command in commands if command.startswith(word)), None)
            assert command is not None, f"none of {wanted} in {commands}"
            await self.press(member, table, command)
            if self.game in HOUSE_GAMES and (table := self.acting()) is not None:
                secrets[member.id] |= cards_in(await self.press(member, table, "cards"))
        raise AssertionError("the hand did not end")


@pytest.mark.parametrize("case", CASES)
async def test_no_member_sees_anothers_cards_before_the_rules_show_them(fake, make_bot, case: str) -> None:
    """As on Telegram (`tests/telegram/test_private_cards.py`): Bob folds at his first decision, Ann draws where the
    game lets her; "My cards" is pressed by everyone, by Dan who is not seated, and from the last hand; `/cards` is
    run; the channel turns Russian mid-hand."""
    players = Table(fake, await make_bot(default_game="holdem"))
    await players.start(CASES[case])
    table = current_table(fake, players.channel)
    as_dealt = copy.deepcopy(table)  # as a member's screen may still show it, its buttons with it
    secrets = await players.learn(table)
    assert [len(cards) for cards in secrets.values()] == CASES[case].dealt(), secrets
    assert len(set().union(*secrets.values())) == sum(CASES[case].dealt()), "a card was told to two members"
    assert await players.press(players.dan, table, "cards") == text("en", "no_cards")
    assert cards_in(await players.slash(players.cat, "cards")) == secrets[players.cat.id]
    await players.slash(players.ann, "lang", language="ru")  # the table is told again, in Russian
    await players.play_out({players.ann.id: list(CASES[case].plan), players.bob.id: ["fold"]}, secrets)
    assert len(secrets[players.ann.id]) == CASES[case].anns()
    shown_at = revealed(fake, 0)
    assert leaks(fake, secrets, 0, shown_at) == []
    await players.slash(players.cat, "history")
    hidden = never_shown(secrets, shown(fake.versions[shown_at]))
    assert hidden[players.bob.id] == secrets[players.bob.id], "Bob folded: his cards are not shown"
    assert leaks(fake, hidden, 0) == [], "a folded, mucked or discarded card was shown later"

    start = len(fake.versions)
    await players.deal()
    later = current_table(fake, players.channel)
    assert later["id"] != table["id"]
    secrets = await players.learn(later)
    stale = await players.press(players.bob, as_dealt, "cards")  # from the last hand: his cards of this one, to him
    assert stale == await players.press(players.bob, later, "cards")
    assert leaks(fake, secrets, start) == []
