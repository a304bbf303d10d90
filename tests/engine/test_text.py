"""Text from players: what may be stored, how it is cleaned, and how much of it an answer quotes."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.schedule import ScheduleError, parse_schedule
from engine.text import QUOTE_LIMIT, WORD_JOINER, clean_text, inert, is_storable, log_quote, quote_input


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


@given(st.text(st.characters(codec=None), max_size=30)
       | st.text(" \t\n\u00a0\u200d\u202eAnn\ud800\u3000Ё", max_size=30))
def test_printable_text_is_cleaned_as_the_full_pass_cleans_it(raw: str) -> None:
    # a NUL is never printable, so `raw + "\x00"` always takes the character-by-character pass; it becomes a space
    # there, which the trimming drops: both must come out alike, whichever way `raw` alone went
    assert clean_text(raw) == clean_text(raw + "\x00")
    assert is_storable(raw) == is_storable(raw + "\x00") == all(unicodedata.category(c) != "Cs" for c in raw)


def test_a_quote_is_at_most_40_characters_and_an_ellipsis() -> None:
    assert QUOTE_LIMIT == 40
    assert quote_input("x" * 40) == "x" * 40
    assert quote_input("x" * 2000) == "x" * 40 + "…"
    assert quote_input("y" * 39 + " " + "z" * 10) == "y" * 39 + "…"  # no space before the ellipsis
    assert quote_input("\ud800" * 100) == "\ufffd" * 40 + "…"
    assert quote_input(12345) == "12345"


@pytest.mark.parametrize(("typed", "quoted"), [
    ("/fold", "/\u2060fold"),
    ("now /fold @bob", "now /\u2060fold @\u2060bob"),
    ("10/20", "10/\u206020"),
    ("/\u2060fold", "/\u2060fold"),  # copied from the bot's own text: one joiner, not two
    ("/" * 50, "/\u2060" * 40 + "…"),  # the limit counts what was typed, not the joiners
    ("/\u2060" * 50, "/\u2060" * 40 + "…"),  # and so does a quote copied back
])
def test_a_quote_is_inert(typed: str, quoted: str) -> None:
    """A player's input quoted back is never a command or a mention a chat client would make tappable."""
    assert quote_input(typed) == quoted
    assert inert(quoted) == quoted


def test_inert_text_reads_the_same_without_its_joiners() -> None:
    assert inert("Ann") == "Ann"
    assert inert("@alice /leave").replace(WORD_JOINER, "") == "@alice /leave"
    assert inert("@alice /leave") == "@\u2060alice /\u2060leave"  # a joiner after each `@` and `/`


@pytest.mark.parametrize(("typed", "logged"), [
    ("10/20", "'10/20'"),
    ("x" * 4000, "'" + "x" * 40 + "…'"),  # a log line is not a wall of the player's text
    ("/\u2060fold @\u2060bob", "'/fold @bob'"),  # copied from the bot's quote: as typed, not '/\\u2060fold'
    ("/" * 50, "'" + "/" * 40 + "…'"),
    ("two\nlines\u202e", "'two lines'"),
    (12345, "'12345'"),
])
def test_a_log_quotes_input_briefly_and_as_typed(typed: object, logged: str) -> None:
    """The engine's English (what a log prints) quotes a player's input as an answer does, cleaned and at most 40
    characters, but without the word joiners that `repr` would show as `\\u2060`; input already quoted for an answer
    reads the same."""
    assert log_quote(typed) == logged
    assert log_quote(quote_input(typed)) == logged


@pytest.mark.parametrize("schedule", ["４０/８０ 20m; 80/160", "10/20 ２0m; 20/40", "10/20 until １9:00; 20/40"])
def test_a_schedule_reads_only_ascii_digits(schedule: str) -> None:
    with pytest.raises(ScheduleError):
        parse_schedule(schedule, "UTC")


def test_a_schedule_error_quotes_at_most_40_characters_of_a_level() -> None:
    with pytest.raises(ScheduleError) as error:
        parse_schedule("10/20 " + "m" * 3000, "UTC")
    assert "m" * 41 not in str(error.value)
    assert len(str(error.value)) < 250
