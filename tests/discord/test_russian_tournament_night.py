"""A Russian tournament night on Discord, read as a Russian player reads it: the guild chooses Russian, the organizer
creates a `home-night` tournament with a rebuy, an add-on, a bounty and pawns, four members register and a fifth
comes in late; the clock's level and its break are announced, a member rebuys, another takes the add-on, one steps
away in the break and comes back before play resumes, another steps away for good and is blinded out (his blinds
posted, his cards folded), one lets her turn and her time bank run out, two players short of a call pawn a sweater
and a jacket (a smartwatch offered first is refused) and redeem them between hands, busts are told with their
places, and the night ends with the winner, the places and the settlement. Every channel paragraph and every
private answer is asserted whole (Discord has no direct messages here: what a player alone reads is an ephemeral
answer); no hole card of a folded hand reaches the channel, no request meets a 429, and the ledger adds up."""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import text
from tests.bot.helpers import at, cards_in, ledger_ok
from tests.discord.fake_discord import ACK_SECONDS, Member
from tests.discord.test_games import _has_actions, action, current_table, to_act
from tests.discord.test_tournament_night import AGGRESSIVE, PASSIVE, Night

PAWNS = {"Ann": "пиджак", "Eve": "свитер"}
"""What each member pawns when the table tells him he is short of a call."""
REFUSED_ITEMS = {"Ann": "смарт-часы"}
"""What a member offers first, before his item in `PAWNS`: the bank takes no watch and no accessory."""


class RussianNight(Night):
    """The night, with every private answer kept in the order given, as (member, what he did, what he read)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.told: list[tuple[str, str, str]] = []
        self.short = ""
        """The table message that told the last member to pawn he was short of a call."""
        self.pawned: list[str] = []
        """Who pawned an item, in order."""
        self.offers = dict(REFUSED_ITEMS)

    async def ask(self, member: Member, name: str, **options: Any) -> str:
        """A slash command; what it told its member alone is kept, and returned."""
        done = await self.slash(member, name, **options)
        said = done.ephemeral_text()
        if said:
            self.told.append((member.name, " ".join([name, *map(str, options.values())]), said))
        return said

    async def hand(self, pawns: dict[str, str], *preferred: str) -> None:
        """Play the hand on the table message, each member pressing the first of `preferred` on offer; a member short
        of a call who has an item in `pawns` pawns it first (taken out of `pawns`)."""
        for _ in range(60):
            if not _has_actions(self.fake, self.channel):
                return
            table = current_table(self.fake, self.channel)
            if not re.search(r"<@\d+>", table["content"]):
                return
            member = to_act(self.fake, table)
            if member.name in pawns and f"\n🧥 {member.name}:" in table["content"]:
                if member.name in self.offers:
                    item = self.offers.pop(member.name)
                    said = await self.refused(self.fake.slash(member, self.channel, "pawn", item=item))
                    self.told.append((member.name, f"pawn {item}", said))
                self.short = table["content"]
                await self.ask(member, "pawn", item=pawns.pop(member.name))
                self.pawned.append(member.name)
                continue
            chosen = PASSIVE if member.name in self.pawned else preferred  # a member who pawned plays it safe
            pressed = await self.fake.press(member, table, action(self.fake, table, *chosen))
            await self.bot.settled()
            assert pressed.ephemeral_text() == ""
        raise AssertionError("the hand did not end")


async def test_a_russian_tournament_night_reads_in_natural_russian(fake, make_bot) -> None:
    """Every paragraph the channel reads, exactly. Dan, away over the break, read "(пропускает раздачи)" beside his
    seat, the cash table's words: in a tournament he is dealt in and blinded, and the seat now reads "(нет на
    месте)"."""
    bot = await make_bot(default_game="holdem")
    night = RussianNight(fake, bot, "ru")
    ann, bob, cat, dan, eve = night.members
    await night.at(at(18, 50))
    await night.ask(ann, "lang", language="ru")
    await night.ask(ann, "tournament", subcommand="create", schedule="home-night rebuys 1 addon 1 bounty 10 pawns 2")
    for member in (ann, bob, cat, dan):
        await night.ask(member, "join")
    await night.at(at(18, 55))
    await night.ask(ann, "tournament", subcommand="start")
    await night.ask(eve, "join")  # late registration: dealt in from the next hand
    table = current_table(fake, night.channel)
    dealt: set[str] = set()
    for member in (bob, cat, dan):
        mine = await fake.press(member, table, fake.button(table, text("ru", "button.my_cards")))
        await bot.settled()
        assert mine.texts(ephemeral=False) == []
        dealt |= cards_in(mine.ephemeral_text())
    refused = {"rebuy": await night.refused(fake.slash(bob, night.channel, "rebuy")),
               "addon": await night.refused(fake.slash(eve, night.channel, "addon")),
               "spectator": await night.refused(fake.press(night.fay, table, action(fake, table, "fold"))),
               "redeem": await night.refused(fake.slash(cat, night.channel, "tournament", subcommand="redeem"))}
    await night.hand({}, "fold")
    dealt |= cards_in(night.told[0][2])  # Ann's, with her /tournament start
    assert len(dealt) == 8 and not cards_in("\n".join(fake.public_versions())) & dealt
    await night.ask(bob, "rebuy")
    moment = at(18, 55)
    while moment < at(18, 59, 30):
        moment += 30
        await night.at(moment)
        await night.hand({}, "fold")
    await night.at(at(19, 0, 1))
    await night.ask(cat, "addon")
    await night.ask(dan, "away")  # for good: he is blinded out
    away = len(fake.interactions)
    await night.ask(eve, "away")
    await night.at(at(19, 30))
    await night.ask(eve, "back")
    await night.at(at(19, 59))
    await night.at(at(20, 0, 1))
    pawns, moment = dict(PAWNS), at(20, 0, 1)
    timed_out: list[str] = []  # the table as the turn runs out, then as the time bank does
    for played in range(40):
        if night.over():
            break
        if played == 2:  # the member to act lets her turn and her time bank run out
            for _ in range(2):
                moment += 61
                await night.at(moment)
                timed_out.append(current_table(fake, night.channel)["content"])
        await night.hand(pawns, *AGGRESSIVE)
        for name in night.pawned:
            member = next(member for member in night.members if member.name == name)
            if name in night.seated() and not any(told[0] == name and "redeem" in told[1] for told in night.told):
                listed = await night.ask(member, "tournament", subcommand="redeem")  # numbered for the tournament
                await night.ask(member, "tournament", subcommand="redeem", item=re.findall(r"^(\d+)\. ", listed,
                                                                                           re.MULTILINE)[0])
        moment += 20
        await night.at(moment)
    assert refused == {
        "rebuy": "Ребай — между раздачами: дождитесь конца этой.",
        "addon": "Аддон можно взять только на первом перерыве.",
        "spectator": fake.mentioned("Вы не сидите за этим столом: сначала {join}."),
        "redeem": "У вас нет заложенных вещей.",
    }
    listed = "Ваши заложенные вещи (выкупить между раздачами: {tournament redeem} вещь: номер):\n"
    assert night.told == [
        ("Ann", "tournament start", "Ваши карты: 4♥ 6♠"),
        ("Ann", "pawn смарт-часы", "«смарт-часы»: такое в залог не принимают (никаких носков, ремней, украшений, "
                                   "аксессуаров и часов)."),
        ("Eve", "tournament redeem", fake.mentioned(listed + "1. «свитер» — выкуп за 100 фишек")),
        ("Ann", "tournament redeem", fake.mentioned(listed + "2. «пиджак» — выкуп за 100 фишек")),
    ]
    assert timed_out[0].split("\n")[-3:-1] == ["▶ Ход: Ann, для колла — олл-ин на 25.",
                                               "⏳ Ann тратит запас времени: 60\xa0с."]
    assert timed_out[1].split("\n")[-6:-3] == ["Dan: пас.", "Ann: время хода вышло.", "Ann: пас."]
    assert night.short.split("\n")[-4:-1] == [
        "Eve: пас.", "▶ Ход: Ann, для колла — олл-ин на 50 (⏱ 60\xa0с).",
        fake.mentioned("🧥 Ann: на колл не хватает фишек — {pawn} и вещь (например, куртка) добавят к стеку 100 фишек. "
                       "Носки, ремни, украшения, аксессуары и часы не принимаются.")]
    assert night.transcript() == [
        "Язык чата: русский (ru).",
        fake.mentioned("Турнир №1 создан. Расписание (UTC): 10/20 до 19:00; перерыв до 20:00; 50/100. Бай-ин 50 за "
                       "300 фишек; регистрация — {join}; организатор запускает турнир командой {tournament start}."),
        "Опции: 1 ребай на игрока до первого перерыва, при стеке не больше 300 фишек; 1 аддон на игрока на первом "
        "перерыве; баунти 10 из каждого бай-ина; ребай или аддон стоит 40 за 300 фишек; в залог — не больше 2 вещей "
        "на игрока.",
        "Ann в турнире: 300 фишек за 50 (всего 1 игрок).",
        fake.mentioned("Техасский холдем — места:\n  Ann — 300\n  Bob — 300\n  Cat — 300\n  Dan — 300\nИдёт "
                       "регистрация: {join}, чтобы записаться; первую раздачу организатор сдаёт командой "
                       "{tournament start}."),
        "Bob в турнире: 300 фишек за 50 (всего 2 игрока).",
        "Cat в турнире: 300 фишек за 50 (всего 3 игрока).",
        "Dan в турнире: 300 фишек за 50 (всего 4 игрока).",
        "⏱ Уровень 1: лимиты 10/20 (блайнды 5/10), осталось 5\xa0мин; дальше: перерыв.\nВ игре 4 игрока, 4 входа в "
        "турнир; 0 ребаев · 0 аддонов · баунти в игре: 40; внесено: 200.",
        "Техасский холдем — места:\n  Ann — 300\n  Bob — 595\n  Cat — 305\n  Dan — 300\n  Eve — 300\nРаздача №1: Cat "
        "выигрывает 10.",
        "⬇ Стол перенесён ниже.",
        "Eve в турнире: 300 фишек за 50 (всего 5 игроков).",
        "Bob делает ребай: 300 фишек за 40.",
        "Холдем — раздача №2 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №3 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №4 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №5 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №6 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №7 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №8 · блайнды 5/10 · домашний лимит",
        "Холдем — раздача №9 · блайнды 5/10 · домашний лимит",
        "⏱ Перерыв через 1 минуту.",
        "Техасский холдем — места:\n  Ann — 300\n  Bob — 600\n  Cat — 600\n  Dan — 300 (нет на месте)\n  Eve — 300\n"
        "Раздача №10: Bob выигрывает 10.\nПерерыв до 20:00.",
        fake.mentioned("⏸ Перерыв до 20:00.\n🛒 Аддоны продаются до 20:00: {addon} или кнопка «Аддон»."),
        "Cat берёт аддон: 300 фишек за 40.",
        fake.mentioned("Dan отойдёт со следующей раздачи: блайнды будут ставиться сами, а карты — сбрасываться, "
                       "когда дойдёт ход; {back}, чтобы вернуться."),
        fake.mentioned("Eve отойдёт со следующей раздачи: блайнды будут ставиться сами, а карты — сбрасываться, "
                       "когда дойдёт ход; {back}, чтобы вернуться."),
        "Eve снова в игре.",
        fake.mentioned("⏸ Перерыв до 20:00 (осталось 1\xa0мин).\nВ игре 5 игроков, 5 входов в турнир; 1 ребай · 1 "
                       "аддон · баунти в игре: 50; внесено: 330.\n🛒 Аддоны продаются до 20:00: {addon} или кнопка "
                       "«Аддон»."),
        "▶ Игра продолжается: лимиты 50/100.",
        "Техасский холдем — места:\n  Ann — 50\n  Cat — 1\xa0700\n  Dan — 300 (нет на месте)\n  Eve — 50\nРаздача "
        "№11: Cat выигрывает 1\xa0700.\nМежду раздачами: следующая будет сдана через несколько секунд, или нажмите "
        "«Сдать».",
        "Вещь записана: Eve закладывает «свитер» за 100 фишек (выкуп — 13,33).",
        "Вещь записана: Ann закладывает «пиджак» за 100 фишек (выкуп — 13,33).",
        "Cat забирает основной банк (1\xa0700): две пары, короли и валеты, кикер дама.",
        "Bob выбывает на 5-м месте.",
        "🎯 Cat забирает баунти игрока Bob: 10.",
        "Eve выкупает «свитер» за 100 фишек.",
        "Ann выкупает «пиджак» за 100 фишек.",
        "Холдем — раздача №12 · блайнды 25/50 · домашний лимит",
        "Cat забирает основной банк (125): стрит до семёрки.",
        "Eve выбывает на 4-м месте.",
        "🎯 Cat забирает баунти игрока Eve: 10.",
        "Холдем — раздача №13 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №14 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №15 · блайнды 25/50 · домашний лимит",
        "Cat забирает основной банк (75): флеш, старшая десятка.",
        "Ann выбывает на 3-м месте.",
        "🎯 Cat забирает баунти игрока Ann: 10.",
        "Холдем — раздача №16 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №17 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №18 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №19 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №20 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №21 · блайнды 25/50 · домашний лимит",
        "Dan забирает основной банк (50): стрит до дамы.",
        "Холдем — раздача №22 · блайнды 25/50 · домашний лимит",
        "Холдем — раздача №23 · блайнды 25/50 · домашний лимит",
        "Cat забирает основной банк (50): пара двоек, кикер валет.",
        "Dan выбывает на 2-м месте.",
        "🎯 Cat забирает баунти игрока Dan: 10.",
        "Cat заканчивает турнир с 2\xa0100 фишками — это 280.",
        "🏆 Турнир окончен. Победитель: Cat!\nМеста: 1. Cat · 2. Dan · 3. Ann · 4. Eve · 5. Bob",
        "Расчёт (в деньгах):\nAnn: внесено 50, получено 0, итог −50\nBob: внесено 90, получено 0, итог −90 (1 "
        "ребай)\nCat: внесено 90, получено 280, итог +240 (1 аддон, баунти 50)\nDan: внесено 50, получено 0, итог "
        "−50\nEve: внесено 50, получено 0, итог −50\nКто кому платит:\nBob → Cat: 90\nAnn → Cat: 50\nDan → Cat: 50\n"
        "Eve → Cat: 50",
    ]
    assert night.over()
    assert [ix for ix in list(fake.interactions.values())[away:] if ix.user is dan] == []
    assert all(ix.acked_after is not None and ix.acked_after < ACK_SECONDS for ix in fake.interactions.values())
    assert fake.limited == []
    await ledger_ok(bot.service)
