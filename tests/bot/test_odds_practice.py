"""`/odds` and practice seats through the service: private answers, computer players paid by the house."""

import ast
import asyncio
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot import games
from bot.clock import FakeClock
from bot.games import house_edges
from bot.output import Reply
from bot.service import Service
from bot.store import Store, Tx
from engine.holdem import Hand
from engine.house import GAMES, ThreeCardRules
from engine.house import odds as engine_odds
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import (
    corrupt_saved_hand,
    everything_said,
    ledger_ok,
    listen,
    logged_actions,
    press_label,
    resumed_table,
    started_service,
)
from tests.bot.test_caribbean_three_card_rules import ann_plays

HUMANS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
HOUSE = f"house:{PLACE.chat_id}"

HOUSE_ODDS = {  # what /odds answers at each house game's table, in each language
    ("en", "three-card"): (
        "Three Card Poker: the house edge, in percent of the first bet, when you play the strategy below.\n"
        "PAIRPLUS (no decision to make): 7.93% (exact)\n"
        "PAIRPLUS pays: straight flush ×40, three of a kind ×20, straight ×5, flush ×4, pair ×1\n"
        "ANTE: 3.90% (exact)\n"
        "ANTE bonus pays: straight flush ×4, three of a kind ×3, straight ×1\n"
        "Strategy: play Q-6-4 or better, fold the rest."),
    ("en", "caribbean"): (
        "Caribbean Poker: the house edge, in percent of the first bet, when you play the strategy below.\n"
        "ANTE: 5.32% ±\xa00.16 standard error (2,000,000 simulated rounds)\n"
        "BET pays: ace-king ×1, pair ×1, two pair ×2, three of a kind ×3, straight ×4, flush ×5, full house ×7, "
        "four of a kind ×20, straight flush ×50, royal flush ×100\n"
        "Strategy: never exchange; play A-K-J-8-3 or better, fold the rest."),
    ("en", "russian"): (
        "Russian Poker: the house edge, in percent of the first bet, when you play the strategy below.\n"
        "ANTE: 15.11% ±\xa00.17 standard error (2,000,000 simulated rounds)\n"
        "BET pays: royal flush ×100, straight flush ×50, four of a kind ×20, full house ×7, flush ×5, straight "
        "×4, three of a kind ×3, two pair ×2, pair ×1, ace-king ×1\n"
        "Strategy: play a pair or better, or ace-king; with four to a flush or a straight buy a card, then play "
        "ace-king or better; fold the rest; never exchange; buy the dealer a game with a straight or better."),
    ("en", "texas"): (
        "Texas Poker: the house edge, in percent of the first bet, when you play the strategy below.\n"
        "ANTE: 21.57% ±\xa00.25 standard error (2,000,000 simulated rounds)\n"
        "BET pays: pair ×1, two pair ×1, three of a kind ×2, straight ×3, flush ×4, full house ×6, four of a "
        "kind ×15, straight flush ×50, royal flush ×100\n"
        "Strategy: BET at once with a straight or better; otherwise buy the fourth card with a pair that uses "
        "one of your cards or with four to a flush or a straight, then BET with the same; fold the rest; never "
        "exchange."),
    ("ru", "three-card"): (
        "Трёхкарточный покер: преимущество казино в процентах от первой ставки, если играть по стратегии ниже.\n"
        "«Пара плюс» (решений не требует): 7,93\xa0% (точно)\n"
        "Выплаты по ставке «Пара плюс»: стрит-флеш ×40, тройка ×20, стрит ×5, флеш ×4, пара ×1\n"
        "АНТЕ: 3,90\xa0% (точно)\n"
        "Выплаты по бонусу к АНТЕ: стрит-флеш ×4, тройка ×3, стрит ×1\n"
        "Стратегия: играть с Д-6-4 и старше, остальное сбрасывать."),
    ("ru", "caribbean"): (
        "Карибский покер: преимущество казино в процентах от первой ставки, если играть по стратегии ниже.\n"
        "АНТЕ: 5,32\xa0% ±\xa00,16 — стандартная ошибка (2\xa0000\xa0000 смоделированных раундов)\n"
        "Выплаты по БЕТ: туз-король ×1, пара ×1, две пары ×2, тройка ×3, стрит ×4, флеш ×5, фулл-хаус ×7, "
        "каре ×20, стрит-флеш ×50, роял-флеш ×100\n"
        "Стратегия: не менять карты; играть с Т-К-В-8-3 и старше, остальное сбрасывать."),
    ("ru", "russian"): (
        "Русский покер: преимущество казино в процентах от первой ставки, если играть по стратегии ниже.\n"
        "АНТЕ: 15,11\xa0% ±\xa00,17 — стандартная ошибка (2\xa0000\xa0000 смоделированных раундов)\n"
        "Выплаты по БЕТ: роял-флеш ×100, стрит-флеш ×50, каре ×20, фулл-хаус ×7, флеш ×5, стрит ×4, тройка ×3, "
        "две пары ×2, пара ×1, туз-король ×1\n"
        "Стратегия: играть с парой и старше или с туз-королём; с четырьмя картами к флешу или стриту прикупить "
        "карту, затем играть с туз-королём и старше; остальное сбрасывать; не менять карты; покупать игру дилеру "
        "со стритом и старше."),
    ("ru", "texas"): (
        "Покер «Техас»: преимущество казино в процентах от первой ставки, если играть по стратегии ниже.\n"
        "АНТЕ: 21,57\xa0% ±\xa00,25 — стандартная ошибка (2\xa0000\xa0000 смоделированных раундов)\n"
        "Выплаты по БЕТ: пара ×1, две пары ×1, тройка ×2, стрит ×3, флеш ×4, фулл-хаус ×6, каре ×15, стрит-флеш "
        "×50, роял-флеш ×100\n"
        "Стратегия: сразу БЕТ со стритом и старше; иначе прикупить четвёртую карту с парой, в которой есть ваша "
        "карта, или с четырьмя картами к флешу или стриту, затем БЕТ с тем же; остальное сбрасывать; не менять "
        "карты."),
}


async def balance(service: Service, account: str) -> int:
    return await service.store.read(lambda tx: tx.balance(account))


async def play_hand(service: Service, clock: FakeClock, heard: list[Reply], reply: Reply) -> list[Reply]:
    """Humans check or call by button; computer players act when their timer fires. Returns every reply."""
    replies = [reply]
    for _ in range(200):
        table = replies[-1].table
        if table is None or table.to_act is None:
            return replies
        if table.to_act.startswith("bot:"):
            before = len(heard)
            clock.advance(1.6)
            assert await service.scheduler.fire_due() == 1
            assert len(heard) == before + 1, "the computer player did not act"
            replies.append(heard[-1])
        else:
            pressed = await service.press(PLACE, HUMANS[table.to_act], press_label(replies[-1], "check", "call"))
            assert pressed.error is None, pressed.error
            replies.append(pressed)
    raise AssertionError("the hand did not end")


async def test_two_friends_and_two_computer_players_play_a_whole_hand(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=3)
    heard = listen(service)
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    added = await service.handle(PLACE, ANN, "/addbot")
    assert added.error is None
    assert added.public == ["🤖 Robo (a computer player) sits down with 400 chips from the house."]
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    assert await balance(service, HOUSE) == -800  # two buy-ins of 400 from the house, none from a wallet
    assert await balance(service, f"wallet:{PLACE.chat_id}:ann") == 800
    start = await service.handle(PLACE, BOB, "/deal")
    assert start.error is None
    assert set(start.private) == {"ann", "bob"}  # computer players get no private messages
    replies = await play_hand(service, clock, heard, start)
    assert replies[-1].table.to_act is None
    narration = everything_said(replies)
    assert re.search(r"🤖 (Robo|Chip) (folds|checks|calls|bets|raises)", narration)
    assert all(not user.startswith("bot:") for reply in replies for user in reply.private)
    await ledger_ok(service)
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert sum(stacks.values()) == 1200
    bot_chips = sum(chips for name, chips in stacks.items() if ":bot:" in name)
    # removing both computer players returns whatever they hold to the house
    for name in ("Robo", "Chip"):
        removed = await service.handle(PLACE, ANN, f"/addbot remove {name}")
        assert removed.error is None, removed.error
    assert await balance(service, HOUSE) == -800 + bot_chips
    await ledger_ok(service)


async def ann_and_deuce_dealt(store: Store, clock: FakeClock) -> tuple[Service, list[Reply], Reply]:
    """Ann and the computer player Deuce at a cash table, a hand dealt: the service, what it says unasked (its
    listener's replies) and the deal's reply."""
    service = await started_service(store, clock, seed=5)
    heard = listen(service)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Deuce")).error is None
    return service, heard, await service.handle(PLACE, ANN, "/deal")


async def test_a_computer_player_is_removed_after_the_hand_it_is_in(store: Store, clock: FakeClock) -> None:
    service, heard, start = await ann_and_deuce_dealt(store, clock)
    leaving = await service.handle(PLACE, ANN, "/addbot remove deuce")
    assert leaving.public == ["🤖 Deuce leaves after this hand."]
    await play_hand(service, clock, heard, start)
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert stacks.get(f"stack:{PLACE.table_id}:bot:deuce", 0) == 0
    assert await balance(service, HOUSE) + await balance(service, f"stack:{PLACE.table_id}:ann") == 200
    await ledger_ok(service)
    # with only computer players left nobody deals: the practice table waits for a human
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/leave")).error is None
    clock.advance(60)
    await service.scheduler.fire_due()
    state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    assert not state[1].get("hand")


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "🤖 Deuce is already leaving after this hand."),
    ("ru", "🤖 Deuce и так уйдёт после этой раздачи."),
])
async def test_a_computer_player_already_leaving_is_not_removed_again(store: Store, clock: FakeClock, language: str,
                                                                     refusal: str) -> None:
    """`/addbot remove` again on a computer player marked to leave said "leaves after this hand" again, as if it
    were news: the organizer is told it is already leaving, and nothing changes."""
    service, _heard, _start = await ann_and_deuce_dealt(store, clock)
    assert (await service.handle(PLACE, ANN, "/addbot remove deuce")).error is None
    await service.handle(PLACE, ANN, f"/lang {language}")
    before = (await service.handle(PLACE, ANN, "/table")).table, await logged_actions(store)
    again = await service.handle(PLACE, ANN, "/addbot remove Deuce")
    assert again.error == refusal
    assert again.public == [] and again.table is None
    assert ((await service.handle(PLACE, ANN, "/table")).table, await logged_actions(store)) == before


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "🤖 DEUCE is already at the table."),
    ("ru", "🤖 DEUCE уже за столом."),
])
async def test_a_computer_player_already_seated_is_named_as_the_table_shows_him(
        service: Service, tmp_path: Path, language: str, refusal: str) -> None:
    """`/addbot deuce` while "🤖 DEUCE" sits answered with the name as typed ("deuce is already at the table"): the
    answer names the seated player as the table does, and nothing changes."""
    assert (await service.handle(PLACE, ANN, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot DEUCE")).error is None
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    table = await service.handle(PLACE, ANN, "/table")
    assert table.table is not None and "  🤖 DEUCE — 400" in table.table.text.splitlines()
    before = dump(tmp_path / "bot.db")
    again = await service.handle(PLACE, ANN, "/addbot deuce")
    assert again.error == refusal
    assert again.public == [] and again.table is None
    assert dump(tmp_path / "bot.db") == before


async def test_computer_players_never_join_a_tournament_or_a_house_game(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/tournament create home-night")).error is None
    refused = await service.handle(PLACE, ANN, "/addbot")
    assert refused.error == "Computer players never join a tournament."
    other = PLACE.__class__(PLACE.chat_id, "chat/other")
    assert (await service.handle(other, ANN, "/game texas")).error is None
    assert (await service.handle(other, ANN, "/addbot")).error == "Computer players only play cash Texas Hold'em."
    await ledger_ok(service)


async def test_only_an_organizer_seats_or_removes_computer_players(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/join")).error is None  # Ann organizes the chat
    assert (await service.handle(PLACE, BOB, "/addbot")).error == "Only the organizer — Ann — can do that."
    assert (await service.handle(PLACE, ANN, "/addbot Nuts")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot nuts")).error == "🤖 Nuts is already at the table."
    assert (await service.handle(PLACE, BOB, "/addbot remove Nuts")).error == "Only the organizer — Ann — can do that."
    assert (await service.handle(PLACE, ANN, "/addbot remove Zed")).error == (
        "No computer player called “Zed” sits at this table.")
    assert (await service.handle(PLACE, ANN, "/addbot remove")).error == "Usage: /addbot [name] | remove name"
    assert (await service.handle(PLACE, ANN, "/addbot remove Nuts")).error is None
    assert await balance(service, HOUSE) == 0


@pytest.mark.parametrize(("language", "refusal"), [
    ("en", "No computer player called “zed” sits at this table."),
    ("ru", "За этим столом нет компьютерного игрока «zed»."),
])
async def test_an_unknown_computer_player_is_quoted_as_typed(service: Service, language: str, refusal: str) -> None:
    # it read "No computer player called zed sits …", unquoted, where every other unknown name is quoted as typed
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/addbot Nuts")).error is None
    before = dump(service.store.location)
    reply = await service.handle(PLACE, ANN, "/addbot remove zed")
    assert (reply.error, reply.public) == (refusal, [])
    assert dump(service.store.location) == before


async def test_odds_answers_privately_and_never_shows_other_cards(service: Service) -> None:
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    start = await service.handle(PLACE, ANN, "/deal")
    hole = {user: messages[0].removeprefix("Your cards: ") for user, messages in start.private.items()}
    answer = await service.handle(PLACE, BOB, "/odds")
    assert answer.error is None and answer.public == [] and answer.table is None
    assert list(answer.private) == ["bob"]
    text = answer.private["bob"][0]
    assert hole["bob"] == "4♦ 2♠" and text == (
        "Your chances with 4♦ 2♠ against 2 opponents, whose cards you don't know: equity 21.2% (win 19.9%, split "
        "3.1%) — simulated over 5,000 deals, ±\xa00.6%.")
    for user in ("ann", "cat"):
        for card in hole[user].split():
            if card not in hole["bob"].split():
                assert card not in text
    again = await service.handle(PLACE, BOB, "/odds")
    assert again.private == answer.private  # seeded by the situation: the same question, the same answer
    assert (await service.handle(PLACE, ANN, "/odds")).private["ann"][0] != text


async def test_a_flood_of_odds_is_computed_once_a_street(service: Service) -> None:
    """One player asking again and again must not hold up the table (nor the bot) with 5,000 deals each time."""
    from bot.games import odds

    odds._equity.cache_clear()  # an earlier test may have asked about the same deal
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    answers = [(await service.handle(PLACE, BOB, "/odds")).private["bob"] for _ in range(20)]
    # counted by the cache (a patch of `equity` would not reach its compiled caller): computed once, then read
    computed = odds._equity.cache_info()
    assert (computed.misses, computed.hits) == (1, 19) and all(answer == answers[0] for answer in answers)


async def test_odds_is_exact_heads_up_on_the_river(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    reply = await service.handle(PLACE, ANN, "/deal")
    for _ in range(20):  # check and call up to the river
        board = reply.table.text.splitlines()[1]  # the board line (the story under the seats names cards too)
        if board.startswith("Board") and sum(board.count(suit) for suit in "♠♥♦♣") >= 5:
            break
        reply = await service.press(PLACE, HUMANS[reply.table.to_act], press_label(reply, "check", "call"))
    answer = await service.handle(PLACE, ANN, "/odds")
    assert answer.private["ann"] == [
        "Your chances with 7♠ 2♠ on J♥ 6♣ J♠ 4♠ 8♣ against 1 opponent, whose cards you don't know: equity 5.1% (win "
        "4.0%, split 2.1%) — exact over all 990 deals."]


async def test_odds_is_refused_outside_a_hand(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/odds")).error == (
        "No hand is being played: /odds tells your chances during a hand you are in.")
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 200")
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, CAT, "/odds")).error == "You are not in this hand."


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_odds_in_house_games_is_precise_instant_and_names_the_paytable(
        service: Service, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """Every house game answers from figures computed beforehand (nothing is computed on the way: the engine's
    simulations and enumerations would raise), with a standard error under 0.3 points or the exact figure, and lists
    the paytable behind each figure."""
    def no_computation(*args: object, **kwargs: object) -> None:
        raise AssertionError("/odds computed on the command's path")

    for name in ("caribbean", "russian", "texas", "three_card_ante", "three_card_pairplus"):
        monkeypatch.setattr(engine_odds, name, no_computation)
    for game in ("three-card", "caribbean", "russian", "texas"):
        place = PLACE.__class__(PLACE.chat_id, f"chat/{game}")
        assert (await service.handle(place, ANN, f"/game {game}")).error is None
        await service.handle(place, ANN, f"/lang {language}")
        answer = await service.handle(place, ANN, "/odds")
        assert answer.public == [] and list(answer.private) == ["ann"]
        assert answer.private["ann"] == [HOUSE_ODDS[language, game]]
    tiers = await service.handle(PLACE.__class__(PLACE.chat_id, "chat/three-card"), ANN, "/set tier vip")
    assert tiers.error is None  # other limits, same paytable: the same figures
    vip = await service.handle(PLACE.__class__(PLACE.chat_id, "chat/three-card"), ANN, "/odds")
    assert vip.private["ann"] == [HOUSE_ODDS[language, "three-card"]]


@pytest.mark.parametrize(("language", "settled", "line"), [
    ("en", "Ann, box 1: wins (+30) — ace-king: A♠ K♦ 9♣ 6♥ 3♦; ANTE +10 · BET +20 (ace-king, ×1).", "ace-king ×1"),
    ("ru", "Ann, бокс 1: выигрыш (+30) — туз-король: A♠ K♦ 9♣ 6♥ 3♦; АНТЕ +10 · БЕТ +20 (туз-король, ×1).",
     "туз-король ×1"),
])
async def test_caribbean_odds_name_the_one_to_one_line_as_the_settlement_does(
        service: Service, monkeypatch: pytest.MonkeyPatch, language: str, settled: str, line: str) -> None:
    """`/odds` listed Caribbean Poker's 1:1 BET line as "high card" while a round it paid said "ace-king": the only
    high card that beats a qualifying dealer holds an ace and a king (RULES.md §4's "ace-king"), so both say that."""
    cards = "As Kd 9c 6h 3d  Ah Kc 8d 6s 3c"  # ace-king over the dealer's ace-king, card by card
    won = await ann_plays(service, monkeypatch, "caribbean", cards, "/ante 10", "/play", setting=f"/lang {language}")
    assert won == (30, settled)
    lines = (await service.handle(PLACE, ANN, "/odds")).private["ann"][0].split("\n")
    assert lines[2] == HOUSE_ODDS[language, "caribbean"].split("\n")[2]
    assert lines[2].split(": ", 1)[1].split(", ")[0] == line  # the paytable's first line, the one the round paid


def test_the_precomputed_edges_match_the_tables_and_a_fresh_computation() -> None:
    """Each game's default rules have their figures; the exact ones are what the engine computes, and a short fresh
    simulation (seeded, 20,000 rounds) lands within four combined standard errors of each simulated one."""
    for game, round_type in GAMES.items():
        reports = house_edges.precomputed(game, round_type.rules_type())
        assert reports is not None, f"no precomputed figures for {game}'s paytable: run pokerbot odds {game}"
        fresh = engine_odds.odds(game, 20_000, random.Random(1))
        assert [report.bet for report in reports] == [report.bet for report in fresh]
        for stored, computed in zip(reports, fresh, strict=True):
            if stored.method == "exact":
                assert stored == computed
            else:
                assert stored.std_error < 0.3 and stored.rounds == 2_000_000
                spread = (stored.std_error ** 2 + computed.std_error ** 2) ** 0.5
                assert abs(stored.house_edge - computed.house_edge) < 4 * spread


async def test_a_paytable_without_figures_is_told_so(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(house_edges.PRECOMPUTED, "caribbean", (({"paytable": {}}, ()),))
    await service.handle(PLACE, ANN, "/game caribbean")
    refused = await service.handle(PLACE, ANN, "/odds")
    assert refused.error == (
        "No figure has been computed for this table's paytable yet: `pokerbot odds caribbean` computes one.")
    assert refused.private == {}


def test_odds_and_practice_do_not_import_the_service() -> None:
    """Imports point adapters → service → games → engine: no game module imports `bot.service`, even for types."""
    for path in Path(games.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.module != "bot.service", path.name
            elif isinstance(node, ast.Import):
                assert all(alias.name != "bot.service" for alias in node.names), path.name


def test_addbot_and_odds_parse() -> None:
    from bot import commands as cmd
    from bot.command_parser import parse

    assert parse("/addbot") == cmd.AddBot()
    assert parse("/addbot Robo") == cmd.AddBot("Robo")
    assert parse("/addbot remove Robo") == cmd.AddBot("Robo", remove=True)
    assert parse("/odds") == cmd.Odds()
    for bad in ("/addbot remove", "/addbot a b", "/addbot remove a b", "/odds x"):
        try:
            parse(bad)
        except cmd.CommandError:
            continue
        raise AssertionError(bad)


@pytest.mark.parametrize(("game", "option", "edge"), [
    ("caribbean", "re_exchange on", "5.32% ±\xa00.16 standard error (2,000,000 simulated rounds)"),
    ("three-card", "ante_bonus always", "3.83% (exact)")])
async def test_odds_answer_at_a_table_with_a_table_option(service: Service, game: str, option: str, edge: str) -> None:
    """A table option of RULES.md (`/set re_exchange on`, `/set ante_bonus always`) did not keep /odds from answering:
    it said no figure was computed for the table's paytable (the paytable was the default) and sent players to
    `pokerbot odds`, which cannot compute one for the option. Caribbean's figure assumes no exchange at all, so the
    re-exchange leaves it as it is; Three Card's ante bonus paid whenever the box plays has its own exact figure."""
    await service.handle(PLACE, ANN, f"/game {game}")
    assert (await service.handle(PLACE, ANN, f"/set {option}")).error is None
    answer = await service.handle(PLACE, ANN, "/odds")
    assert answer.error is None and f"ANTE: {edge}" in answer.private["ann"][0].splitlines()
    if game == "three-card":
        reports = house_edges.precomputed(game, ThreeCardRules(ante_bonus_always=True))
        assert reports is not None and reports[1] == engine_odds.three_card_ante(ThreeCardRules(ante_bonus_always=True))


@asynccontextmanager
async def restarted_with_the_hand_voided(store: Store, clock: FakeClock) -> AsyncIterator[tuple[Service, str]]:
    """The hand in play at PLACE saved unreadable, and the bot restarted on the same database (so the hand is
    voided): the restarted service, and what it said in public as it started."""
    await corrupt_saved_hand(store, PLACE, clock.now())
    await store.close()
    reopened = await Store.open(store.location)
    try:
        restarted = Service(reopened, clock, rng=random.Random(4))
        heard = listen(restarted)
        await restarted.start()
        await asyncio.sleep(0.1)
        yield restarted, "\n".join(message for reply in heard for message in reply.public)
    finally:
        await reopened.close()


async def test_a_computer_player_removed_in_a_hand_that_is_voided_leaves_with_his_chips(
        store: Store, clock: FakeClock) -> None:
    """`/addbot remove` in a hand: "leaves after this hand". A restart that cannot resume the hand voids it; the
    bot then stands up with his chips (back to the house) rather than being dealt the next hand."""
    service = await started_service(store, clock, seed=3)
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot remove Robo")).public == ["🤖 Robo leaves after this hand."]
    async with restarted_with_the_hand_voided(store, clock) as (restarted, said):
        assert said == ("Hand #1 could not be resumed after a restart: it is void and every chip went back to whoever "
                        "put it in.\n🤖 Robo leaves the table with 400 chips.")
        assert await balance(restarted, HOUSE) == 0
        dealt = await restarted.handle(PLACE, ANN, "/deal")
        assert dealt.error is None and dealt.table is not None and dealt.table.text == (
            "Hold'em — hand #2 · blinds 10/20 · home-limit\nBoard: — · Pot: 30\n  Ann · 380 bet 20\n▶ Bob · 390 Ⓓ bet "
            "10\n\nHand #2: button Bob, blinds 10/20. Cards are dealt — press “My cards” to see yours.\nBob posts the "
            "small blind 10.\nAnn posts the big blind 20.\n▶ Bob to act: 10 to call (⏱ 60\xa0s).")  # no Robo
        await ledger_ok(restarted)


async def test_the_last_human_leaving_stands_the_computer_players_up_and_frees_the_table(
        store: Store, clock: FakeClock) -> None:
    """Computer players never play alone: when the last human leaves, they stand up too, their chips back to the
    house in one line (in the chat's language), and the table is free for another game."""
    service = await started_service(store, clock, seed=3)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    assert await balance(service, HOUSE) == -800
    left = await service.handle(PLACE, ANN, "/leave")
    assert left.error is None
    assert left.public == ["Ann leaves the table with 200 chips.",
                           "Nobody is left to play with 🤖 Robo, 🤖 Chip: the computer players stand up and 800 chips "
                           "go back to the house."]
    assert await balance(service, HOUSE) == 0
    stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
    assert not any(stacks.values())
    await ledger_ok(service)
    assert (await service.handle(PLACE, ANN, "/game texas")).error is None  # nothing keeps the table busy
    # in Russian, once more, at a table of its own
    other = PLACE.__class__(PLACE.chat_id, "chat/russian")
    assert (await service.handle(other, ANN, "/lang ru")).error is None
    assert (await service.handle(other, ANN, "/join 200")).error is None
    assert (await service.handle(other, ANN, "/addbot Nuts")).error is None
    left = await service.handle(other, ANN, "/leave")
    assert left.public[-1] == ("Играть больше не с кем: компьютерный игрок 🤖 Nuts встаёт из-за стола, казино "
                               "возвращается 400 фишек.")
    assert await balance(service, HOUSE) == 0
    await ledger_ok(service)


async def test_computer_players_stand_up_after_the_hand_the_last_human_leaves(store: Store, clock: FakeClock) -> None:
    """A `/leave` said in a hand takes effect when it ends; the computer players go with it."""
    service, heard, start = await ann_and_deuce_dealt(store, clock)
    assert (await service.handle(PLACE, ANN, "/leave")).error is None
    replies = await play_hand(service, clock, heard, start)
    said = [message for reply in [*replies, *heard] for message in reply.public]
    assert said[-2:] == ["Ann leaves the table with 260 chips.", "Nobody is left to play with 🤖 Deuce: the computer "
                         "player stands up and 340 chips go back to the house."], said
    state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    assert state[1]["seats"] == []
    assert await balance(service, HOUSE) + await balance(service, f"wallet:{PLACE.chat_id}:ann") == 1000
    await ledger_ok(service)


async def test_computer_players_stand_up_when_the_last_human_is_away_too_long(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=3)
    heard = listen(service)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/away")).error is None
    clock.advance(30 * 60 + 1)
    await service.scheduler.fire_due()
    assert [reply.public for reply in heard] == [[
        "Ann has been away for 30 minutes and gives up the seat.", "Ann leaves the table with 200 chips.",
        "Nobody is left to play with 🤖 Robo: the computer player stands up and 400 chips go back to the house."]]
    assert await balance(service, HOUSE) == 0
    await ledger_ok(service)
    assert (await service.handle(PLACE, ANN, "/game texas")).error is None


async def test_computer_players_stand_up_when_a_voided_hand_lets_the_last_human_go(
        store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=3)
    assert (await service.handle(PLACE, ANN, "/join 400")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    assert (await service.handle(PLACE, ANN, "/leave")).error is None
    async with restarted_with_the_hand_voided(store, clock) as (restarted, said):
        assert said == ("Hand #1 could not be resumed after a restart: it is void and every chip went back to whoever "
                        "put it in.\nAnn leaves the table with 400 chips.\nNobody is left to play with 🤖 Robo: the "
                        "computer player stands up and 400 chips go back to the house.")
        assert await balance(restarted, HOUSE) == 0
        await ledger_ok(restarted)
        assert (await restarted.handle(PLACE, ANN, "/game texas")).error is None


async def restarted(store: Store, clock: FakeClock) -> tuple[Store, Service, list[Reply]]:
    """The bot restarted on `store`'s database: the reopened store, the started service and what it says unasked."""
    await store.close()
    reopened = await Store.open(store.location)
    service = Service(reopened, clock, rng=random.Random(4))
    heard = listen(service)
    await service.start()
    await asyncio.sleep(0.1)
    return reopened, service, heard


async def leave_as_an_older_version(store: Store, clock: FakeClock, human: str) -> None:
    """Stand `human` up as a version before `stand_up_alone` did (or a crash between his leaving and the computer
    players' standing up would): his stack (as the hand in play holds it, if any) back to his wallet, his seat taken
    away, and the computer players left seated."""

    def leave(tx: Tx) -> None:
        loaded = resumed_table(store, tx, PLACE.table_id)
        assert loaded is not None
        config, state = loaded
        [seat] = [seat for seat in state["seats"] if seat["id"] == human]
        chips = Hand.from_dict(state["hand"]).stacks[human] if state.get("hand") else seat["stack"]
        tx.move(PLACE.chat_id, f"stack:{PLACE.table_id}:{human}", f"wallet:{PLACE.chat_id}:{human}", chips,
                "cash-out", table_id=PLACE.table_id)
        state["seats"].remove(seat)
        tx.save_table(PLACE.table_id, PLACE.chat_id, config, state)

    await store.transact(leave, now=clock.now())


async def test_computer_players_left_alone_by_an_older_version_stand_up_at_start_up(
        store: Store, clock: FakeClock) -> None:
    """A table an older version left with only computer players seated and no hand: the next start stands them up,
    their chips back to the house in one line, once (a second restart moves nothing), and the table is free."""
    service = await started_service(store, clock, seed=3)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    await leave_as_an_older_version(store, clock, "ann")
    store, restarted_service, heard = await restarted(store, clock)
    try:
        said = "\n".join(message for reply in heard for message in reply.public)
        assert said == ("Nobody is left to play with 🤖 Robo, 🤖 Chip: the computer players stand up and 800 chips go "
                        "back to the house.")
        assert await balance(restarted_service, HOUSE) == 0
        await ledger_ok(restarted_service)
    finally:
        await store.close()
    store, again, heard = await restarted(store, clock)
    try:
        assert not any(reply.public for reply in heard)
        assert await balance(again, HOUSE) == 0
        state = await again.store.read(lambda tx: again.stored_table(tx, PLACE.table_id))
        assert state is not None and state[1]["seats"] == []
        assert (await again.handle(PLACE, ANN, "/game texas")).error is None
        await ledger_ok(again)
    finally:
        await store.close()


async def test_computer_players_left_alone_in_a_hand_play_it_out_after_a_restart_then_stand_up(
        store: Store, clock: FakeClock) -> None:
    """Left alone in a hand (the human gone, by an older version or a crash): the restart stands nobody up at once;
    the hand is played out on the timers, then the computer players stand up, every chip back where it came from."""
    service = await started_service(store, clock, seed=3)
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    await leave_as_an_older_version(store, clock, "ann")
    store, restarted_service, heard = await restarted(store, clock)
    try:
        assert heard == []
        for _ in range(50):
            state = await restarted_service.store.read(lambda tx: restarted_service.stored_table(tx, PLACE.table_id))
            if state is None or not state[1].get("hand"):
                break
            clock.advance(200)
            await restarted_service.scheduler.fire_due()
        said = [reply for reply in heard if reply.public]  # the reply that ends the hand, and it alone
        assert [reply.public for reply in said] == [["Nobody is left to play with 🤖 Robo, 🤖 Chip: the computer "
                                                     "players stand up and 800 chips go back to the house."]]
        assert said[0].table is not None and said[0].table.text.splitlines()[-1] == "The hand is over."
        assert state is not None and state[1]["seats"] == []
        assert await balance(restarted_service, HOUSE) + await balance(
            restarted_service, f"wallet:{PLACE.chat_id}:ann") == 1000
        await ledger_ok(restarted_service)
    finally:
        await store.close()


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "Computer players never play alone: at least one person must be dealt in."),
    ("ru", "Компьютерные игроки не играют одни: в раздаче должен быть хотя бы один человек."),
])
async def test_deal_with_only_computer_players_dealt_in_says_a_person_is_needed(
        service: Service, language: str, reason: str) -> None:
    """Ann away and two computer players with chips: `/deal` is refused for the reason it is (no person would be dealt
    in), not as if fewer than two players sat with chips; nothing is dealt."""
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    assert (await service.handle(PLACE, ANN, "/join 200")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot")).error is None
    assert (await service.handle(PLACE, ANN, "/addbot Chip")).error is None
    assert (await service.handle(PLACE, ANN, "/away")).error is None
    assert (await service.handle(PLACE, ANN, "/deal")).error == reason
    state = await service.store.read(lambda tx: service.stored_table(tx, PLACE.table_id))
    assert state is not None and not state[1].get("hand")
    assert (await service.handle(PLACE, BOB, "/join 200")).error is None  # a person dealt in: it deals
    assert (await service.handle(PLACE, BOB, "/deal")).error is None
