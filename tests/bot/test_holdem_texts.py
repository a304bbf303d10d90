"""What the Hold'em table message says, in English and Russian: whose turn it is and what his call costs, the last
hand's result kept when the seats take its place between hands, and the pots a showdown awards."""

from __future__ import annotations

import pytest

from bot.render import Voice, holdem
from bot.service import Service
from engine.betting import STRUCTURES
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.words_helpers import render_action
from tests.engine.holdem_helpers import run_script, start


@pytest.mark.parametrize(("language", "first", "second"), [
    ("en", "Hand #1: Bob wins 20.", "Hand #2: Ann wins 20."),
    ("ru", "Раздача №1: Bob выигрывает 20.", "Раздача №2: Ann выигрывает 20."),
])
async def test_the_seats_message_between_hands_keeps_who_won_the_last_hand(service: Service, language: str,
                                                                           first: str, second: str) -> None:
    """A hand won by folds said who won only in its own story: a player sitting down turned that message into the
    seats, and the line was gone from the chat. The seats now say who won the last hand, until the next deal."""
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 400")).error is None
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # heads-up: the button posts 10 and acts first
    folded = await service.handle(PLACE, ANN, "/fold")  # the big blind's 10 not called comes back: a pot of 20
    assert folded.table is not None and folded.table.key == dealt.table.key
    joined = await service.handle(PLACE, CAT, "/join 400")
    assert joined.table is not None and joined.table.key == dealt.table.key  # the hand's message, edited
    assert first in joined.table.text.splitlines()
    shown = await service.handle(PLACE, CAT, "/table")
    assert shown.table is not None and first in shown.table.text.splitlines()
    dealt = await service.handle(PLACE, BOB, "/deal")  # Bob on the button, Cat small blind, Ann big blind
    assert dealt.table is not None and first not in dealt.table.text
    for actor in (BOB, CAT):
        assert (await service.handle(PLACE, actor, "/fold")).error is None
    left = await service.handle(PLACE, CAT, "/leave")
    assert left.table is not None and second in left.table.text.splitlines()
    assert first not in left.table.text


@pytest.mark.parametrize(("language", "main", "side"), [
    ("en", "Bob wins the main pot (603) with two pair, sixes and fours, ace kicker.",
     "Bob wins side pot 1 (40) with two pair, sixes and fours, ace kicker."),
    ("ru", "Bob забирает основной банк (603): две пары, шестёрки и четвёрки, кикер туз.",
     "Bob забирает побочный банк 1 (40): две пары, шестёрки и четвёрки, кикер туз."),
])
def test_a_side_pot_is_named_without_an_article_before_its_number(language: str, main: str, side: str) -> None:
    """"Bob wins the side pot 1 (40)" read wrong: a pot with a number takes no article, as the main pot takes one."""
    hand, events = start(STRUCTURES["no-limit"], {"ann": 400, "bob": 221, "cat": 201}, "ann",
                         {"ann": "9s 4s", "bob": "6d 4h", "cat": "Js Qc"}, "6s 5h Ah 4c Kc", level=20)
    events += run_script(hand, "ann allin; bob allin; cat call")
    act = render_action(language)
    lines = holdem.narrate(act.voice, events).lines
    assert lines[-2:] == [main, side]


@pytest.mark.parametrize(("language", "cat", "expected"), [
    ("en", 1000, ("▶ Cat to act: 600 to call.", "▶ Cat to act: 600 to call (⏱ 60\xa0s).")),
    ("en", 610, ("▶ Cat to act: call all-in for 600.", "▶ Cat to act: call all-in for 600 (⏱ 60\xa0s).")),
    ("en", 290, ("▶ Cat to act: call all-in for 280.", "▶ Cat to act: call all-in for 280 (⏱ 60\xa0s).")),
    ("ru", 1000, ("▶ Ход: Cat, для колла 600.", "▶ Ход: Cat, для колла 600 (⏱ 60\xa0с).")),
    ("ru", 610, ("▶ Ход: Cat, для колла — олл-ин на 600.", "▶ Ход: Cat, для колла — олл-ин на 600 (⏱ 60\xa0с).")),
    ("ru", 290, ("▶ Ход: Cat, для колла — олл-ин на 280.", "▶ Ход: Cat, для колла — олл-ин на 280 (⏱ 60\xa0с).")),
])
def test_a_player_whose_stack_is_short_of_the_call_reads_that_he_may_call_all_in(
        language: str, cat: int, expected: tuple[str, str]) -> None:
    """"Cat to act: 280 to call" was shown to a player whose whole stack (280) is short of a 600 call: a card room
    says he can call all-in for 280. A call that takes the whole stack (short of the bet, or just matching it) says
    so; a player who covers the call reads what it costs."""
    hand, _ = start(STRUCTURES["no-limit"], {"ann": 1000, "cat": cat}, "ann", {"ann": "As Ks", "cat": "2c 7d"},
                    "Qh Jh 9c 4d 3s")
    run_script(hand, "ann raise 610")  # heads-up: the button's small blind acts first; Cat's big blind owes 600
    view, voice = holdem.hand_view(hand), Voice(language, str.capitalize)
    said = holdem.table_text(voice, view).splitlines()[-1], holdem.table_text(voice, view, seconds=60).splitlines()[-1]
    assert said == expected


@pytest.mark.parametrize(("language", "script", "said"), [
    ("en", "ann call; bob check; bob check; ann check; bob bet 40; ann fold",
     "🐇 Cat hunts the rabbit of hand #1: with J♥ 6♣ J♠ 4♠ on the board, the rest of it would have been 8♣. "
     "Nothing changes."),
    ("en", "ann call; bob check; bob bet 20; ann fold",
     "🐇 Cat hunts the rabbit of hand #1: with J♥ 6♣ J♠ on the board, the rest of it would have been 4♠ 8♣. "
     "Nothing changes."),
    ("ru", "ann call; bob check; bob check; ann check; bob bet 40; ann fold",
     "🐇 Cat смотрит «кролика» раздачи №1: на борде были J♥ 6♣ J♠ 4♠, а остаток борда был бы таким: 8♣. "
     "Ничего не меняется."),
    ("ru", "ann call; bob check; bob bet 20; ann fold",
     "🐇 Cat смотрит «кролика» раздачи №1: на борде были J♥ 6♣ J♠, а остаток борда был бы таким: 4♠ 8♣. "
     "Ничего не меняется."),
])
def test_a_rabbit_of_one_card_or_two_reads_right(language: str, script: str, said: str) -> None:
    """A hand folded on the turn has one card to come: "the cards to come were 8♣" and «дальше пришли бы 8♣» spoke
    of one card as of several."""
    hand, _ = start(STRUCTURES["home-limit"], {"ann": 400, "bob": 400}, "ann", {"ann": "7s 2s", "bob": "4d 8d"},
                    "Jh 6c Js 4s 8c", level=20)
    run_script(hand, script)
    lines = holdem.narrate(render_action(language).voice, hand.rabbit_hunt("cat")).lines
    assert lines == [said]
