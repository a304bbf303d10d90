"""What players read: hands said as a card room says them, what decided a pot, house payouts that name what paid,
side bets in the public result, and narration without doubled or blank words (issue 16)."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.context import Action
from bot.render import holdem, house
from engine import holdem_types as holdem_events
from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event
from engine.holdem import Hand, Pawn, PawnRules, SeatPlayer, ShowdownRules
from engine.house import GAMES
from engine.house import events as house_events
from engine.house.events import StakesSettled
from engine.house.three_card import ThreeCardRules
from tests.bot.words_helpers import render_action
from tests.engine.holdem_helpers import random_action, run_script, start


def _showdown(language: str, holes: dict[str, str], board: str) -> list[str]:
    """The last two lines (showdown and pot) of a heads-up hand where both go all-in preflop."""
    hand, events = start(STRUCTURES["no-limit"], {"ann": 500, "bob": 500}, "ann", holes, board)
    events += run_script(hand, "ann allin; bob call")
    act = render_action(language)
    act.tell_narration(holdem.narrate(act.voice, events))
    return act.reply.public[0].splitlines()[-2:]


@pytest.mark.parametrize(("language", "board", "holes", "ann", "bob"), [
    ("en", "Ks 7d 7c 4s 9h", {"ann": "Ah Kd", "bob": "7h 2c"}, "two pair, kings and sevens, ace kicker",
     "three of a kind, sevens, king kicker"),
    ("ru", "Ks 7d 7c 4s 9h", {"ann": "Ah Kd", "bob": "7h 2c"}, "две пары, короли и семёрки, кикер туз",
     "тройка семёрок, кикер король"),
    ("en", "Td 9c 8s 2c 2h", {"ann": "7h 6d", "bob": "Ad Kd"}, "a straight to the ten", "a pair of twos, ace kicker"),
    ("ru", "Td 9c 8s 2c 2h", {"ann": "7h 6d", "bob": "Ad Kd"}, "стрит до десятки", "пара двоек, кикер туз"),
    ("en", "Ah 9h 4h 2c 2d", {"ann": "Kh 3h", "bob": "2s 9c"}, "a flush, ace high", "a full house, twos full of nines"),
    ("ru", "Ah 9h 4h 2c 2d", {"ann": "Kh 3h", "bob": "2s 9c"}, "флеш, старший туз", "фулл-хаус, двойки на девятках"),
    ("en", "5c 4d 3h Qs 9c", {"ann": "Ac 2d", "bob": "Qd Jh"}, "a straight to the five",
     "a pair of queens, jack kicker"),
    ("ru", "5c 4d 3h Qs 9c", {"ann": "Ac 2d", "bob": "Qd Jh"}, "стрит до пятёрки", "пара дам, кикер валет"),
    ("en", "Qc Jc Tc 4d 4h", {"ann": "Ac Kc", "bob": "4c 4s"}, "royal flush", "four of a kind, fours, queen kicker"),
    ("ru", "Qc Jc Tc 4d 4h", {"ann": "Ac Kc", "bob": "4c 4s"}, "роял-флеш", "каре четвёрок, кикер дама"),
    ("en", "Qc 8d 6s 4d 2h", {"ann": "Ac 3c", "bob": "Kd Jh"}, "ace high", "king high"),
    ("ru", "Qc 8d 6s 4d 2h", {"ann": "Ac 3c", "bob": "Kd Jh"}, "старший туз", "старший король"),
])
def test_a_showdown_says_each_hand_as_a_card_room_does(language: str, board: str, holes: dict[str, str], ann: str,
                                                       bob: str) -> None:
    shown, _ = _showdown(language, holes, board)
    assert f"({ann})" in shown
    assert f"({bob})" in shown


@pytest.mark.parametrize(("language", "board", "holes", "expected"), [
    ("en", "Ad Ac 9s 7c 4h", {"ann": "Kd 2s", "bob": "Qd 3s"},
     "Ann wins the main pot (1,000) with a pair of aces, king kicker; the kicker decides: Ann's king beats Bob's "
     "queen."),
    ("ru", "Ad Ac 9s 7c 4h", {"ann": "Kd 2s", "bob": "Qd 3s"},
     "Ann забирает основной банк (1\u00a0000): пара тузов, кикер король; решает кикер: Ann — король, Bob — дама."),
    ("en", "Kd Kc 9s 7c 4h", {"ann": "9d 2s", "bob": "7d 3s"},
     "Ann wins the main pot (1,000) with two pair, kings and nines, seven kicker; the second pair decides: "
     "Ann's nines beat Bob's sevens."),
    ("ru", "Kd Kc 9s 7c 4h", {"ann": "9d 2s", "bob": "7d 3s"},
     "Ann забирает основной банк (1\u00a0000): две пары, короли и девятки, кикер семёрка; решает младшая пара: "
     "Ann — девятки, Bob — семёрки."),
    ("en", "Ah 9h 4h 2h Td", {"ann": "Kh 3c", "bob": "Qh Jc"},
     "Ann wins the main pot (1,000) with a flush, ace high; the second card decides: Ann's king beats Bob's queen."),
    ("en", "Ad Kc 9s 7c 3h", {"ann": "Ah 2s", "bob": "As Kd"},
     "Bob wins the main pot (1,000) with two pair, aces and kings, nine kicker."),
])
def test_a_pot_won_in_the_same_category_says_what_decided(language: str, board: str, holes: dict[str, str],
                                                          expected: str) -> None:
    _, pot = _showdown(language, holes, board)
    assert pot == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Bob 500, Ann 500 split the main pot (1,000): the hands are equal, a pair of aces, king kicker."),
    ("ru", "Bob 500, Ann 500 делят основной банк (1\u00a0000): комбинации равны, пара тузов, кикер король."),
])
def test_a_split_pot_says_the_hands_are_equal(language: str, expected: str) -> None:
    _, pot = _showdown(language, {"ann": "2c 3d", "bob": "4c 5d"}, "Ad Ac Ks Qh Jh")
    assert pot == expected


# --- doubled or blank words, across all narration --------------------------------------------------------------

_CARDS = re.compile(r"(?:[2-9TJQKA][♠♥♦♣]|▢)(?: (?:[2-9TJQKA][♠♥♦♣]|▢))*")
_REPEATED = re.compile(r"(?<![\w-])([^\W\d_][\w-]*(?: [^\W\d_][\w-]*){0,3})[\s,:;—–]+\1(?![\w-])", re.IGNORECASE)


def faults(message: str) -> list[str]:
    """What reads wrong in a message: a doubled phrase, a double space, an empty "()" or a ":" with nothing after."""
    found = []
    plain = _CARDS.sub("🂠", message)
    for line in plain.splitlines():
        if "  " in line.strip():
            found.append(f"double space in {line!r}")
        if re.search(r"\(\s*\)", line):
            found.append(f"empty () in {line!r}")
        if re.search(r":\s*($|[.,;:—)])", line):
            found.append(f"nothing after ':' in {line!r}")
        if re.search(r"\s[.,;]", line):
            found.append(f"a space before punctuation in {line!r}")
        repeated = _REPEATED.search(line)
        if repeated:
            found.append(f"{repeated.group(1)!r} doubled in {line!r}")
    return found


def test_the_fault_finder_finds_the_reported_faults() -> None:
    assert faults("Dealer reveals Q♠ J♦ 9♦ 5♣ 3♠: no game — no game.")
    assert faults("Ann, box 1: dealer still has no game, bets back: 0  A♠ 5♦")
    assert faults("Showdown — Bob: (two pair)") == []
    assert faults("Showdown — Bob: ()")
    assert faults("Ann raises to 500. all-in") == []
    assert faults("Ann, box 1: wins (+40) — a pair of aces: A♠ A♦ K♥ 8♣ 9♣; ANTE 0 · BET +40.") == []


def _holdem_events(seed: int) -> list[list[Event]]:
    """The events of one random Hold'em hand of 2 to 4 players, action by action (pawning when allowed)."""
    rng = random.Random(seed)
    count = 2 + seed % 3
    players = [SeatPlayer(name, rng.choice([15, 60, 200, 500])) for name in ("ann", "bob", "cat", "dan")[:count]]
    structure = STRUCTURES[("no-limit", "home-limit", "fixed-limit")[seed % 3]]
    rules = ShowdownRules(muck=True, automuck=frozenset(p.id for p in players if rng.random() < 0.5),
                          run_it_twice=True)
    hand, events = Hand.start(players, seed % count, 10, structure, Deck(rng), hand_number=seed + 1,
                              pawn_rules=PawnRules(value=100), rules=rules)
    batches = [events]
    while not hand.is_over:
        if hand.runs_asked:
            batches.append(hand.choose_runs(hand.runs_asked[0], twice=rng.random() < 0.8))
        elif hand.showing is not None:
            batches.append(hand.show_or_muck(hand.showing, show=rng.random() < 0.5))
        else:
            legal = hand.legal_actions()
            action = Pawn("a warm coat") if legal.can_pawn and rng.random() < 0.5 else random_action(legal, rng)
            assert hand.to_act is not None
            batches.append(hand.act(hand.to_act, action))
    if len(hand.board) < 5:
        batches.append(hand.rabbit_hunt("cat"))
    if hand.result is not None and not hand.result.went_to_showdown:
        batches.append(hand.show_won(next(player for player in hand.players if player not in hand.folded)))
    return batches


def _house_events(game: str, seed: int) -> list[list[Event]]:
    """The events of one random round of a house game: two players, one to three boxes each, side bets sometimes,
    every decision picked at random among the legal ones (draws included)."""
    rng = random.Random(seed)
    round_ = GAMES[game].new()
    batches = []
    for player in ("ann", "bob"):
        for box in range(1, rng.choice([1, 2, 3]) + 1):
            side = rng.choice([0, 10]) if round_.side_name else 0
            if round_.can_place_bets(player, box, 10, side=side, balance=100_000):
                batches.append(round_.place_bets(player, box, 10, side=side, balance=100_000))
    batches.append(round_.deal(Deck(rng)))
    while round_.to_act is not None:
        player, index = round_.to_act
        option = rng.choice(round_.legal_actions().options)
        box = round_.find_box(player, index)
        assert box is not None
        cards = rng.sample(box.cards, rng.randint(option.min_cards, option.max_cards)) if option.max_cards else []
        batches.append(round_.act(player, option.name, cards))
    return batches


def _event_kinds(module: object) -> set[str]:
    return {value.__name__ for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Event) and value is not Event}


def _all_said(act: Action) -> list[str]:
    return act.reply.public + [message for messages in act.reply.private.values() for message in messages]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_narration_has_doubled_or_blank_words(language: str) -> None:
    """Every event kind of every game, rendered with representative data from random hands and rounds, reads
    without a doubled phrase, a double space, an empty "()" or a ":" with nothing after it."""
    seen: set[str] = set()
    outcomes: set[str] = set()
    problems: list[str] = []
    push = GAMES["russian"].new()
    tie = [push.place_bets("ann", 1, 10, balance=1000), push.deal(Deck.stacked("Qs Qd 5h 6c 8h Qh Qc 5d 6d 8c")),
           push.act("ann", "play")]
    for seed in range(60):
        for events in _holdem_events(seed):
            act = render_action(language)
            act.tell_narration(holdem.narrate(act.voice, events))
            seen.update(event.kind for event in events)
            problems += [fault for message in _all_said(act) for fault in faults(message)]
        for game in GAMES:
            for events in _house_events(game, seed) + (tie if (seed, game) == (0, "russian") else []):
                act = render_action(language)
                act.tell_narration(house.narrate(act.voice, events))
                seen.update(event.kind for event in events)
                outcomes.update(event.outcome for event in events if isinstance(event, StakesSettled))
                problems += [fault for message in _all_said(act) for fault in faults(message)]
    assert sorted(set(problems)) == []
    assert _event_kinds(holdem_events) | _event_kinds(house_events) <= seen
    assert {"won", "lost", "push", "folded", "dealer_not_qualified", "dealer_no_game",
            "dealer_still_no_game"} <= outcomes


# --- house payouts name what was paid; side bets in the public result ------------------------------------------


def _round(game: str, cards: str, decisions: list[str], *, side: int = 0, ante: int = 10,
           language: str = "en") -> tuple[list[str], dict[str, list[str]]]:
    """One box of `game` on a stacked deck, decided as told: what the table and the player read (in English, or
    `language`)."""
    round_ = GAMES[game].new()
    events = round_.place_bets("ann", 1, ante, side=side, balance=10_000)
    events += round_.deal(Deck.stacked(cards))
    for decision in decisions:
        events += round_.act("ann", decision)
    act = render_action(language)
    act.tell_narration(house.narrate(act.voice, events))
    return act.reply.public[0].splitlines(), act.reply.private


def test_russian_poker_names_both_combinations_it_paid() -> None:
    public, _ = _round("russian", "Ks Kd Ah 8c 9c 3s 3d 5h 6c 8h", ["play"])
    assert ("Ann, box 1: wins (+40) — a pair of kings, ace kicker: K♠ K♦ A♥ 8♣ 9♣; ANTE 0 · "
            "BET +40 (a pair of kings + second combination: ace-king, ×2).") in public


def test_a_caribbean_box_that_won_its_ante_but_lost_its_bonus_shows_both() -> None:
    public, _ = _round("caribbean", "As Kd Qs 7s 9s Qh Jd 9d 5c 3s", ["play"], side=10)
    assert ("Ann, box 1: dealer does not qualify (0) — ace-king: A♠ K♦ Q♠ 7♠ 9♠; ANTE +10 · BET 0 · BONUS −10."
            in public)


def test_a_won_caribbean_bonus_names_the_dealt_hand_and_its_multiple() -> None:
    public, _ = _round("caribbean", "As Ks Qs Js 9s Ah Kd 9d 5c 3s", ["play"], side=10)
    assert ("Ann, box 1: wins (+180) — a flush, ace high: A♠ K♠ Q♠ J♠ 9♠; ANTE +10 · BET +100 (a flush, ace high, "
            "×5) · BONUS +70 (a flush, ace high, ×7).") in public


def test_pair_plus_is_told_privately_on_the_deal_and_publicly_with_the_result() -> None:
    public, private = _round("three-card", "7s 7d 2c Ah Kh Qh", ["play"], side=5)
    assert private["ann"][-1] == "Box 1, side bet: PAIRPLUS +5 (a pair of sevens, two kicker, ×1)."
    assert ("Ann, box 1: loses (−15) — a pair of sevens, two kicker: 7♠ 7♦ 2♣; PAIRPLUS +5 (a pair of sevens, two "
            "kicker, ×1) · ANTE −10 · PLAY −10.") in public
    assert "Dealer reveals A♥ K♥ Q♥: a straight flush to the ace — qualifies." in public


def test_a_dealer_without_a_game_is_said_once() -> None:
    public, _ = _round("russian", "Ks Kd 7h 9c Jh Qs Jd 9d 5c 3s 4h", ["play", "dealer_game"])
    assert "Dealer reveals Q♠ J♦ 9♦ 5♣ 3♠: no game." in public
    assert "Dealer discards Q♠, draws 4♥: still no game." in public
    assert ("Ann, box 1: dealer still has no game, bets back (−10) — a pair of kings, jack kicker: K♠ K♦ 7♥ 9♣ J♥; "
            "ANTE 0 · BET 0 · dealer's game fee −10.") in public


@pytest.mark.parametrize(("language", "dealer", "expected"), [
    ("en", "Ah Kd Qc 5s 3s", "Dealer reveals A♥ K♦ Q♣ 5♠ 3♠: ace-king — qualifies."),
    ("en", "Ah Qd Jc 5s 3s", "Dealer reveals A♥ Q♦ J♣ 5♠ 3♠: ace high — no game: it takes ace-king or better."),
    ("ru", "Ah Kd Qc 5s 3s", "Дилер открывает A♥ K♦ Q♣ 5♠ 3♠: туз-король — игра есть."),
    ("ru", "Ah Qd Jc 5s 3s", "Дилер открывает A♥ Q♦ J♣ 5♠ 3♠: старший туз — нет игры: нужен хотя бы туз-король."),
    ("en", "Kh Qd Jc 5s 3s", "Dealer reveals K♥ Q♦ J♣ 5♠ 3♠: king high — no game: it takes ace-king or better."),
    ("en", "Ah Ad Jc 5s 3s", "Dealer reveals A♥ A♦ J♣ 5♠ 3♠: a pair of aces, jack kicker — qualifies."),
])
def test_a_caribbean_dealer_with_ace_high_is_told_why_he_qualifies_or_not(language: str, dealer: str,
                                                                         expected: str) -> None:
    """RULES.md §4: the dealer qualifies with ace-king or better. A-K-Q-5-3 read "ace high — qualifies" and A-Q-J-5-3
    "ace high — no game": the same hand, two verdicts. The one that qualifies is the ace-king; the one that does not
    says what it lacks."""
    public, _ = _round("caribbean", f"2s 3d 7h 9c Jh {dealer}", ["play"], language=language)
    assert expected in public, public


@pytest.mark.parametrize(("language", "rank", "dealer", "expected"), [
    ("en", 12, "Jc 9d 4s", "Dealer reveals J♣ 9♦ 4♠: jack high — no game: it takes queen high or better."),
    ("en", 13, "Qc 9d 4s", "Dealer reveals Q♣ 9♦ 4♠: queen high — no game: it takes king high or better."),
    ("en", 11, "Tc 9d 4s", "Dealer reveals T♣ 9♦ 4♠: ten high — no game: it takes jack high or better."),
    ("en", 13, "Kc 9d 4s", "Dealer reveals K♣ 9♦ 4♠: king high — qualifies."),
    ("ru", 13, "Qc 9d 4s", "Дилер открывает Q♣ 9♦ 4♠: старшая дама — нет игры: нужна комбинация не ниже, чем старший "
                           "король."),
    ("ru", 12, "Jc 9d 4s", "Дилер открывает J♣ 9♦ 4♠: старший валет — нет игры: нужна комбинация не ниже, чем старшая "
                           "дама."),
])
def test_a_three_card_dealer_without_a_game_says_what_it_takes_at_the_tables_rank(language: str, rank: int,
                                                                                   dealer: str, expected: str) -> None:
    """A table that qualifies the dealer at another rank than the queen (`qualifying_rank`) read a plain "no game":
    now what it takes there, as the queen's table says it."""
    round_ = GAMES["three-card"].new(ThreeCardRules(qualifying_rank=rank))
    events = round_.place_bets("ann", 1, 10, balance=10_000)
    events += round_.deal(Deck.stacked(f"2s 3d 7h {dealer}"))
    events += round_.act("ann", "play")
    act = render_action(language)
    act.tell_narration(house.narrate(act.voice, events))
    assert expected in act.reply.public[0].splitlines()


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Ann, box 1: wins (+10,000) — royal flush: A♥ K♥ Q♥ J♥ T♥; ANTE +100 · BET +9,900 (royal flush, ×100); "
           "payout capped at the table's maximum of 10,000."),
    ("ru", "Ann, бокс 1: выигрыш (+10\u00a0000) — роял-флеш: A♥ K♥ Q♥ J♥ T♥; АНТЕ +100 · БЕТ +9\u00a0900 (роял-флеш, "
           "×100); выплата ограничена максимумом стола — 10\u00a0000."),
])
def test_a_payout_the_tables_maximum_cut_says_so(language: str, expected: str) -> None:
    """A royal flush on a BET of 200 pays 20,000 at ×100: the BET line's 9,900 is the table's maximum payout at
    work, and the result says so rather than leave "×100" to disagree with it."""
    public, _ = _round("texas", "Ah Kh Kc Kd Qh Jh Th 2c 3d", ["bet"], ante=100, language=language)
    assert expected in public


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Ann, box 1: half payout (+505) — a straight flush to the nine: 9♥ 8♥ 7♥ 6♥ 5♥; ANTE 0 · BET 0 · half "
           "payout +505 (half of 1,010: a straight flush to the nine, ANTE 1:1 and BET ×50)."),
    ("ru", "Ann, бокс 1: половина выплаты (+505) — стрит-флеш до девятки: 9♥ 8♥ 7♥ 6♥ 5♥; АНТЕ 0 · БЕТ 0 · половина "
           "выплаты +505 (половина от 1\u00a0010: стрит-флеш до девятки, АНТЕ 1:1 и БЕТ ×50)."),
])
def test_a_half_payout_says_what_it_is_half_of(language: str, expected: str) -> None:
    """RULES.md §2.6: a straight flush when the dealer does not qualify is paid half of what the box would have won
    (ANTE 10 1:1 and BET 20 ×50: 1,010): "+505 (…, ×50)" alone read as a sum gone wrong."""
    public, _ = _round("texas", "9h 8h Ac Jd 7h 6h 5h 2c 3d", ["bet"], language=language)
    assert expected in public
