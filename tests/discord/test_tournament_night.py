"""A tournament night on Discord end to end, at Discord's real pace: an organizer sets up a `home-night` tournament,
five members register by slash command, the clock (a fake one, moved an hour in a step while the fake Discord keeps
its real rate limits and three-second deadline) raises the level and holds a break, players bust, the last two play
heads-up, and the winner, the places and the settlement are posted; in English, and in a Russian guild with a rebuy
and an add-on. Along the way a spectator, a busted player and an old hand's button are pressed, and a /rebuy comes
after the rebuy period: each is told why, privately, in his language, and no chip moves."""

from __future__ import annotations

import copy
import re
from typing import Any

from bot.i18n import text
from tests.bot.helpers import at, ledger_ok
from tests.discord.fake_discord import ACK_SECONDS, EPHEMERAL, FakeDiscord, Interaction, Member
from tests.discord.test_games import action, cards_in, current_table, play_out

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
TABLE_TOP = re.compile(r"^(Hold'em|Холдем) — ")
"""The first line of a hand's table message."""
SHOWDOWN, MUCKS = ("Showdown — ", "Вскрытие — "), (" mucks.", " сбрасывает карты.")


class Night:
    """Five members and a spectator (Fay) in the first channel of the fake guild, the bot, and the night's steps."""

    def __init__(self, fake: FakeDiscord, bot: Any, locale: str) -> None:
        self.fake, self.bot, self.channel = fake, bot, fake.channels[0]
        self.language = locale[:2]
        self.members = [fake.add_member(name) for name in NAMES]
        self.fay = fake.add_member("Fay")
        self.spectator = ""
        for member in (*self.members, self.fay):
            member.locale = locale

    async def slash(self, member: Member, name: str, **options: Any) -> Interaction:
        """A slash command in the channel, once the bot has sent all it caused."""
        done = await self.fake.slash(member, self.channel, name, **options)
        await self.bot.settled()
        return done

    async def at(self, moment: float) -> None:
        """The clock reaches `moment` and fires what came due (the scheduler's loop does this in production)."""
        self.bot.clock.current = moment
        await self.bot.service.scheduler.fire_due()
        await self.bot.settled()

    async def hands(self, until: float, step: float, *preferred: str, seated: int = 1) -> None:
        """Hand after hand, each dealt when its timer fires `step` seconds after the last, until `until`, the end,
        or a hand dealt to `seated` players."""
        while self.bot.clock.current < until and not self.over():
            if len(self.seated()) <= seated:
                return
            await play_out(self.fake, self.bot, self.channel, *preferred)
            if not self.over():
                await self.at(self.bot.clock.current + step)

    def seated(self) -> list[str]:
        """Who is dealt in to the newest hand."""
        hands = [m["content"] for m in self.fake.channel_messages(self.channel) if TABLE_TOP.match(m["content"])]
        return re.findall(r"^[ ▶] (\w+) · ", hands[-1], re.MULTILINE) if hands else []

    def over(self) -> bool:
        return any(line.startswith("🏆") for m in self.fake.channel_messages(self.channel)
                   for line in m["content"].split("\n"))

    async def balances(self) -> dict[str, int]:
        """Every ledger account's balance."""
        return dict(await self.bot.store.read(lambda tx: tx.balances("")))

    async def refused(self, act: Any) -> str:
        """What an act (a press or a command, awaited here) told its member alone, checking it moved no chip and
        said nothing in the channel."""
        before, said = await self.balances(), len(self.fake.public_versions())
        done: Interaction = await act
        await self.bot.settled()
        assert await self.balances() == before
        assert self.fake.public_versions()[said:] == [] and done.texts(ephemeral=False) == []
        assert done.messages and all(message["flags"] & EPHEMERAL for message in done.messages)
        return done.ephemeral_text()

    def transcript(self) -> list[str]:
        """What the channel read, in posting order, paragraph by paragraph: of each hand's table message its first
        line (the hand's number and blinds), of a showdown who won what (not the cards shown), every other paragraph
        whole (a picture, which has no text, left out)."""
        said = []
        for message in self.fake.channel_messages(self.channel):
            if TABLE_TOP.match(message["content"]):
                said.append(message["content"].split("\n")[0])
                continue
            for paragraph in filter(None, message["content"].split("\n\n")):
                lines = paragraph.split("\n")
                if lines[0].startswith(SHOWDOWN):
                    paragraph = "\n".join(line for line in lines if not line.startswith(SHOWDOWN)
                                          and not line.endswith(MUCKS))
                said.append(paragraph)
        return said


async def first_hand_folded(night: Night) -> tuple[dict[str, Any], set[str]]:
    """The first hand: each member reads his cards (privately) and everyone folds to the big blind. Returns the
    hand's table message as members still see it, and the cards dealt."""
    fake = night.fake
    table = current_table(fake, night.channel)
    dealt: set[str] = set()
    for member in night.members:
        mine = await fake.press(member, table, fake.button(table, text(night.language, "button.my_cards")))
        await night.bot.settled()
        assert mine.texts(ephemeral=False) == []
        dealt |= cards_in(mine.ephemeral_text())
    assert len(dealt) == 10
    old = copy.deepcopy(table)
    night.spectator = await night.refused(fake.press(night.fay, table, action(fake, table, "fold")))
    await play_out(fake, night.bot, night.channel, "fold")
    return old, dealt


async def played(night: Night, schedule: str | None = None, *, addons: int = 0) -> dict[str, str]:
    """The night: created at 18:50 (with `schedule`) and joined by all five by slash command, started at 18:57; the
    first hand is folded to the big blind with a spectator's press on it, everyone folds until the break, the first
    `addons` members take the add-on at 19:00, play resumes at 20:00 and everyone checks and calls until two are left
    (a busted player presses on the hand in play), who then raise until one wins. Returns what the odd presses and
    commands were told privately, by what they were."""
    fake, bot = night.fake, night.bot
    ann, bob = night.members[:2]
    await night.at(at(18, 50))
    told = {"created": (await night.slash(ann, "tournament", subcommand="create", schedule=schedule)).texts()[0]}
    for member in night.members:
        await night.slash(member, "join")
    await night.at(at(18, 57))
    started = await night.slash(ann, "tournament", subcommand="start")
    assert started.texts(ephemeral=False) == []
    told["started"] = started.ephemeral_text()
    old, dealt = await first_hand_folded(night)
    assert not cards_in("\n".join(fake.public_versions())) & dealt, "a card of the folded hand reached the channel"
    told["spectator"] = night.spectator
    told["stale"] = await night.refused(fake.press(bob, old, action(fake, old, "fold")))
    await night.hands(at(18, 59), 60, "fold")
    for moment in (at(18, 59), at(19, 0, 1), at(19, 30), at(19, 59), at(20, 0, 1)):
        await night.at(moment)
        if moment == at(19, 0, 1):
            for member in night.members[:addons]:
                await night.slash(member, "addon")
        await play_out(fake, bot, night.channel, "fold")
    told["rebuy"] = await night.refused(night.fake.slash(night.members[2], night.channel, "rebuy"))
    await night.hands(at(23, 0), 20, "call", "check", seated=2)
    busted = next(member for member in night.members if member.name not in night.seated())
    table = current_table(fake, night.channel)
    told["busted"] = await night.refused(fake.press(busted, table, action(fake, table, "fold", "check", "call")))
    await night.hands(at(23, 0), 20, "raise", "bet", "call", "check")
    assert night.over()
    assert all(ix.acked_after is not None and ix.acked_after < ACK_SECONDS for ix in fake.interactions.values())
    assert fake.limited == []
    await ledger_ok(bot.service)
    return told


def settlement_adds_up(transcript: list[str], pool: int) -> None:
    """The settlement's cash-outs add up to the prize pool, and every net figure to nothing."""
    [settlement] = [paragraph for paragraph in transcript if paragraph.startswith(("Settlement", "Расчёт"))]
    cashed = [int(found) for found in re.findall(r"(?:cashed out|получено) (\d+)", settlement)]
    paid = [int(found) for found in re.findall(r"(?:paid|внесено) (\d+)", settlement)]
    assert sum(cashed) == sum(paid) == pool


async def test_a_night_in_english(fake, make_bot) -> None:
    """Five members play the home-night defaults (no rebuy, no add-on) to the end."""
    bot = await make_bot(default_game="holdem")
    night = Night(fake, bot, "en-US")
    told = await played(night)
    assert told == {
        "created": "Tournament #1 created. Schedule (UTC): 10/20 until 19:00; break until 20:00; 50/100. Buy-in 50 "
                   "for 300 chips: /join to register; the organizer starts it with /tournament start.",
        "started": "Your cards: Q♣ A♥",
        "spectator": "You are not seated at this table: /join first.",
        "stale": "This hand is over.",
        "rebuy": "Rebuys are not allowed in this tournament.",
        "busted": "You are out of the tournament in 5th place.",
    }
    transcript = night.transcript()
    assert transcript == [
        told["created"],
        "Ann registers: 300 chips for 50 (1 player).",
        "Texas Hold'em — seats:\n  Ann — 300\n  Bob — 300\n  Cat — 300\n  Dan — 300\n  Eve — 300\nRegistration is "
        "open: /join to register; the organizer deals the first hand with /tournament start.",  # shown, then edited
        "Bob registers: 300 chips for 50 (2 players).",
        "Cat registers: 300 chips for 50 (3 players).",
        "Dan registers: 300 chips for 50 (4 players).",
        "Eve registers: 300 chips for 50 (5 players).",
        "⏱ Level 1: limits 10/20 (blinds 5/10), 3m left; next: break.",
        "Hold'em — hand #1 · blinds 5/10 · home-limit",
        "Hold'em — hand #2 · blinds 5/10 · home-limit",
        # hand #3, dealt at 18:59, ended in the break: its message shows the seats
        "Texas Hold'em — seats:\n  Ann — 300\n  Bob — 295\n  Cat — 300\n  Dan — 300\n  Eve — 305\n"
        "Hand #3: Eve wins 10.\nBreak until 20:00.",
        "⏱ Break in 1 minute.",
        "⏸ Break until 20:00.",  # nothing is dealt until play resumes
        "⏸ Break until 20:00 (1m left).",
        "▶ Play resumes: limits 50/100.",
        "Hold'em — hand #4 · blinds 25/50 · home-limit",
        "Hold'em — hand #5 · blinds 25/50 · home-limit",
        "Ann wins the main pot (250) with a straight to the queen.",
        "Hold'em — hand #6 · blinds 25/50 · home-limit",
        "Ann wins the main pot (250) with a straight to the king.",
        "Hold'em — hand #7 · blinds 25/50 · home-limit",
        "Cat 125, Eve 125 split the main pot (250): the hands are equal, a straight to the five.",
        "Hold'em — hand #8 · blinds 25/50 · home-limit",
        "Dan wins the main pot (250) with two pair, aces and nines, seven kicker.",
        "Hold'em — hand #9 · blinds 25/50 · home-limit",
        "Ann wins the main pot (250) with three of a kind, tens, king kicker.",
        "Hold'em — hand #10 · blinds 25/50 · home-limit",
        "Cat wins the main pot (225) with two pair, aces and jacks, queen kicker.\n"
        "Cat wins side pot 1 (20) with two pair, aces and jacks, queen kicker.",
        "Bob is eliminated in 5th place.",
        "Hold'em — hand #11 · blinds 25/50 · home-limit",
        "Eve wins the main pot (200) with two pair, kings and eights, queen kicker.",
        "Hold'em — hand #12 · blinds 25/50 · home-limit",
        "Dan wins the main pot (200) with a straight to the eight.",
        "Hold'em — hand #13 · blinds 25/50 · home-limit",
        "Ann wins the main pot (200) with two pair, kings and threes, ace kicker.",
        "Hold'em — hand #14 · blinds 25/50 · home-limit",
        "Dan wins the main pot (200) with three of a kind, jacks, ace kicker.",
        "Hold'em — hand #15 · blinds 25/50 · home-limit",
        "Dan wins the main pot (200) with a pair of jacks, king kicker.",
        "Hold'em — hand #16 · blinds 25/50 · home-limit",
        "Dan wins the main pot (200) with a straight to the king.",
        "Hold'em — hand #17 · blinds 25/50 · home-limit",
        "Ann wins the main pot (20) with two pair, kings and sevens, nine kicker.\n"
        "Ann wins side pot 1 (135) with two pair, kings and sevens, nine kicker.",
        "Eve is eliminated in 4th place.",
        "Hold'em — hand #18 · blinds 25/50 · home-limit",
        "Dan wins the main pot (60) with a full house, queens full of fours.\n"
        "Dan wins side pot 1 (60) with a full house, queens full of fours.",
        "Cat is eliminated in 3rd place.",
        "Hold'em — hand #19 · blinds 25/50 · home-limit",  # heads-up: Ann and Dan
        "Dan wins the main pot (1,460) with three of a kind, sevens, ten kicker.",
        "Ann is eliminated in 2nd place.",
        "Dan finishes with 1,500 chips, worth 250.",
        "🏆 The tournament is over. Winner: Dan!\nPlaces: 1. Dan · 2. Ann · 3. Cat · 4. Eve · 5. Bob",
        "Settlement (money units):\nAnn: paid 50, cashed out 0, net −50\nBob: paid 50, cashed out 0, net −50\n"
        "Cat: paid 50, cashed out 0, net −50\nDan: paid 50, cashed out 250, net +200\nEve: paid 50, cashed out 0, "
        "net −50\nPayments:\nAnn → Dan: 50\nBob → Dan: 50\nCat → Dan: 50\nEve → Dan: 50",
    ]
    settlement_adds_up(transcript, 5 * 50)
