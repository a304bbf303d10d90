"""Each message is parsed once per language and then reused: the reuse must never show another call's text."""

from __future__ import annotations

import inspect
from decimal import Decimal

import pytest

from bot.i18n import Signed, catalogue, message, placeholders, render, text

LANGUAGES = ("en", "ru")
SAMPLES: tuple[object, ...] = (1, 3, 21, 1000, Decimal("50.80"), Signed(-1200), 2.5, "Ann")


@pytest.mark.parametrize("language", [*LANGUAGES, "xx"])
def test_every_message_reads_as_its_template_rendered_afresh(language: str) -> None:
    """Every key, asked for again and again with other values, reads exactly as its template rendered on its own
    (English for a language without a catalogue or a key missing in it)."""
    for key in sorted(catalogue("en")):
        template = catalogue(language).get(key) or catalogue("en")[key]
        written_in = language if catalogue(language).get(key) else "en"
        for sample in SAMPLES:
            params = {name: sample for name in placeholders(template)}
            try:
                expected = render(written_in, template, params)
            except (ValueError, TypeError, KeyError, IndexError) as error:  # a count given a name, etc.
                with pytest.raises(type(error)):
                    text(language, key, **params)
                continue
            assert text(language, key, **params) == expected, (language, key, sample)
            assert message(language, key, params) == expected


def test_the_same_message_shows_each_calls_own_values() -> None:
    assert text("en", "holdem.bet", chips=40) == "bet 40"
    assert text("en", "holdem.bet", chips=1200) == "bet 1,200"
    assert text("ru", "holdem.bet", chips=1200) == "ставка 1\xa0200"
    assert text("en", "holdem.bet", chips=40) == "bet 40"
    assert text("en", "button.pre.call", chips=60) == "⏩ Call 60"


def test_a_message_with_a_language_placeholder_is_filled_by_name() -> None:
    """`/lang`'s answers name the language chosen (`{language}`): compiled, a parameter of `text` by that name
    refused it ("given by name ('language') and position (1)")."""
    assert text("en", "lang.set", language="Русский") == "Language set: Русский."
    assert text("ru", "lang.mine", language="English") == "Язык ваших личных сообщений: English."


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_placeholder_is_named_as_a_parameter_of_text(language: str) -> None:
    taken = set(inspect.signature(text).parameters) - {"params"}
    assert {"lang", "key"} <= taken
    assert not [key for key, template in catalogue(language).items() if placeholders(template) & taken]


def test_a_message_without_placeholders_is_the_same_text_in_each_language() -> None:
    assert text("en", "holdem.folded") == "folded"
    assert text("ru", "holdem.folded") == catalogue("ru")["holdem.folded"] != "folded"
    assert text("en", "holdem.folded", chips=5) == "folded"  # an unused parameter changes nothing


def test_a_message_missing_everywhere_is_a_key_error_each_time() -> None:
    for _ in range(2):
        with pytest.raises(KeyError):
            text("ru", "no.such.message")
