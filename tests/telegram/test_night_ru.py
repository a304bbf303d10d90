"""A tournament night in a Russian-speaking group through Telegram, read as its players read it."""

from __future__ import annotations

import re

import pytest

from tests.bot.helpers import at
from tests.telegram.conftest import WHOLE_HANDS, Running, private_chat
from tests.telegram.russian_night import IVAN, OLGA, PETROV, PLAYERS, SASHA, SASHA_TOO, play_hand, play_until, said


async def heads_up_to_the_end(bot: Running) -> list[str]:
    """Ivan and Olga play a no-limit tournament without options all-in until one wins; the group's results."""
    bot.clock.current = at(18, 0)
    await bot.command(IVAN, "/tournament create home-night")
    for user in (IVAN, OLGA):
        await bot.command(user, "/join")
    await bot.command(IVAN, "/set structure no-limit")
    await bot.command(IVAN, "/tournament start")
    await play_until(bot, at(18, 30), {IVAN["id"], OLGA["id"]}, step=5)
    results = [text for text in said(bot) if text.startswith("🏆 Турнир окончен. Победитель: ")]
    assert len(results) == 1
    return results[0].split("\n")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_clock_of_a_tournament_that_just_ended_says_it_is_over(make_bot, api) -> None:
    """Won by its last player, a tournament's /clock and /tournament status answered "there is no tournament at this
    table: the organizer creates one", a minute after the group saw its winner: they say it is over and where its
    results are, as its table message does."""
    bot = await make_bot("holdem", seed=5)
    await bot.command(OLGA, "/start", private_chat(OLGA))
    await heads_up_to_the_end(bot)

    over = "Турнир окончен: /tournament close покажет места и кто кому платит."
    await bot.command(OLGA, "/clock")
    assert bot.group()[-1].text == over
    await bot.command(OLGA, "/tournament status")
    assert api.chat(OLGA["id"])[-1].text == over  # (a status is told privately)
    assert bot.group()[-1].text == over


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_break_says_add_ons_are_on_sale_and_how(make_bot, api) -> None:
    """At the first break of a tournament with an add-on, the group read "⏸ Break until 20:00." and nothing about the
    add-ons, sold only now (the table's Add-on button showed, unexplained): the break's announcement and the clock
    say until when and how, as long as somebody may still buy one."""
    bot = await make_bot("holdem", seed=5)
    bot.clock.current = at(18, 58)
    await bot.command(IVAN, "/tournament create home-night аддон 1")
    for user in (IVAN, OLGA, PETROV):
        await bot.command(user, "/join")
    await bot.command(IVAN, "/tournament start")
    await play_hand(bot, set())
    await bot.fire_timers_at(at(18, 59))
    await play_hand(bot, set())
    await bot.fire_timers_at(at(19, 0, 1))
    await play_hand(bot, set())
    assert "⏸ Перерыв до 20:00.\n🛒 Аддоны продаются до 20:00: /addon или кнопка «Аддон»." in said(bot)

    await bot.command(OLGA, "/clock")
    assert bot.group()[-1].text == ("⏸ Перерыв до 20:00 (осталось 1\xa0ч\xa000\xa0мин).\n"
                                    "В игре 3 игрока, 3 входа в турнир; 0 аддонов; внесено: 150.\n"
                                    "🛒 Аддоны продаются до 20:00: /addon или кнопка «Аддон».\n"
                                    "Опции: 1 аддон на игрока на перерыве.")
    for user in (IVAN, OLGA, PETROV):
        await bot.command(user, "/addon")
    await bot.command(OLGA, "/clock")
    assert bot.group()[-1].text == ("⏸ Перерыв до 20:00 (осталось 1\xa0ч\xa000\xa0мин).\n"
                                    "В игре 3 игрока, 3 входа в турнир; 3 аддона; внесено: 300.\n"  # none left to buy
                                    "Опции: 1 аддон на игрока на перерыве.")


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_the_settlement_reads_the_same_whoever_the_player_is(make_bot, api) -> None:
    """The Russian settlement said of each player "внёс 50, получил 0, выкупил вещей на 0": verbs in the masculine,
    wrong for Olga, where every other line of the tournament avoids gender ("делает ребай", "выбывает"). It now
    says what was paid in and cashed out without a verb of his or hers."""
    bot = await make_bot("holdem", seed=5)
    results = await heads_up_to_the_end(bot)
    winner = results[0].removeprefix("🏆 Турнир окончен. Победитель: ").removesuffix("!")
    loser = {"ivan": "olga", "olga": "ivan"}[winner]
    assert results[1:] == [f"Места: 1. {winner} · 2. {loser}"]
    settlement = next(text for text in said(bot) if text.startswith("Расчёт (в деньгах):"))
    lines = settlement.split("\n")
    assert sorted(lines[1:3]) == sorted([  # 300 chips for 50 each; the winner cashes out all 600 chips
        f"{winner}: внесено 50, получено 100, итог +50",
        f"{loser}: внесено 50, получено 0, итог −50"])  # nothing cashed out: 0, as on every row; no item: none said
    assert lines[3:] == ["Кто кому платит:", f"{loser} → {winner}: 50"]


@pytest.mark.telegram_time_scale(WHOLE_HANDS)
async def test_a_whole_tournament_night_in_a_russian_group(make_bot, api) -> None:
    """Five players (a two-word name, two Сашаs) play a night with a rebuy and an add-on: busts and rebuys, a pawn,
    the break's add-ons, the winner; then the clock, /stats, /history, /export and the results again."""
    bot = await make_bot("holdem", seed=5)
    for user in PLAYERS:
        await bot.command(user, "/start", private_chat(user))
    bot.clock.current = at(18, 30)
    await bot.command(IVAN, "/tournament create home-night ребаи 1 аддон 1")
    for user in PLAYERS:
        await bot.command(user, "/join")
    await bot.command(IVAN, "/set structure no-limit")
    bot.clock.current = at(18, 50)
    await bot.command(IVAN, "/tournament start")
    everyone = {user["id"] for user in PLAYERS}
    pawns = {OLGA["id"]: "пиджак", PETROV["id"]: "пиджак"}
    await play_hand(bot, everyone - {OLGA["id"]}, pawns)
    await play_until(bot, at(18, 58), {SASHA["id"], SASHA_TOO["id"]}, step=60, pawns=pawns)
    for user in PLAYERS:
        await bot.command(user, "/rebuy")
    await bot.fire_timers_at(at(18, 59))
    await play_hand(bot, set())
    await bot.fire_timers_at(at(19, 0, 1))
    await play_hand(bot, set())
    for user in PLAYERS:
        await bot.command(user, "/addon")
    for moment in (at(19, 55), at(19, 59), at(20, 0, 1)):
        await bot.fire_timers_at(moment)
    await play_until(bot, at(21, 0), everyone, step=30)
    await bot.command(OLGA, "/tournament status")
    await bot.command(OLGA, "/stats")
    await bot.command(OLGA, "/history")
    await bot.command(IVAN, "/export tournament")
    await bot.command(IVAN, "/tournament close")
    group = said(bot)
    assert "⏸ Перерыв до 20:00.\n🛒 Аддоны продаются до 20:00: /addon или кнопка «Аддон»." in group
    assert [text for text in group if "аддон:" in text] == [
        f"{name} берёт аддон: 300 фишек за 50." for name in ("ivan", "Пётр Петров", "olga", "Саша", "Саша (2)")]
    assert "Вещь записана: olga закладывает «пиджак» за 100 фишек (выкуп — 16,67)." in group
    lines = [line for text in group for line in text.split("\n")]
    assert "olga выкупает «пиджак» за 16,67." in lines
    for_now = [line for line in lines if " выбывает, но " in line]  # before the 19:00 break: a rebuy may follow
    assert for_now and all(re.fullmatch(r".+ выбывает, но пока не окончательно: вернуться можно командой /rebuy до "
                                        r"19:00\.", line) for line in for_now), for_now
    busts = [line for line in lines if " выбывает на " in line]
    assert busts and all(re.fullmatch(r".+ выбывает на [2-5]-м месте\.", line) for line in busts), busts
    assert "ivan, Пётр Петров и Саша делят 3–5-е места." in lines, "out in one hand on equal stacks: said once"
    results = [text for text in group if text.startswith("🏆 Турнир окончен.")]
    assert len(results) == 2, "the end, then /tournament close again"
    assert results[0].split("\n")[1] == "Места: 1. olga · 2. Саша (2) · 3–5. ivan, Пётр Петров, Саша"
    settlement = next(text for text in group if text.startswith("Расчёт (в деньгах):")).split("\n")
    # 4,000 chips in play (5 buy-ins, 3 rebuys, 5 add-ons, a pawn's 100): the winner's 666,67 less her 100 and the
    # jacket's 16,67
    assert "olga: внесено 100, получено 666,67, выкуп вещей 16,67, итог +550 (1 аддон)" in settlement
    assert settlement[-4:] == ["ivan → olga: 150", "Пётр Петров → olga: 150", "Саша → olga: 150",
                               "Саша (2) → olga: 100"]
    told = api.chat(OLGA["id"])
    assert "Турнир окончен: /tournament close покажет места и кто кому платит." in [sent.text for sent in told]
    assert told[-1].text.startswith("PokerStars Hand #")  # /history, privately
    assert ("Турнир №1: участники — в файле tournament-1.csv, переводы по расчёту — в файле "
            "tournament-1-transfers.csv.") in [sent.text for sent in api.chat(IVAN["id"])]
    assert [name for chat, name, _ in api.documents if chat == IVAN["id"]] == [
        "tournament-1.csv", "tournament-1-transfers.csv"]
    assert await bot.store.read(lambda tx: tx.check_ledger()) == []
