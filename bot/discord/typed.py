"""The service's texts that spell a command as it is typed in a chat (`/ante chips [pp chips]`, `/back post`), as
the slash command and the options Discord shows its members instead (`/ante amount [pairplus]`, `/back choice: post
the big blind now`), and each slash command a text names as Discord's mention of it once its id is known."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot import commands as cmd
from bot.i18n import catalogue, languages, message, text
from bot.render import Voice
from bot.render.house import ante_usage
from engine.house.common import Limits

TYPED, SLASH = "discord.typed.", "discord.slash."
"""The catalogue's pairs of a typed form (`discord.typed.<name>`) and its form on Discord (`discord.slash.<name>`)."""
VALUES = {"language": "[a-z]{2}", "typed": "[0-9]+", "name": "[a-z_]+"}
"""What each placeholder of a typed form stands for in a text (`/lang {language} me`, `/join {typed}`)."""
SIDE_OPTIONS = {"": (), "pairplus": ("discord.ante.pairplus",), "bonus": ("discord.ante.bonus",)}
"""The option of each house game's side bet (none at Texas and Russian Poker), by the game's `side_name`."""
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_START = re.compile(r"[/“«]")
"""Where a typed form may start: a command, or a quoted option (“box 2”); not after a letter or digit (`10/20`)."""
_COMMAND = re.compile(r"/(?<![\w/“«]/)([a-z]+)(?: ([a-z]+))?(?![\w:-])")  # (its `/` first: a quick scan)
"""A slash command named in a text: its name, and the word after it (its subcommand, if it has them); not after a
letter, a digit or a `/` (`10/20`, a link), nor one a mention holds already (`</fold:1>`), nor one just after an
opening quote (a player's input quoted, `“/fold now”`: the catalogue quotes none of its own commands)."""
NO_MENTIONS: Mapping[str, str] = MappingProxyType({})
"""No command's id known: the commands a text names stay as they are written."""


@dataclass(frozen=True)
class _Form:
    """One typed form: how it reads in a text (its placeholders as groups) and the catalogue's form on Discord."""

    typed: re.Pattern[str]
    language: str
    slash: str
    """A catalogue key (filled with the typed form's placeholders), or the text itself when `is_key` is False."""
    is_key: bool

    def shown(self, typed: str) -> str:
        """The form on Discord of `typed`, which this form matched."""
        found = self.typed.fullmatch(typed)
        assert found is not None
        if not self.is_key:  # its placeholders (the bonus's one size: `[bonus: {typed}]`) as the typed form had them
            return _PLACEHOLDER.sub(lambda name: found[name[1]], self.slash)
        # its parameters as a mapping: one may be named `language` (`/lang {language}`), which compiled `text`
        # takes for its own positional-only argument
        return message(self.language, self.slash, found.groupdict())


@dataclass(frozen=True)
class _Forms:
    """Every typed form of a language (or of all, `_forms(None)`) in one pattern: the longest tried first."""

    pattern: re.Pattern[str]
    forms: tuple[_Form, ...]


def as_slash(line: str, language: str | None) -> str:
    """`line` with each typed form of a command in `language` as Discord shows it. Without a language (a text whose
    language is not known where it is rewritten), only the typed forms that read alike in no two languages."""
    forms = _forms(language)
    parts, end = [], 0
    for start in _starts(line):
        found = forms.pattern.match(line, start) if start >= end else None
        if found is not None:
            parts += [line[end:start], forms.forms[int(str(found.lastgroup)[1:])].shown(found[0])]
            end = found.end()
    return "".join(parts) + line[end:] if parts else line


def with_command_mentions(shown: str, mentions: Mapping[str, str]) -> str:
    """`shown` (a text ready for a message's content: typed forms as Discord shows them, `as_slash`, and escaped,
    `bot.discord.markup.plain`) with each slash command it names as Discord's mention of it (`</fold:123>`), where
    `mentions` (by the command's name after its `/`: `fold`, `tournament redeem`) has it; the rest of the form (its
    options) follows as it was. A mention is clickable, opening the command in the member's message box; Discord
    shows it by its registered (English) name in every client, as the text wrote it. Only a message's content and an
    embed's description render mentions: a button's label or a modal's title is never rewritten so."""
    if not mentions:
        return shown
    return _COMMAND.sub(functools.partial(_mention, mentions), shown)


def _mention(mentions: Mapping[str, str], found: re.Match[str]) -> str:
    """A slash command named in a text as its mention: the subcommand's if the word after it names one, else the
    command's, the word after it kept; as it was when Discord gave no id for it (`/select`, a group alone)."""
    name, after = found[1], found[2]
    if after is not None and f"{name} {after}" in mentions:
        return mentions[f"{name} {after}"]
    return mentions[name] + found[0][len(name) + 1:] if name in mentions else found[0]


def names_typed(line: str) -> bool:
    """Whether `line` holds a typed form of any language (so that its language must be known to rewrite it)."""
    return any(_forms(language).pattern.match(line, start) is not None
               for start in _starts(line) for language in languages())


def _starts(line: str) -> Iterator[int]:
    """Where a typed form may start in `line` (a quick scan: a text holds few, a table's none but its `10/20`)."""
    for found in _START.finditer(line):
        start = found.start()
        if start == 0 or not (line[start - 1].isalnum() or (found[0] == "/" and line[start - 1] in "“«")):
            yield start  # (a command just after an opening quote is a player's input quoted: `_COMMAND`)


@functools.cache
def _forms(language: str | None) -> _Forms:
    """A language's typed forms (or those of all languages whose typed text no other language shares with a
    different form on Discord) in one pattern, each an alternative named `f<index>`, the longest first."""
    if language is not None:
        forms = _typed_forms(language)
    else:
        every = [(typed, form) for language in languages() for typed, form in _typed_forms(language).items()]
        shown: dict[str, set[str]] = {}
        for typed, form in every:
            shown.setdefault(typed, set()).add(_template(form))
        forms = {typed: form for typed, form in every if len(shown[typed]) == 1}
    ordered = sorted(forms.items(), key=lambda item: -len(item[0]))
    alternatives = [f"(?P<f{index}>{_regex(typed, named=False)})" for index, (typed, _) in enumerate(ordered)]
    pattern = re.compile(rf"(?:{'|'.join(alternatives)})(?![\w:-])")  # (`/set name:` is Discord's already)
    return _Forms(pattern, tuple(_Form(re.compile(_regex(typed, named=True)), form_language, slash, is_key)
                                 for typed, (form_language, slash, is_key) in ordered))


def usage(language: str, command: type[cmd.Command]) -> str:
    """A command's arguments as `/help` and a refusal write them in a chat (`usage.<name>`, else as the parser spells
    them)."""
    key = f"usage.{command.name}"
    return text(language, key) if key in catalogue(language) else command.usage


def _typed_forms(language: str) -> dict[str, tuple[str, str, bool]]:
    """A language's typed forms, each by its template: the language, and its form on Discord as a catalogue key to
    fill or as its text (with whether it is a key). They are the catalogue's pairs (`discord.typed.*`), each command's
    usage where Discord names its options otherwise (`/help`'s lines and a refusal's "Usage: …"), and `/ante` as
    each house table states it (`bot.render.house.ante_usage`)."""
    messages = catalogue(language)
    forms = {messages[key]: (language, SLASH + key.removeprefix(TYPED), True)
             for key in messages if key.startswith(TYPED)}
    for command in cmd.COMMANDS:
        key = f"discord.usage.{command.name}"
        if key in messages:
            typed = f"/{command.name} {usage(language, command)}"
            forms[typed] = (language, f"/{command.name} {text(language, key)}", False)
    voice = Voice(language)
    for boxes in range(1, Limits().max_boxes + 1):
        for side, option in SIDE_OPTIONS.items():
            words = [text(language, "discord.ante.amount")]
            if boxes > 1:
                words.append(text(language, "discord.ante.box", boxes=boxes))
            words += [text(language, key, typed="{typed}") for key in option]  # the bonus's size, as typed
            typed = ante_usage(voice, Limits(max_boxes=boxes), side, side_size="{typed}")  # the bonus's one size
            forms[typed] = (language, f"/ante {' '.join(words)}", False)
    return forms


def _template(form: tuple[str, str, bool]) -> str:
    """A form on Discord as its language writes it, placeholders unfilled."""
    language, slash, is_key = form
    return catalogue(language)[slash] if is_key else slash


def _regex(typed: str, *, named: bool) -> str:
    """A typed form's template as a pattern: its words as they are, each placeholder as what it stands for
    (`VALUES`), a named group when `named`."""
    parts = _PLACEHOLDER.split(typed)
    pattern = ""
    for index, part in enumerate(parts):
        if index % 2 == 0:
            pattern += re.escape(part)
        else:
            pattern += f"(?P<{part}>{VALUES[part]})" if named else f"(?:{VALUES[part]})"
    return pattern
