"""A button acts once, on the box and the decision it was drawn for: double clicks, Deal, "my cards", card toggles."""

import asyncio

import pytest

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE, dump
from tests.bot.helpers import (
    SIX_PM,
    at,
    everything_public,
    ledger_ok,
    press_label,
    resumed_table,
    started_service,
)

ALREADY_DONE = "Already done."
TURN_OVER = "That button was for a turn already over: nothing changed."


async def pressed_again(service: Service, actor: Actor, payload: str, times: int = 1,
                        answer: str = ALREADY_DONE) -> None:
    """The button pressed again by `actor`, `times` over (a double click, a storm): each press is refused as done
    (`answer`; a betting button's turn as over), says nothing, draws no table, and the database stays as it was."""
    before = dump(service.store.location)
    for _ in range(times):
        again = await service.press(PLACE, actor, payload)
        assert again.error == answer and again.public == [] and again.table is None
    assert dump(service.store.location) == before


def payload_of(reply: Reply, command: str) -> str:
    """The payload of the button carrying exactly `command` (`select 2`, `exchange 2 5`, `cards`)."""
    assert reply.table is not None
    found = [button.payload for button in reply.table.buttons if button.payload.rsplit("|", 1)[1] == command]
    assert found, f"no {command!r} among {[button.payload for button in reply.table.buttons]}"
    return found[0]


BOX_2_DECIDES = "▶ Ann, box 2: your decision (⏱ 60\xa0s)."
"""The table message's last line once Ann's first box has decided."""


async def two_boxes_dealt(service: Service, game: str) -> Reply:
    await service.handle(PLACE, ANN, f"/game {game}")
    for box in (1, 2):  # Russian Poker's box 3 plays blind: boxes 1 and 2 both decide
        assert (await service.handle(PLACE, ANN, f"/ante 10 box {box}")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.error is None and dealt.table is not None
    assert dealt.table.text.splitlines()[-1] == "▶ Ann, box 1: your decision (⏱ 60\xa0s)."
    return dealt


@pytest.mark.parametrize("game", ["russian", "caribbean", "three-card"])
@pytest.mark.parametrize("command", ["fold", "play"])
async def test_a_second_press_does_not_act_on_the_players_next_box(service: Service, game: str, command: str) -> None:
    dealt = await two_boxes_dealt(service, game)
    payload = press_label(dealt, command)
    first = await service.press(PLACE, ANN, payload)
    assert first.error is None
    assert first.table is not None and first.table.text.splitlines()[-1] == BOX_2_DECIDES
    await pressed_again(service, ANN, payload, times=100)  # a double click, then a storm
    table = await service.handle(PLACE, ANN, "/table")
    assert table.table is not None and table.table.text.splitlines()[-1] == BOX_2_DECIDES
    await ledger_ok(service)


async def test_already_done_is_answered_in_russian(service: Service) -> None:
    dealt = await two_boxes_dealt(service, "caribbean")
    await service.handle(PLACE, ANN, "/lang ru")
    payload = press_label(dealt, "fold")
    assert (await service.press(PLACE, ANN, payload)).error is None
    assert (await service.press(PLACE, ANN, payload)).error == "Уже сделано."


STALE_DECISION = {"en": "That button was for a decision on box 1 already taken: nothing changed.",
                  "ru": "Эта кнопка — для решения по боксу 1, которое уже принято: ничего не изменилось."}
NOT_YOUR_BOX = {"en": "That button was for Ann's box 1, not yours: nothing changed.",
                "ru": "Эта кнопка — для бокса 1 игрока Ann, а не для вашего: ничего не изменилось."}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_an_old_house_decision_button_says_whose_and_which_decision_it_was(service: Service,
                                                                                   language: str) -> None:
    """Ann buys a card on box 1 (Russian Poker), then presses Play on the message drawn before she bought: the
    decision it was for is over ("Already done" would say she played); Bob presses her old Fold: it was her box's,
    not his; her Buy pressed again is the double click it is. Nothing changes."""
    dealt = await two_boxes_dealt(service, "russian")
    await service.handle(PLACE, ANN, f"/lang {language}")
    bought = await service.press(PLACE, ANN, press_label(dealt, "buy"))
    assert bought.error is None and bought.table is not None
    assert bought.table.text.splitlines()[-1] == {"en": "▶ Ann, box 1: your decision (⏱ 60\xa0s).",
                                                  "ru": "▶ Ann, бокс 1: ваше решение (⏱ 60\xa0с)."}[language]
    await pressed_again(service, ANN, press_label(dealt, "play"), answer=STALE_DECISION[language])
    await pressed_again(service, BOB, press_label(dealt, "fold"), answer=NOT_YOUR_BOX[language])
    await pressed_again(service, BOB, press_label(dealt, "buy"), answer=NOT_YOUR_BOX[language])
    done = {"en": ALREADY_DONE, "ru": "Уже сделано."}[language]
    await pressed_again(service, ANN, press_label(dealt, "buy"), answer=done)  # a double click of what she did
    await ledger_ok(service)


async def test_a_betting_button_of_a_hand_that_ended_says_the_hand_is_over(service: Service, tmp_path) -> None:
    """Between hands, Bob's Call from the hand Ann's fold ended, and Ann's Fold pressed again, are a finished hand's
    buttons: "This hand is over", not "Already done" (Bob did nothing), and nothing changes."""
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"
    fold, call = press_label(dealt, "fold"), press_label(dealt, "call")
    assert (await service.press(PLACE, ANN, fold)).error is None
    before = dump(tmp_path / "bot.db")
    assert (await service.press(PLACE, BOB, call)).error == "This hand is over."
    assert (await service.press(PLACE, ANN, fold)).error == "This hand is over."
    assert dump(tmp_path / "bot.db") == before


@pytest.mark.parametrize(("game", "line", "answer"), [
    ("three-card", "/select 2", "Not possible now. You may: Play, Fold."),  # no exchange in Three Card Poker
    # five cards to a box: a position beyond them is answered as /exchange answers it, where it got the usage
    ("caribbean", "/select 2 9", "There is no card 9: choose 1 to 5."),
    ("caribbean", "/select 7", "There is no card 7: choose 1 to 5."),
    ("caribbean", "/exchange 7", "There is no card 7: choose 1 to 5."),
    ("caribbean", "/select 0", "There is no card 0: choose 1 to 5."),
    ("caribbean", "/select x", "Usage: /select [positions]"),  # not a position at all
    # none marked: it says what /select is for, where it said "Already done." (a double click's answer)
    ("caribbean", "/select", "Mark the cards to exchange by their numbers, 1 to 5: /select 1 2 (or exchange them at "
                             "once: /exchange 1 2)."),
    ("caribbean", "/select 1 2 3 4 5 6", "Usage: /select [positions]"),  # more than any box has
])
async def test_a_typed_toggle_that_marks_no_card_is_refused_and_changes_nothing(service: Service, tmp_path, game: str,
                                                                                line: str, answer: str) -> None:
    await two_boxes_dealt(service, game)
    before = dump(tmp_path / "bot.db")
    reply = await service.handle(PLACE, ANN, line)
    assert (reply.error, reply.table) == (answer, None)
    assert dump(tmp_path / "bot.db") == before


SELECT_USAGE = {"en": "Mark the cards to exchange by their numbers, 1 to 5: /select 1 2 (or exchange them at once: "
                       "/exchange 1 2).",
                "ru": "Отметьте карты для обмена по номерам, от 1 до 5: /select 1 2 (или сразу обменяйте их: "
                      "/exchange 1 2)."}
UNMARKED = {"en": ["Swap: ☐ 1", "☐ 2", "☐ 3", "☐ 4", "☐ 5"], "ru": ["Обмен: ☐ 1", "☐ 2", "☐ 3", "☐ 4", "☐ 5"]}


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_typed_bare_select_says_what_it_does_and_its_button_pressed_twice_is_already_done(
        service: Service, tmp_path, language: str) -> None:
    """Ann's typed /select with no card is told how to mark them and changes nothing, before any mark, while card 2
    is marked and once she has unmarked it: the service knows a line from a button. Her card button that unmarked
    card 2 (a bare `select`) pressed again is the double click it is, "Already done."."""
    dealt = await two_boxes_dealt(service, "russian")
    await service.handle(PLACE, ANN, f"/lang {language}")

    async def typed_is_told_what_select_does() -> None:
        before = dump(tmp_path / "bot.db")
        typed = await service.handle(PLACE, ANN, "/select")
        assert (typed.error, typed.public, typed.table) == (SELECT_USAGE[language], [], None)
        assert dump(tmp_path / "bot.db") == before

    await typed_is_told_what_select_does()
    marked = await service.press(PLACE, ANN, payload_of(dealt, "select 2"))
    assert marked.error is None
    await typed_is_told_what_select_does()  # card 2 stays marked: its button still unmarks it
    unmark = payload_of(marked, "select")
    unmarked = await service.press(PLACE, ANN, unmark)
    assert unmarked.error is None and unmarked.table is not None
    assert [button.label for button in unmarked.table.buttons][-5:] == UNMARKED[language]
    stored = await service.store.read(lambda tx: resumed_table(service.store, tx, PLACE.table_id))
    assert stored is not None and stored[1]["marked"]["positions"] == []  # its log row replays as the press it was
    await typed_is_told_what_select_does()
    await pressed_again(service, ANN, unmark, answer={"en": ALREADY_DONE, "ru": "Уже сделано."}[language])
    await ledger_ok(service)


async def test_my_cards_work_from_an_older_message_and_toggles_still_choose_the_exchange(service: Service) -> None:
    dealt = await two_boxes_dealt(service, "russian")
    cards = payload_of(dealt, "cards")
    one = await service.press(PLACE, ANN, payload_of(dealt, "select 2"))
    assert one.error is None and one.public == []
    two = await service.press(PLACE, ANN, payload_of(one, "select 2 5"))
    assert two.error is None
    exchanged = await service.press(PLACE, ANN, payload_of(two, "exchange 2 5"))
    assert exchanged.error is None
    assert exchanged.table is not None  # a line of the table's story:
    assert exchanged.table.text.splitlines()[-2] == "Ann, box 1: exchanges 2 cards (10)."
    assert (await service.press(PLACE, ANN, payload_of(two, "exchange 2 5"))).error == ALREADY_DONE
    # a toggle of the exchange done: its decision is over (she marked no more cards)
    assert (await service.press(PLACE, ANN, payload_of(one, "select 2 5"))).error == STALE_DECISION["en"]
    mine = await service.press(PLACE, ANN, cards)  # drawn before two decisions, still this round's
    assert mine.error is None
    assert mine.private == {"ann": ["Your boxes:\nbox 1: 4♦ 8♦ 2♠ Q♠ 3♣\nbox 2: shown when its turn comes"]}
    await ledger_ok(service)


async def test_a_holdem_check_pressed_twice_does_not_check_on_the_next_street(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    players = {"ann": ANN, "bob": BOB}
    start = await service.handle(PLACE, ANN, "/deal")
    assert start.table is not None and start.table.to_act is not None
    called = await service.press(PLACE, players[start.table.to_act], press_label(start, "call"))
    assert called.table is not None and called.table.to_act is not None
    big_blind = players[called.table.to_act]
    check = press_label(called, "check")
    checked = await service.press(PLACE, big_blind, check)
    assert checked.table is not None and checked.table.text.splitlines()[-2] == "Flop: J♥ 6♣ J♠"
    assert checked.table.to_act == big_blind.user_id  # first to act after the flop
    await pressed_again(service, big_blind, check, answer=TURN_OVER)  # the flop's turn is his too
    await ledger_ok(service)


async def test_the_holdem_deal_button_deals_once(service: Service) -> None:
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    deal = press_label(await service.handle(PLACE, ANN, "/table"), "deal")
    dealt = await service.press(PLACE, ANN, deal)
    assert dealt.error is None, dealt.error
    assert dealt.table is not None and dealt.table.key == "h1" and dealt.table.to_act is not None
    await pressed_again(service, BOB, deal)
    await ledger_ok(service)


async def test_the_house_deal_button_deals_once(service: Service) -> None:
    await service.handle(PLACE, ANN, "/game caribbean")
    await service.handle(PLACE, ANN, "/ante 10")
    deal = press_label(await service.handle(PLACE, ANN, "/table"), "deal")
    await service.handle(PLACE, BOB, "/ante 10")  # another bet meanwhile: the button still deals
    dealt = await service.press(PLACE, ANN, deal)
    assert dealt.error is None, dealt.error
    await pressed_again(service, ANN, deal)


FIRST_BREAK = at(19, 0, 1)
PLAYERS = {actor.user_id: actor for actor in (ANN, BOB)}
OUT_FOR_NOW = " is out for now and may come back with /rebuy until 19:00."


async def tournament_of_two(store: Store, options: str, seed: int = 3) -> tuple[Service, FakeClock, Reply]:
    """Ann and Bob in a no-limit home-night tournament with `options`, started (its first hand dealt)."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=seed)
    assert (await service.handle(PLACE, ANN, f"/tournament create home-night {options}")).error is None
    for actor in PLAYERS.values():
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.error is None, started.error
    return service, clock, started


async def all_in_until_one_busts(service: Service, reply: Reply) -> Actor:
    """Whoever is to act goes all-in or calls, hand after hand, until one of the two is out for now (the rebuy period
    runs: `OUT_FOR_NOW`); who busted."""
    for _ in range(100):
        said = everything_public(reply)
        busted = [actor for actor in PLAYERS.values() if f"{actor.name}{OUT_FOR_NOW}" in said]
        if busted:
            return busted[0]
        if reply.table is not None and reply.table.to_act is not None:
            actor = PLAYERS[reply.table.to_act]
            reply = await service.handle(PLACE, actor, "/allin")
            if reply.error is not None:
                reply = await service.handle(PLACE, actor, "/call")
        else:  # asked to run it twice, or the hand is over
            answers = [await service.handle(PLACE, actor, "/run once") for actor in PLAYERS.values()]
            ran = [answer for answer in answers if answer.error is None]
            reply = ran[0] if ran else await service.handle(PLACE, ANN, "/deal")
        assert reply.error is None, reply.error
    raise AssertionError("nobody busted")


async def table_state(service: Service) -> tuple[dict[str, int], list[str]]:
    """The table's chip accounts and its ledger rows, to prove a press moved nothing."""
    found = await service.store.read(lambda tx: tx.balances(""))
    rows = await service.store.read(lambda tx: tx.ledger_rows(PLACE.table_id, "t1"))
    return {name: chips for name, chips in found.items() if PLACE.table_id in name}, [repr(row) for row in rows]


async def test_a_rebuy_pressed_twice_rebuys_once(store: Store) -> None:
    service, _, started = await tournament_of_two(store, "rebuys 2")
    busted = await all_in_until_one_busts(service, started)
    idle = await service.handle(PLACE, busted, "/table")
    rebuy = press_label(idle, "rebuy")
    rebought = await service.press(PLACE, busted, rebuy)
    assert rebought.error is None, rebought.error
    assert f"{busted.name} rebuys: 300 chips for 50." in rebought.public
    before = await table_state(service)
    # a double click, and more: his stack (300) could rebuy once more, but not by this button
    await pressed_again(service, busted, rebuy, times=3)
    assert await table_state(service) == before
    assert before[0][f"stack:{PLACE.table_id}:{busted.user_id}"] == 300
    again = await service.press(PLACE, busted, press_label(rebought, "rebuy"))  # the button drawn after it: a rebuy
    assert again.error is None and f"{busted.name} rebuys: 300 chips for 50." in again.public
    await ledger_ok(service)


async def test_an_add_on_pressed_twice_buys_one(store: Store) -> None:
    service, clock, started = await tournament_of_two(store, "addon 2")
    assert started.table is not None and started.table.to_act is not None
    assert (await service.handle(PLACE, PLAYERS[started.table.to_act], "/fold")).error is None
    clock.current = FIRST_BREAK  # the first break: no hand is dealt, the add-on is on offer
    await service.scheduler.fire_due()
    idle = await service.handle(PLACE, ANN, "/table")
    addon = press_label(idle, "addon")
    added = await service.press(PLACE, ANN, addon)
    assert added.error is None, added.error
    assert "Ann takes the add-on: 300 chips for 50." in added.public
    before = await table_state(service)
    await pressed_again(service, ANN, addon, times=3)
    assert await table_state(service) == before
    again = await service.press(PLACE, ANN, press_label(added, "addon"))  # his second add-on, from the new message
    assert again.error is None and "Ann takes the add-on: 300 chips for 50." in again.public
    await ledger_ok(service)


async def test_an_add_on_bought_by_one_player_leaves_the_button_working_for_the_other(store: Store, tmp_path) -> None:
    """At the break both players press the one Add-on button (the message not yet redrawn after the first): the
    first press spends the button for its presser alone, so the second player gets his add-on too, rather than
    "Already done" for an add-on he never bought; a Deal pressed on that message afterwards is not "already done"
    either (the break deals nothing: it says so)."""
    service, clock, started = await tournament_of_two(store, "addon 1")
    assert started.table is not None and started.table.to_act is not None
    assert (await service.handle(PLACE, PLAYERS[started.table.to_act], "/fold")).error is None
    clock.current = FIRST_BREAK
    await service.scheduler.fire_due()
    addon = press_label(await service.handle(PLACE, ANN, "/table"), "addon")
    first, second = await asyncio.gather(service.press(PLACE, ANN, addon), service.press(PLACE, BOB, addon))
    assert first.error is None and "Ann takes the add-on: 300 chips for 50." in first.public
    assert second.error is None and "Bob takes the add-on: 300 chips for 50." in second.public
    before = await table_state(service)
    stacks = [chips for name, chips in before[0].items() if name.startswith("stack:")]
    assert len(stacks) == 2 and min(stacks) >= 300 + 290, "both stacks got their 300 chips"
    for actor in (ANN, BOB):  # each one's double click buys nothing more
        assert (await service.press(PLACE, actor, addon)).error == ALREADY_DONE
    assert await table_state(service) == before
    await ledger_ok(service)


async def test_a_rebuy_by_one_busted_player_leaves_the_button_working_for_the_other(store: Store) -> None:
    """Two busted players press the Rebuy button drawn between hands at the same instant: both rebuy, once each."""
    clock = FakeClock(SIX_PM)
    service = await started_service(store, clock, seed=3)
    players = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
    await service.handle(PLACE, ANN, "/tournament create home-night rebuys 1")
    for actor in players.values():
        assert (await service.handle(PLACE, actor, "/join")).error is None
    await service.handle(PLACE, ANN, "/set structure no-limit")
    reply, said = await service.handle(PLACE, ANN, "/tournament start"), ""
    for _ in range(200):
        said += everything_public(reply)
        if said.count(OUT_FOR_NOW) >= 2:
            break
        if reply.table is not None and reply.table.to_act is not None:
            actor = players[reply.table.to_act]
            reply = await service.handle(PLACE, actor, "/allin")
            if reply.error is not None:
                reply = await service.handle(PLACE, actor, "/call")
        elif (ran := [r for a in players.values() if (r := await service.handle(PLACE, a, "/run once")).error is None]):
            reply = ran[0]
        else:
            reply = await service.handle(PLACE, ANN, "/deal")
    else:
        raise AssertionError(f"two players were not out for now: {said}")
    busted = [actor for actor in players.values() if f"{actor.name}{OUT_FOR_NOW}" in said]
    rebuy = press_label(await service.handle(PLACE, ANN, "/table"), "rebuy")
    replies = await asyncio.gather(*(service.press(PLACE, actor, rebuy) for actor in busted for _ in range(2)))
    errors = sorted(str(reply.error) for reply in replies)
    assert errors == [ALREADY_DONE, ALREADY_DONE, "None", "None"], errors
    said = "\n".join(line for reply in replies for line in reply.public)
    for actor in busted:
        assert said.count(f"{actor.name} rebuys: 300 chips for 50.") == 1, said
    await ledger_ok(service)


async def test_a_deal_button_of_the_game_the_table_left_is_stale(service: Service, tmp_path) -> None:
    """After `/game caribbean`, a Hold'em Deal button still on the screen deals nothing and says its hand is over
    ("Already done" told Bob something happened that he never did); the table's own Deal button works."""
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/join 200")).error is None
    deal = press_label(await service.handle(PLACE, ANN, "/table"), "deal")
    for actor in (ANN, BOB):
        assert (await service.handle(PLACE, actor, "/leave")).error is None
    assert (await service.handle(PLACE, ANN, "/game caribbean")).error is None
    before = dump(tmp_path / "bot.db")
    assert (await service.press(PLACE, BOB, deal)).error == "This hand is over."
    assert dump(tmp_path / "bot.db") == before
    await service.handle(PLACE, ANN, "/ante 10")
    betting = dump(tmp_path / "bot.db")
    assert (await service.press(PLACE, BOB, deal)).error == "This hand is over."  # a round in betting now
    assert dump(tmp_path / "bot.db") == betting, "the old Deal dealt nothing"
    house_deal = press_label(await service.handle(PLACE, ANN, "/table"), "deal")
    assert (await service.press(PLACE, ANN, house_deal)).error is None
    assert (await service.press(PLACE, BOB, house_deal)).error == ALREADY_DONE
    assert dump(tmp_path / "bot.db") != before
