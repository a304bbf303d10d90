"""Whole games read well in each language (issue 16): every reply of a Hold'em evening with a split pot, a tournament
night with its break and a pause, and a round of each house game, scanned for doubled or blank words, for a count
whose word does not take the form Babel's plural rule asks for ("5 фишки", "1 chips"), and in Russian for English."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache

import pytest
from babel import Locale

from bot.clock import FakeClock
from bot.i18n import Plural, catalogue, parse
from bot.output import Reply
from bot.service import Service
from bot.store import Store
from engine.house import GAMES
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import SIX_PM, all_text, listen, play_out, press_label, started_service
from tests.bot.test_russian_games import english_left
from tests.bot.test_words import faults

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
LANGUAGES = ("en", "ru")
NAMES = {"Ann", "Bob", "Cat", "UTC"}
"""The Latin words a Russian chat reads here: the players' names and the tournament's time zone."""


# --- counts and their words ----------------------------------------------------------------------------------------

Forms = dict[str, str]
"""One counted word's forms by CLDR category, as a plural block of the catalogue writes them after `#`."""


@cache
def counted_words(language: str) -> dict[str, list[Forms]]:
    """Each word the catalogue writes right after a count (`# фишки`), with the forms of every plural block that
    writes it: the word's forms for each category."""
    found: dict[str, list[Forms]] = {}
    templates = list(catalogue(language).values())
    while templates:
        for part in parse(templates.pop()):
            if not isinstance(part, Plural):
                continue
            categories = {selector: branch for selector, branch in part.branches.items()
                          if not selector.startswith("=")}
            templates += part.branches.values()  # a block may hold another in a branch
            words = {category: re.match(r"#\s+([^\W\d_][\w-]*)", branch.lstrip()) for category, branch in
                     categories.items()}
            forms = {category: word.group(1) for category, word in words.items() if word is not None}
            if len(forms) == len(categories):
                for word in set(forms.values()):
                    found.setdefault(word, []).append(forms)
    return found


_NUMBER = {
    "en": r"\d+(?:,\d{3})*(?:\.\d+)?",
    "ru": r"\d+(?:\xa0\d{3})*(?:,\d+)?",
}
"""A number as each language writes it (Babel's grouping and decimal signs)."""


def _value(language: str, written: str) -> Decimal:
    if language == "ru":
        return Decimal(written.replace("\xa0", "").replace(",", "."))
    return Decimal(written.replace(",", ""))


def disagreements(language: str, message: str) -> list[str]:
    """Each count in `message` followed by a word the catalogue counts with, where that word is not the form Babel's
    rule gives the number in any of the catalogue's blocks for it ("5 фишки": 5 is `many`, which takes «фишек»). A
    word followed by a number labels that number instead ("Ann · 380 bet 20": a stack, then her bet)."""
    rule = Locale.parse(language).plural_form
    words = counted_words(language)
    pattern = re.compile(rf"(?<![\d.,:/#№\w])({_NUMBER[language]})[ \xa0]([^\W\d_][\w-]*)(?![\w-]|[ \xa0]\d)")
    found = []
    for number, word in pattern.findall(message):
        if word not in words:
            continue
        category = rule(_value(language, number))
        if not any(forms.get(category, forms["other"]) == word for forms in words[word]):
            found.append(f"{number} {word} ({category}) in {message!r}")
    return found


def test_the_agreement_check_finds_wrong_forms() -> None:
    assert disagreements("ru", "Ann садится за стол с 5 фишками.") == []
    assert disagreements("ru", "В кошельке 21 фишка, 1\xa0000 фишек, 22 фишки.") == []
    assert disagreements("ru", "В кошельке 5 фишки.")
    assert disagreements("ru", "(всего 21 игроков)")
    assert disagreements("en", "Your wallet: 1 chips.")
    assert disagreements("en", "Your wallet: 1,500 chip.")
    assert disagreements("en", "Ann raises to 1,500. 2 players left.") == []
    assert disagreements("en", "  Bob · 380 bet 20") == []


_SHOWN_EMPTY = re.compile(r"\b(Board|Борд|places|места): —")
"""A field shown empty on purpose with a dash: the board before the flop, a player's places before any tournament."""


def whole_faults(message: str) -> list[str]:
    """`faults` for a whole message of several lines: a line ending with ":" heads the lines after it, and a field
    shown empty on purpose is not a blank word."""
    lines = message.splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.endswith(":") and index + 1 < len(lines) and lines[index + 1].strip():
            line = line[:-1]
        found += faults(_SHOWN_EMPTY.sub(r"\1: none", line))
    return found


def test_a_heading_and_an_empty_board_are_not_blank_words() -> None:
    assert whole_faults("Texas Hold'em — seats:\n  Ann — 400\nBoard: — · Pot: 30") == []
    assert whole_faults("⏱ Level 3: limits 50/100 (blinds 25/50), — left; next: —.")
    assert whole_faults("Payments:")


def problems(language: str, replies: list[Reply]) -> list[str]:
    """Everything that reads wrong in these replies: doubled or blank words, counts that disagree, and in Russian
    any English word (`english_left`)."""
    found = []
    for message in all_text(replies):
        found += whole_faults(message) + disagreements(language, message)
        if language == "ru":
            found += [f"English {word!r} in {message!r}" for word in english_left(message, NAMES)]
    return sorted(set(found))


# --- the games -----------------------------------------------------------------------------------------------------


def at(hour: int, minute: int) -> float:
    """A second past `hour:minute` on the tournament night (when that minute's timer has fired)."""
    return datetime(2026, 11, 29, hour, minute, 1, tzinfo=UTC).timestamp()


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_holdem_evening_with_a_showdown_and_a_split_pot(service: Service, language: str) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    replies = [await service.handle(PLACE, actor, "/join") for actor in (ANN, BOB, CAT)]
    split = {"en": "split the main pot", "ru": "делят основной банк"}[language]
    for _ in range(40):  # hands checked down to the showdown until one splits its pot
        dealt = await service.handle(PLACE, ANN, "/deal")
        assert dealt.error is None, dealt.error
        replies += await play_out(service, PLACE, PLAYERS, dealt, preference=("check", "call"))
        if split in "\n".join(all_text(replies)):
            break
    shown = "\n".join(all_text(replies))
    assert split in shown
    assert {"en": "Showdown", "ru": "Вскрытие"}[language] in shown
    for command in ("/balance", "/top", "/stats", "/table", "/raise 10", "/help organizers", "/leave"):
        replies.append(await service.handle(PLACE, BOB, command))
    found = problems(language, replies)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_tournament_night_with_a_break_and_a_pause(store: Store, language: str) -> None:
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=5)
    heard = listen(service)
    await service.handle(PLACE, ANN, f"/lang {language}")
    replies = [await service.handle(PLACE, ANN, "/tournament create home-night rebuys 1 addon 1 bounty 5")]
    assert replies[0].error is None, replies[0].error
    replies += [await service.handle(PLACE, actor, "/join") for actor in (ANN, BOB, CAT)]
    started = await service.handle(PLACE, ANN, "/tournament start")
    replies += await play_out(service, PLACE, PLAYERS, started, preference=("fold", "check"))
    replies.append(await service.handle(PLACE, ANN, "/tournament pause"))
    replies += [await service.handle(PLACE, BOB, command) for command in ("/clock", "/table", "/deal", "/pawn a coat")]
    resumed = await service.handle(PLACE, ANN, "/tournament resume")
    replies += await play_out(service, PLACE, PLAYERS, resumed, preference=("fold", "check"))
    for hour, minute in ((18, 55), (18, 59), (19, 0)):  # each when its timer fires: the break comes
        clock.current = at(hour, minute)
        await service.scheduler.fire_due()
        if heard[-1].table is not None and heard[-1].table.to_act:  # the clock dealt the next hand: play it out
            replies += await play_out(service, PLACE, PLAYERS, heard[-1], preference=("fold", "check"))
    clock.current = at(19, 5)
    replies += [await service.handle(PLACE, ANN, "/tournament pause"), await service.handle(PLACE, BOB, "/clock"),
                await service.handle(PLACE, BOB, "/table"), await service.handle(PLACE, BOB, "/addon"),
                await service.handle(PLACE, ANN, "/tournament resume"), await service.handle(PLACE, CAT, "/clock")]
    for hour, minute in ((19, 55), (19, 59), (20, 0)):
        clock.current = at(hour, minute)
        await service.scheduler.fire_due()
        if heard[-1].table is not None and heard[-1].table.to_act:
            replies += await play_out(service, PLACE, PLAYERS, heard[-1], preference=("fold", "check"))
    replies += [await service.handle(PLACE, CAT, "/cashout"), await service.handle(PLACE, ANN, "/tournament status")]
    replies.append(await service.handle(PLACE, ANN, "/tournament close"))
    shown = "\n".join(all_text(replies + heard))
    assert {"en": "⏸ Break, clock paused", "ru": "⏸ Перерыв, часы на паузе"}[language] in shown
    assert {"en": "Break until 20:00", "ru": "Перерыв до 20:00"}[language] in shown
    found = problems(language, replies + heard)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_house_round(service: Service, game: str, language: str) -> None:
    await service.handle(PLACE, ANN, f"/lang {language}")
    replies = [await service.handle(PLACE, ANN, f"/game {game}")]
    side = {"three-card": " pp 5", "caribbean": " bonus 10"}.get(game, "")
    replies += [await service.handle(PLACE, actor, f"/ante 10{side}") for actor in (ANN, BOB, CAT)]
    replies.append(await service.handle(PLACE, ANN, "/ante 10 box 2"))
    table = await service.handle(PLACE, ANN, "/table")
    dealt = await service.press(PLACE, CAT, press_label(table, "deal"))
    replies += [table, dealt, await service.handle(PLACE, ANN, "/cards")]
    choices = ("exchange", "buy", "play", "bet", "decline", "fold")
    replies += await play_out(service, PLACE, PLAYERS, dealt, preference=choices)
    replies += [await service.handle(PLACE, ANN, command) for command in ("/balance", "/odds", "/table")]
    found = problems(language, replies)
    assert found == [], "\n".join(found)
