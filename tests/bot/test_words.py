"""What players read: hands said as a card room says them, what decided a pot, house payouts that name what paid,
side bets in the public result, and narration without doubled or blank words (issue 16)."""

from __future__ import annotations

import pytest

from bot.render import holdem
from engine.betting import STRUCTURES
from tests.bot.words_helpers import render_action
from tests.engine.holdem_helpers import run_script, start


def _showdown(language: str, holes: dict[str, str], board: str) -> list[str]:
    """The last two lines (showdown and pot) of a heads-up hand where both go all-in preflop."""
    hand, events = start(STRUCTURES["no-limit"], {"ann": 500, "bob": 500}, "ann", holes, board)
    events += run_script(hand, "ann allin; bob call")
    act = render_action(language)
    holdem.narrate(act, events)
    return act.reply.public[0].splitlines()[-2:]


@pytest.mark.parametrize(("language", "board", "holes", "ann", "bob"), [
    ("en", "Ks 7d 7c 4s 9h", {"ann": "Ah Kd", "bob": "7h 2c"}, "two pair, kings and sevens, ace kicker",
     "three of a kind, sevens, king kicker"),
    ("ru", "Ks 7d 7c 4s 9h", {"ann": "Ah Kd", "bob": "7h 2c"}, "две пары, короли и семёрки, кикер туз",
     "тройка семёрок, кикер король"),
    ("en", "Td 9c 8s 2c 2h", {"ann": "7h 6d", "bob": "Ad Kd"}, "straight to the ten", "pair of twos, ace kicker"),
    ("ru", "Td 9c 8s 2c 2h", {"ann": "7h 6d", "bob": "Ad Kd"}, "стрит до десятки", "пара двоек, кикер туз"),
    ("en", "Ah 9h 4h 2c 2d", {"ann": "Kh 3h", "bob": "2s 9c"}, "flush, ace high", "full house, twos full of nines"),
    ("ru", "Ah 9h 4h 2c 2d", {"ann": "Kh 3h", "bob": "2s 9c"}, "флеш, старший туз", "фулл-хаус, двойки на девятках"),
    ("en", "5c 4d 3h Qs 9c", {"ann": "Ac 2d", "bob": "Qd Jh"}, "straight to the five", "pair of queens, jack kicker"),
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
     "Ann wins the main pot (1000) with pair of aces, king kicker; the kicker decides: Ann's king beats Bob's queen."),
    ("ru", "Ad Ac 9s 7c 4h", {"ann": "Kd 2s", "bob": "Qd 3s"},
     "Ann забирает основной банк (1000): пара тузов, кикер король; решает кикер: у Ann король, у Bob дама."),
    ("en", "Kd Kc 9s 7c 4h", {"ann": "9d 2s", "bob": "7d 3s"},
     "Ann wins the main pot (1000) with two pair, kings and nines, seven kicker; the second pair decides: "
     "Ann's nines beat Bob's sevens."),
    ("ru", "Kd Kc 9s 7c 4h", {"ann": "9d 2s", "bob": "7d 3s"},
     "Ann забирает основной банк (1000): две пары, короли и девятки, кикер семёрка; решает младшая пара: "
     "у Ann девятки, у Bob семёрки."),
    ("en", "Ah 9h 4h 2h Td", {"ann": "Kh 3c", "bob": "Qh Jc"},
     "Ann wins the main pot (1000) with flush, ace high; the second card decides: Ann's king beats Bob's queen."),
    ("en", "Ad Kc 9s 7c 3h", {"ann": "Ah 2s", "bob": "As Kd"},
     "Bob wins the main pot (1000) with two pair, aces and kings, nine kicker."),
])
def test_a_pot_won_in_the_same_category_says_what_decided(language: str, board: str, holes: dict[str, str],
                                                          expected: str) -> None:
    _, pot = _showdown(language, holes, board)
    assert pot == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Bob 500, Ann 500 split the main pot (1000): the hands are equal, pair of aces, king kicker."),
    ("ru", "Bob 500, Ann 500 делят основной банк (1000): комбинации равны, пара тузов, кикер король."),
])
def test_a_split_pot_says_the_hands_are_equal(language: str, expected: str) -> None:
    _, pot = _showdown(language, {"ann": "2c 3d", "bob": "4c 5d"}, "Ad Ac Ks Qh Jh")
    assert pot == expected
