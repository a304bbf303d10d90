"""Seasons (RULES.md §1d) through the service: standings by money over the season's tournaments, ties by tournaments
played, points beside them (entries − place + 1, or 1 for a cash-out), worked out by hand from short tournaments of
one hand each (the first to act folds, and so on, so the big blind takes the small blind's 5 chips at limits 10/20:
at 6 chips a unit, +5/6 and −5/6, which the settlement rounds to +0.83 and −0.83)."""

from __future__ import annotations

import pytest

from bot.clock import FakeClock
from bot.output import Actor, SeasonRow
from bot.service import Service
from bot.store import Store
from bot.store.clock_pages import clock_page_token, season_standings
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE
from tests.bot.helpers import SIX_PM, ledger_ok, started_service

ACTORS = {actor.user_id: actor for actor in (ANN, BOB, CAT, DAN)}


@pytest.fixture
async def night(store: Store) -> tuple[Service, FakeClock]:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    return service, clock


async def ok(service: Service, actor: Actor, text: str) -> list[str]:
    reply = await service.handle(PLACE, actor, text)
    assert reply.error is None, (text, reply.error)
    return reply.public


async def tournament(service: Service, players: list[Actor], folds: list[str], cash_out: Actor | None = None) -> None:
    """A tournament of one hand: `players` register in order, `folds` fold in turn (the big blind wins), then
    `cash_out` cashes out, if anyone, and the organizer closes it (the others are placed by their stacks)."""
    await ok(service, ANN, "/tournament create home-night")
    for actor in players:
        await ok(service, actor, "/join")
    reply = await service.handle(PLACE, ANN, "/tournament start")
    for player in folds:
        assert reply.table is not None and reply.table.to_act == player, reply.table
        reply = await service.handle(PLACE, ACTORS[player], "/fold")
        assert reply.error is None, reply.error
    assert reply.table is not None and reply.table.to_act is None
    if cash_out is not None:
        await ok(service, cash_out, "/cashout")
    await ok(service, ANN, "/tournament close")


async def test_season_standings_and_points_over_settled_tournaments(night: tuple[Service, FakeClock]) -> None:
    service, clock = night
    # before the season: Cat takes Bob's small blind (not counted in the season)
    await tournament(service, [ANN, BOB, CAT], ["ann", "bob"])
    clock.step(60)
    assert await ok(service, ANN, "/season start Autumn cup") == [
        "Season “Autumn cup” has begun: every tournament created from now on counts in its standings (/season)."]
    assert await ok(service, BOB, "/season") == [
        "Season “Autumn cup”, standings after 0 tournaments:\nno tournament of the season has finished yet"]
    # 1. Cat +0.83 (1st of 3: 3 points), Ann 0 (2nd: 2), Bob −0.83 (3rd: 1)
    await tournament(service, [ANN, BOB, CAT], ["ann", "bob"])
    # 2. Cat wins the blind and cashes out (+0.83, 1 point); Ann 300 chips 1st (3), Bob 295 2nd (2)
    await tournament(service, [ANN, BOB, CAT], ["ann", "bob"], cash_out=CAT)
    # 3. four entries: Cat 1st (4 points), Ann and Dan share 2nd at 300 chips (3 each), Bob 4th (1)
    await tournament(service, [ANN, BOB, CAT, DAN], ["dan", "ann", "bob"])
    await ledger_ok(service)
    standings = [
        "1. Cat — +2.49 · 3 tournaments · 8 points",
        "2. Ann — 0 · 3 tournaments · 8 points",  # level with Dan on money: more tournaments played
        "3. Dan — 0 · 1 tournament · 3 points",
        "4. Bob — −2.49 · 3 tournaments · 4 points",
    ]
    assert await ok(service, BOB, "/season") == [
        "Season “Autumn cup”, standings after 3 tournaments:\n" + "\n".join(standings)]
    rows = await service.store.read(lambda tx: season_standings(tx, PLACE.chat_id))
    assert rows == [SeasonRow("Cat", "+2.49 · 8 pts"), SeasonRow("Ann", "0 · 8 pts"), SeasonRow("Dan", "0 · 3 pts"),
                    SeasonRow("Bob", "−2.49 · 4 pts")]
    # /stats counts every tournament (the one before the season too) with its place or cash-out and the money
    cat = (await ok(service, BOB, "/stats Cat"))[0].splitlines()[-1]
    assert cat == "Tournaments: 4 (places: 1st, 1st, cashed out, 1st; wins: 3) · money +3.32"
    bob = (await ok(service, CAT, "/stats Bob"))[0].splitlines()[-1]  # places were bare numbers: "3, 3, 2, 4"
    assert bob == "Tournaments: 4 (places: 3rd, 3rd, 2nd, 4th; wins: 0) · money −3.32"

    assert (await service.handle(PLACE, BOB, "/season end")).error == "Only the organizer — Ann — can do that."
    assert await ok(service, ANN, "/season end") == [
        "Season “Autumn cup” is over. Final standings after 3 tournaments:\n" + "\n".join(standings)]
    assert await service.store.read(lambda tx: season_standings(tx, PLACE.chat_id)) is None
    assert await ok(service, CAT, "/season") == [
        "Season “Autumn cup” is over; final standings after 3 tournaments:\n" + "\n".join(standings)]
    # the next season, unnamed, goes by its number and counts only what comes after it
    clock.step(60)
    await ok(service, ANN, "/lang ru")
    assert await ok(service, ANN, "/season start") == [
        "Начался сезон «Сезон 2»: каждый турнир, созданный с этого момента, идёт в его таблицу (/season)."]
    await tournament(service, [ANN, BOB, CAT, DAN], ["dan", "ann", "bob"])
    assert await ok(service, BOB, "/season") == [
        "Сезон «Сезон 2», таблица после 1 турнира:\n"
        "1. Cat — +0,83 · 1 турнир · 4 очка\n2. Ann — 0 · 1 турнир · 3 очка\n2. Dan — 0 · 1 турнир · 3 очка\n"
        "4. Bob — −0,83 · 1 турнир · 1 очко"]
    token = await service.store.transact(lambda tx: clock_page_token(tx, 5), now=clock.now())
    page = await service.clock_page(token)  # what the clock page shows between levels
    assert page is not None and page.season is not None
    assert page.season[0] == SeasonRow("Cat", "+0,83 · 4 очка") and len(page.season) == 4
    bob = (await ok(service, CAT, "/stats Bob"))[0].splitlines()[-1]
    assert bob == "Турниры: 5 (места: 3-е, 3-е, 2-е, 4-е, 4-е; победы: 0) · деньги −4,15"


async def test_players_level_on_money_and_tournaments_played_share_a_rank(night: tuple[Service, FakeClock]) -> None:
    """Ann and Dan, level on money (0) and on tournaments played (1), were ranked 2 and 3, as if the season told them
    apart (the order by points and then by id only lists them). They share 2nd, and Bob, next, is 4th."""
    service, _ = night
    await ok(service, ANN, "/season start")
    await tournament(service, [ANN, BOB, CAT, DAN], ["dan", "ann", "bob"])  # Ann and Dan keep their 300 chips
    assert await ok(service, BOB, "/season") == [
        "Season “Season 1”, standings after 1 tournament:\n"
        "1. Cat — +0.83 · 1 tournament · 4 points\n"
        "2. Ann — 0 · 1 tournament · 3 points\n"
        "2. Dan — 0 · 1 tournament · 3 points\n"
        "4. Bob — −0.83 · 1 tournament · 1 point"]


async def test_season_refusals_change_nothing(night: tuple[Service, FakeClock]) -> None:
    service, _ = night
    await ok(service, ANN, "/balance")  # the chat's first player organizes it
    assert (await service.handle(PLACE, ANN, "/season")).error == (
        "This chat has had no season yet. An organizer starts one with /season start [name].")
    assert (await service.handle(PLACE, ANN, "/season end")).error == "No season is on in this chat."
    assert (await service.handle(PLACE, BOB, "/season start")).error == "Only the organizer — Ann — can do that."
    assert (await service.handle(PLACE, ANN, "/season")).error == (
        "This chat has had no season yet. An organizer starts one with /season start [name]."), "still no season"
    assert (await service.handle(PLACE, ANN, "/season start " + "x" * 61)).error == (
        "A season's name has at most 60 characters.")
    assert (await service.handle(PLACE, ANN, "/season pause")).error == "Usage: /season [start [name] | end]"
    await ok(service, ANN, "/season start")
    assert (await service.handle(PLACE, ANN, "/season start Spring")).error == (
        "Season “Season 1” is on: /season end closes it first.")
    await ok(service, ANN, "/tournament create home-night")
    assert (await service.handle(PLACE, ANN, "/season end")).error == (
        "Tournament #1 of this season is still on: close it first, so that the final standings are final.")
    assert await ok(service, BOB, "/season") == [
        "Season “Season 1”, standings after 0 tournaments:\nno tournament of the season has finished yet"]
    await ok(service, ANN, "/tournament close")  # closed before it started: nobody played it
    assert await ok(service, ANN, "/season end") == [
        "Season “Season 1” is over. Final standings after 0 tournaments:\n"
        "no tournament of the season has finished yet"]


async def test_a_season_named_with_a_command_or_a_mention_is_quoted_inert(night: tuple[Service, FakeClock]) -> None:
    """The name an organizer gave is his words: every line that quotes it has a word joiner after its `/` and `@`, so
    that no chat client makes a command of "/fold" or a mention of "@bob" in it; the bot's own "/season" stays one."""
    service, _ = night
    shown = "/\u2060fold now @\u2060bob"
    assert await ok(service, ANN, "/season start /fold now @bob") == [
        f"Season “{shown}” has begun: every tournament created from now on counts in its standings (/season)."]
    assert await ok(service, BOB, "/season") == [
        f"Season “{shown}”, standings after 0 tournaments:\nno tournament of the season has finished yet"]
    assert (await service.handle(PLACE, ANN, "/season start Spring")).error == (
        f"Season “{shown}” is on: /season end closes it first.")
    await ok(service, ANN, "/lang ru")
    assert await ok(service, ANN, "/season end") == [
        f"Сезон «{shown}» завершён. Итоговая таблица после 0 турниров:\nни один турнир сезона ещё не завершён"]


async def test_stats_of_a_player_who_only_played_tournaments_leave_out_the_cash_games(
        night: tuple[Service, FakeClock]) -> None:
    """A tournament's chips are not the cash games': /stats of players who only played a tournament said "cash games:
    net 0, biggest pot 0", and of a player who played nothing, zeros in every part. Now each part he never played is
    left out, and one line says when he played nothing."""
    service, _ = night
    await tournament(service, [ANN, BOB, CAT], ["ann", "bob"])  # Cat's big blind takes Bob's small blind
    await ok(service, DAN, "/balance")  # known to the chat, never dealt in
    assert await ok(service, BOB, "/stats Cat") == [
        "Cat: 1 hand played, 1 won\n"
        "VPIP 0% · PFR 0% · aggression factor — · went to showdown — · won at showdown —\n"
        "Tournaments: 1 (places: 1st; wins: 1) · money +0.83"]
    assert await ok(service, BOB, "/stats Dan") == ["Dan: no hands played, no tournaments."]
    assert await ok(service, BOB, "/stats Dan 30d") == ["Dan over the last 30 days: no hands played, no tournaments."]
    await ok(service, ANN, "/lang ru")
    assert await ok(service, CAT, "/stats Bob") == [
        "Bob: сыграна 1 раздача, выиграно 0\n"
        "VPIP 0\u00a0% · PFR 0\u00a0% · фактор агрессии — · доходит до вскрытия — · выигрыш на вскрытии —\n"
        "Турниры: 1 (места: 3-е; победы: 0) · деньги −0,83"]
    assert await ok(service, CAT, "/stats Dan") == ["Dan: ни сыгранных раздач, ни турниров."]
    assert await ok(service, CAT, "/stats Dan 30d") == ["Dan за последние 30 дней: ни сыгранных раздач, ни турниров."]
