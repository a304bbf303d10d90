"""Differential test: random hands played by our engine and by pokerkit with the same cards and actions.

Our actions are replayed in pokerkit, which must accept each one from the same player; where both engines allow a
raise they must agree on its bounds; the final stacks must be identical. Odd chips are the one known difference:
we split each pot on its own (one odd chip each to the winners from the button's left), pokerkit first merges the
pots that the same winners share and gives all odd chips to the first. In those rare hands only the odd chips may
differ, only for winners, by at most the odd chips, with the same total. In fixed limit the rules differ on purpose
after an all-in bet or raise short of a full bet (RULES.md §1, TDA 47-B: half a bet reopens the betting, less is
completed to a full bet; pokerkit reopens only for a full one and raises from the all-in). For the rest of such a
betting round the raise bounds are not compared, and a bet or raise that pokerkit refuses ends the comparison of the
hand (tests/engine/test_holdem_short_all_ins.py covers those rules).

Pot-Limit Omaha (RULES.md §1b) is compared the same way against pokerkit's `PotLimitOmahaHoldem`, whose pot limit is
`2 * max(bets) - bets[player] + pot`, ours "the current bet plus the pot after the call". Odd chips differ as in
Hold'em.

Some players start with less than a big blind, in every structure. A blind posted all-in is compared like any other
hand when it is a small blind (short or not) or a big blind posted in full: pokerkit, like RULES.md §1, then makes the
others call the big blind. The one class of hands where the rules part is a big blind posted all-in short (`short big
blind`): RULES.md §1 makes the others call the full blind (raises measured from it, its pot-limit counting the chips
really in), pokerkit takes the short blind as the bet to call, and its `State` has no way to set the bet to call apart
from the blinds posted. Those hands are counted and not compared; tests/engine/test_holdem_short_all_ins.py (section 1)
and tests/engine/test_omaha.py (`test_a_short_big_blind_is_called_in_full_and_counted_in_the_pot_limit`) check them
against hand-worked hands.

In no limit and pot limit alike, one more class parts the rules (`short all-ins add up`): several all-in raises, each
short of a full raise, that together raise a player who already acted by a full raise or more reopen the betting for
him (RULES.md §1, TDA: he faces a full raise), while pokerkit reopens only after one full raise. Where pokerkit refuses
such a raise, the test checks that this is the situation (he acted on this street, only short all-in raises came
since, adding up to at least the minimum raise) and compares the hand no further (tests/engine/test_omaha.py:
`test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting`).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter

import pytest

pokerkit = pytest.importorskip("pokerkit")

from engine.betting import FIXED_LIMIT, NO_LIMIT, POT_LIMIT, Limit  # noqa: E402
from engine.cards import Deck  # noqa: E402
from engine.holdem import (  # noqa: E402
    AllIn,
    Bet,
    BlindPosted,
    Call,
    Check,
    Fold,
    Hand,
    PlayerBet,
    PlayerRaised,
    RaiseTo,
    SeatPlayer,
    Variant,
)
from tests.engine.holdem_helpers import random_action  # noqa: E402

HANDS = 1000  # per Hold'em structure
OMAHA_HANDS = 2200  # at least 2,000 compared once the short-big-blind hands are set aside
SHORT = 0.04  # the share of players dealt in with less than a big blind
LEVEL = 10
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING, pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING, pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING, pokerkit.Automation.CHIPS_PULLING,
)


def _pokerkit_state(structure, stacks):
    if structure is POT_LIMIT:
        return pokerkit.PotLimitOmahaHoldem.create_state(
            AUTOMATIONS, True, 0, (LEVEL // 2, LEVEL), LEVEL, stacks, len(stacks))
    if structure is NO_LIMIT:
        return pokerkit.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, True, 0, (LEVEL // 2, LEVEL), LEVEL, stacks, len(stacks))
    return pokerkit.FixedLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (LEVEL // 2, LEVEL), LEVEL, 2 * LEVEL, stacks, len(stacks))


def _catch_up(state, hand: Hand, order: list[str]) -> None:
    """Deal pokerkit the board we dealt, and play the checks that decide nothing (we do not ask for those)."""
    board = [str(card) for card in hand.board]
    while state.status:
        if state.actor_index is not None:
            if order[state.actor_index] == hand.to_act:
                return
            assert state.checking_or_calling_amount == 0 and not state.can_complete_bet_or_raise_to()
            state.check_or_call()
        elif state.can_show_or_muck_hole_cards():
            state.show_or_muck_hole_cards(True)  # everyone shows, as in our showdown (and faster than auto-mucking)
        elif state.can_deal_board():
            dealt = len(state.board_cards)
            state.deal_board("".join(board[dealt:dealt + (3 if dealt == 0 else 1)]))
        else:
            return


def _play_one(rng: random.Random, structure) -> tuple[str, bool]:
    """Play one random hand in both engines and say how it compared, and whether a blind was posted all-in: `same`
    stacks, `odd chips` (compared loosely), `rules part` (a raise after a fixed-limit all-in short of a full bet that
    pokerkit refuses: compared up to it), `short all-ins add up` (a raise pokerkit refuses after short all-ins adding
    up to a full raise: compared up to it) or `short big blind` (not compared)."""
    variant = Variant.OMAHA if structure is POT_LIMIT else Variant.HOLDEM
    count = rng.randint(2, 9)
    stacks = [rng.choice([rng.randint(LEVEL, 6 * LEVEL), rng.randint(LEVEL, 40 * LEVEL)]) for _ in range(count)]
    stacks = [rng.randint(1, LEVEL - 1) if rng.random() < SHORT else stack for stack in stacks]
    button = rng.randrange(count)
    players = [SeatPlayer(f"p{index}", stack) for index, stack in enumerate(stacks)]
    hand, events = Hand.start(players, button, LEVEL, structure, Deck(rng), hand_number=1, variant=variant)
    blinds = [event for event in events if isinstance(event, BlindPosted)]
    if any(blind.blind == "big" and blind.amount < LEVEL for blind in blinds):
        return "short big blind", True
    all_in_blind = any(blind.is_all_in for blind in blinds)
    # pokerkit seats players from the button's left: index k is our seat button+1+k
    order = [f"p{(button + 1 + k) % count}" for k in range(count)]
    state = _pokerkit_state(structure, [stacks[(button + 1 + k) % count] for k in range(count)])
    for player in order:
        state.deal_hole("".join(str(card) for card in hand.hole_cards(player)))
    _catch_up(state, hand, order)  # a hand with nobody to act (a blind all-in, covered) is over at the start
    parted_on = None  # the street of a fixed-limit all-in short of a full bet, where the rules part
    on_street, raises, matched, increment = hand.street, [], {}, LEVEL  # raises: (to, a full raise) this street
    while not hand.is_over:
        if hand.street is not on_street:
            on_street, raises, matched, increment = hand.street, [], {}, LEVEL
        legal = hand.legal_actions()
        assert state.actor_index is not None and order[state.actor_index] == legal.player
        if legal.can_raise and structure.limit is not Limit.FIXED and not state.can_complete_bet_or_raise_to():
            acted_at, level = matched.get(legal.player, (None, 0))
            assert acted_at is not None, "pokerkit refuses a raise to a player who has not acted"
            since = raises[acted_at:]
            assert since and not any(full for _, full in since), since
            assert hand.current_bet - level >= increment
            return "short all-ins add up", all_in_blind
        if (legal.can_bet or legal.can_raise) and parted_on is not hand.street:
            assert state.can_complete_bet_or_raise_to()
            assert state.min_completion_betting_or_raising_to_amount == legal.min_to
            assert state.max_completion_betting_or_raising_to_amount == legal.max_to
        action = random_action(legal, rng)
        bet = hand.bets[legal.player]
        stack = hand.stacks[legal.player]
        street, current = hand.street, hand.current_bet
        events = hand.act(legal.player, action)
        raised_to = [event.to if isinstance(event, PlayerRaised) else event.amount for event in events
                     if isinstance(event, PlayerBet | PlayerRaised)]
        if raised_to and hand.street is street:
            full = raised_to[0] - current >= increment
            increment = max(increment, raised_to[0] - current)
            raises.append((raised_to[0], full))
        if hand.street is street:
            matched[legal.player] = (len(raises), hand.current_bet)
        if raised_to and parted_on is street and not state.can_complete_bet_or_raise_to(raised_to[0]):
            return "rules part", all_in_blind
        if (structure.limit is Limit.FIXED and raised_to and hand.stacks[legal.player] == 0
                and raised_to[0] - current < structure.bet_size(street, LEVEL)):
            parted_on = street
        match action:
            case Fold():
                state.fold()
            case Check() | Call():
                state.check_or_call()
            case AllIn() if stack <= legal.call_amount:
                state.check_or_call()
            case AllIn():
                state.complete_bet_or_raise_to(bet + stack)
            case Bet(to) | RaiseTo(to):
                state.complete_bet_or_raise_to(to)
        _catch_up(state, hand, order)
    assert not state.status
    assert hand.result is not None
    ours = [hand.stacks[player] for player in order]
    odd_chips = sum(pot.amount % len(pot.winners) for pot in hand.result.pots)
    if odd_chips:
        winners = {player for pot in hand.result.pots for player in pot.winners}
        assert sum(ours) == sum(state.stacks)
        for player, mine, theirs in zip(order, ours, state.stacks, strict=True):
            assert abs(mine - theirs) <= (odd_chips if player in winners else 0)
        return "odd chips", all_in_blind
    assert ours == list(state.stacks)
    return "same", all_in_blind


def _play_many(seed: int, structure, count: int) -> tuple[Counter[str], int]:
    """Play `count` random hands: how each compared, and how many with a blind posted all-in were compared in full."""
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    all_in_blinds = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(count):
            outcome, all_in_blind = _play_one(rng, structure)
            outcomes[outcome] += 1
            all_in_blinds += all_in_blind and outcome in ("same", "odd chips")
    return outcomes, all_in_blinds


# In fixed limit about a tenth of the hands part at an all-in short of a full bet (`rules part`, compared up to it)
@pytest.mark.parametrize(("structure", "in_full"), [(NO_LIMIT, 0.9), (FIXED_LIMIT, 0.85)],
                         ids=["no-limit", "fixed-limit"])
def test_same_final_stacks_as_pokerkit(structure, in_full):
    outcomes, all_in_blinds = _play_many(20240611, structure, HANDS)
    assert set(outcomes) <= {"same", "odd chips", "rules part", "short all-ins add up", "short big blind"}, outcomes
    assert 0 < outcomes["short big blind"] < HANDS * 0.08, outcomes
    assert all_in_blinds >= 20, (all_in_blinds, outcomes)  # short small blinds and big blinds posted in full
    assert outcomes["same"] + outcomes["odd chips"] >= HANDS * in_full, outcomes
    assert outcomes["same"] >= HANDS * (in_full - 0.05), outcomes


def test_pot_limit_omaha_same_final_stacks_as_pokerkit():
    """Every hand agrees (up to odd chips): same players to act, same pot-limit raise bounds, same stacks."""
    outcomes, all_in_blinds = _play_many(20261130, POT_LIMIT, OMAHA_HANDS)
    assert set(outcomes) <= {"same", "odd chips", "short big blind", "short all-ins add up"}, outcomes
    assert 0 < outcomes["short big blind"] < OMAHA_HANDS * 0.08, outcomes
    assert all_in_blinds >= 40, (all_in_blinds, outcomes)
    assert outcomes["same"] + outcomes["odd chips"] >= 2000, outcomes
    assert outcomes["same"] >= OMAHA_HANDS * 0.9, outcomes
