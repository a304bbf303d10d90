"""Whole games in a Russian chat leave no English behind: a Hold'em hand, a tournament night from its schedule to its
settlement, and a round of each house game, every public, private and refusal text scanned for Latin words."""

from __future__ import annotations

import re

import pytest

from bot.clock import FakeClock
from bot.i18n import catalogue
from bot.output import Reply
from bot.service import Service
from bot.store import Store
from engine.house import GAMES
from engine.schedule import PRESETS, parse_schedule
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import SIX_PM, all_text, at, listen, play_out, press_label, started_service

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
NAMES = {"Ann", "Bob", "Cat"}
ALLOWED = {"box", "pp", "bonus", "level", "PokerStars", "VPIP", "PFR", "LITE", "RESPECT", "VIP"}
"""Latin words a Russian player reads too: words typed as they are in commands (`/ante 10 box 2 pp 5`, `/set level
20`), the name of the hand-history format, the statistics' names that Russian poker writing keeps as they are
(VPIP, PFR), and Three Card Poker's limit tiers, named as RULES.md §5 and the casino write them."""

HOME_NIGHT = "10/20 до 19:00; перерыв до 20:00; 50/100"
"""The `home-night` preset's schedule as a Russian chat reads it."""
REGISTER_RU = ("Бай-ин 50 за 300 фишек; регистрация — /join; организатор запускает турнир командой /tournament "
               "start.")
"""The end of a new tournament's announcement in Russian: the buy-in and how to register and start."""

_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[♠♥♦♣]|\b[2-9TJQKA][shdc]\b")
_COMMAND = re.compile(r"/\w+(?:\s+(?:create|register|start|pause|resume|skip|minutes|cashout|redeem|close|remove|"
                      r"hands|tournament)\b)*")


def english_left(message: str, names: set[str]) -> list[str]:
    """Latin-letter words in a message other than player names, cards, commands (with their sub-commands) and the
    allowed words."""
    bare = _COMMAND.sub("", _CARD.sub("", message))
    words = re.findall(r"[A-Za-z][A-Za-z'’_.-]*", bare)
    return [word for word in words if word.strip(".") not in names | ALLOWED]


def assert_russian(replies: list[Reply], names: set[str] = NAMES) -> str:
    """Fail on any English word; return all the text, for further checks."""
    messages = all_text(replies)
    for message in messages:
        assert english_left(message, names) == [], message
    return "\n".join(messages)


def test_the_scan_finds_english() -> None:
    assert english_left("Ann: колл 20 · A♠ K♦", NAMES) == []
    assert english_left("Break until 20:00", NAMES) == ["Break", "until"]
    assert english_left("Расписание: 10/20 until 19:00", NAMES) == ["until"]
    assert english_left("командой /tournament start", NAMES) == []


@pytest.mark.parametrize(("game", "name"), [("omaha", "Омаха пот-лимит"), ("texas", "Покер «Техас»")])
async def test_the_game_is_named_in_a_form_that_fits_the_sentence(service: Service, game: str, name: str) -> None:
    """`/game` and a command of another game name the table's game where its name reads as it is: not "играют в
    Омаха пот-лимит" (it declines: в Омаху) nor quotes inside quotes ("в игре «Покер «Техас»»")."""
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, f"/game {game}")
    told = (await service.handle(PLACE, ANN, "/game")).private
    assert told == {ANN.user_id: [f"Игра за этим столом: {name}. Игры: holdem, omaha, texas, russian, caribbean, "
                                  "three-card."]}
    wrong = "/play" if game == "omaha" else "/raise"
    assert (await service.handle(PLACE, ANN, wrong)).error == f"{wrong} не используется в этой игре: {name}."


async def test_a_holdem_hand_and_the_players_questions(service: Service) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    replies = [await service.handle(PLACE, actor, "/join") for actor in (ANN, BOB, CAT)]
    start = await service.handle(PLACE, ANN, "/deal")
    replies.append(await service.handle(PLACE, PLAYERS[start.table.to_act], "/odds"))
    replies += await play_out(service, PLACE, PLAYERS, start, preference=("call", "check"))
    for command in ("/balance", "/top", "/stats", "/leave", "/raise 10", "/set level 3"):
        replies.append(await service.handle(PLACE, ANN, command))
    shown = assert_russian(replies)
    assert "шансы" in shown and "Вскрытие" in shown


async def test_a_tournament_night_in_russian(store: Store) -> None:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    heard = listen(service)
    await service.handle(PLACE, ANN, "/lang ru")
    replies = [await service.handle(PLACE, ANN, "/tournament create home-night")]
    assert replies[0].public == [f"Турнир №1 создан. Расписание (UTC): {HOME_NIGHT}. {REGISTER_RU}"]
    replies.append(await service.handle(PLACE, CAT, "/tournament create 10/20 20x"))  # a refused schedule
    replies += [await service.handle(PLACE, actor, "/join") for actor in (ANN, BOB, CAT)]
    assert [reply.public for reply in replies[-3:]] == [["Ann в турнире: 300 фишек за 50 (всего 1 игрок)."],
                                                        ["Bob в турнире: 300 фишек за 50 (всего 2 игрока)."],
                                                        ["Cat в турнире: 300 фишек за 50 (всего 3 игрока)."]]
    started = await service.handle(PLACE, ANN, "/tournament start")
    replies += await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    for command in ("/clock", "/tournament status", "/tournament redeem"):
        replies.append(await service.handle(PLACE, ANN, command))
    for hour, minute in ((18, 55), (18, 59), (19, 0), (19, 55), (19, 59), (20, 0)):  # each when its timer fires
        clock.current = at(hour, minute, 1)
        await service.scheduler.fire_due()
        if heard[-1].table is not None:  # the clock may have dealt the next hand: play it out
            replies += await play_out(service, PLACE, PLAYERS, heard[-1], preference=("fold", "check"))
    assert any("⏱ Перерыв через 5 минут." in reply.public for reply in heard)
    assert any("⏸ Перерыв до 20:00." in reply.public for reply in heard)
    replies.append(await service.handle(PLACE, CAT, "/cashout"))
    replies.append(await service.handle(PLACE, ANN, "/tournament pause"))
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    replies += await play_out(service, PLACE, PLAYERS, resumed, preference=("fold", "check"))
    replies.append(await service.handle(PLACE, ANN, "/tournament close"))
    assert all(reply.error is None for reply in replies[-5:]), [reply.error for reply in replies[-5:]]
    shown = assert_russian(replies + heard, NAMES | {"UTC"})
    assert "Кто кому платит" in shown or "Никто никому" in shown
    assert "Расчёт (в деньгах)" in shown


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_house_round_in_russian(service: Service, game: str) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    replies = [await service.handle(PLACE, ANN, f"/game {game}")]
    side = {"three-card": " pp 5", "caribbean": " bonus 10"}.get(game, "")
    replies += [await service.handle(PLACE, actor, f"/ante 10{side}") for actor in (ANN, BOB, CAT)]
    replies.append(await service.handle(PLACE, ANN, "/ante 10 box 9"))  # refused
    table = await service.handle(PLACE, ANN, "/table")
    dealt = await service.press(PLACE, CAT, press_label(table, "deal"))
    replies += [table, dealt, await service.handle(PLACE, ANN, "/cards")]
    choices = ("exchange", "buy", "play", "bet", "decline", "fold")  # the Russian-poker draws first, to hear them
    replies += await play_out(service, PLACE, PLAYERS, dealt, preference=choices)
    shown = assert_russian(replies)
    assert "Раунд окончен" in shown


async def test_three_card_pokers_side_bet_is_named_in_russian(service: Service) -> None:
    """Russian texts named Three Card Poker's side bet "PAIRPLUS" in Latin letters, the name of a field on the
    casino's table that the Russian seed writes as it is, with no Russian name of its own: it is «Пара плюс» in
    every Russian text, the name of the Discord option too (its refusals: tests/bot/test_house_wallet.py)."""
    assert [key for key, said in catalogue("ru").items() if "pairplus" in said.lower()] == []
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/game three-card")
    assert (await service.handle(PLACE, ANN, "/ante 10 pp 5")).error is None
    table = await service.handle(PLACE, ANN, "/table")
    assert table.table is not None and table.table.text.splitlines()[2:] == [
        "  Ann · бокс 1 · АНТЕ 10 · «Пара плюс» 5 · ждёт", "", "Ann ставит на бокс 1: АНТЕ 10, «Пара плюс» 5."]


@pytest.mark.parametrize(("language", "written", "shown"), [
    ("ru", "10/20 20m; 20/40 1h30m; break 10m; 40/80",
     "10/20 20\xa0мин; 20/40 1\xa0ч\xa030\xa0мин; перерыв 10\xa0мин; 40/80"),  # no-break spaces: it reads back
    ("en", "10/20 20m; 20/40 1h30m; break 10m; 40/80", "10/20 20m; 20/40 1h30m; break 10m; 40/80"),
    ("ru", "home-night", HOME_NIGHT),
])
async def test_the_schedule_is_told_in_the_chats_language_and_reads_back(service: Service, language: str,
                                                                         written: str, shown: str) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    created = await service.handle(PLACE, ANN, f"/tournament create {written}")
    assert created.error is None, created.error
    assert created.public == [f"Турнир №1 создан. Расписание (UTC): {shown}. {REGISTER_RU}" if language == "ru" else
                              f"Tournament #1 created. Schedule (UTC): {shown}. Buy-in 50 for 300 chips: /join to "
                              "register; the organizer starts it with /tournament start."]
    expected = PRESETS[written]("UTC") if written in PRESETS else parse_schedule(written, "UTC")
    assert parse_schedule(shown, "UTC") == expected, "the organizer can copy the line into a new /tournament create"


@pytest.mark.parametrize(("written", "reason"), [
    ("10/20 20x; 20/40", "уровень 1 «10/\u206020 20x»: нужна длительность вроде 20 мин или 1 ч 30 мин либо «до 19:00», "
                         "а не «20x»"),
    ("10/30 20m; 20/40", "уровень 1 «10/\u206030 20m»: в «10/\u206030» второе число (большая ставка) должно быть вдвое "
                         "больше первого"),
    ("break 10m; 10/20 until 25:00; 20/40", "уровень 2 «10/\u206020 until 25:00»: «25:00» — не время суток (от 00:00 "
                                            "до 23:59)"),
    ("10/20 20m; break", "расписание кончается перерывом, а последний уровень должен быть игровым"),
    ("10/20 until 20:00; break until 19:00; 50/100", "время конца 19:00 раньше предыдущего (20:00)"),
    ("10/20 200h; 20/40", "уровень 1 «10/\u206020 200h»: уровень длится не больше 7 дней"),
    ("10/20; 20/40", "уровню 1 нужна длительность (20 мин) или время конца (до 19:00): за ним идёт следующий"),
])
async def test_a_refused_schedule_says_why_in_russian(service: Service, written: str, reason: str) -> None:
    await service.handle(PLACE, ANN, "/lang ru")
    refused = await service.handle(PLACE, ANN, f"/tournament create {written}")
    assert refused.error == f"Не могу разобрать расписание: {reason}."
    assert english_left(re.sub(r"«[^»]*»", "", reason), NAMES) == [], "only the quoted input may be Latin"


async def test_boxes_not_dealt_yet_say_their_cards_are_not_dealt(service: Service) -> None:
    """Before the deal, a player's boxes read «бокс 1: карты ещё не сданы»: «ещё не сдано» agreed with nothing in
    the line (a box is «он», its cards «они»)."""
    await service.handle(PLACE, ANN, "/lang ru")
    await service.handle(PLACE, ANN, "/game russian")
    for line in ("/ante 10", "/ante 10 box 2"):
        assert (await service.handle(PLACE, ANN, line)).error is None
    assert (await service.handle(PLACE, ANN, "/cards")).private == {
        ANN.user_id: ["Ваши боксы:\nбокс 1: карты ещё не сданы\nбокс 2: карты ещё не сданы"]}
