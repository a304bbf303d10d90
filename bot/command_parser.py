"""One command parser for every adapter: chat text (`/raise 40`) and button payloads become typed commands."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re

from bot.commands import (
    BY_WORD,
    AddBot,
    Ante,
    Automuck,
    Back,
    Bet,
    Clock,
    Command,
    CommandError,
    Exchange,
    Export,
    Game,
    Grant,
    Help,
    History,
    Join,
    Lang,
    Pawn,
    Pre,
    Pressed,
    Raise,
    Run,
    Season,
    Select,
    Setting,
    Stats,
    Straddle,
    Tournament,
)
from engine.text import WORD_JOINER, as_typed, is_storable, quote_input

MAX_AMOUNT = 10**9
"""No sane table bets more; it keeps typos like 1e30 out of the engine."""
PRE_CHOICES = {"checkfold": "check_fold", "check_fold": "check_fold", "check": "check", "call": "call",
               "callany": "call_any", "call_any": "call_any"}
"""The words of `/pre` and the pre-actions they choose (`engine.preactions.PreAction` values)."""
RUN_WORDS = {"once": False, "twice": True, "1": False, "2": True, "раз": False, "дважды": True}
"""The words of `/run once|twice` (and the Russian ones)."""
SWITCH_WORDS = {"on": True, "off": False, "вкл": True, "выкл": False}
"""The words of `/automuck on|off` (and the Russian ones)."""
SIDE_WORDS = {"pp": "pairplus", "pairplus": "pairplus", "bonus": "bonus"}
"""The words of `/ante`'s side bet, one per box, and the bet each names: PAIRPLUS (Three Card Poker) or bonus
(Caribbean Poker)."""
TOURNAMENT_BARE_WORDS = frozenset({"start", "pause", "resume", "skip", "status", "clock", "cashout", "rebuy", "addon",
                                   "close", "end", "settle"})
"""The `/tournament` subcommands that take no argument (`bot.games.tournament`'s table has them all)."""
TOURNAMENT_REGISTER_WORDS = frozenset({"register", "join"})
"""The `/tournament` subcommands that register: no argument, or the one number refused with the fixed buy-in."""
PERSONAL_WORDS = ("me", "я", "мне")
"""The last word of `/lang ru me`: the language is for the speaker's own private messages."""
TV_WORDS = ("tv", "тв")
"""The word of `/clock tv`: the link of the clock's web page, for a TV in the room."""
ALL_TIME_WORDS = ("all", "все", "всё")
"""The period word of `/stats @ann all`: every hand ever played (the default)."""
_DAYS = re.compile(r"([0-9]+)[dд]", re.IGNORECASE)
"""The period of `/stats 30d`: the last so many days (`30д` in Russian)."""

_COMMAND_WORD = re.compile(r"^/?([A-Za-z][\w-]*)(?:@\w+)?$")
_CLOSE = 0.7
"""How alike a typed word and a command word must be for the word to be suggested: `jion` and `join` are 0.75, while
`hello` and `help` (0.67) are not taken for each other."""
_DIGITS = re.compile(r"[0-9]+")
"""ASCII digits only: `４０` (full-width) or `٤٠` (Arabic-Indic) are not read as 40."""


def parse_amount(text: str, what: str = "amount") -> int:
    """A whole, positive number of chips, at most `MAX_AMOUNT` (a larger one is refused as too large, with the
    limit; anything else that is not plain digits 0-9 as not a number)."""
    if not _DIGITS.fullmatch(text) or not text.strip("0"):
        raise CommandError("bad_amount", value=quote_input(text), what=what)
    if len(text.lstrip("0")) > len(str(MAX_AMOUNT)) or int(text) > MAX_AMOUNT:  # no int() of 5,000 digits
        raise CommandError("amount_too_large", value=quote_input(text), what=what, limit=MAX_AMOUNT)
    return int(text)


def parse_stake(text: str, what: str) -> int:
    """`/ante`'s ANTE or side bet: a whole number of chips as `parse_amount` reads one, or 0. Whether the table takes a
    0 is its game's to say (Three Card Poker's ANTE of 0 goes with a PAIRPLUS alone), so a stake that is not plain
    digits is refused as not a whole number, without "above zero"."""
    if not _DIGITS.fullmatch(text):
        raise CommandError("bad_stake", value=quote_input(text), what=what)
    return parse_amount(text, what) if text.strip("0") else 0


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """`text` as a plain whole number of at most ten digits 0-9 (with a sign when `signed`), else None: so `²`, `４０`
    or twenty digits get a usage answer instead of an exception further on."""
    digits = text[1:] if signed and text[:1] in ("+", "-") else text
    if not _DIGITS.fullmatch(digits) or len(digits) > 10:
        return None
    return int(text)


def parse(text: str) -> Command:
    """Read one command from chat text: `/raise 40`, `raise 40`, `/ante@pokerbot 10 box 2 pp 5`.

    Text that cannot be stored (a lone surrogate) is refused here, before any of it reaches the database; an unknown
    command is answered quoting the word as it was typed (`quote_input`), with the command it is close to, if any.
    Word joiners are dropped before any word is read: a player's text has them only where he copied the bot's quote
    of his input (`inert`: "/\\u2060fold", "Europe/\\u2060Moscow"), and what he copied reads as he had typed it."""
    if not is_storable(text):
        raise CommandError("bad_text")
    if WORD_JOINER in text:  # the usual line has none: one scan, no copy
        text = as_typed(text)
    typed = text.strip()
    words = typed.split()
    if not words:
        raise CommandError("empty")
    match = _COMMAND_WORD.match(words[0])
    cls = BY_WORD.get(match.group(1).lower()) if match else None
    if cls is None:
        raise unknown_command(words[0], match.group(1).lower() if match else None)
    args = words[1:]
    try:
        return _build(cls, args, typed)
    except CommandError as error:
        if error.code == "usage":
            # `/call 10`: say it takes nothing rather than "Usage: /call " and no more
            error = (CommandError("usage", command=cls.name, usage=cls.usage) if cls.usage
                     else CommandError("no_arguments", command=cls.name))
            error.command_type = cls
            raise error from None
        error.command_type = cls
        raise


def unknown_command(typed: str, word: str | None) -> CommandError:
    """The answer to an unknown command `typed` (its command word `word`, lowercased), naming the command word it is
    close to, if any (`/jion`: /join)."""
    close = difflib.get_close_matches(word, BY_WORD, n=1, cutoff=_CLOSE) if word else []
    if close:
        return CommandError("did_you_mean", command=quote_input(typed), suggestion=close[0])
    return CommandError("unknown_command", command=quote_input(typed))


def _build(cls: type[Command], args: list[str], typed: str) -> Command:
    """The command `cls` from its arguments `args` (its words after the command word) or, for a command that names a
    player, from the `typed` text itself: a name keeps its own spaces."""
    if cls in (Bet, Raise, Join):
        _at_most(args, 1)
        return cls(parse_amount(args[0])) if args else cls()
    if cls is Ante:
        return _ante(args)
    if cls is Grant:  # `/grant Ann Lee 50`: the name is every word before the amount
        if len(args) < 2:
            raise CommandError("usage")
        return Grant(player=_player(_rest(typed)[:-len(args[-1])]), chips=parse_amount(args[-1]))
    if cls is Exchange:
        if not 1 <= len(args) <= 5:
            raise CommandError("usage")
        return Exchange(cards=tuple(args))
    if cls is Select:  # a position beyond the box's cards is the table's to refuse, as /exchange's is
        if len(args) > 5 or not all(whole_number(arg) is not None for arg in args):
            raise CommandError("usage")
        return Select(tuple(sorted({int(arg) for arg in args})))
    if cls is Back:
        _at_most(args, 1)
        if args and args[0].lower() not in ("post", "wait"):
            raise CommandError("usage")
        return Back(args[0].lower() if args else None)
    if cls is Straddle:
        _at_most(args, 1)
        if args and args[0].lower() != "off":
            raise CommandError("usage")
        return Straddle(off=bool(args))
    if cls is Pre:
        if not args or args[0].lower() not in PRE_CHOICES:
            raise CommandError("usage")
        choice = PRE_CHOICES[args[0].lower()]
        if len(args) > (2 if choice == "call" else 1):
            raise CommandError("usage")
        return Pre(choice, parse_amount(args[1]) if len(args) == 2 else None)
    if cls is Pawn:
        if not args:
            raise CommandError("usage")
        return Pawn(item=" ".join(args))
    if cls is Tournament:
        if not args:
            raise CommandError("usage")
        return _tournament(args[0].lower(), args[1:])
    if cls is Setting:
        if len(args) not in (0, 2):
            raise CommandError("usage")
        return Setting(args[0].lower(), args[1]) if args else Setting()
    if cls is AddBot and args and args[0].lower() == "remove":
        if len(args) != 2:
            raise CommandError("usage")
        return AddBot(args[1], remove=True)
    if cls is Stats:
        return _stats(_rest(typed))
    if cls in (Season, Export):
        return cls(args[0].lower(), " ".join(args[1:])) if args else cls()
    if cls is History:  # a count of hands, or `tournament [number]` (read by `bot.history`)
        _at_most(args, 2)
        return History(" ".join(args)) if args else History()
    if cls is AddBot:
        _at_most(args, 1)
        return AddBot(args[0]) if args else AddBot()
    if cls is Automuck:
        _at_most(args, 1)
        if args and args[0].lower() not in SWITCH_WORDS:
            raise CommandError("usage")
        return Automuck(SWITCH_WORDS[args[0].lower()] if args else None)
    if cls is Run:
        if len(args) != 1 or args[0].lower() not in RUN_WORDS:
            raise CommandError("usage")
        return Run(RUN_WORDS[args[0].lower()])
    if cls is Lang:
        personal = bool(args) and args[-1].lower() in PERSONAL_WORDS
        words = args[:-1] if personal else args
        _at_most(words, 1)
        return Lang(words[0].lower() if words else None, personal=personal)
    if cls is Clock:
        _at_most(args, 1)
        if args and args[0].lower() not in TV_WORDS:
            raise CommandError("usage")
        return Clock(tv=bool(args))
    if cls in (Help, Game):
        _at_most(args, 1)
        return cls(args[0].lower().lstrip("/")) if args else cls()
    _at_most(args, 0)
    return cls()


_QUOTES = {'"': '"', "“": "”", "„": "“", "«": "»"}
"""The quotes a typed name may stand in, opening to closing: `/stats "Ann all"` names the player "Ann all"."""


def _rest(typed: str) -> str:
    """The text after the command word, as typed (`typed` has no space at either end)."""
    parts = typed.split(None, 1)
    return parts[1] if len(parts) > 1 else ""


def _player(typed: str) -> str:
    """A player's name as typed: the text itself, without the quotes around it (`"Ann Lee"`, `«Ann Lee»`)."""
    name = typed.strip()
    if len(name) > 1 and _QUOTES.get(name[0]) == name[-1]:
        name = name[1:-1].strip()
    if not name:
        raise CommandError("usage")
    return name


def _at_most(args: list[str], count: int) -> None:
    if len(args) > count:
        raise CommandError("usage")


def _tournament(action: str, args: list[str]) -> Tournament:
    """`/tournament <subcommand> [argument]`: a subcommand that takes nothing is refused with anything after it
    (`/tournament start now` said nothing of the word and started). A registration reads an amount, as `/join 500`
    does, for the game to answer with the tournament's fixed buy-in: all its numbers as one amount (`5 000` is one
    written in groups, and `5 5` is no less an offer of chips); a word after it is refused as above."""
    argument = " ".join(args)
    if action in TOURNAMENT_REGISTER_WORDS:
        argument = "".join(args)
        fits = not args or whole_number(argument) is not None
    else:
        fits = not args or action not in TOURNAMENT_BARE_WORDS
    if not fits:
        raise CommandError("no_arguments", command=f"{Tournament.name} {action}")
    return Tournament(action=action, argument=argument)


def _stats(rest: str) -> Stats:
    """`/stats [player] [30d|all]`, the period last or first: a word there that names a period is the period, and
    the rest is the player's name (`/stats Ann Lee 30d`; in quotes, a name like a period: `/stats "all"`)."""
    words = rest.split()
    days = None
    if words and _is_period(words[-1]):
        days, rest = _days(words[-1]), rest[:-len(words[-1])]
    elif words and _is_period(words[0]):
        days, rest = _days(words[0]), rest[len(words[0]):]
    left = rest.split()
    if left and (_is_period(left[0]) or _is_period(left[-1])):  # `/stats 30d Ann all`: two periods
        raise CommandError("usage")
    return Stats(_player(rest) if left else None, days)


def _is_period(word: str) -> bool:
    """Whether a word of `/stats` names its period: `all` or a number of days (`30d`)."""
    return word.lower() in ALL_TIME_WORDS or _DAYS.fullmatch(word) is not None


def _days(word: str) -> int | None:
    """The days of a period word (None: all time); a period of no day or of more than ten years is refused."""
    found = _DAYS.fullmatch(word)
    if found is None:
        return None
    if not 0 < int(found.group(1)) <= 3650:
        raise CommandError("usage")
    return int(found.group(1))


def _ante(args: list[str]) -> Ante:
    """`/ante chips [box 1-3] [pp|pairplus|bonus chips]`, each option at most once: `pp 5 pp 20` or `pp 5 bonus 7`
    is refused rather than one of them taken. An ANTE of 0 is read (`/ante 0 pp 5`, or alone): whether the game lets
    a box carry its side bet alone, and what an ANTE of 0 needs there, is the engine's to say; so is a side bet of 0
    (`pp 0`: none, where the table's range starts at 0)."""
    if not args:
        raise CommandError("usage")
    amount = parse_stake(args[0], "ante")  # 0: the side bet alone, if one follows
    box: int = 1
    side: int | None = None
    side_kind: str | None = None
    rest = args[1:]
    seen: set[str] = set()
    while rest:
        if len(rest) < 2:
            raise CommandError("usage")
        word, value, rest = rest[0].lower(), rest[1], rest[2:]
        option = "side" if word in SIDE_WORDS else word
        if option in seen:
            raise CommandError("usage")
        seen.add(option)
        if word == "box":
            if value not in ("1", "2", "3"):
                raise CommandError("bad_box", value=quote_input(value))
            box = int(value)
        elif option == "side":
            side, side_kind = parse_stake(value, word), SIDE_WORDS[word]
        else:
            raise CommandError("usage")
    return Ante(amount=amount, box=box, side=side, side_kind=side_kind)


def button_payload(key: str, command: str, decision: str = "") -> str:
    """The data a button carries (fits Telegram's 64 bytes): the hand/round key, the decision it was drawn for when it
    takes one (`h4|s17|check`, `r2|b3s5|fold`, see the controllers' `decision`), and the command (`r2|cards`)."""
    payload = f"{key}|{decision}|{command}" if decision else f"{key}|{command}"
    if len(payload.encode()) > 64:
        raise ValueError(f"button payload too long: {payload!r}")
    return payload


def is_round_key(key: str) -> bool:
    """Whether a hand/round key (`button_payload`) names a house round (`r2`) rather than a Hold'em hand (`h4`): what
    a player is told is over, or in progress, is then a round (DESIGN.md's names)."""
    return key.startswith("r")


def parse_payload(payload: str) -> Pressed:
    """Read a button's data back into the hand key, the decision (if any) and the command."""
    key, sep, text = payload.partition("|")
    if not sep or not key:
        raise CommandError("stale_button")
    decision, sep, command = text.partition("|")
    if not sep:
        decision, command = "", text
    elif not decision:
        raise CommandError("stale_button")
    return Pressed(key, _button_command(command), decision)


@functools.lru_cache(maxsize=4096)
def _button_command(text: str) -> Command:
    """A button's command (`call`, `raise 40`), read once for every button that carries the same words: commands are
    frozen, so one serves them all (a text `parse` refuses is not kept and is refused again). A card's toggle says
    it came from a button (`Select.by_button`): a bare one unmarks the last card, a typed one is told the usage."""
    command = parse(text)
    return dataclasses.replace(command, by_button=True) if isinstance(command, Select) else command
