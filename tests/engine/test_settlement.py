"""Settlement: figures in whole cents, apportioned without losing any; transfers that settle every net in at most
n - 1 payments."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.settlement import (
    EXACT_LIMIT,
    Settlement,
    SettlementRow,
    Transfer,
    apportion,
    build_settlement,
    fewest_transfers,
    to_cents,
)


def received(transfers: list[Transfer], players: list[str]) -> dict[str, int]:
    total = dict.fromkeys(players, 0)
    for transfer in transfers:
        assert transfer.cents > 0 and transfer.payer != transfer.payee
        assert transfer.amount == Fraction(transfer.cents, 100)
        total[transfer.payee] += transfer.cents
        total[transfer.payer] -= transfer.cents
    return total


def most_zero_groups(values: list[int]) -> int:
    """The most parts a zero-sum list splits into, by brute force over which subset holds the first element."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for size in range(len(rest) + 1):
        for chosen in combinations(range(len(rest)), size):
            if first + sum(rest[i] for i in chosen) == 0:
                others = [value for i, value in enumerate(rest) if i not in chosen]
                best = max(best, 1 + most_zero_groups(others))
    return best


balances = st.lists(st.integers(-5000, 5000), min_size=1, max_size=9).map(lambda values: [*values, -sum(values)])


@settings(max_examples=150, deadline=None)
@given(balances)
def test_transfers_settle_every_balance_with_at_most_n_minus_one(values: list[int]) -> None:
    players = [f"p{i}" for i in range(len(values))]
    transfers = fewest_transfers(dict(zip(players, values, strict=True)))
    assert received(transfers, players) == dict(zip(players, values, strict=True))
    assert len(transfers) <= max(len(players) - 1, 0)
    nonzero = [value for value in values if value]
    assert len(transfers) == len(nonzero) - most_zero_groups(nonzero)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-3000, 3000), min_size=EXACT_LIMIT + 1, max_size=EXACT_LIMIT + 8))
def test_many_players_still_settle_within_the_bound(values: list[int]) -> None:
    values = [*values, -sum(values)]
    players = [f"p{i:02}" for i in range(len(values))]
    transfers = fewest_transfers(dict(zip(players, values, strict=True)))
    assert received(transfers, players) == dict(zip(players, values, strict=True))
    assert len(transfers) <= len(players) - 1


def test_pairs_that_cancel_pay_each_other() -> None:
    transfers = fewest_transfers({"a": 500, "b": -500, "c": 300, "d": -300, "e": 0})
    assert sorted((t.payer, t.payee, t.cents) for t in transfers) == [("b", "a", 500), ("d", "c", 300)]


@settings(max_examples=200, deadline=None)
@given(st.integers(-5000, 50000), st.lists(st.integers(0, 5000), min_size=1, max_size=8))
def test_apportioning_keeps_the_total_and_stays_within_a_cent(total: int, chips: list[int]) -> None:
    weights = {f"p{i}": value for i, value in enumerate(chips)}
    shares = apportion(total, weights)
    assert sum(shares.values()) == total
    whole = sum(chips) or len(chips)
    for player, weight in weights.items():
        quota = Fraction(total * (weight if sum(chips) else 1), whole)
        assert abs(shares[player] - quota) < 1


def test_apportioning_gives_the_odd_cents_to_the_largest_remainders() -> None:
    # 101.67 for 320 and 290 chips: 5333.61… and 4833.38…; equal stacks tie, the first by name takes the cent.
    assert apportion(10167, {"bob": 290, "ann": 320}) == {"bob": 4833, "ann": 5334}
    assert apportion(17333, {"bob": 650, "ann": 650}) == {"bob": 8666, "ann": 8667}
    assert apportion(5, {"a": 0, "b": 0}) == {"a": 3, "b": 2}, "no chips at all: equal shares"
    assert apportion(0, {}) == {}
    with pytest.raises(ValueError, match="nobody"):
        apportion(3, {})


def test_cents_round_to_the_nearest() -> None:
    assert [to_cents(value) for value in (Fraction(50, 3), Fraction(25, 3), Fraction(-50, 3), Fraction(1, 200))] == [
        1667, 833, -1667, 0]


def test_a_figure_that_is_not_whole_cents_or_nets_that_do_not_balance_are_refused() -> None:
    with pytest.raises(ValueError, match="whole cents"):
        build_settlement([SettlementRow("a", Fraction(50), Fraction(50, 3), Fraction(0)),
                          SettlementRow("b", Fraction(0), Fraction(100, 3), Fraction(0))])
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers({"a": 5})


def test_settlement_rows_and_json_round_trip() -> None:
    settlement = build_settlement([
        SettlementRow("ann", Fraction(50), Fraction(75), Fraction(0)),
        SettlementRow("bob", Fraction(50), Fraction(8334, 100), Fraction(1667, 100), 1),
        SettlementRow("dan", Fraction(50), Fraction(833, 100), Fraction(0)),
    ])
    assert [row.net_cents for row in settlement.rows] == [2500, 1667, -4167]
    assert [(t.payer, t.payee, t.cents) for t in settlement.transfers] == [("dan", "ann", 2500), ("dan", "bob", 1667)]
    with pytest.raises(ValueError, match="balance"):
        build_settlement([SettlementRow("ann", Fraction(50), Fraction(60), Fraction(0))])
    assert Settlement.from_dict(settlement.to_dict()) == settlement
