"""A tournament night on Discord end to end, at Discord's real pace: an organizer sets up a `home-night` tournament,
five members register by slash command, the clock (a fake one, moved an hour in a step while the fake Discord keeps
its real rate limits and three-second deadline) raises the level and holds a break, players bust, the last two play
heads-up, and the winner, the places and the settlement are posted; in English, and in a Russian guild with a rebuy
and an add-on. Along the way a spectator, a busted player and an old hand's button are pressed, and a /rebuy comes
after the rebuy period: each is told why, privately, in his language, and no chip moves."""

from __future__ import annotations

import copy
import re
from collections.abc import Awaitable
from typing import Any

from bot.i18n import text
from tests.bot.helpers import DEALT_ALL_IN, at, ledger_ok
from tests.discord.fake_discord import ACK_SECONDS, EPHEMERAL, FakeDiscord, Interaction, Member
from tests.discord.test_games import action, cards_in, current_table, play_out
from tests.discord.test_showdown import stack_deck

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")
TABLE_TOP = re.compile(r"^(Hold'em|Холдем) — ")
"""The first line of a hand's table message."""
AGGRESSIVE, PASSIVE = ("raise", "bet", "call", "check"), ("check", "fold")
"""How a member who plays hard, or softly, presses (`play_out`'s preferred actions)."""
SHOWDOWN, MUCKS = ("Showdown — ", "Вскрытие — "), (" mucks.", " сбрасывает карты.")


class Night:
    """Five members and a spectator (Fay) in the first channel of the fake guild, the bot, and the night's steps."""

    def __init__(self, fake: FakeDiscord, bot: Any, locale: str) -> None:
        self.fake, self.bot, self.channel = fake, bot, fake.channels[0]
        self.language = locale[:2]
        self.members = [fake.add_member(name) for name in NAMES]
        self.fay = fake.add_member("Fay")
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

    async def hands(self, until: float, step: float, *preferred: str, seated: int = 1,
                    styles: dict[str, tuple[str, ...]] | None = None) -> None:
        """Hand after hand, each dealt when its timer fires `step` seconds after the last, until `until`, the end,
        or a hand dealt to `seated` players (`styles`: how some members play, as `play_out` takes it)."""
        while self.bot.clock.current < until and not self.over():
            if len(self.seated()) <= seated:
                return
            await play_out(self.fake, self.bot, self.channel, *preferred, styles=styles)
            if not self.over():
                await self.at(self.bot.clock.current + step)

    def seated(self) -> list[str]:
        """Who is dealt in to the newest hand."""
        hands = [m["content"] for m in self.fake.channel_messages(self.channel) if TABLE_TOP.match(m["content"])]
        return re.findall(r"^[ ▶] (\w+) · ", hands[-1], re.MULTILINE) if hands else []

    def over(self) -> bool:
        """Whether the channel was told the tournament is over."""
        return any(line.startswith("🏆") for m in self.fake.channel_messages(self.channel)
                   for line in m["content"].split("\n"))

    async def balances(self) -> dict[str, int]:
        """Every ledger account's balance."""
        return dict(await self.bot.store.read(lambda tx: tx.balances("")))

    async def refused(self, act: Awaitable[Interaction]) -> str:
        """What an act (a press or a command, awaited here) told its member alone, checking it moved no chip and
        said nothing in the channel."""
        before, said = await self.balances(), len(self.fake.public_versions())
        done = await act
        await self.bot.settled()
        assert await self.balances() == before
        assert self.fake.public_versions()[said:] == [] and done.texts(ephemeral=False) == []
        assert done.messages and all(message["flags"] & EPHEMERAL for message in done.messages)
        return done.ephemeral_text()

    def transcript(self, *, pictures: bool = False) -> list[str]:
        """What the channel read, in posting order, paragraph by paragraph: of each hand's table message its first
        line (the hand's number and blinds), of a showdown who won what (not the cards shown), every other paragraph
        whole; with `pictures`, each picture as "[picture]" and its description, after its message's text."""
        said = []
        for message in self.fake.channel_messages(self.channel):
            if TABLE_TOP.match(message["content"]):
                said.append(message["content"].split("\n")[0])
            else:
                for paragraph in filter(None, message["content"].split("\n\n")):
                    lines = paragraph.split("\n")
                    if lines[0].startswith(SHOWDOWN):
                        paragraph = "\n".join(line for line in lines if not line.startswith(SHOWDOWN)
                                              and not line.endswith(MUCKS))
                    said.append(paragraph)
            if pictures:  # (under the message's text, as Discord shows them)
                said += [f"[picture] {attached['description']}" for attached in message["attachments"]]
        return said


async def first_hand_folded(night: Night) -> tuple[dict[str, Any], set[str], str]:
    """The first hand: each member reads his cards (privately), the spectator presses Fold, and everyone folds to
    the big blind. Returns the hand's table message as members still see it, the cards dealt, and what the spectator
    was told."""
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
    spectator = await night.refused(fake.press(night.fay, table, action(fake, table, "fold")))
    await play_out(fake, night.bot, night.channel, "fold")
    return old, dealt, spectator


async def played(night: Night, schedule: str | None = None, *, addons: int = 0,
                 styles: tuple[dict[str, tuple[str, ...]], ...] = ()) -> dict[str, str]:
    """The night: created at 18:50 (with `schedule`) and joined by all five by slash command, started at 18:57; the
    first hand is folded to the big blind with a spectator's press on it, everyone folds until the break, the first
    `addons` members take the add-on at 19:00 and a member asks for a rebuy after the break; play resumes at 20:00,
    each of `styles` in turn says how members play until one more is out, then everyone checks and calls until two
    are left; a busted player presses on their hand, and they raise until one wins. Returns what the odd presses and
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
    old, dealt, told["spectator"] = await first_hand_folded(night)
    assert not cards_in("\n".join(fake.public_versions())) & dealt, "a card of the folded hand reached the channel"
    told["stale"] = await night.refused(fake.press(bob, old, action(fake, old, "fold")))
    await night.hands(at(18, 59), 60, "fold")
    for moment in (at(18, 59), at(19, 0, 1), at(19, 30), at(19, 59), at(20, 0, 1)):
        await night.at(moment)
        if moment == at(19, 0, 1):
            for member in night.members[:addons]:
                await night.slash(member, "addon")
        await play_out(fake, bot, night.channel, "fold")
    told["rebuy"] = await night.refused(night.fake.slash(night.members[2], night.channel, "rebuy"))
    for style in styles:
        await night.hands(at(23, 0), 20, "call", "check", seated=len(night.seated()) - 1, styles=style)
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
    """The settlement's cash-outs add up to the prize pool, and its net figures to nothing."""
    [settlement] = [paragraph for paragraph in transcript if paragraph.startswith(("Settlement", "Расчёт"))]
    cashed = [int(found) for found in re.findall(r"(?:cashed out|получено) (\d+)", settlement)]
    paid = [int(found) for found in re.findall(r"(?:paid|внесено) (\d+)", settlement)]
    nets = [int(found.replace("−", "-")) for found in re.findall(r"(?:net|итог) ([−+]\d+)", settlement)]
    assert sum(cashed) == sum(paid) == pool
    assert len(nets) == len(paid) and sum(nets) == 0


async def test_a_night_in_english(fake, make_bot) -> None:
    """Five members play the home-night defaults (no rebuy, no add-on) to the end: after the break, three play hard
    and two softly until one is out, then four hard until another is."""
    bot = await make_bot(default_game="holdem")
    night = Night(fake, bot, "en-US")
    styles = ({"Ann": AGGRESSIVE, "Bob": AGGRESSIVE, "Cat": AGGRESSIVE, "Dan": PASSIVE, "Eve": PASSIVE},
              {"Ann": AGGRESSIVE, "Bob": AGGRESSIVE, "Cat": AGGRESSIVE, "Dan": AGGRESSIVE, "Eve": PASSIVE})
    told = await played(night, styles=styles)
    assert told == {
        "created": fake.mentioned("Tournament #1 created. Schedule (UTC): 10/20 until 19:00; break until 20:00; "
                                  "50/100. Buy-in 50 for 300 chips: {join} to register; the organizer starts it with "
                                  "{tournament start}."),
        "started": "Your cards: Q♣ A♥",
        "spectator": fake.mentioned("You are not seated at this table: {join} first."),
        "stale": "This hand is over.",
        "rebuy": "Rebuys are not allowed in this tournament.",
        "busted": "You are out of the tournament in 5th place.",
    }
    transcript = night.transcript()
    assert transcript == [
        told["created"],
        "Ann registers: 300 chips for 50 (1 player).",
        fake.mentioned("Texas Hold'em — seats:\n  Ann — 300\n  Bob — 300\n  Cat — 300\n  Dan — 300\n  Eve — 300\n"
                       "Registration is open: {join} to register; the organizer deals the first hand with "
                       "{tournament start}."),  # shown, then edited
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
        "Ann wins the main pot (885) with a straight to the queen.\n"
        "Ann wins side pot 1 (10) with a straight to the queen.",
        "Bob is eliminated in 5th place.",
        "Cat is eliminated in 4th place.",
        "Hold'em — hand #6 · blinds 25/50 · home-limit",
        "Ann wins the main pot (650) with a pair of fours, king kicker; the pair decides: Ann's fours beat Dan's "
        "threes.",
        "Dan is eliminated in 3rd place.",
        "Hold'em — hand #7 · blinds 25/50 · home-limit",  # heads-up: Ann and Eve
        "Eve wins the main pot (460) with two pair, eights and sevens, ace kicker; the kicker decides: Eve's ace "
        "beats Ann's queen.",
        "Hold'em — hand #8 · blinds 25/50 · home-limit",
        "Eve wins the main pot (920) with two pair, aces and sevens, king kicker; the second pair decides: Eve's "
        "sevens beat Ann's threes.",
        "Hold'em — hand #9 · blinds 25/50 · home-limit",
        "Eve wins the main pot (1,160) with a full house, tens full of twos.",
        "Ann is eliminated in 2nd place.",
        "Eve finishes with 1,500 chips, worth 250.",
        "🏆 The tournament is over. Winner: Eve!\nPlaces: 1. Eve · 2. Ann · 3. Dan · 4. Cat · 5. Bob",
        "Settlement (money units):\nAnn: paid 50, cashed out 0, net −50\nBob: paid 50, cashed out 0, net −50\n"
        "Cat: paid 50, cashed out 0, net −50\nDan: paid 50, cashed out 0, net −50\nEve: paid 50, cashed out 250, "
        "net +200\nPayments:\nAnn → Eve: 50\nBob → Eve: 50\nCat → Eve: 50\nDan → Eve: 50",
    ]
    settlement_adds_up(transcript, 5 * 50)
    hand_9 = transcript.index("Hold'em — hand #9 · blinds 25/50 · home-limit")  # the last: its picture, then the end
    assert night.transcript(pictures=True)[-7:] == [*transcript[hand_9:hand_9 + 2], "[picture] Hand #9 · showdown",
                                                    *transcript[hand_9 + 2:]]


async def test_a_night_in_a_russian_guild_with_a_rebuy_and_an_add_on(fake, make_bot) -> None:
    """The organizer makes the guild Russian, and five Russian-speaking members play a night with a rebuy and an
    add-on: two take the add-on at the break; after it, three play hard and two softly until one is out."""
    bot = await make_bot(default_game="holdem")
    night = Night(fake, bot, "ru")
    await night.slash(night.members[0], "lang", language="ru")
    styles = ({"Ann": PASSIVE, "Bob": PASSIVE, "Cat": AGGRESSIVE, "Dan": AGGRESSIVE, "Eve": AGGRESSIVE},
              {"Ann": AGGRESSIVE, "Bob": PASSIVE, "Cat": AGGRESSIVE, "Dan": AGGRESSIVE, "Eve": AGGRESSIVE})
    told = await played(night, "home-night rebuys 1 addon 1", addons=2, styles=styles)
    assert told == {
        "created": fake.mentioned("Турнир №1 создан. Расписание (UTC): 10/20 до 19:00; перерыв до 20:00; 50/100. "
                                  "Бай-ин 50 за 300 фишек; регистрация — {join}; организатор запускает турнир "
                                  "командой {tournament start}."),
        "started": "Ваши карты: Q♣ A♥",
        "spectator": fake.mentioned("Вы не сидите за этим столом: сначала {join}."),  # (late registration is open)
        "stale": "Эта раздача уже закончилась.",
        "rebuy": "Время ребаев прошло (оно кончается с первым перерывом).",
        "busted": "Вы выбыли из турнира на 3-м месте.",
    }
    transcript = night.transcript()
    assert transcript == [
        "Язык чата: русский (ru).",
        told["created"],
        "Опции: 1 ребай на игрока до первого перерыва, при стеке не больше 300 фишек; 1 аддон на игрока на первом "
        "перерыве; ребай или аддон стоит 50 за 300 фишек.",
        "Ann в турнире: 300 фишек за 50 (всего 1 игрок).",
        fake.mentioned("Техасский холдем — места:\n  Ann — 300\n  Bob — 300\n  Cat — 300\n  Dan — 300\n  Eve — 300\n"
                       "Идёт регистрация: {join}, чтобы записаться; первую раздачу организатор сдаёт командой "
                       "{tournament start}."),
        "Bob в турнире: 300 фишек за 50 (всего 2 игрока).",
        "Cat в турнире: 300 фишек за 50 (всего 3 игрока).",
        "Dan в турнире: 300 фишек за 50 (всего 4 игрока).",
        "Eve в турнире: 300 фишек за 50 (всего 5 игроков).",
        "⏱ Уровень 1: лимиты 10/20 (блайнды 5/10), осталось 3\xa0мин; дальше: перерыв.\n"
        "В игре 5 игроков, 5 входов в турнир; 0 ребаев · 0 аддонов; внесено: 250.",
        "Холдем — раздача №1 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №2 · блайнды 5/10 · домашний лимит",
        # hand №3, dealt at 18:59, ended in the break: its message shows the seats, with the add-ons taken since
        "Техасский холдем — места:\n  Ann — 600\n  Bob — 595\n  Cat — 300\n  Dan — 300\n  Eve — 305\n"
        "Раздача №3: Eve выигрывает 10.\nПерерыв до 20:00.",
        "⏱ Перерыв через 1 минуту.",
        fake.mentioned("⏸ Перерыв до 20:00.\n🛒 Аддоны продаются до 20:00: {addon} или кнопка «Аддон»."),
        "Ann берёт аддон: 300 фишек за 50.",
        "Bob берёт аддон: 300 фишек за 50.",
        fake.mentioned("⏸ Перерыв до 20:00 (осталось 1\xa0мин).\nВ игре 5 игроков, 5 входов в турнир; 0 ребаев · 2 "
                       "аддона; внесено: 350.\n🛒 Аддоны продаются до 20:00: {addon} или кнопка «Аддон»."),
        "▶ Игра продолжается: лимиты 50/100.",
        "Холдем — раздача №4 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №5 · блайнды 25/50 · домашний лимит",
        "Dan забирает основной банк (915): пара восьмёрок, кикер король; решает кикер: Dan — король, Cat — дама.\n"
        "Dan забирает побочный банк 1 (40): пара восьмёрок, кикер король; решает кикер: Dan — король, Cat — дама.",
        "Eve выбывает на 5-м месте.",
        "Cat выбывает на 4-м месте.",
        "Холдем — раздача №6 · блайнды 25/50 · домашний лимит",
        "Dan забирает основной банк (1\xa0225): пара десяток, кикер король; решает пара: Dan — десятки, "
        "Ann — четвёрки.",
        "Ann выбывает на 3-м месте.",
        "Холдем — раздача №7 · блайнды 25/50 · домашний лимит",  # heads-up: Bob and Dan
        "Dan забирает основной банк (1\xa0040): две пары, восьмёрки и семёрки, кикер туз; решает кикер: Dan — туз, "
        "Bob — дама.",
        "Bob выбывает на 2-м месте.",
        "Dan заканчивает турнир с 2\xa0100 фишками — это 350.",
        "🏆 Турнир окончен. Победитель: Dan!\nМеста: 1. Dan · 2. Bob · 3. Ann · 4. Cat · 5. Eve",
        "Расчёт (в деньгах):\nAnn: внесено 100, получено 0, итог −100 (1 аддон)\nBob: внесено 100, получено 0, итог "
        "−100 (1 аддон)\nCat: внесено 50, получено 0, итог −50\nDan: внесено 50, получено 350, итог +300\nEve: "
        "внесено 50, получено 0, итог −50\nКто кому платит:\nAnn → Dan: 100\nBob → Dan: 100\nCat → Dan: 50\n"
        "Eve → Dan: 50",
    ]
    settlement_adds_up(transcript, 5 * 50 + 2 * 50)


OPENING = [
    "Ann registers: 300 chips for 50 (1 player).",
    "Texas Hold'em — seats:\n  Ann — 300\n  Bob — 300\nRegistration is open: {join} to register; the organizer deals "
    "the first hand with {tournament start}.",
    "Bob registers: 300 chips for 50 (2 players).",
]
"""What the channel reads of Ann's and Bob's registration (`two_started`), each `{command}` its mention
(`FakeDiscord.mentioned`)."""
ANN_WON = [
    "Bob is eliminated in 2nd place.",
    "Ann finishes with 600 chips, worth 100.",
    "🏆 The tournament is over. Winner: Ann!\nPlaces: 1. Ann · 2. Bob",
    "Settlement (money units):\nAnn: paid 50, cashed out 100, net +50\nBob: paid 50, cashed out 0, net −50\n"
    "Payments:\nBob → Ann: 50",
]
"""What the channel reads after the result of the hand that knocks Bob out: the tournament's end."""


async def two_started(fake: FakeDiscord, bot: Any, monkeypatch: Any, schedule: str) -> Night:
    """Ann and Bob in a tournament on a one-level `schedule`, created at 18:50 and started by Ann, every hand dealt
    from `DEALT_ALL_IN`."""
    night = Night(fake, bot, "en-US")
    ann, bob = night.members[:2]
    await night.at(at(18, 50))
    await night.slash(ann, "tournament", subcommand="create", schedule=schedule)
    for member in (ann, bob):
        await night.slash(member, "join")
    stack_deck(monkeypatch, DEALT_ALL_IN)
    await night.slash(ann, "tournament", subcommand="start")
    return night


async def test_hands_dealt_all_in_show_their_table_before_their_result_and_no_table_after_the_end(
        fake, make_bot, monkeypatch) -> None:
    """At blinds 120/240 Bob folds his big blind to Ann's all-in raise and keeps 60 chips. Each next hand is over the
    moment it is dealt (Bob all-in on his blind, Ann covering it: nobody is left to act, the board runs out): Bob
    doubles up with three twos, then Ann's three twos knock him out. The channel reads each hand's table, then its
    result and its picture; the tournament's end and its settlement come after the last hand's picture, and no
    hand's table after them."""
    bot = await make_bot(default_game="holdem")
    night = await two_started(fake, bot, monkeypatch, "240/480")
    await play_out(fake, bot, night.channel, styles={"Ann": ("raise",), "Bob": ("fold",)})
    await night.at(at(18, 51))  # hand #2: dealt and over
    await night.at(at(18, 52))  # hand #3: dealt and over, the last
    assert night.transcript(pictures=True) == [
        fake.mentioned("Tournament #1 created. Schedule (UTC): 240/480. Buy-in 50 for 300 chips: {join} to register; "
                       "the organizer starts it with {tournament start}."),
        *map(fake.mentioned, OPENING),
        "⏱ Level 1: limits 240/480 (blinds 120/240), the last level: it plays until the tournament ends.",
        "Hold'em — hand #1 · blinds 120/240 · home-limit",
        "Hold'em — hand #2 · blinds 120/240 · home-limit",
        "Bob wins the main pot (120) with three of a kind, twos, ace kicker.",
        "[picture] Hand #2 · showdown",
        "Hold'em — hand #3 · blinds 120/240 · home-limit",
        "Ann wins the main pot (240) with three of a kind, twos, ace kicker.",
        "[picture] Hand #3 · showdown",
        *ANN_WON,
    ]
    assert fake.limited == []
    await ledger_ok(bot.service)


async def test_a_first_hand_dealt_all_in_reads_the_level_before_its_table_and_its_result_after_it(
        fake, make_bot, monkeypatch) -> None:
    """At blinds 500/1,000 both 300-chip stacks are all in on the blinds of the first hand, which /tournament start
    deals: the clock's level, said before the deal, comes first; then the hand's table, its result, its picture and
    the end."""
    bot = await make_bot(default_game="holdem")
    night = await two_started(fake, bot, monkeypatch, "1000/2000")
    assert night.over()
    assert night.transcript(pictures=True) == [
        fake.mentioned("Tournament #1 created. Schedule (UTC): 1000/2000. Buy-in 50 for 300 chips: {join} to "
                       "register; the organizer starts it with {tournament start}."),
        *map(fake.mentioned, OPENING),
        "⏱ Level 1: limits 1,000/2,000 (blinds 500/1,000), the last level: it plays until the tournament ends.",
        "Hold'em — hand #1 · blinds 500/1,000 · home-limit",
        "Ann wins the main pot (600) with three of a kind, twos, ace kicker.",
        "[picture] Hand #1 · showdown",
        *ANN_WON,
    ]
    assert fake.limited == []
    await ledger_ok(bot.service)
