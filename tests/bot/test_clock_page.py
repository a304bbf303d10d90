"""The clock page over plain HTTP: `/clock tv` and its link, the page, its live stream of views, 404 for the rest."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import sys
from datetime import UTC, datetime, timedelta

import aiohttp
import pytest

from bot.clock import FakeClock
from bot.service import Service
from bot.service.clock_pages import clock_page, tournament_record
from bot.store import Store
from bot.web.server import TICK_SECONDS, ClockPages
from bot.web.view import clock_view
from engine.schedule import parse_schedule
from engine.tournament import Tournament, TournamentConfig
from tests.bot.clock_page_helpers import AN_HOUR, LINK, SCHEDULE, Night, event_stream, tournament_night
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import play_out, press_label
from tests.loop_timers import LoopTimers

BOOT = re.compile(r'<script type="application/json" id="boot">(.*?)</script>')
"""The page's first view and words, as the page is served."""


async def test_clock_tv_without_a_web_port_says_how_to_serve_the_page(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/tournament create")).error is None
    refused = await service.handle(PLACE, ANN, "/clock tv")
    assert refused.error == ("The clock page is off. To serve it, set POKERBOT_WEB_PORT (a port) and POKERBOT_WEB_URL "
                             "(the address your TV's browser reaches, like http://192.168.1.20:8080) in the bot's .env "
                             "file, then restart the bot.")
    assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
    russian = await service.handle(PLACE, ANN, "/clock тв")
    assert russian.error == ("Страница часов выключена. Чтобы включить её, задайте в файле .env бота POKERBOT_WEB_PORT "
                             "(порт) и POKERBOT_WEB_URL (адрес, который открывается в браузере телевизора, например "
                             "http://192.168.1.20:8080) и перезапустите бота.")
    assert (await service.handle(PLACE, ANN, "/clock radio")).error == "Как писать: /clock [тв]"


async def test_clock_tv_needs_a_tournament(store: Store) -> None:
    async with tournament_night(store) as night:
        other = PLACE.__class__("chat", "chat/other")
        refused = await night.service.handle(other, ANN, "/clock tv")
        assert refused.error == "There is no tournament at this table: an organizer starts one with /tournament create."


async def test_the_link_is_unguessable_and_stays_the_same_after_a_restart(store: Store) -> None:
    async with tournament_night(store) as night:
        token = night.link.rsplit("/", 1)[1]
        assert len(token) >= 24 and night.link.startswith(night.service.settings.web_url.rstrip("/") + "/clock/")
        again = await night.service.handle(PLACE, CAT, "/clock tv")
        assert again.public == [f"📺 The clock for the TV: {night.link} — open it in any browser on this network; it "
                                "only shows the clock."]
    restarted = Service(store, FakeClock(), rng=random.Random(1))
    restarted.settings = night.service.settings
    await restarted.start()
    after = await restarted.handle(PLACE, ANN, "/clock tv")
    assert LINK.findall(after.public[0]) == [night.link]


async def test_the_page_needs_nothing_from_outside_the_bot(store: Store) -> None:
    async with tournament_night(store) as night, aiohttp.ClientSession() as session:
        async with session.get(night.link) as response:
            assert response.status == 200
            assert response.content_type == "text/html"
            html = await response.text()
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "connect-src 'self'" in policy
            assert response.headers["Referrer-Policy"] == "no-referrer"
        assert '<html lang="en">' in html and "Tournament #1" in html
        assert not re.search(r"\b(src|href)=", html), "no script, style, font or picture is loaded from anywhere"
        assert "http://" not in html and "https://" not in html


async def test_a_wrong_token_and_any_other_address_get_404(store: Store) -> None:
    async with tournament_night(store) as night, aiohttp.ClientSession() as session:
        base = night.link.rsplit("/clock/", 1)[0]
        token = night.link.rsplit("/", 1)[1]
        wrong = ("x" if token[0] != "x" else "y") + token[1:]
        for path in (f"/clock/{wrong}", f"/clock/{wrong}/events", f"/clock/{token[:-1]}", "/clock/", "/",
                     f"/clock/{token}/other", "/clock/%2e%2e", f"/clock/{token}'--"):
            async with session.get(base + path) as response:
                assert response.status == 404, path


async def test_the_stream_sends_the_clock_then_each_change_at_once(store: Store) -> None:
    """Each change is sent as the service wakes the stream after its commit (the stream would look on its own only
    in an hour)."""
    async with tournament_night(store, looks=AN_HOUR) as night:
        service, clock = night.service, night.clock
        clock.advance(7 * 60 + 30)
        async with event_stream(night.link) as stream:
            first = await stream.next()
            assert first["level"]["name"] == "Level 1" and first["level"]["limits"] == "Limits 10/20"
            assert first["level"]["blinds"] == "Blinds 5/10" and first["next"] == "20/40 (blinds 10/20)"
            assert first["remaining_ms"] == 12 * 60_000 + 30_000 and first["running"] and not first["paused"]
            said = (await service.handle(PLACE, BOB, "/clock")).public
            assert said == ["⏱ Level 1: limits 10/20 (blinds 5/10), 12m left; next: 20/40."]  # 20m less 7m30s
            assert (first["players"], first["chips"], first["average"], first["pool"]) == ("3 of 3", "900", "300",
                                                                                           "150")
            assert [entry["current"] for entry in first["schedule"]] == [True, False, False, False]

            assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
            paused = await stream.next()
            assert paused["paused"] and not paused["running"] and paused["remaining_ms"] == 750_000

            assert (await service.handle(PLACE, ANN, "/tournament resume")).error is None
            assert not (await stream.next())["paused"]
            assert (await service.handle(PLACE, ANN, "/tournament minutes +5")).error is None
            assert (await stream.next())["remaining_ms"] == 750_000 + 5 * 60_000

            assert (await service.handle(PLACE, ANN, "/tournament skip")).error is None
            skipped = await stream.next()
            assert skipped["level"]["name"] == "Level 2" and skipped["next"] == "Break"
            assert [entry["current"] for entry in skipped["schedule"]] == [False, True, False, False]


async def test_a_level_that_ends_by_the_clock_alone_shows_within_a_second(store: Store,
                                                                        loop_timers: LoopTimers) -> None:
    """Nothing wakes the stream when a level ends by the clock alone: its own look finds the break, and it looks at
    least every second: between two looks it waits one `TICK_SECONDS` (at most a second) and nothing more, neither
    a wait of its own nor one on the way to the tournament it reads (the waits asked of the event loop, which a
    loaded machine cannot stretch; the time a look takes aside)."""
    async with tournament_night(store) as night, event_stream(night.link) as stream:
        assert (await stream.next())["level"]["index"] == 0
        night.clock.advance(40 * 60 + 1)  # no timer fired: the stream's own look finds the break
        on_break = await stream.next()
        assert on_break["level"]["name"] == "Break" and on_break["until"] == "until 18:50"
        assert on_break["remaining_ms"] == 10 * 60_000 - 1000 and on_break["next"] == "40/80 (blinds 20/40)"
    looks = loop_timers.asked_by(ClockPages._views)
    assert TICK_SECONDS <= 1.0 and night.pages.tick == TICK_SECONDS
    # each wait is recorded a moment after it was set, so a hair under the tick (a look's own wait would be another)
    assert looks and looks == pytest.approx([TICK_SECONDS] * len(looks), abs=0.05), looks
    assert [seconds for reading in (ClockPages.read, Service.clock_page, clock_page, tournament_record)
            for seconds in loop_timers.asked_by(reading)] == [], "the look itself waits for nothing"


async def test_a_player_leaving_shows_at_once(store: Store) -> None:
    async with tournament_night(store, looks=AN_HOUR) as night, event_stream(night.link) as stream:
        await stream.next()
        players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
        await play_out(night.service, PLACE, players, await night.service.view(PLACE, ANN), ("fold", "check"))
        stacks = await night.service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
        assert (await night.service.handle(PLACE, CAT, "/cashout")).error is None
        left = await stream.next()
        assert left["players"] == "2 of 3" and left["chips"] == str(900 - stacks[f"stack:{PLACE.table_id}:cat"])


async def test_a_bust_out_shows_at_once(store: Store) -> None:
    async with (tournament_night(store, schedule="100/200 20m; 200/400", looks=AN_HOUR) as night,
                event_stream(night.link) as stream):
        assert (await stream.next())["players"] == "3 of 3"
        service = night.service
        players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
        wants = {"ann": ("raise", "bet", "call", "check"), "bob": ("raise", "bet", "call", "check"),
                 "cat": ("fold", "check")}  # Ann and Bob go at it with big limits against 300 chips; Cat stays out
        reply = await service.view(PLACE, ANN)
        for _ in range(200):
            if reply.table is None or reply.table.to_act is None:
                stacks = await service.store.read(lambda tx: tx.balances(f"stack:{PLACE.table_id}:"))
                if 0 in stacks.values():
                    break
                reply = await service.handle(PLACE, ANN, "/deal")
            else:
                actor = players[reply.table.to_act]
                reply = await service.press(PLACE, actor, press_label(reply, *wants[actor.user_id]))
            assert reply.error is None, reply.error
        else:
            raise AssertionError("nobody busted")
        busted = await stream.next()
        assert busted["players"] == "2 of 3" and busted["chips"] == "900" and busted["average"] == "450"


async def test_the_page_speaks_the_chats_language(store: Store) -> None:
    async with tournament_night(store) as night:
        assert (await night.service.handle(PLACE, ANN, "/lang ru")).error is None
        async with event_stream(night.link) as stream:
            view = await stream.next()
        assert view["language"] == "ru" and view["title"] == "Турнир №1"
        assert (view["level"]["name"], view["players"], view["rate"]) == ("Уровень 1", "3 из 3", "6 фишек = 1")
        async with aiohttp.ClientSession() as session, session.get(night.link) as response:
            assert '<html lang="ru">' in await response.text()


async def test_before_the_start_and_after_the_end(store: Store) -> None:
    async with tournament_night(store, start=False, looks=AN_HOUR) as night, event_stream(night.link) as stream:
        waiting = await stream.next()
        assert waiting["phase"] == "registering" and waiting["level"] is None and len(waiting["schedule"]) == 4
        assert (await night.service.handle(PLACE, ANN, "/tournament close")).error is None
        closed = await stream.next()
        assert closed["phase"] == "finished" and closed["players"] == "0 of 3"


async def test_the_terminal_table_serves_the_page(tmp_path) -> None:
    """`pokerbot` at the terminal with POKERBOT_WEB_PORT: `/clock tv` links a page that opens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "POKERBOT_WEB_PORT": str(port), "POKERBOT_WEB_HOST": "127.0.0.1",
           "POKERBOT_WEB_URL": f"http://127.0.0.1:{port}", "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "--db", str(tmp_path / "terminal.db"), cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert bot.stdin is not None and bot.stdout is not None
    try:
        bot.stdin.write(b"ann: /tournament create\nann: /join\nbob: /join\nann: /clock tv\n")
        await bot.stdin.drain()
        link = None
        while link is None:
            line = (await asyncio.wait_for(bot.stdout.readline(), 30)).decode()
            assert line, "pokerbot ended before posting the link"
            found = LINK.search(line)
            link = found.group(1) if found else None
        async with aiohttp.ClientSession() as session, session.get(link) as response:
            assert response.status == 200 and "Tournament #1" in await response.text()
        bot.stdin.write(b"/quit\n")
        await bot.stdin.drain()
        assert await asyncio.wait_for(bot.wait(), 30) == 0
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()


def test_the_view_counts_pawns_and_rebuys_and_the_pool_at_the_rate() -> None:
    tournament = Tournament(TournamentConfig(rebuys=2, addons=1), parse_schedule(SCHEDULE, "UTC"))
    for player in ("ann", "bob", "cat"):
        tournament.register(player)
    started = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    tournament.start(started)
    tournament.record_pawn("ann", "leather jacket", 100, hand_number=3)
    tournament.eliminate("cat")
    tournament.rebuy("cat", 0, started + timedelta(minutes=1))
    view = clock_view(tournament, 7, started + timedelta(minutes=5), "ru")
    assert view["options"] == [
        {"text": "2 ребая на игрока до конца уровня 2", "over": False, "room": "ребаи закончились"},
        {"text": "1 аддон на игрока на перерыве", "over": False, "room": "аддоны закончились"}]
    assert (view["title"], view["pawned"], view["rebuys"]) == ("Турнир №7", "1", "1 / 0")
    assert (view["players"], view["chips"], view["average"]) == ("3 из 3", "1\xa0300", "433")
    assert view["pool"] == "216,67" and view["rate"] == "6 фишек = 1"
    assert view["level"]["blinds"] == "Блайнды 5/10" and view["next"] == "20/40 (блайнды 10/20)"
    at_the_break = started + timedelta(minutes=45)
    tournament.addon("bob", at_the_break)
    view = clock_view(tournament, 7, at_the_break, "en")
    assert (view["rebuys"], view["chips"], view["average"], view["pool"]) == ("1 / 1", "1,600", "533", "266.67")
    assert view["options"] == [
        {"text": "rebuys are over", "over": True, "room": "2 rebuys each through level 2"},
        {"text": "1 add-on each at the break", "over": False, "room": "add-ons are over"}]
    after = clock_view(tournament, 7, started + timedelta(minutes=51), "en")
    assert after["options"] == [
        {"text": "rebuys are over", "over": True, "room": "2 rebuys each through level 2"},
        {"text": "add-ons are over", "over": True, "room": "1 add-on each at the break"}]
    tournament.finish(started + timedelta(minutes=52), {"ann": 400, "bob": 600, "cat": 600})
    assert clock_view(tournament, 7, started + timedelta(minutes=52), "en")["options"] == []


def test_the_view_names_no_options_for_the_rules_night() -> None:
    tournament = Tournament(TournamentConfig(), parse_schedule(SCHEDULE, "UTC"))
    assert clock_view(tournament, 1, datetime(2026, 11, 29, 18, 0, tzinfo=UTC), "en")["options"] == []


async def test_the_page_shows_the_options_and_the_stream_says_when_a_period_ends(store: Store) -> None:
    """The options go with the page's first view, in the chat's language, and again when the rebuy period ends at
    the break."""
    async with tournament_night(store, options="rebuys 1 reentry bounty 10 pawns 0", looks=AN_HOUR) as night:
        service, clock = night.service, night.clock
        async with aiohttp.ClientSession() as session, session.get(night.link) as response:
            found = BOOT.search(await response.text())
        assert found is not None
        boot = json.loads(found.group(1))
        assert boot["view"]["options"] == [
            {"text": "1 rebuy each through level 2", "over": False, "room": "rebuys are over"},
            {"text": "re-entry through level 2", "over": False, "room": "re-entry is over"},
            {"text": "bounty 10", "over": False, "room": ""}, {"text": "no pawning", "over": False, "room": ""}]
        assert boot["labels"]["options"] == "Options", "the block's heading"
        assert (await service.handle(PLACE, ANN, "/lang ru")).error is None
        async with event_stream(night.link) as stream:
            assert (await stream.next())["options"] == [
                {"text": "1 ребай на игрока до конца уровня 2", "over": False, "room": "ребаи закончились"},
                {"text": "повторный вход до конца уровня 2", "over": False, "room": "повторный вход закрыт"},
                {"text": "баунти 10", "over": False, "room": ""},
                {"text": "вещи в залог не принимаются", "over": False, "room": ""}]
            clock.advance(40 * 60 + 1)
            await service.scheduler.fire_due()
            assert (await stream.next())["options"] == [
                {"text": "ребаи закончились", "over": True, "room": "1 ребай на игрока до конца уровня 2"},
                {"text": "повторный вход закрыт", "over": True, "room": "повторный вход до конца уровня 2"},
                {"text": "баунти 10", "over": False, "room": ""},
                {"text": "вещи в залог не принимаются", "over": False, "room": ""}]


async def options_shown(night: Night, options: list[dict[str, object]]) -> str:
    """Once the due timers fired: the clock page's Options block is `options`; returns what `/clock` says."""
    await night.service.scheduler.fire_due()
    async with event_stream(night.link) as stream:
        assert (await stream.next())["options"] == options
    return (await night.service.handle(PLACE, BOB, "/clock")).public[0]


PAUSED_OPTIONS = {
    "en": {"through": "2 rebuys each through level 1", "until_resumed": "2 rebuys each until play resumes",
           "over": "rebuys are over", "addon": "1 add-on each at the break", "addon_over": "add-ons are over",
           "line": "Options: {}; 1 add-on each at the break."},
    "ru": {"through": "2 ребая на игрока до конца уровня 1", "until_resumed": "2 ребая на игрока до возобновления игры",
           "over": "ребаи закончились", "addon": "1 аддон на игрока на перерыве", "addon_over": "аддоны закончились",
           "line": "Опции: {}; 1 аддон на игрока на перерыве."},
}
"""The rebuys through level 1 (open; open once its end time passed in a pause; over), the add-on (open, over), and
`/clock`'s options line with the rebuys' words left out, in each language."""


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_pause_across_the_break_keeps_the_rebuys_open_until_play_resumes(store: Store, language: str) -> None:
    """The organizer pauses level 1 of `home-night` (10/20 until 19:00, a break until 20:00) at 18:30: a paused clock
    ends no level, so the rebuys, through level 1, stay open. Once 19:00 has passed, level 1 ends the moment play
    resumes, and the rebuys with it: `/clock` and the page say so, and are right once it resumes."""
    words = PAUSED_OPTIONS[language]
    addon = {"text": words["addon"], "over": False, "room": words["addon_over"]}

    async with tournament_night(store, schedule="home-night", options="rebuys 2 addon", looks=AN_HOUR) as night:
        service, clock = night.service, night.clock

        async def said(rebuys: str, is_over: bool, other: str) -> None:
            shown = await options_shown(night, [{"text": rebuys, "over": is_over, "room": other}, addon])
            assert shown.splitlines()[-1] == words["line"].format(rebuys)

        assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
        clock.advance(30 * 60)
        assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
        clock.advance(15 * 60)  # 18:45: level 1 paused with 15 minutes left
        await said(words["through"], False, words["over"])
        clock.advance(30 * 60)  # 19:15: level 1's end passed during the pause
        await said(words["until_resumed"], False, words["over"])
        assert (await service.handle(PLACE, ANN, "/tournament resume")).error is None
        await said(words["over"], True, words["through"])


PAUSED_BREAK = {
    "en": {"break": "1 add-on each at the break", "after": "1 add-on each for 1h00m after play resumes",
           "until": "1 add-on each until 21:05", "over": "add-ons are over",
           "paused": "⏱ Level 1: limits 10/20 (blinds 5/10), 0s left; next: 50/100. (clock paused)\n"
                     "3 players left of 3 entries; 0 add-ons; paid in: 150.\n"
                     "🛒 The first break passed while the clock was paused: add-ons go on sale between hands for "
                     "1h00m once play resumes (/addon).",
           "options": "Options: 1 add-on per player at the first break; an add-on costs 50 for 300 chips.",
           "resumed": "⏱ Level 2: limits 50/100 (blinds 25/50), the last level: it plays until the tournament "
                      "ends.\n3 players left of 3 entries; 0 add-ons; paid in: 150.\n"
                      "🛒 Add-ons are on sale until 21:05: /addon or the Add-on button.",
           "bought": "Bob takes the add-on: 300 chips for 50.", "refused": "Add-ons are sold during the first break."},
    "ru": {"break": "1 аддон на игрока на перерыве",
           "after": "1 аддон на игрока в течение 1\xa0ч\xa000\xa0мин после возобновления игры",
           "until": "1 аддон на игрока до 21:05", "over": "аддоны закончились",
           "paused": "⏱ Уровень 1: лимиты 10/20 (блайнды 5/10), осталось 0\xa0с; дальше: 50/100. (часы на паузе)\n"
                     "В игре 3 игрока, 3 входа в турнир; 0 аддонов; внесено: 150.\n"
                     "🛒 Первый перерыв прошёл, пока часы стояли на паузе: аддоны будут продаваться между раздачами "
                     "в течение 1\xa0ч\xa000\xa0мин после возобновления игры (/addon).",
           "options": "Опции: 1 аддон на игрока на первом перерыве; аддон стоит 50 за 300 фишек.",
           "resumed": "⏱ Уровень 2: лимиты 50/100 (блайнды 25/50), последний: он идёт до конца турнира.\n"
                      "В игре 3 игрока, 3 входа в турнир; 0 аддонов; внесено: 150.\n"
                      "🛒 Аддоны продаются до 21:05: /addon или кнопка «Аддон».",
           "bought": "Bob берёт аддон: 300 фишек за 50.", "refused": "Аддон можно взять только на первом перерыве."},
}
"""The add-on of `home-night` paused from 18:30 to 20:05: in the clock's words at 18:45, at 20:05 before and after
play resumes, and at 21:05; `/clock` and `/tournament status` while paused and the clock as play resumes."""


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_pause_across_the_whole_break_sells_the_add_on_after_play_resumes(store: Store, language: str) -> None:
    """The organizer pauses `home-night` (10/20 until 19:00, a break until 20:00) at 18:30, with an add-on at the
    break, and resumes at 20:05: the break's end passed in the pause, so the clock passes it over (50/100 from 20:05)
    and no add-on could be bought at it. As after downtime over the break, add-ons are sold from the resume for the
    hour the break lasted: at the break until 20:00 has passed, then for an hour after play resumes, then until
    21:05, then over, in the page's Options block, `/clock` and `/tournament status`, and as play resumes."""
    words = PAUSED_BREAK[language]
    async with tournament_night(store, schedule="home-night", options="addon", looks=AN_HOUR) as night:
        service, clock = night.service, night.clock
        assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
        clock.advance(30 * 60)
        assert (await service.handle(PLACE, ANN, "/tournament pause")).error is None
        clock.advance(15 * 60)  # 18:45
        options_line = {"en": "Options: {}.", "ru": "Опции: {}."}[language]
        shown = await options_shown(night, [{"text": words["break"], "over": False, "room": words["over"]}])
        assert shown.splitlines()[-1] == options_line.format(words["break"])
        clock.advance(80 * 60)  # 20:05: the whole break passed in the pause
        shown = await options_shown(night, [{"text": words["after"], "over": False, "room": words["over"]}])
        assert shown == words["paused"] + "\n" + options_line.format(words["after"])
        status = await service.handle(PLACE, BOB, "/tournament status")
        assert status.private == {BOB.user_id: [words["paused"] + "\n" + words["options"]]}
        resumed = await service.handle(PLACE, ANN, "/tournament resume")
        assert resumed.error is None and resumed.public[0] == words["resumed"]
        await options_shown(night, [{"text": words["until"], "over": False, "room": words["over"]}])
        players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
        await play_out(service, PLACE, players, await service.view(PLACE, ANN), ("fold", "check"))  # play resumed
        bought = await service.handle(PLACE, BOB, "/addon")
        assert bought.error is None and bought.public == [words["bought"]]
        clock.advance(60 * 60)  # 21:05
        await options_shown(night, [{"text": words["over"], "over": True, "room": words["break"]}])
        assert (await service.handle(PLACE, CAT, "/addon")).error == words["refused"]
