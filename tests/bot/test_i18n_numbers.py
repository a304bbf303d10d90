"""Counts agree with their words (CLDR plural rules, by Babel) and numbers are written as each language writes them."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from babel import Locale
from babel.numbers import format_decimal

from bot.i18n import Plural, Signed, catalogue, format_number, parse, placeholders, plural_categories, render, text
from bot.render import Voice, holdem
from bot.render.tournament import money
from engine.betting import STRUCTURES
from tests.engine.holdem_helpers import run_script, start

COUNTS = (0, 1, 2, 5, 11, 21, 22, 25, 101)
LANGUAGES = ("en", "ru")


def _plural_entries() -> list[tuple[str, str]]:
    return [(language, key) for language in LANGUAGES for key, template in sorted(catalogue(language).items())
            if any(isinstance(part, Plural) for part in parse(template))]


def _blocks(template: str) -> list[Plural]:
    return [part for part in parse(template) if isinstance(part, Plural)]


def test_both_languages_count_with_plural_blocks() -> None:
    entries = _plural_entries()
    assert {key for language, key in entries if language == "ru"} >= {"holdem.joined", "rule.too_many_players",
                                                                       "tournament.registered", "rule.bad_minutes"}
    assert {key for language, key in entries if language == "en"} >= {"tournament.registered", "balance"}


@pytest.mark.parametrize(("language", "key"), _plural_entries())
def test_every_count_takes_the_form_babels_rule_asks_for(language: str, key: str) -> None:
    """Each count, rendered with 0, 1, 2, 5, 11, 21, 22, 25 and 101, is followed by the catalogue's own form for the
    CLDR category Babel gives that number in this language (its ordinal category in a `selectordinal` block); and
    every category the language has is written out."""
    template = catalogue(language)[key]
    for block in _blocks(template):
        rule = Locale.parse(language).ordinal_form if block.ordinal else Locale.parse(language).plural_form
        needed = rule.tags | {"other"}
        categories = {selector for selector in block.branches if not selector.startswith("=")}
        assert categories == needed, f"{key}: {block.name} has {sorted(categories)}, {language} needs {sorted(needed)}"
        for count in COUNTS:
            params: dict[str, object] = {name: f"<{name}>" for name in placeholders(template)}
            params.update({other.name: 5 for other in _blocks(template)})
            params[block.name] = count
            shown = text(language, key, **params)
            branch = block.branches.get(f"={count}", block.branches[rule(count)])
            expected = branch.replace("#", format_decimal(count, locale=language))
            expected = expected.format(**params)
            assert expected in shown, f"{key} with {block.name}={count} ({rule(count)}): {shown!r}"


@pytest.mark.parametrize(("key", "params", "expected"), [
    ("holdem.joined", {"player": "Ann", "chips": 1}, "Ann садится за стол с 1 фишкой."),
    ("holdem.joined", {"player": "Ann", "chips": 21}, "Ann садится за стол с 21 фишкой."),
    ("holdem.joined", {"player": "Ann", "chips": 3}, "Ann садится за стол с 3 фишками."),
    ("holdem.joined", {"player": "Ann", "chips": 11}, "Ann садится за стол с 11 фишками."),
    ("balance", {"chips": 1}, "В кошельке 1 фишка."),
    ("balance", {"chips": 22}, "В кошельке 22 фишки."),
    ("balance", {"chips": 25}, "В кошельке 25 фишек."),
    ("balance", {"chips": 1000}, "В кошельке 1\xa0000 фишек."),
    ("rule.bad_minutes", {"max": 1, "minutes": 5}, "Конец уровня можно сдвинуть не больше чем на 1 минуту за раз, а не "
                                                   "на 5."),
    ("rule.bad_minutes", {"max": 60, "minutes": 90}, "Конец уровня можно сдвинуть не больше чем на 60 минут за раз, "
                                                     "а не на 90."),
    ("rule.too_many_players", {"max": 22}, "Одной колодой можно сдать раздачу не больше чем на 22 игроков."),
    ("rule.too_many_players", {"max": 21}, "Одной колодой можно сдать раздачу не больше чем на 21 игрока."),
    ("house.acted.exchange", {"player": "Ann", "box": 1, "count": 2, "cost": 0}, "Ann, бокс 1: меняет 2 карты (0)."),
    ("house.acted.exchange", {"player": "Ann", "box": 1, "count": 5, "cost": 0}, "Ann, бокс 1: меняет 5 карт (0)."),
    # `/stats`: «сыграно раздач 21, выиграно 1» agreed with no number; now the count and its participle do (with 2-4
    # the neuter singular, «сыграно 2 раздачи», as counts are usually written)
    *[("history.stats_hands", {"player": "Ann", "period": "", "played": played, "won": won}, f"Ann: {expected}")
      for played, won, expected in [
          (0, 0, "сыграно 0 раздач, выиграно 0"),
          (1, 1, "сыграна 1 раздача, выиграна 1"), (2, 0, "сыграно 2 раздачи, выиграно 0"),
          (4, 3, "сыграно 4 раздачи, выиграно 3"), (5, 1, "сыграно 5 раздач, выиграна 1"),
          (11, 11, "сыграно 11 раздач, выиграно 11"), (14, 12, "сыграно 14 раздач, выиграно 12"),
          (21, 4, "сыграна 21 раздача, выиграно 4"), (22, 21, "сыграно 22 раздачи, выиграна 21"),
          (1000, 112, "сыграно 1\xa0000 раздач, выиграно 112")]],
])
def test_russian_counts_read_as_a_russian_writes_them(key: str, params: dict[str, object], expected: str) -> None:
    assert text("ru", key, **params) == expected


@pytest.mark.parametrize(("played", "won", "expected"), [
    (0, 0, "0 hands played, 0 won"), (1, 0, "1 hand played, 0 won"), (2, 1, "2 hands played, 1 won"),
    (21, 21, "21 hands played, 21 won"), (1000, 112, "1,000 hands played, 112 won"),
])
def test_english_stats_count_the_hands_played_as_a_sentence_does(played: int, won: int, expected: str) -> None:
    """`/stats` read "hands played 1, won 0", a label's form, where the Russian agrees its counts: the count comes
    first and "hand" agrees with it."""
    assert text("en", "history.stats_hands", player="Ann", period="", played=played, won=won) == f"Ann: {expected}"
    assert text("en", "history.stats_hands", player="Ann", period=text("en", "history.period", days=1), played=played,
                won=won) == f"Ann over the last 1 day: {expected}"


def test_english_counts_one_and_many() -> None:
    registered = {"player": "Ann", "chips": 300, "money": money(Fraction(50))}
    assert text("en", "tournament.registered", **registered, count=1) == "Ann registers: 300 chips for 50 (1 player)."
    assert text("en", "tournament.registered", **registered, count=2).endswith("(2 players).")
    assert text("en", "balance", chips=1) == "Your wallet: 1 chip."
    assert text("en", "balance", chips=0) == "Your wallet: 0 chips."


def test_a_language_has_the_categories_cldr_gives_it() -> None:
    assert plural_categories("en") == {"one", "other"}
    assert plural_categories("ru") == {"one", "few", "many", "other"}
    assert plural_categories("en", ordinal=True) == {"one", "two", "few", "other"}
    assert plural_categories("ru", ordinal=True) == {"other"}


@pytest.mark.parametrize(("place", "expected"), [
    (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (10, "10th"), (11, "11th"), (12, "12th"), (13, "13th"),
    (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"), (111, "111th"), (112, "112th"), (1002, "1002nd"),
])
def test_english_ordinals_take_their_suffix_from_the_ordinal_rule(place: int, expected: str) -> None:
    template = "{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place"
    assert render("en", template, {"place": place}) == f"{expected} place"
    assert text("en", "tournament.eliminated", player="Bob", place=place) == f"Bob is eliminated in {expected} place."


@pytest.mark.parametrize("place", [1, 2, 3, 11, 21, 23])
def test_russian_says_the_place_with_its_ending(place: int) -> None:
    assert text("ru", "tournament.eliminated", player="Bob", place=place) == f"Bob выбывает на {place}-м месте."


# --- numbers ------------------------------------------------------------------------------------------------------

def test_numbers_are_grouped_and_pointed_per_language() -> None:
    assert text("en", "balance", chips=12500) == "Your wallet: 12,500 chips."
    assert text("ru", "balance", chips=12500) == "В кошельке 12\xa0500 фишек."
    assert format_number("ru", Decimal("50.83")) == "50,83"
    assert format_number("en", Decimal("50.83")) == "50.83"
    assert format_number("ru", Decimal("50.80")) == "50,80", "money keeps its cents"
    assert format_number("ru", Signed(-1200)) == "−1\xa0200"
    assert format_number("en", Signed(40)) == "+40"
    assert format_number("en", Signed(0)) == "0"


def test_money_is_written_per_language() -> None:
    cashed = {"player": "Ann", "chips": 305, "money": money(Fraction(305, 6))}
    assert text("ru", "tournament.cashed_out", **cashed) == "Ann обменивает 305 фишек на 50,83 и выходит из турнира."
    assert text("en", "tournament.cashed_out", **cashed) == "Ann cashes out 305 chips for 50.83."
    assert str(money(Fraction(50))) == "50" and str(money(Fraction(203, 4))) == "50.75"


def test_labels_are_not_grouped() -> None:
    """Hand, level and item numbers, boxes and places are names, not quantities: "hand #1204", never "#1,204"."""
    title = text("en", "holdem.title", number=1204, small=1000, big=2000, structure="no-limit")
    assert title == "Hold'em — hand #1204 · blinds 1,000/2,000 · no-limit"
    assert "№1204" in text("ru", "holdem.started", number=1204, button="Ann", small=10, big=20)


def test_a_plural_block_may_hold_an_exact_branch_and_placeholders() -> None:
    template = "{chips, plural, =0 {nothing for {player}} one {# chip for {player}} other {# chips for {player}}}"
    assert render("en", template, {"chips": 0, "player": "Ann"}) == "nothing for Ann"
    assert render("en", template, {"chips": 1, "player": "Ann"}) == "1 chip for Ann"
    assert render("en", template, {"chips": 1500, "player": "Ann"}) == "1,500 chips for Ann"
    assert placeholders(template) == {"chips", "player"}
    with pytest.raises(ValueError, match="other"):
        parse("{chips, plural, one {# chip}}")


# --- no count left without its plural ------------------------------------------------------------------------------

_NUMBERS = {block.name for language in LANGUAGES for template in catalogue(language).values()
            for block in _blocks(template)} | {"amount", "min", "max", "minimum", "wallet", "balance", "hours", "won"}
_COUNTED = re.compile(r"\{(\w+)\}\s+(?:chip|card|player|minute|hour|hand|deal|round|bet|box|item|opponent|"
                      r"фишк|карт|игрок|минут|час|раздач|расклад|раунд|ставк|бокс|вещ|соперник)", re.IGNORECASE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_number_is_followed_by_a_counted_word_outside_a_plural_block(language: str) -> None:
    """`{max} минут` or `{chips} фишками` agree with some numbers only: a number followed by what it counts must be a
    plural block (abbreviations such as «мин» do not change and may follow a bare number)."""
    assert {"chips", "count", "minutes", "max"} <= _NUMBERS
    bare = [(key, found[0]) for key, template in catalogue(language).items() for part in parse(template)
            if isinstance(part, str) for found in _COUNTED.finditer(part) if found[1] in _NUMBERS]
    assert bare == []


# --- numbers the renderers put together themselves ------------------------------------------------------------------

THOUSANDS = {"en": "12,500", "ru": "12\xa0500"}
"""12,500 chips as each language writes it (Babel's Russian separator is a no-break space)."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_seat_stacks_are_written_per_language(language: str) -> None:
    voice = Voice(language, str.capitalize)
    seats = {"seats": [{"id": "ann", "stack": 12500, "out": False}, {"id": "bob", "stack": 7500, "out": False}]}
    assert f"  Ann — {THOUSANDS[language]}" in holdem.seats_text(voice, seats).splitlines()
    hand, _ = start(STRUCTURES["no-limit"], {"ann": 12505, "bob": 7510}, "ann", {"ann": "2c 3d", "bob": "4c 5d"},
                    "Ad Ac Ks Qh Jh")
    rows = holdem.table_text(voice, holdem.hand_view(hand)).splitlines()
    assert any(row.startswith(f"▶ Ann · {THOUSANDS[language]} ") for row in rows), rows


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Bob 5,000, Ann 5,000 split the main pot (10,000)"),
    ("ru", "Bob 5\xa0000, Ann 5\xa0000 делят основной банк (10\xa0000)"),
])
def test_split_pot_shares_are_written_per_language(language: str, expected: str) -> None:
    hand, events = start(STRUCTURES["no-limit"], {"ann": 5000, "bob": 5000}, "ann", {"ann": "2c 3d", "bob": "4c 5d"},
                         "Ad Ac Ks Qh Jh")
    events += run_script(hand, "ann allin; bob call")
    lines = holdem.narrate(Voice(language, str.capitalize), events).lines
    assert any(line.startswith(expected) for line in lines), lines


# --- units stay on the line of their numbers ------------------------------------------------------------------------

_BROKEN_UNIT = re.compile(r"\}[ \t](?:s|min|h|мин|ч|%|с(?! \w))(?![\w-])|±[ \t]\{")
"""A placeholder and the unit after it (or "±" and the number after it) joined by a space a line may break at; "с"
followed by a word is the preposition ("{cost} с учётом ставки")."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_unit_is_left_on_a_line_of_its_own(language: str) -> None:
    assert _BROKEN_UNIT.search("⏱ {seconds} s") and _BROKEN_UNIT.search("{edge} %"), "the scan finds a broken unit"
    broken = {key: template for key, template in catalogue(language).items() if _BROKEN_UNIT.search(template)}
    assert broken == {}


@pytest.mark.parametrize(("language", "key", "params", "expected"), [
    ("en", "holdem.to_act_timed", {"player": "Ann", "seconds": 60}, "▶ Ann to act (⏱ 60\xa0s)."),
    ("ru", "holdem.to_act_timed", {"player": "Ann", "seconds": 60}, "▶ Ход: Ann (⏱ 60\xa0с)."),
    ("en", "holdem.time_bank", {"player": "Ann", "seconds": 1500}, "⏳ Ann is using the time bank: 1,500\xa0s."),
    ("ru", "holdem.time_bank", {"player": "Ann", "seconds": 1500}, "⏳ Ann тратит запас времени: 1\xa0500\xa0с."),
    ("ru", "house.to_act_timed", {"player": "Ann", "box": 2, "seconds": 45},
     "▶ Ann, бокс 2: ваше решение (⏱ 45\xa0с)."),
    ("en", "duration.minutes", {"minutes": 20}, "20m"),
    ("ru", "duration.minutes", {"minutes": 20}, "20\xa0мин"),
    ("ru", "duration.seconds", {"seconds": 59}, "59\xa0с"),
    ("ru", "duration.hours", {"hours": 1, "minutes": "05"}, "1\xa0ч\xa005\xa0мин"),
    ("ru", "history.percent", {"percent": 67}, "67\xa0%"),
    ("ru", "odds.house_line", {"bet": "АНТЕ", "edge": Decimal("5.22"), "how": "(точно)"}, "АНТЕ: 5,22\xa0% (точно)"),
])
def test_units_are_bound_to_their_numbers(language: str, key: str, params: dict[str, object], expected: str) -> None:
    assert text(language, key, **params) == expected
