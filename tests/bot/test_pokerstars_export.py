"""The PokerStars export of a hand, line by line: hands dealt by the engine from stacked decks (or hand-written
events), each kind of hand one whole expected text, so any change of the format fails a test."""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction

from bot.history import tournament_hand
from bot.render.pokerstars import RecordedHand, TournamentHand, export_hand, hand_name
from engine import betting, holdem_types
from engine import holdem as engine
from engine.cards import Deck
from engine.schedule import parse_schedule
from engine.tournament import Tournament, TournamentConfig
from tests.bot.pokerstars_helpers import parse, replayed_stacks


def test_a_tournament_hand_has_the_tournament_header() -> None:
    """PokerStars' tournament header: the buy-in with its bounty apart and no rake, the level counted without the
    breaks (home night: 10/20, 20/40, a break, 40/80: level III is 40/80), in Roman numerals."""
    schedule = parse_schedule("10/20 20m; 20/40 20m; break 10m; 40/80 20m; 80/160", "UTC")
    tournament = Tournament(TournamentConfig(buy_in=Fraction(50), bounty=Fraction(10)), schedule)
    events = [{"kind": "HandStarted", "hand_number": 31, "players": ["a", "b"], "button": "a",
               "stacks": {"a": 900, "b": 900}, "level": 40, "structure": "no-limit"},
              {"kind": "BlindPosted", "player": "a", "blind": "small", "amount": 20, "is_all_in": False},
              {"kind": "BlindPosted", "player": "b", "blind": "big", "amount": 40, "is_all_in": False},
              {"kind": "PlayerFolded", "player": "a"},
              {"kind": "UncalledBetReturned", "player": "b", "amount": 20},
              {"kind": "PotAwarded", "pot_index": 0, "amount": 40, "eligible": ["b"], "winners": {"b": 40},
               "category": None},
              {"kind": "HandEnded", "net": {"a": -20, "b": 20}, "stacks": {"a": 880, "b": 920}}]
    header = tournament_hand(7, tournament, events)
    assert header == TournamentHand(7, "40+10", 3)
    text = export_hand(RecordedHand(events, 0.0, "chat/table", header), {"a": "Ann", "b": "Bob"})
    assert text.splitlines()[:2] == [
        "PokerStars Hand #31: Tournament #7, 40+10+0 Hold'em No Limit - Level III (20/40) - 1969/12/31 19:00:00 ET",
        "Table '7 1' 10-max Seat #1 is the button"]
    assert tournament_hand(7, tournament, [{**events[0], "level": 60}, *events[1:]]).level == 4, (
        "a limit the schedule no longer has (60, between 40/80 and 80/160): the level after the three below it")
    assert tournament_hand(7, Tournament(TournamentConfig(), schedule), events).buy_in == "50"
    levels = [export_hand(RecordedHand(events, 0.0, "t", TournamentHand(7, "50", number)), {}).split(" - ")[1]
              for number in (1, 4, 9, 14, 40, 1994)]
    assert levels == ["Level I (20/40)", "Level IV (20/40)", "Level IX (20/40)", "Level XIV (20/40)",
                      "Level XL (20/40)", "Level MCMXCIV (20/40)"]


def test_exporter_golden_lines() -> None:
    events = [
        {"kind": "HandStarted", "hand_number": 5, "players": ["a", "b"], "button": "a", "stacks": {"a": 100, "b": 100},
         "level": 20, "structure": "no-limit"},
        {"kind": "BlindPosted", "player": "a", "blind": "small", "amount": 10, "is_all_in": False},
        {"kind": "BlindPosted", "player": "b", "blind": "big", "amount": 20, "is_all_in": False},
        {"kind": "HoleCardsDealt", "player": "b", "cards": ["Ah", "Kd"], "visible_to": "b"},
        {"kind": "HoleCardsDealt", "player": "a", "cards": ["2c", "7d"], "visible_to": "a"},
        {"kind": "PlayerRaised", "player": "a", "to": 60, "amount": 50, "is_all_in": False},
        {"kind": "PlayerRaised", "player": "b", "to": 100, "amount": 80, "is_all_in": True},
        {"kind": "PlayerFolded", "player": "a"},
        {"kind": "UncalledBetReturned", "player": "b", "amount": 40},
        {"kind": "PotAwarded", "pot_index": 0, "amount": 120, "eligible": ["b"], "winners": {"b": 120},
         "category": None},
        {"kind": "HandEnded", "net": {"a": -60, "b": 60}, "stacks": {"a": 40, "b": 160}},
    ]
    text = export_hand(RecordedHand(events, 1_700_000_000.0, "home"), {"a": "Ann", "b": "Bob"}, hero="b")
    assert text.splitlines() == [
        "PokerStars Hand #5: Hold'em No Limit (10/20) - 2023/11/14 17:13:20 ET",
        "Table 'home' 10-max Seat #1 is the button",
        "Seat 1: Ann (100 in chips)",
        "Seat 2: Bob (100 in chips)",
        "Ann: posts small blind 10",
        "Bob: posts big blind 20",
        "*** HOLE CARDS ***",
        "Dealt to Bob [Ah Kd]",
        "Ann: raises 40 to 60",
        "Bob: raises 40 to 100 and is all-in",
        "Ann: folds",
        "Uncalled bet (40) returned to Bob",
        "Bob collected 120 from pot",
        "Bob: doesn't show hand",
        "*** SUMMARY ***",
        "Total pot 120 | Rake 0",
        "Seat 1: Ann (button) (small blind) folded before Flop",
        "Seat 2: Bob (big blind) collected (120)",
    ]
    assert json.dumps(events)  # the events are what the history stores: plain JSON
    for event in events:  # ... in the engine's own shape: each key is a field of that kind of engine event
        fields = {field.name for field in dataclasses.fields(getattr(holdem_types, event["kind"]))}
        assert set(event) - {"kind"} <= fields, event["kind"]
    stored = json.loads(json.dumps(events))  # read back from the history as stored, the export is the same
    assert export_hand(RecordedHand(stored, 1_700_000_000.0, "home"), {"a": "Ann", "b": "Bob"}, hero="b") == text


def engine_export(players: list[engine.SeatPlayer], cards: str, *commands: tuple[str, engine.Action],
                  run_it_twice: bool = False, variant: engine.Variant = engine.Variant.HOLDEM) -> str:
    """A no-limit Hold'em hand (pot-limit Omaha with `variant`; blinds 10/20, first seat on the button) dealt from
    `cards`, played by `commands` (each runs-asked player answers "twice" once betting is over) and exported with
    every hand revealed."""
    deck = Deck.stacked(cards, random.Random(1))
    structure = "pot-limit" if variant is engine.Variant.OMAHA else "no-limit"
    hand, events = engine.Hand.start(players, 0, 20, betting.STRUCTURES[structure], deck, 1, variant=variant,
                                     rules=engine.ShowdownRules(run_it_twice=run_it_twice))
    for player, command in commands:
        events += hand.act(player, command)
    for player in list(hand.runs_asked):
        events += hand.choose_runs(player, True)
    names = {player.id: player.id.capitalize() for player in players}
    return export_hand(RecordedHand([event.to_dict() for event in events], 0.0, "home"), names, reveal_all=True)


RUN_TWICE = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (500 in chips)
Seat 2: Cat (300 in chips)
Ann: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Cat [2c Ah]
Dealt to Ann [3c 2d]
Ann: raises 480 to 500 and is all-in
Cat: calls 280 and is all-in
Uncalled bet (200) returned to Ann
*** FIRST FLOP *** [Ad 4h 5h]
*** FIRST TURN *** [Ad 4h 5h] [7h]
*** FIRST RIVER *** [Ad 4h 5h 7h] [8h]
*** SECOND FLOP *** [3s 3h Td]
*** SECOND TURN *** [3s 3h Td] [8d]
*** SECOND RIVER *** [3s 3h Td 8d] [Js]
*** FIRST SHOW DOWN ***
Cat: shows [2c Ah] (a flush, Ace high)
Ann: shows [3c 2d] (a straight, Ace to Five)
Cat collected 300 from pot
*** SECOND SHOW DOWN ***
Cat: shows [2c Ah] (a pair of Threes)
Ann: shows [3c 2d] (three of a kind, Threes)
Ann collected 300 from pot
*** SUMMARY ***
Total pot 600 | Rake 0
Hand was run twice
FIRST Board [Ad 4h 5h 7h 8h]
SECOND Board [3s 3h Td 8d Js]
Seat 1: Ann (button) (small blind) showed [3c 2d] and lost with a straight, Ace to Five, and won (300) with \
three of a kind, Threes
Seat 2: Cat (big blind) showed [2c Ah] and won (300) with a flush, Ace high, and lost with a pair of Threes"""
"""A hand run twice: each board dealt, then shown down, in turn; the summary sums each player up board by board."""


def test_a_hand_run_twice_sums_up_board_by_board() -> None:
    # board 1: Cat's flush beats Ann's straight; board 2: Ann's three of a kind beats Cat's pair
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("cat", 300)],
                         "2c 3c Ah 2d 3d Ad 4h 5h 6h 7h Kc 8h Qd 3s 3h Td Ts 8d Jc Js",
                         ("ann", engine.AllIn()), ("cat", engine.Call()), run_it_twice=True)
    assert text == RUN_TWICE


def test_a_winner_who_gets_no_chip_of_a_split_collects_nothing() -> None:
    # all in for 40, 41, 41, run twice: the side pot of 2 is a chip a board, each tied between Bob and Cat, and the
    # odd chip goes to Bob (first left of the button) both times; Cat's 0 is no collect line
    text = engine_export([engine.SeatPlayer("ann", 40), engine.SeatPlayer("bob", 41), engine.SeatPlayer("cat", 41)],
                         "2c 2d 4h 3d 3c 4s 5c Ts Js Qh 6c Kd 7c Ah 8c 9h 9d 6d 5d 7d 8d Kc",
                         ("ann", engine.AllIn()), ("bob", engine.AllIn()), ("cat", engine.Call()), run_it_twice=True)
    collected = [line for line in text.splitlines() if " collected " in line]
    assert collected == ["Bob collected 1 from side pot", "Bob collected 20 from main pot",
                         "Cat collected 20 from main pot", "Ann collected 20 from main pot",
                         "Bob collected 1 from side pot", "Ann collected 60 from main pot"]
    assert text.split("*** SUMMARY ***\n")[1].splitlines()[-1] == (
        "Seat 3: Cat (big blind) showed [2d 3c] and won (20) with a straight, Ten to Ace, and lost with a pair of "
        "Nines")


def test_shown_hands_are_named_as_pokerstars_names_them() -> None:
    named = [hand_name(category, ranks) for category, ranks in [
        ("high card", (14, 12, 9, 7, 3)), ("pair", (2, 14, 9, 7)), ("two pair", (13, 7, 14)),
        ("three of a kind", (10, 14, 9)), ("straight", (5,)), ("straight", (14,)), ("flush", (11, 9, 7, 5, 2)),
        ("full house", (13, 10)), ("four of a kind", (14, 2)), ("straight flush", (13,)), ("straight flush", (14,)),
        ("pair", ()), ("pair", None)]]
    assert named == ["high card Ace", "a pair of Deuces", "two pair, Kings and Sevens", "three of a kind, Tens",
                     "a straight, Ace to Five", "a straight, Ten to Ace", "a flush, Jack high",
                     "a full house, Kings full of Tens", "four of a kind, Aces", "a straight flush, Nine to King",
                     "a Royal Flush", "pair", "pair"]  # a record without the ranks keeps the category's name


def test_a_raise_over_a_short_big_blind_is_measured_from_the_full_blind() -> None:
    # Cat posts 5 of the 20 big blind, all in: the others still call and raise from 20 (RULES.md §1)
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("bob", 500), engine.SeatPlayer("cat", 5)],
                         "", ("ann", engine.RaiseTo(60)), ("bob", engine.RaiseTo(100)), ("ann", engine.Call()),
                         ("bob", engine.AllIn()), ("ann", engine.Call()))
    assert text == SHORT_BIG_BLIND


SHORT_BIG_BLIND = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (500 in chips)
Seat 2: Bob (500 in chips)
Seat 3: Cat (5 in chips)
Bob: posts small blind 10
Cat: posts big blind 5 and is all-in
*** HOLE CARDS ***
Dealt to Bob [Ad 7h]
Dealt to Cat [4d 2h]
Dealt to Ann [Jd Jh]
Ann: raises 40 to 60
Bob: raises 40 to 100
Ann: calls 40
*** FLOP *** [4s Ts 3d]
Bob: bets 400 and is all-in
Ann: calls 400 and is all-in
*** TURN *** [4s Ts 3d] [As]
*** RIVER *** [4s Ts 3d As] [5s]
*** SHOW DOWN ***
Bob: shows [Ad 7h] (a pair of Aces)
Ann: shows [Jd Jh] (a pair of Jacks)
Bob collected 990 from side pot
Cat: shows [4d 2h] (a straight, Ace to Five)
Cat collected 15 from main pot
*** SUMMARY ***
Total pot 1005 Main pot 15. Side pot 990. | Rake 0
Board [4s Ts 3d As 5s]
Seat 1: Ann (button) showed [Jd Jh] and lost with a pair of Jacks
Seat 2: Bob (small blind) showed [Ad 7h] and won (990) with a pair of Aces
Seat 3: Cat (big blind) showed [4d 2h] and won (15) with a straight, Ace to Five"""
"""A no-limit hand with a short big blind all-in: a main pot and a side pot, each collected and summed up."""


def test_side_pots_are_collected_from_the_last_back_to_the_main_pot() -> None:
    # Dan all in for 400, Ann calls, Bob (100) and Cat (200) call all in: aces, kings, queens and jacks on a dry board
    text = engine_export([engine.SeatPlayer("ann", 600), engine.SeatPlayer("bob", 100), engine.SeatPlayer("cat", 200),
                          engine.SeatPlayer("dan", 400)],
                         "As Ks Qs Js Ad Kd Qd Jd 4h 2c 7d 9s 5h 3h 6d 8c",
                         ("dan", engine.AllIn()), ("ann", engine.Call()), ("bob", engine.Call()),
                         ("cat", engine.Call()))
    assert text == TWO_SIDE_POTS
    (history,) = parse(text)  # pokerkit replays it to the same stacks
    assert replayed_stacks(history) == {"Ann": 200, "Bob": 400, "Cat": 300, "Dan": 400}


TWO_SIDE_POTS = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (600 in chips)
Seat 2: Bob (100 in chips)
Seat 3: Cat (200 in chips)
Seat 4: Dan (400 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [As Ad]
Dealt to Cat [Ks Kd]
Dealt to Dan [Qs Qd]
Dealt to Ann [Js Jd]
Dan: raises 380 to 400 and is all-in
Ann: calls 400
Bob: calls 90 and is all-in
Cat: calls 180 and is all-in
*** FLOP *** [2c 7d 9s]
*** TURN *** [2c 7d 9s] [3h]
*** RIVER *** [2c 7d 9s 3h] [8c]
*** SHOW DOWN ***
Dan: shows [Qs Qd] (a pair of Queens)
Ann: shows [Js Jd] (a pair of Jacks)
Dan collected 400 from side pot-2
Cat: shows [Ks Kd] (a pair of Kings)
Cat collected 300 from side pot-1
Bob: shows [As Ad] (a pair of Aces)
Bob collected 400 from main pot
*** SUMMARY ***
Total pot 1100 Main pot 400. Side pot-1 300. Side pot-2 400. | Rake 0
Board [2c 7d 9s 3h 8c]
Seat 1: Ann (button) showed [Js Jd] and lost with a pair of Jacks
Seat 2: Bob (small blind) showed [As Ad] and won (400) with a pair of Aces
Seat 3: Cat (big blind) showed [Ks Kd] and won (300) with a pair of Kings
Seat 4: Dan showed [Qs Qd] and won (400) with a pair of Queens"""
"""A main pot and two side pots, each won by another player: as a real PokerStars history writes them, shown down
pot by pot from the last side pot back to the main pot (the hands contesting a pot that are not yet shown, then its
collected line), and summed up in the pots' order (main pot first)."""


def test_each_pot_is_shown_down_before_it_is_collected() -> None:
    # Ann raises to 600 and Bob (100), Cat (300) and Dan (400) call all in: 200 of Ann's raise comes back; Bob and
    # Cat tie with ace-king for the main pot, Cat's hand is the best left for side pot-1, Dan's queens beat Ann's jacks
    text = engine_export([engine.SeatPlayer("ann", 1000), engine.SeatPlayer("bob", 100), engine.SeatPlayer("cat", 300),
                          engine.SeatPlayer("dan", 400)],
                         "Ah Ac Qs Js Kh Kc Qd Jd 4h As 7d 2c 5h 9s 6d 3h",
                         ("dan", engine.Call()), ("ann", engine.RaiseTo(600)), ("bob", engine.Call()),
                         ("cat", engine.Call()), ("dan", engine.Call()))
    assert text == SPLIT_SIDE_POTS
    (history,) = parse(text)  # pokerkit replays it to the same stacks
    assert replayed_stacks(history) == {"Ann": 600, "Bob": 200, "Cat": 800, "Dan": 200}


SPLIT_SIDE_POTS = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (1000 in chips)
Seat 2: Bob (100 in chips)
Seat 3: Cat (300 in chips)
Seat 4: Dan (400 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [Ah Kh]
Dealt to Cat [Ac Kc]
Dealt to Dan [Qs Qd]
Dealt to Ann [Js Jd]
Dan: calls 20
Ann: raises 580 to 600
Bob: calls 90 and is all-in
Cat: calls 280 and is all-in
Dan: calls 380 and is all-in
Uncalled bet (200) returned to Ann
*** FLOP *** [As 7d 2c]
*** TURN *** [As 7d 2c] [9s]
*** RIVER *** [As 7d 2c 9s] [3h]
*** SHOW DOWN ***
Dan: shows [Qs Qd] (a pair of Queens)
Ann: shows [Js Jd] (a pair of Jacks)
Dan collected 200 from side pot-2
Cat: shows [Ac Kc] (a pair of Aces)
Cat collected 600 from side pot-1
Bob: shows [Ah Kh] (a pair of Aces)
Bob collected 200 from main pot
Cat collected 200 from main pot
*** SUMMARY ***
Total pot 1200 Main pot 400. Side pot-1 600. Side pot-2 200. | Rake 0
Board [As 7d 2c 9s 3h]
Seat 1: Ann (button) showed [Js Jd] and lost with a pair of Jacks
Seat 2: Bob (small blind) showed [Ah Kh] and won (200) with a pair of Aces
Seat 3: Cat (big blind) showed [Ac Kc] and won (800) with a pair of Aces
Seat 4: Dan showed [Qs Qd] and won (200) with a pair of Queens"""
"""Side pots, a split main pot and an uncalled bet at once: each pot shown down in turn from the last side pot, its
winners' collected lines right after the hands that contest it (a tie: one line each, the first left of the button
first), and each winner summed up once with all he collected."""


def test_a_pot_won_without_a_showdown_is_collected_unshown() -> None:
    # Ann raises, Bob calls and Cat folds; on the flop Bob checks and folds to Ann's bet, which comes back to her
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("bob", 500), engine.SeatPlayer("cat", 500)],
                         "Kh 9c As 8d 2s Ad 3c 7h Jd 4c", ("ann", engine.RaiseTo(60)), ("bob", engine.Call()),
                         ("cat", engine.Fold()), ("bob", engine.Check()), ("ann", engine.Bet(100)),
                         ("bob", engine.Fold()))
    assert text == WON_WITHOUT_SHOWDOWN
    (history,) = parse(text)  # pokerkit replays it to the same stacks
    assert replayed_stacks(history) == {"Ann": 580, "Bob": 440, "Cat": 480}


WON_WITHOUT_SHOWDOWN = """\
PokerStars Hand #1: Hold'em No Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (500 in chips)
Seat 2: Bob (500 in chips)
Seat 3: Cat (500 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [Kh 8d]
Dealt to Cat [9c 2s]
Dealt to Ann [As Ad]
Ann: raises 40 to 60
Bob: calls 50
Cat: folds
*** FLOP *** [7h Jd 4c]
Bob: checks
Ann: bets 100
Bob: folds
Uncalled bet (100) returned to Ann
Ann collected 140 from pot
Ann: doesn't show hand
*** SUMMARY ***
Total pot 140 | Rake 0
Board [7h Jd 4c]
Seat 1: Ann (button) collected (140)
Seat 2: Bob (small blind) folded on the Flop
Seat 3: Cat (big blind) folded before Flop"""
"""A pot won without a showdown, as PokerStars writes it: the bet nobody called comes back, the winner collects, and
his hand stays unshown (`doesn't show hand`) unless he shows it after the hand."""

OMAHA = """\
PokerStars Hand #1: Omaha Pot Limit (10/20) - 1969/12/31 19:00:00 ET
Table 'home' 10-max Seat #1 is the button
Seat 1: Ann (500 in chips)
Seat 2: Bob (500 in chips)
Seat 3: Cat (500 in chips)
Bob: posts small blind 10
Cat: posts big blind 20
*** HOLE CARDS ***
Dealt to Bob [Ah As Qs Qd]
Dealt to Cat [Kd Kh 7d 7h]
Dealt to Ann [2c 3c 4c 5c]
Ann: raises 50 to 70
Bob: calls 60
Cat: folds
*** FLOP *** [6c Td Jc]
Bob: checks
Ann: bets 100
Bob: calls 100
*** TURN *** [6c Td Jc] [2h]
Bob: checks
Ann: checks
*** RIVER *** [6c Td Jc 2h] [3s]
Bob: bets 60
Ann: calls 60
*** SHOW DOWN ***
Bob: shows [Ah As Qs Qd] (a pair of Aces)
Ann: shows [2c 3c 4c 5c] (a straight, Deuce to Six)
Ann collected 480 from pot
*** SUMMARY ***
Total pot 480 | Rake 0
Board [6c Td Jc 2h 3s]
Seat 1: Ann (button) showed [2c 3c 4c 5c] and won (480) with a straight, Deuce to Six
Seat 2: Bob (small blind) showed [Ah As Qs Qd] and lost with a pair of Aces
Seat 3: Cat (big blind) folded before Flop"""
"""A pot-limit Omaha hand: four hole cards each, a pot-sized raise, and a hand of exactly two hole cards and three
board cards (Ann's straight: 4♣ 5♣ with 6♣ 2♥ 3♠; her clubs make no flush with two clubs on the board)."""
OMAHA_DECK = "Ah Kd 2c As Kh 3c Qs 7d 4c Qd 7h 5c 9s 6c Td Jc 8h 2h 9c 3s"
"""The deck OMAHA is dealt from (Bob, Cat, Ann four times round; burn, flop, burn, turn, burn, river)."""


def test_an_omaha_hand_is_exported_with_its_four_cards_a_player() -> None:
    text = engine_export([engine.SeatPlayer("ann", 500), engine.SeatPlayer("bob", 500), engine.SeatPlayer("cat", 500)],
                         OMAHA_DECK, ("ann", engine.RaiseTo(70)), ("bob", engine.Call()), ("cat", engine.Fold()),
                         ("bob", engine.Check()), ("ann", engine.Bet(100)), ("bob", engine.Call()),
                         ("bob", engine.Check()), ("ann", engine.Check()), ("bob", engine.Bet(60)),
                         ("ann", engine.Call()), variant=engine.Variant.OMAHA)
    assert text == OMAHA
    (history,) = parse(text)  # pokerkit replays it to the same stacks
    assert replayed_stacks(history) == {"Ann": 750, "Bob": 270, "Cat": 480}
