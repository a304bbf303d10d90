"""The commands every adapter sends, one frozen dataclass each: its chat word, usage, aliases and arguments
(`bot.command_parser` reads them from chat text and button payloads)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


class CommandError(ValueError):
    """Input that is not a valid command: `code` names the problem for the message catalogue."""

    def __init__(self, code: str, **params: str | int) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.command_type: type[Command] | None = None
        """The command whose arguments were wrong (`/ante x`), when the command word was known."""


@dataclass(frozen=True)
class Command:
    """A parsed command. `name` is the chat command word; `usage` its argument pattern."""

    name: ClassVar[str] = ""
    usage: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    logged_before: ClassVar[dict[str, Any]] = {}
    """The values of fields added since an older version logged the command without them: its logged entry is read
    back with these (`bot.replay.entry_command`), so it replays as it was applied then."""


# --- table and wallet ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Help(Command):
    """Show the commands, or one command's usage."""

    name = "help"
    usage = "[command]"
    aliases = ("start_help", "commands")
    topic: str | None = None


@dataclass(frozen=True)
class Join(Command):
    """Sit down at the channel's table (in Hold'em, with a buy-in from the wallet)."""

    name = "join"
    usage = "[chips]"
    aliases = ("sit",)
    chips: int | None = None


@dataclass(frozen=True)
class Leave(Command):
    """Stand up: at once between hands, else after the current hand."""

    name = "leave"
    aliases = ("stand",)


@dataclass(frozen=True)
class Away(Command):
    """Sit out from the next hand, keeping your seat and stack."""

    name = "away"
    aliases = ("sitout",)
    logged_before: ClassVar[dict[str, Any]] = {"from_next_hand": False}
    from_next_hand: bool = True
    """In a tournament, a player holding cards in the hand in play is blinded out from the next hand, and plays this
    one out (RULES.md §1a). An older version blinded him out at once: its logged `/away` replays so."""


@dataclass(frozen=True)
class Back(Command):
    """Come back after /away; at a cash table `post` a big blind now or `wait` for the big blind."""

    name = "back"
    usage = "[post|wait]"
    choice: str | None = None


@dataclass(frozen=True)
class Deal(Command):
    """Deal the next hand or round."""

    name = "deal"
    aliases = ("next",)


@dataclass(frozen=True)
class Game(Command):
    """Choose the channel's game (organizer), or show it."""

    name = "game"
    usage = "[holdem|omaha|texas|russian|caribbean|three-card]"
    game: str | None = None


@dataclass(frozen=True)
class Setting(Command):
    """Change one table setting (organizer), or list them."""

    name = "set"
    usage = "[name value]"
    key: str | None = None
    value: str | None = None


@dataclass(frozen=True)
class Balance(Command):
    """Show your wallet."""

    name = "balance"
    aliases = ("bal", "wallet")


@dataclass(frozen=True)
class Grant(Command):
    """Give chips to a player's wallet (organizer): `player` is every word before the amount (`/grant Ann Lee 50`)."""

    name = "grant"
    usage = "player chips"
    player: str = ""
    chips: int = 0


@dataclass(frozen=True)
class Organizers(Command):
    """Name the chat's organizers."""

    name = "organizers"
    aliases = ("organisers",)


@dataclass(frozen=True)
class Top(Command):
    """The chat's leaderboard: net chips won in its cash games, and tournament results in money."""

    name = "top"
    aliases = ("leaderboard",)


@dataclass(frozen=True)
class Cards(Command):
    """Show your own cards, privately."""

    name = "cards"
    aliases = ("mycards", "hand")


@dataclass(frozen=True)
class Table(Command):
    """Show the table."""

    name = "table"
    aliases = ("status",)


@dataclass(frozen=True)
class Rabbit(Command):
    """See the board cards the last hand would have dealt, when it ended before the river (Hold'em, Omaha)."""

    name = "rabbit"
    aliases = ("rabbithunt",)


# --- Hold'em ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fold(Command):
    """Give up the hand (or the box)."""

    name = "fold"


@dataclass(frozen=True)
class Check(Command):
    """Pass when nothing is owed."""

    name = "check"


@dataclass(frozen=True)
class Call(Command):
    """Match the bet."""

    name = "call"


@dataclass(frozen=True)
class Bet(Command):
    """Open the betting (Hold'em), or place the BET in a house game."""

    name = "bet"
    usage = "[chips]"
    amount: int | None = None


@dataclass(frozen=True)
class Raise(Command):
    """Raise to a total (fixed-limit tables take the fixed size without an amount)."""

    name = "raise"
    usage = "[to-chips]"
    amount: int | None = None


@dataclass(frozen=True)
class AllIn(Command):
    """Put in every chip."""

    name = "allin"
    aliases = ("all-in", "shove")


@dataclass(frozen=True)
class Straddle(Command):
    """Post a straddle (twice the big blind) in the next hand, left of the big blind; `off` takes it back."""

    name = "straddle"
    usage = "[off]"
    off: bool = False


@dataclass(frozen=True)
class Pre(Command):
    """Choose what you will do when your turn comes (check/fold, check, call N, call any); the same again cancels it.
    `chips`: the bet "call N" calls (None: the bet as it is now)."""

    name = "pre"
    usage = "checkfold|check|call [N]|callany"
    choice: str = ""
    chips: int | None = None


@dataclass(frozen=True)
class Pawn(Command):
    """Pawn an item to the tournament bank for chips (RULES §1)."""

    name = "pawn"
    usage = "item description"
    item: str = ""


@dataclass(frozen=True)
class Show(Command):
    """Show your hand at the showdown, or after winning a pot uncontested."""

    name = "show"


@dataclass(frozen=True)
class Muck(Command):
    """Throw your hand away unseen at the showdown (only a hand that cannot win)."""

    name = "muck"


@dataclass(frozen=True)
class Automuck(Command):
    """Whether your hands beaten at the showdown are mucked for you (on by default), or show the setting."""

    name = "automuck"
    usage = "[on|off]"
    on: bool | None = None


@dataclass(frozen=True)
class Run(Command):
    """Answer "run it once or twice?" when everyone still in is all-in."""

    name = "run"
    usage = "once|twice"
    twice: bool = False


# --- house games ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ante(Command):
    """Place ANTE on a box, with the PAIRPLUS or bonus side bet where the game has one."""

    name = "ante"
    usage = "chips [box 1-3] [pp|bonus chips]"
    amount: int = 0
    box: int = 1
    side: int | None = None
    """The side bet's chips; None when none is named (`pp 0` names one of 0, which the table may take as none)."""
    side_kind: str | None = None
    """Which side bet was named: `pairplus` (`pp`, `pairplus`) or `bonus`; a table with the other one refuses it."""


@dataclass(frozen=True)
class Play(Command):
    """Play the box (place the BET / PLAY)."""

    name = "play"
    aliases = ("continue",)


@dataclass(frozen=True)
class Buy(Command):
    """Buy a card (Texas Poker: the next community card; Russian Poker: a sixth card)."""

    name = "buy"


@dataclass(frozen=True)
class Exchange(Command):
    """Exchange cards, by position (1-5) or by card text."""

    name = "exchange"
    usage = "positions, e.g. 1 2"
    aliases = ("swap", "draw")
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealerGame(Command):
    """Buy the dealer a game when he has none (Russian Poker)."""

    name = "dealergame"
    aliases = ("buydealer",)


@dataclass(frozen=True)
class Decline(Command):
    """Do not buy the dealer a game (Russian Poker)."""

    name = "decline"


@dataclass(frozen=True)
class Select(Command):
    """Mark cards (by position) for an exchange: the table's buttons show them until the decision is taken."""

    name = "select"
    usage = "[positions]"
    logged_before: ClassVar[dict[str, Any]] = {"by_button": True}
    positions: tuple[int, ...] = ()
    by_button: bool = False
    """Sent by a card's button (`bot.command_parser.parse_payload`), not typed: only a button's bare `select` unmarks
    the last card. An older version applied every bare one it logged as a button's, so it replays as one."""


BETTING = (Fold, Check, Call, Bet, Raise, AllIn)
"""A Hold'em hand's betting commands (its turn's buttons)."""

# --- tournament ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tournament(Command):
    """Tournament commands: create (with its options), register, start, pause, resume, skip, minutes, status, clock,
    cashout, redeem, rebuy, addon, close."""

    name = "tournament"
    usage = ("create [preset or schedule] [rebuys N] [addon [N]] [reentry] [bounty M] [pawns N] | register | start"
             " | pause | resume | skip | minutes +N|-N | status | clock | cashout | redeem [item number] | rebuy"
             " | addon | close")
    aliases = ("t", "tourney")
    action: str = ""
    argument: str = ""


@dataclass(frozen=True)
class Clock(Command):
    """The tournament clock: level, blinds, time to the next change; `/clock tv` posts the link of its web page."""

    name = "clock"
    usage = "[tv]"
    tv: bool = False


@dataclass(frozen=True)
class CashOut(Command):
    """Leave the tournament, changing your chips for money at the rate."""

    name = "cashout"


@dataclass(frozen=True)
class Rebuy(Command):
    """Buy the starting stack again during the rebuy period, at or below the starting stack or busted."""

    name = "rebuy"


@dataclass(frozen=True)
class Addon(Command):
    """Buy the starting stack once more at the first break."""

    name = "addon"
    aliases = ("add-on",)


@dataclass(frozen=True)
class Lang(Command):
    """Choose the chat's language (organizer), or with `me` your own for what only you read."""

    name = "lang"
    usage = "[en|ru [me]]"
    language: str | None = None
    personal: bool = False

    @property
    def chooses_chat_language(self) -> bool:
        """`/lang ru`: it chooses the chat's language (rather than asking it, or choosing one's own)."""
        return self.language is not None and not self.personal


@dataclass(frozen=True)
class History(Command):
    """The last hands of this table in PokerStars format (privately), or a whole tournament's as a file."""

    name = "history"
    usage = "[number of hands | tournament [number]]"
    argument: str | None = None


@dataclass(frozen=True)
class Stats(Command):
    """Statistics of a player in this chat (yourself by default), over the last `days` days or all time (None); the
    player's name is every word but the period (`/stats Ann Lee 30d`)."""

    name = "stats"
    usage = "[player] [30d|all]"
    player: str | None = None
    days: int | None = None


@dataclass(frozen=True)
class Season(Command):
    """The chat's season: its standings, or `start [name]` and `end` (organizer)."""

    name = "season"
    usage = "[start [name] | end]"
    aliases = ("league",)
    action: str = ""
    argument: str = ""


@dataclass(frozen=True)
class Export(Command):
    """The chat's ledger, or a tournament's record, as CSV files sent privately to the organizer."""

    name = "export"
    usage = "ledger | tournament [number]"
    what: str = ""
    argument: str = ""


@dataclass(frozen=True)
class Odds(Command):
    """Your equity in the hand (Hold'em, privately), or the house edge of the table's game."""

    name = "odds"


@dataclass(frozen=True)
class AddBot(Command):
    """Seat a computer player for practice (never in a tournament with money), or `remove` one."""

    name = "addbot"
    usage = "[name] | remove name"
    bot_name: str | None = None
    remove: bool = False


@dataclass(frozen=True)
class Pressed:
    """A button press: the hand or round it was drawn for, the command it carries, and the decision it was drawn for
    (`decision`, "" for a button that acts on the whole hand, like "my cards")."""

    key: str
    command: Command
    decision: str = ""


COMMANDS: tuple[type[Command], ...] = (
    Help, Join, Leave, Away, Back, Deal, Game, Setting, Balance, Grant, Organizers, Top, Cards, Table, Rabbit,
    Fold, Check,
    Call, Bet, Raise, AllIn, Straddle, Pre, Pawn, Show, Muck, Automuck, Run, Ante, Play, Buy, Exchange, DealerGame,
    Decline, Select, Tournament, Clock, CashOut, Rebuy, Addon, Lang, History, Stats, Season,
    Export, Odds, AddBot,
)
BY_WORD: dict[str, type[Command]] = {word: cls for cls in COMMANDS for word in (cls.name, *cls.aliases)}
