"""Hold'em and Omaha hand histories as PokerStars hand-history text, from the recorded engine events (pure: no I/O).

The conventions followed, as PokerStars writes them (and as hand-history tools such as pokerkit read them):

- one hand is a block of lines; hands are separated by two blank lines, and no hand contains a blank line;
- header: `PokerStars Hand #<n>: Hold'em No Limit (<sb>/<bb>) - <yyyy/mm/dd hh:mm:ss> ET`, and a tournament's hand
  `PokerStars Hand #<n>: Tournament #<t>, <buy-in>+0 Hold'em No Limit - Level <roman> (<sb>/<bb>) - …` (the buy-in in
  the tournament's money units with no currency sign, its bounty apart as `40+10+0`; no rake) at `Table '<t> 1'`;
  the fixed-limit structures
  write `Hold'em Limit (<small bet>/<big bet>)` (the limits, not the blinds, as PokerStars does); pot limit writes
  `Hold'em Pot Limit`, and an Omaha hand `Omaha Pot Limit (<sb>/<bb>)`; play chips have no
  currency sign; the time is US Eastern, as PokerStars writes it;
- `Table '<name>' <n>-max Seat #<s> is the button`, then `Seat <s>: <name> (<stack> in chips)` for every player
  dealt in, numbered 1.. in table order (players sitting out are not listed);
- `<name>: posts small blind <n>` / `posts big blind <n>`;
- `*** HOLE CARDS ***`, then `Dealt to <name> [Ac Kd]` (four cards in Omaha) for each player whose cards the reader
  may see;
- actions `<name>: folds`, `checks`, `calls <n>`, `bets <n>`, `raises <by> to <total>` (`<by>` over the largest
  bet on the street so far, preflop at least the full big blind, even one posted short), each with ` and is all-in`
  when it was;
- `Uncalled bet (<n>) returned to <name>` where the engine returned it;
- `*** FLOP *** [a b c]`, `*** TURN *** [a b c] [d]`, `*** RIVER *** [a b c d] [e]`;
- `*** SHOW DOWN ***`, `<name>: shows [a b] (<hand>)` for every hand shown (the hand named as PokerStars names it:
  `a pair of Aces`, `two pair, Kings and Sevens`, `a straight, Ace to Five`, `a Royal Flush`), `<name>: mucks hand`
  for one mucked (its cards only in the summary, `Seat <s>: <name> mucked [a b]`, and only for the reader who held
  them: others read `Seat <s>: <name> mucked`); the winner of an uncontested pot who shows after it:
  `<name>: shows [a b]`, and one who does not: `<name>: doesn't show hand` under his collected line;
- a hand run twice: `*** FIRST FLOP ***` … `*** SECOND RIVER ***` (each run's streets, from the board both share),
  `*** FIRST SHOW DOWN ***` and `*** SECOND SHOW DOWN ***` each with its hands and the halves collected on it, and
  in the summary `Hand was run twice`, `FIRST Board [..]`, `SECOND Board [..]` instead of `Board [..]`, and each
  shown hand's result board by board: `showed [..] and lost with <hand>, and won (<n>) with <hand>`;
- `<name> collected <n> from pot` (`from main pot` / `from side pot-<k>` when there are side pots), none for a
  winner whose share of a split is no chip; a showdown goes pot by pot, as a real PokerStars history does, from the
  last side pot back to the main pot (`side pot-2`, `side pot-1`, `main pot`, where the summary lists them from the
  main pot): the hands contesting a pot that are not shown (or mucked) yet, in the order they were, then the pot's
  collected lines, so each pot's winning hand is named just above its `collected` line;
- `*** SUMMARY ***`, `Total pot <n> | Rake 0` (with `Main pot <n>. Side pot-<k> <n>.` when split), `Board [..]`,
  then one `Seat <s>: <name> (button) (small blind) …` line per player: `folded before Flop (didn't bet)`,
  `folded on the Turn`, `showed [..] and won (<n>) with <hand>`, `showed [..] and lost with <hand>`,
  `collected (<n>)`.

A pawn (tournament tables only; PokerStars has nothing like it) is written `<name>: pawns "<item>" for <n> chips`,
a line hand-history readers skip. A rabbit hunt after the hand (`RabbitHunted`) is part of the table's history but not
of the hand as played, and is not written. Which hole cards appear is the caller's choice: the requester's own (`hero`),
every one (`reveal_all`, for tests and audits), plus always the hands shown at the showdown.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from engine.betting import STRUCTURES, Limit, Street, blinds

EASTERN = ZoneInfo("America/New_York")
HAND_SEPARATOR = "\n\n\n"
_STREET_NAMES = {"flop": "FLOP", "turn": "TURN", "river": "RIVER"}
_RUNS = {0: "", 1: "FIRST ", 2: "SECOND "}
_RANK_NAMES = {2: ("Deuce", "Deuces"), 3: ("Three", "Threes"), 4: ("Four", "Fours"), 5: ("Five", "Fives"),
               6: ("Six", "Sixes"), 7: ("Seven", "Sevens"), 8: ("Eight", "Eights"), 9: ("Nine", "Nines"),
               10: ("Ten", "Tens"), 11: ("Jack", "Jacks"), 12: ("Queen", "Queens"), 13: ("King", "Kings"),
               14: ("Ace", "Aces")}
_SHOWDOWN = frozenset({"HandsShown", "HandMucked", "PotAwarded"})
_FOLDED_ON = {"preflop": "before Flop", "flop": "on the Flop", "turn": "on the Turn", "river": "on the River"}


@dataclass(frozen=True)
class TournamentHand:
    """What a tournament's hand adds to its header: the tournament's number, its buy-in as PokerStars writes it
    without the rake (`50`, or `40+10` with a bounty of 10), and the number players know the hand's level by."""

    number: int
    buy_in: str
    level: int


@dataclass
class RecordedHand:
    """One hand as the history holds it: its events (dicts from `Event.to_dict()`), when it started, its table's name,
    and for a tournament's hand, the tournament's part of the header."""

    events: Sequence[Mapping[str, Any]]
    at: float
    table: str = "pokerbot"
    tournament: TournamentHand | None = None


@dataclass
class _Summary:
    """What the summary line of one seat needs, gathered while the hand is written."""

    seat: int
    name: str
    put_in: int = 0
    folded_on: str | None = None
    shown: str | None = None
    mucked: str | None = None
    categories: dict[int, str] = field(default_factory=dict)  # by run: 0, or 1 and 2 for a hand run twice
    won: dict[int, int] = field(default_factory=dict)  # chips collected, by run
    marks: list[str] = field(default_factory=list)


def is_one_hand(events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether a record is one whole hand: it opens with its `HandStarted` and holds no other. (Before hand numbers
    were unique per table, two hands could share an id and so one record; such a record is not exported.)"""
    return bool(events) and events[0].get("kind") == "HandStarted" and not any(
        event.get("kind") == "HandStarted" for event in events[1:])


def export_hands(hands: Iterable[RecordedHand], names: Mapping[str, str], *, hero: str | None = None,
                 reveal_all: bool = False, max_seats: int = 10) -> str:
    """Several hands in one text, separated as in a PokerStars hand-history file."""
    return HAND_SEPARATOR.join(export_hand(hand, names, hero=hero, reveal_all=reveal_all, max_seats=max_seats)
                               for hand in hands) + "\n"


def export_hand(hand: RecordedHand, names: Mapping[str, str], *, hero: str | None = None, reveal_all: bool = False,
                max_seats: int = 10) -> str:
    """One hand in PokerStars format, its stakes and structure read from its own `HandStarted`. `names` maps player
    ids to display names (made unique and one-line here); hole cards appear for `hero` (or everyone with
    `reveal_all`), and for every hand shown at the showdown."""
    events = list(hand.events)
    if not is_one_hand(events):
        raise ValueError("a hand's history starts with its HandStarted and holds no other")
    start = events[0]
    players: list[str] = list(start["players"])
    label = _unique_names(players, names)
    level = int(start["level"])
    structure = STRUCTURES.get(start["structure"])
    variant = "Omaha" if start.get("variant") == "omaha" else "Hold'em"
    if structure is not None and structure.limit is Limit.FIXED:
        small_bet, big_bet = structure.bet_size(Street.FLOP, level), structure.bet_size(Street.RIVER, level)
        game, stakes = f"{variant} Limit", f"{small_bet}/{big_bet}"
    else:
        pot_limit = structure is not None and structure.limit is Limit.POT_LIMIT
        game, stakes = f"{variant} {'Pot' if pot_limit else 'No'} Limit", "{}/{}".format(*blinds(level))
    when = datetime.fromtimestamp(hand.at, tz=EASTERN).strftime("%Y/%m/%d %H:%M:%S")
    table = hand.table.replace("'", "").replace("\n", " ")
    header = f"{game} ({stakes})"
    if hand.tournament is not None:
        header = (f"Tournament #{hand.tournament.number}, {hand.tournament.buy_in}+0 {game} - "
                  f"Level {_roman(hand.tournament.level)} ({stakes})")
        table = f"{hand.tournament.number} 1"
    seats = {player: _Summary(index + 1, label[player]) for index, player in enumerate(players)}
    button = seats[start["button"]].seat
    lines = [
        f"PokerStars Hand #{start['hand_number']}: {header} - {when} ET",
        f"Table '{table}' {max(max_seats, len(players))}-max Seat #{button} is the button",
        *(f"Seat {seats[p].seat}: {label[p]} ({start['stacks'][p]} in chips)" for p in players),
    ]
    seats[start["button"]].marks.append("(button)")
    street, bets, big_blind = "preflop", dict.fromkeys(players, 0), blinds(level)[1]
    board: list[str] = []
    boards: dict[int, list[str]] = {}  # a hand run twice: each run's board
    pots: dict[int, int] = {}
    pot_names = _pot_names(len({event["pot_index"] for event in events if event["kind"] == "PotAwarded"}))
    hole_header = False
    holes: dict[str, str] = {}
    showdowns: set[int] = set()
    shown_after = {event["player"] for event in events if event["kind"] == "CardsShown"}  # recorded after the hand

    def action(player: str, text: str, chips: int = 0, all_in: bool = False) -> None:
        seats[player].put_in += chips
        bets[player] += chips
        lines.append(f"{label[player]}: {text}" + (" and is all-in" if all_in else ""))

    for event in _by_pot(events[1:]):
        kind = event["kind"]
        if kind != "BlindPosted" and not hole_header:
            lines.append("*** HOLE CARDS ***")
            hole_header = True
        if kind == "BlindPosted":
            posted = "straddle" if event["blind"] == "straddle" else f"{event['blind']} blind"
            seats[event["player"]].marks.append(f"({posted})")
            action(event["player"], f"posts {posted} {event['amount']}", event["amount"], event["is_all_in"])
        elif kind == "HoleCardsDealt":
            holes[event["player"]] = " ".join(event["cards"])
            if reveal_all or event["player"] == hero:
                lines.append(f"Dealt to {label[event['player']]} [{' '.join(event['cards'])}]")
        elif kind == "PlayerFolded":
            seats[event["player"]].folded_on = street
            action(event["player"], "folds")
        elif kind == "PlayerChecked":
            action(event["player"], "checks")
        elif kind == "PlayerCalled":
            action(event["player"], f"calls {event['amount']}", event["amount"], event["is_all_in"])
        elif kind == "PlayerBet":
            action(event["player"], f"bets {event['amount']}", event["amount"], event["is_all_in"])
        elif kind == "PlayerRaised":
            # preflop the bet is the full big blind even when the big blind posted less, all-in (RULES.md §1)
            by = event["to"] - max(*bets.values(), big_blind if street == "preflop" else 0)
            action(event["player"], f"raises {by} to {event['to']}", event["amount"], event["is_all_in"])
        elif kind == "ItemPawned":
            lines.append(f"{label[event['player']]}: pawns \"{_one_line(event['item'])}\" for {event['value']} chips")
        elif kind == "UncalledBetReturned":
            seats[event["player"]].put_in -= event["amount"]
            bets[event["player"]] -= event["amount"]
            lines.append(f"Uncalled bet ({event['amount']}) returned to {label[event['player']]}")
        elif kind == "BoardDealt":
            street, bets, run = event["street"], dict.fromkeys(players, 0), event.get("run", 0)
            title = _RUNS[run] + _STREET_NAMES[street]
            dealt = " ".join(event["cards"])  # not `cards`, a list below: compiled, a name keeps its first type
            before = boards.setdefault(run, list(board)) if run else board
            lines.append(f"*** {title} *** [{' '.join(before)}] [{dealt}]" if before else f"*** {title} *** [{dealt}]")
            if run:
                boards[run] = list(event["board"])
            else:
                board = list(event["board"])
        elif kind == "HandsShown":
            run = event.get("run", 0)
            if run not in showdowns:
                showdowns.add(run)
                lines.append(f"*** {_RUNS[run]}SHOW DOWN ***")
            for player, cards in event["cards"].items():
                seats[player].shown = " ".join(cards)
                named = hand_name(event["categories"].get(player, ""), (event.get("ranks") or {}).get(player))
                seats[player].categories.setdefault(run, named)
                lines.append(f"{label[player]}: shows [{seats[player].shown}] ({named})")
        elif kind == "HandMucked":
            if not showdowns:
                showdowns.add(0)
                lines.append("*** SHOW DOWN ***")
            seats[event["player"]].mucked = holes.get(event["player"], "") if reveal_all or event[
                "player"] == hero else ""
            lines.append(f"{label[event['player']]}: mucks hand")
        elif kind == "CardsShown":
            lines.append(f"{label[event['player']]}: shows [{' '.join(event['cards'])}]")
        elif kind == "PotAwarded":
            run = event.get("run", 0)
            pots[event["pot_index"]] = pots.get(event["pot_index"], 0) + event["amount"]
            for player, chips in event["winners"].items():
                if not chips:  # a tie for fewer chips than winners: PokerStars writes no line for collecting nothing
                    continue
                seats[player].won[run] = seats[player].won.get(run, 0) + chips
                lines.append(f"{label[player]} collected {chips} from {pot_names[event['pot_index']]}")
                if not showdowns and player not in shown_after:
                    lines.append(f"{label[player]}: doesn't show hand")
    lines.append("*** SUMMARY ***")
    split = "" if len(pots) < 2 else " " + " ".join(f"{pot_names[index].capitalize()} {pots[index]}."
                                                   for index in sorted(pots))
    lines.append(f"Total pot {sum(pots.values())}{split} | Rake 0")
    if boards:
        lines += ["Hand was run twice", *(f"{_RUNS[run]}Board [{' '.join(cards)}]" for run, cards in boards.items())]
    elif board:
        lines.append(f"Board [{' '.join(board)}]")
    lines += [_summary_line(seats[player]) for player in players]
    return "\n".join(lines)


def hand_name(category: str, ranks: Sequence[int] | None) -> str:
    """A shown hand as PokerStars names it, from its category (`two pair`) and deciding ranks (as `HandsShown` records
    them, most significant first): `a pair of Aces`, `two pair, Kings and Sevens`, `a straight, Ten to Ace`, `a full
    house, Kings full of Tens`, `a Royal Flush`. A record without the ranks keeps the category's bare name."""
    if not ranks or any(rank not in _RANK_NAMES for rank in ranks):
        return category
    top, plural = _RANK_NAMES[ranks[0]]
    second = _RANK_NAMES[ranks[1]][1] if len(ranks) > 1 else ""
    low = _RANK_NAMES[14 if ranks[0] == 5 else max(2, ranks[0] - 4)][0]  # a straight's lowest card; the wheel's, Ace
    names = {
        "high card": f"high card {top}",
        "pair": f"a pair of {plural}",
        "two pair": f"two pair, {plural} and {second}",
        "three of a kind": f"three of a kind, {plural}",
        "straight": f"a straight, {low} to {top}",
        "flush": f"a flush, {top} high",
        "full house": f"a full house, {plural} full of {second}",
        "four of a kind": f"four of a kind, {plural}",
        "straight flush": "a Royal Flush" if ranks[0] == 14 else f"a straight flush, {low} to {top}",
    }
    return names.get(category, category)


def _summary_line(seat: _Summary) -> str:
    head = " ".join([f"Seat {seat.seat}: {seat.name}", *seat.marks])
    if seat.folded_on is not None:
        didnt_bet = " (didn't bet)" if seat.folded_on == "preflop" and seat.put_in == 0 else ""
        return f"{head} folded {_FOLDED_ON[seat.folded_on]}{didnt_bet}"
    if seat.mucked is not None:
        return f"{head} mucked [{seat.mucked}]" if seat.mucked else f"{head} mucked"
    if seat.shown is not None:
        # a hand run twice reads board by board, as PokerStars writes it: `and lost with X, and won (n) with Y`
        results = [f"won ({seat.won[run]}) with {category}" if seat.won.get(run) else f"lost with {category}"
                   for run, category in sorted(seat.categories.items())]
        return f"{head} showed [{seat.shown}] and {', and '.join(results)}"
    won = sum(seat.won.values())
    return f"{head} collected ({won})" if won else head


def _by_pot(events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The events with each showdown (each board's, in a hand run twice) in the order PokerStars writes it: pot by pot
    from the last side pot back to the main pot, the hands shown or mucked by the players that pot adds (one event a
    player, in the order they showed), then its awards. The engine shows every hand, then awards the main pot first."""
    ordered: list[Mapping[str, Any]] = []
    for at_showdown, group in itertools.groupby(events, key=lambda event: event["kind"] in _SHOWDOWN):
        block: list[Mapping[str, Any]] = []
        for event in group:  # a board's showdown ends with its awards; a hand run twice has one more
            if block and event["kind"] != "PotAwarded" and block[-1]["kind"] == "PotAwarded":
                ordered += _one_showdown(block)
                block = []
            block.append(event)
        ordered += _one_showdown(block) if at_showdown else block
    return ordered


def _one_showdown(events: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One board's showdown pot by pot, from the last side pot: the hands a pot adds, then its awards."""
    hands = {_player(hand): hand for event in events if event["kind"] != "PotAwarded" for hand in _each_hand(event)}
    pots = sorted((event for event in events if event["kind"] == "PotAwarded"), key=lambda pot: -int(pot["pot_index"]))
    contested = {player for pot in pots for player in pot["eligible"]}
    ordered = [hand for player, hand in hands.items() if player not in contested]  # none in a hand the engine dealt
    told: set[str] = set()
    for pot in pots:
        ordered += [hand for player, hand in hands.items() if player in pot["eligible"] and player not in told]
        told.update(pot["eligible"])
        ordered.append(pot)
    return ordered


def _each_hand(event: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A `HandsShown` of several players as one event each (other events as they are)."""
    if event["kind"] != "HandsShown":
        return [event]
    return [{**event, "cards": {player: cards}, "categories": {player: event["categories"].get(player, "")},
             "ranks": {player: ranks} if (ranks := (event.get("ranks") or {}).get(player)) else {}}
            for player, cards in event["cards"].items()]


def _player(hand: Mapping[str, Any]) -> str:
    return str(hand["player"]) if "player" in hand else next(iter(hand["cards"]))


def _pot_names(count: int) -> list[str]:
    if count < 2:
        return ["pot"]
    if count == 2:
        return ["main pot", "side pot"]
    return ["main pot", *(f"side pot-{k}" for k in range(1, count))]


def _unique_names(players: Sequence[str], names: Mapping[str, str]) -> dict[str, str]:
    """Display names fit for the format: one line, no `:` confusion at the edges, and no two alike."""
    taken: set[str] = set()
    label: dict[str, str] = {}
    for player in players:
        base = _one_line(names.get(player, player)).strip(" :") or player
        name, suffix = base, 2
        while name.lower() in taken:
            name, suffix = f"{base} {suffix}", suffix + 1
        taken.add(name.lower())
        label[player] = name
    return label


def _roman(number: int) -> str:
    """A level's number as PokerStars writes it: I, II, …, XIV (1 to 3,999)."""
    numerals = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
                (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    written = []
    for value, numeral in numerals:
        count, number = divmod(number, value)
        written.append(numeral * count)
    return "".join(written)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
