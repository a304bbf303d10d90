"""Text from players: what may be stored, how it is cleaned, and how much of it an answer quotes."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.schedule import ScheduleError, parse_schedule
from engine.text import DIRECTION_MARKS, QUOTE_LIMIT, clean_text, is_storable, quote_input


def test_a_lone_surrogate_cannot_be_stored() -> None:
    assert not is_storable("a\ud800b")
    assert is_storable("Ёлка 🃏 ٤٠")


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("Ann", "Ann"),
    ("Zo\ud800e", "Zo\ufffde"),
    ("two\nlines\tand\x00nul", "two lines and nul"),
    ("\u202eevil\u202c name\u2066", "evil name"),
    ("  spaced   out  ", "spaced out"),
    ("👨‍👩‍👧 family", "👨‍👩‍👧 family"),  # joiners inside an emoji are kept
])
def test_clean_text(raw: str, cleaned: str) -> None:
    assert clean_text(raw) == cleaned
    assert is_storable(clean_text(raw))


def _cleaned_char_by_char(text: str) -> str:
    """`clean_text` as its rule reads, one character at a time: what its shortcut for printable text must equal."""
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            kept.append("\ufffd")
        elif category == "Cc":
            kept.append(" ")
        elif char not in DIRECTION_MARKS:
            kept.append(char)
    return " ".join("".join(kept).split())


@given(st.text(st.characters(codec=None), max_size=30)
       | st.text(" \t\n\u00a0\u200d\u202eAnn\ud800\u3000Ё", max_size=30))
def test_clean_text_and_is_storable_follow_their_rule_for_any_text(raw: str) -> None:
    assert clean_text(raw) == _cleaned_char_by_char(raw)
    assert is_storable(raw) == all(unicodedata.category(char) != "Cs" for char in raw)


def test_a_quote_is_at_most_40_characters_and_an_ellipsis() -> None:
    assert QUOTE_LIMIT == 40
    assert quote_input("x" * 40) == "x" * 40
    assert quote_input("x" * 2000) == "x" * 40 + "…"
    assert quote_input("y" * 39 + " " + "z" * 10) == "y" * 39 + "…"  # no space before the ellipsis
    assert quote_input("\ud800" * 100) == "\ufffd" * 40 + "…"
    assert quote_input(12345) == "12345"


@pytest.mark.parametrize("schedule", ["４０/８０ 20m; 80/160", "10/20 ２0m; 20/40", "10/20 until １9:00; 20/40"])
def test_a_schedule_reads_only_ascii_digits(schedule: str) -> None:
    with pytest.raises(ScheduleError):
        parse_schedule(schedule, "UTC")


def test_a_schedule_error_quotes_at_most_40_characters_of_a_level() -> None:
    with pytest.raises(ScheduleError) as error:
        parse_schedule("10/20 " + "m" * 3000, "UTC")
    assert "m" * 41 not in str(error.value)
    assert len(str(error.value)) < 250
