"""Player-facing text: one folder of JSON catalogues per language in `bot/locales/`, looked up by key.

Each language is a folder (`bot/locales/en/`, `bot/locales/ru/`) of JSON files, one per part of the bot (`core.json`,
`holdem.json`, …); a language's messages are all its files merged. A key missing in a language falls back to English.

A message is a `str.format` template with two additions, both done by Babel from CLDR data:

- **Numbers are written as the language writes them.** A parameter whose value is an `int`, `float`, `Decimal`,
  `Fraction` or `Signed` is formatted for the language ("1,000" and "50.83" in English, "1 000" and "50,83" in
  Russian, with CLDR's no-break space); a `Decimal` keeps exactly its decimal places (money passes `Decimal("50.80")`).
  Parameters named in `VERBATIM` are labels rather than quantities (hand, level and item numbers, boxes, places) and
  are written as they are. Anything else (names, cards, already rendered text) is inserted as it is.
- **Counts agree with their words**, written as in ICU MessageFormat:
  `{chips, plural, one {# фишка} few {# фишки} many {# фишек} other {# фишки}}` picks the branch for the CLDR plural
  category of `chips` in the message's language (Babel's rule: Russian 1, 21, 101 are `one`; 2-4, 22 `few`; 0, 5-20,
  25 `many`; fractions `other`), and `#` in the branch stands for the number, formatted as above. An exact branch
  such as `=0 {no chips}` may come before the categories. A branch may hold other `{placeholders}`. Every category the
  language has must be given (English: `one`, `other`; Russian: `one`, `few`, `many`, `other`); a test checks it.
- **Ordinals follow the language's ordinal rule**, as ICU writes them: `{place, selectordinal, one {#st} two {#nd}
  few {#rd} other {#th}}` picks the branch for CLDR's ordinal category (English 1st, 2nd, 3rd, 4th, 11th-13th, 21st;
  Russian has only `other`, so «на {place}-м месте» needs no block).

`text(language, key, **params)` is the one entry point (`message` takes the parameters as a mapping). Each message is
parsed once per language, the first time it is asked for: a table message asks for dozens at every action.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources

from babel import Locale
from babel.numbers import format_decimal

DEFAULT_LANGUAGE = "en"

VERBATIM = frozenset({"number", "box", "item_id", "position", "place"})
"""Parameter names whose numbers are labels, not quantities: never grouped ("hand #1204", "box 2", "place 3")."""

Number = int | float | Decimal | Fraction


@dataclass(frozen=True, slots=True)
class Signed:
    """A result shown with its sign: +40, −1 200 (a typographic minus, as the house writes losses), 0."""

    value: Number

    def __str__(self) -> str:
        return format_number(DEFAULT_LANGUAGE, self)


@cache
def catalogue(language: str) -> dict[str, str]:
    """The messages of one language (empty for a language without a folder)."""
    folder = resources.files("bot.locales").joinpath(language)
    if not folder.is_dir():
        return {}
    messages: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            messages.update(json.loads(entry.read_text(encoding="utf-8")))
    return messages


@cache
def languages() -> tuple[str, ...]:
    """The languages that have a catalogue."""
    entries = resources.files("bot.locales").iterdir()
    return tuple(sorted(entry.name for entry in entries if entry.is_dir() and not entry.name.startswith("_")))


@cache
def language_label(language: str) -> str:
    """A language as its own speakers name it, with its code ("English (en)", "русский (ru)"): how `/lang` names a
    language, so that a reader finds his own whatever language the message is in (Babel's CLDR names)."""
    return f"{_locale(language).get_display_name(language)} ({language})"


def language_choices() -> str:
    """Every language `/lang` offers, each by `language_label`."""
    return ", ".join(language_label(language) for language in languages())


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def format_number(language: str, value: Number | Signed) -> str:
    """A number as `language` writes it (see the module's docstring); `Signed` adds "+" or "−"."""
    if isinstance(value, Signed):
        shown = format_number(language, -value.value if value.value < 0 else value.value)
        return f"+{shown}" if value.value > 0 else (f"−{shown}" if value.value < 0 else shown)
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return format_decimal(value, format=pattern, locale=_locale(language))
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, int):
        return _format_int(language, value)
    return format_decimal(value, locale=_locale(language))


@lru_cache(maxsize=65536)
def _format_int(language: str, value: int) -> str:
    """A whole number as `language` writes it, remembered: Babel takes half a millisecond for each, and every action
    formats a dozen chip counts (stacks, bets, pots), most of them seen before."""
    return format_decimal(value, locale=_locale(language))


def plural_category(language: str, value: object) -> str:
    """The CLDR plural category (`one`, `few`, `many`, `other`…) of a count in `language`, by Babel's rule; `other`
    for something that is not a number."""
    if type(value) is int:
        return _int_category(language, value)
    if isinstance(value, Signed):
        value = -value.value if value.value < 0 else value.value
    if isinstance(value, Fraction):
        value = float(value)
    if isinstance(value, str):
        try:
            value = Decimal(value.replace(",", ""))
        except ArithmeticError:
            return "other"
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return "other"
    return str(_locale(language).plural_form(value))


@lru_cache(maxsize=65536)
def _int_category(language: str, value: int) -> str:
    """The plural category of a whole number, remembered like `_format_int`: chip counts repeat at every action."""
    return str(_locale(language).plural_form(value))


def plural_categories(language: str, *, ordinal: bool = False) -> frozenset[str]:
    """Every plural category `language` has (English: one, other; Russian: one, few, many, other), or with `ordinal`
    every ordinal one (English: one, two, few, other; Russian: other)."""
    rule = _locale(language).ordinal_form if ordinal else _locale(language).plural_form
    return frozenset(rule.tags | {"other"})


def ordinal_category(language: str, value: object) -> str:
    """The CLDR ordinal category of a rank in `language` (English 1 and 21 `one`, 2 `two`, 3 `few`, 11-13 `other`);
    `other` for anything but a whole number."""
    if type(value) is not int:
        return "other"
    return str(_locale(language).ordinal_form(value))


# --- the plural syntax ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Plural:
    """One `{name, plural, …}` (or `{name, selectordinal, …}`) block of a message: the counted parameter, its branch
    for each selector (`one`, `few`, …, or an exact `=0`), and whether it counts (1 chip) or ranks (1st place)."""

    name: str
    branches: dict[str, str]
    ordinal: bool = False

    def choose(self, language: str, value: object) -> str:
        """The branch for `value`: an exact `=N` branch when one matches, else its CLDR category's, else `other`."""
        if isinstance(value, int | Decimal) and not isinstance(value, bool) and f"={value}" in self.branches:
            return self.branches[f"={value}"]
        category = ordinal_category(language, value) if self.ordinal else plural_category(language, value)
        return self.branches.get(category, self.branches["other"])


_PLURAL_START = re.compile(r"\{(\w+),\s*(plural|selectordinal),")
_SELECTOR = re.compile(r"\s*(=\d+|\w+)\s*\{")


def _closing(template: str, start: int) -> int:
    """The index just past the `}` that closes the `{` at `start`."""
    depth = 0
    for index in range(start, len(template)):
        if template[index] == "{":
            depth += 1
        elif template[index] == "}":
            depth -= 1
            if depth == 0:
                return index + 1
    raise ValueError(f"unbalanced braces in {template!r}")


@cache
def parse(template: str) -> tuple[str | Plural, ...]:
    """A message split into plain `str.format` text and plural blocks. Raises ValueError for a malformed block."""
    parts: list[str | Plural] = []
    position = 0
    for found in _PLURAL_START.finditer(template):
        if found.start() < position:
            continue  # a block inside an earlier block's branch is that branch's text
        end = _closing(template, found.start())
        parts.append(template[position:found.start()])
        branches: dict[str, str] = {}
        cursor = found.end()
        while (selector := _SELECTOR.match(template, cursor)) is not None:
            branch_end = _closing(template, selector.end() - 1)
            branches[selector.group(1)] = template[selector.end():branch_end - 1]
            cursor = branch_end
        if template[cursor:end].strip() != "}" or "other" not in branches:
            raise ValueError(f"a plural block needs `selector {{text}}` branches and an `other` one: {template!r}")
        parts.append(Plural(found.group(1), branches, ordinal=found.group(2) == "selectordinal"))
        position = end
    parts.append(template[position:])
    return tuple(part for part in parts if part != "")


def placeholders(template: str) -> set[str]:
    """The `{names}` a message template expects (counts of plural blocks and the placeholders in their branches)."""
    names: set[str] = set()
    for part in parse(template):
        if isinstance(part, Plural):
            names.add(part.name)
            for branch in part.branches.values():
                names |= placeholders(branch)
        else:
            names |= {name for _, name, _, _ in string.Formatter().parse(part) if name}
    return names


def _shown(language: str, name: str, value: object) -> object:
    """A parameter as it goes into the message: numbers formatted for the language unless the name is VERBATIM."""
    if type(value) is str:  # the common cases first: names, cards and rendered text, then chip counts
        return value
    if type(value) is int:
        return value if name in VERBATIM else _format_int(language, value)
    if name in VERBATIM or isinstance(value, bool) or not isinstance(value, int | float | Decimal | Fraction | Signed):
        return value
    return format_number(language, value)


def render(language: str, template: str, params: Mapping[str, object]) -> str:
    """A template with its plural blocks chosen and its placeholders filled, numbers formatted for `language`."""
    return _fill(language, parse(template), params)


def _fill(language: str, parts: tuple[str | Plural, ...], params: Mapping[str, object]) -> str:
    """A parsed template (see `parse`) with its plural blocks chosen and its placeholders filled."""
    shown = {name: _shown(language, name, value) for name, value in params.items()}
    if len(parts) == 1 and type(parts[0]) is str:  # most messages: no plural block
        return parts[0].format(**shown)
    out: list[str] = []
    for part in parts:
        if isinstance(part, Plural):
            value = params[part.name]
            branch = part.choose(language, value).replace("#", str(shown[part.name]))
            out.append(render(language, branch, params))
        else:
            out.append(part.format(**shown))
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Message:
    """A catalogue message parsed once: the language it is written in (English when missing in the one asked for),
    its parts (see `parse`), and its text when it has no placeholder at all (the same whatever the parameters)."""

    language: str
    parts: tuple[str | Plural, ...]
    constant: str | None


@cache
def _message(language: str, key: str) -> _Message | None:
    """The message `key` for `language`, None when no language has it. Catalogues do not change while the bot runs,
    so each message is looked up and parsed once."""
    template = catalogue(language).get(key)
    if not template:
        language, template = DEFAULT_LANGUAGE, catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        return None
    parts = parse(template)
    return _Message(language, parts, _constant(parts))


def _constant(parts: tuple[str | Plural, ...]) -> str | None:
    """The text of a message without placeholders or plural blocks (its `{{` and `}}` unescaped), else None."""
    if len(parts) != 1 or not isinstance(parts[0], str):
        return None if parts else ""
    try:
        if any(field is not None for _, field, _, _ in string.Formatter().parse(parts[0])):
            return None
    except ValueError:  # malformed: filling it raises, as it always did
        return None
    return parts[0].format()


def text(lang: str, key: str, /, **params: object) -> str:
    """The message `key` in the language `lang` (English when missing there), with its placeholders filled."""
    # Not named `language`, a placeholder's name: compiled, a positional-only parameter still takes its name.
    return message(lang, key, params)


def message(language: str, key: str, params: Mapping[str, object]) -> str:
    """`text` with its parameters in a mapping (for callers that already hold them in one)."""
    found = _message(language, key)
    if found is None:
        raise KeyError(f"no message {key!r}")
    if found.constant is not None:
        return found.constant
    return _fill(found.language, found.parts, params)


def own_language(settings: Mapping[str, object], locale: str | None) -> str:
    """The language of what only the player whose platform `locale` this is reads (his refusals, his wallet), when he
    chose none of his own (`/lang ru me`): the chat's `/lang` choice, else his `locale`, else the chat's."""
    return _first_known(settings.get("language"), locale, settings.get("locale"))


def chat_language(settings: Mapping[str, object], locale: str | None = None) -> str:
    """The language to answer a chat in: its `/lang` choice, else the locale of the chat's first player (kept as
    the `locale` setting), else the actor's platform `locale`, else English. The chat's own choices come before the
    actor's, so that a group's table does not switch languages with whoever acted last."""
    return _first_known(settings.get("language"), settings.get("locale"), locale)


def _first_known(*choices: object) -> str:
    """The first of `choices` that is a language the catalogues have, else English."""
    for language in choices:
        if isinstance(language, str) and language in languages():
            return language
    return DEFAULT_LANGUAGE
