"""Show or muck and run it twice at a Hold'em table, through the service: buttons, timers, secrecy, export."""

from __future__ import annotations

from typing import Any

import pytest

from bot.clock import FakeClock
from bot.games import holdem as holdem_game
from bot.output import Reply
from bot.render import cards_text
from bot.render.picture_views import holdem_view
from bot.render.pokerstars import RecordedHand, export_hand
from bot.service import Service
from bot.store import Store
from engine.cards import Deck, parse_cards
from engine.holdem import NO_LIMIT, AllIn, Call, Check, Hand, SeatPlayer, ShowdownRules
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import (
    everything_public,
    everything_said,
    ledger_ok,
    listen,
    patches_compiled_code,
    press_label,
    resumed_table,
    started_service,
)
from tests.bot.test_picture import strings_of, talk

BURNS = "2d 3d 6d"


RUN_TWICE = (
    "Hold'em — hand #1 · blinds 10/20 · no-limit\nBoard: 7♦ 9♥ J♣ 8♠ 4♦ · Pot: 0\nSecond board: K♠ T♥ 2♥ Q♥ 2♠\n"
    "  Ann · {ann} Ⓓ\n  Bob · 300\n\nBob wants to run it twice.\nThe board is run twice: each pot is split between the "
    "two boards.\nFirst board — Flop: 7♦ 9♥ J♣\nFirst board — Turn: 8♠ (board 7♦ 9♥ J♣ 8♠)\n"
    "First board — River: 4♦ (board 7♦ 9♥ J♣ 8♠ 4♦)\nSecond board — Flop: K♠ T♥ 2♥\n"
    "Second board — Turn: Q♥ (board K♠ T♥ 2♥ Q♥)\nSecond board — River: 2♠ (board K♠ T♥ 2♥ Q♥ 2♠)\n"
    "First board — Showdown — Bob: K♣ K♦ (a pair of kings, jack kicker); Ann: A♥ A♠ (a pair of aces, jack kicker)\n"
    "First board — Ann wins the main pot (300) with a pair of aces, jack kicker; the pair decides: Ann's aces beat "
    "Bob's kings.\nSecond board — Showdown — Bob: K♣ K♦ (a full house, kings full of twos); Ann: A♥ A♠ (two pair, "
    "aces and twos, king kicker)\nSecond board — Bob wins the main pot (300) with a full house, kings full of twos.\n"
    "The hand is over.")  # the table message once the board is run twice (Ann joined with 301 or 300 chips)


def stack_deck(monkeypatch: pytest.MonkeyPatch, holes: list[str], board: str, rest: str = "") -> None:
    """Deal the next hand from this deck: hole cards one at a time from the button's left, then a burn before each
    street of `board`, then `rest` (the second run's cards, burns included)."""
    flop, turn, river = board.split(" ", 3)[:3], board.split()[3], board.split()[4]
    burn = BURNS.split()
    cards = [*holes, burn[0], *flop, burn[1], turn, burn[2], river, *rest.split()]
    monkeypatch.setattr(holdem_game, "new_deck", lambda rng: Deck.stacked(parse_cards(" ".join(cards))))


async def records(service: Service) -> list[tuple[str, float, list[dict[str, Any]]]]:
    return await service.store.read(lambda tx: tx.hand_records(PLACE.table_id, tx.finished_hands(PLACE.table_id, 9)))


async def exported(service: Service, hero: str) -> str:
    _hand_id, at, events = (await records(service))[-1]
    return export_hand(RecordedHand(events, at), {"ann": "Ann", "bob": "Bob", "cat": "Cat"}, hero=hero)


async def three_handed(service: Service, monkeypatch: pytest.MonkeyPatch) -> Reply:
    """Ann (button), Bob (small blind), Cat (big blind) at no limit: Cat holds aces, Ann queens, Bob 4-5."""
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join 500")).error is None
    # dealt from the button's left: Bob, Cat, Ann, twice
    stack_deck(monkeypatch, ["4h", "Ac", "Qh", "5h", "Ad", "Qd"], "2c 7s 9h Js 3s")
    return await service.handle(PLACE, ANN, "/deal")


async def test_a_beaten_hand_is_asked_show_or_muck_and_a_mucked_hand_is_never_shown(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None  # Ann organizes
    assert (await service.handle(PLACE, BOB, "/automuck off")).private["bob"] == [
        "Automuck is off: at the showdown you choose to show or muck a beaten hand."]
    replies = [await three_handed(service, monkeypatch)]
    for actor, line in ((ANN, "/call"), (BOB, "/call"), (CAT, "/check"), *[(a, "/check") for a in (BOB, CAT, ANN)] * 2,
                        (BOB, "/check"), (CAT, "/bet 20"), (ANN, "/call"), (BOB, "/call")):
        replies.append(await service.handle(PLACE, actor, line))
        assert replies[-1].error is None, (line, replies[-1].error)
    asked = replies[-1]
    assert asked.table is not None and asked.table.to_act == "bob"
    assert asked.public == ["Showdown — Cat: A♣ A♦ (a pair of aces, jack kicker)\nAnn mucks."]  # Cat bet last
    assert asked.table.text.splitlines()[-7:] == [
        "Bob checks.", "Cat bets 20.", "Ann calls 20.", "Bob calls 20.",
        "Showdown — Cat: A♣ A♦ (a pair of aces, jack kicker)", "Ann mucks.", "▶ Bob: show or muck?"]
    refused = await service.press(PLACE, ANN, press_label(asked, "muck"))
    assert refused.error == "It's not your turn: waiting for Bob."
    replies.append(await service.press(PLACE, BOB, press_label(asked, "muck")))
    assert replies[-1].error is None
    text = everything_said(replies)
    assert replies[-1].public == ["Bob mucks.\nCat wins the main pot (120) with a pair of aces, jack kicker."]
    for card in ("4♥", "5♥", "Q♥", "Q♦"):  # the mucked hands: in no public message, table or button
        assert card not in text
    for_cat = await exported(service, "cat")
    assert for_cat.split("*** SHOW DOWN ***\n")[1] == (
        "Cat: shows [Ac Ad] (a pair of Aces)\nAnn: mucks hand\nBob: mucks hand\nCat collected 120 from pot\n"
        "*** SUMMARY ***\nTotal pot 120 | Rake 0\nBoard [2c 7s 9h Js 3s]\nSeat 1: Ann (button) mucked\n"
        "Seat 2: Bob (small blind) mucked\nSeat 3: Cat (big blind) showed [Ac Ad] and won (120) with a pair of Aces")
    assert "4h" not in for_cat and "Qh" not in for_cat
    for_bob = (await exported(service, "bob")).splitlines()
    assert for_bob[-2:] == ["Seat 2: Bob (small blind) mucked [4h 5h]",
                            "Seat 3: Cat (big blind) showed [Ac Ad] and won (120) with a pair of Aces"]
    await ledger_ok(service)


async def test_time_out_mucks_the_hand_of_a_player_asked(service: Service, clock: FakeClock,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/automuck off")
    await three_handed(service, monkeypatch)
    for actor, line in ((ANN, "/call"), (BOB, "/call"), (CAT, "/check"), *[(a, "/check") for a in (BOB, CAT, ANN)] * 3):
        assert (await service.handle(PLACE, actor, line)).error is None
    heard = listen(service)
    # nobody bet on the river: Bob (first left of the button) shows first; Cat beats him, Ann cannot win: asked
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    text = everything_said(heard)
    assert heard[-1].table is not None and heard[-1].table.text.splitlines()[-6:] == [
        "Showdown — Bob: 4♥ 5♥ (jack high)", "Showdown — Cat: A♣ A♦ (a pair of aces, jack kicker)",
        "Ann ran out of time.", "Ann mucks.", "Cat wins the main pot (60) with a pair of aces, jack kicker.",
        "The hand is over."]
    assert "Q♥" not in text


async def test_all_in_asks_both_and_one_saying_once_runs_it_once(service: Service,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor, chips in ((ANN, 301), (BOB, 300)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    # heads-up, Ann on the button: dealt Bob, Ann, Bob, Ann; Ann aces, Bob kings; run 2 gives Bob a set
    stack_deck(monkeypatch, ["Kc", "Ah", "Kd", "As"], "7d 9h Jc 8s 4d", rest="6c Ks Th 2h 2c Qh 3c 2s")
    await service.handle(PLACE, ANN, "/deal")
    assert (await service.handle(PLACE, ANN, "/allin")).error is None
    asked = await service.handle(PLACE, BOB, "/call")
    assert asked.table is not None and asked.table.text.splitlines()[-2:] == [
        "No more betting: run the board once or twice? Each player in the hand chooses within 15 seconds; twice only "
        "if everyone agrees.", "▶ Run it once or twice? Waiting for: Ann, Bob (twice only if everyone agrees)."]
    assert [button.label for button in asked.table.buttons][1:] == ["Run it once", "Run it twice"]
    assert (await service.handle(PLACE, ANN, "/check")).error == (
        "Betting is over: answer “run it once or twice?” with the buttons or /run once|twice.")
    first = await service.press(PLACE, BOB, press_label(asked, "run"))  # "Run it once" comes first
    assert first.error is None
    assert first.table is not None and first.table.text.split("\n\n")[1] == (
        "Bob wants to run it once.\nThe board is run once.\nFlop: 7♦ 9♥ J♣\nTurn: 8♠ (board 7♦ 9♥ J♣ 8♠)\n"
        "River: 4♦ (board 7♦ 9♥ J♣ 8♠ 4♦)\nShowdown — Bob: K♣ K♦ (a pair of kings, jack kicker); Ann: A♥ A♠ (a pair "
        "of aces, jack kicker)\nAnn wins the main pot (600) with a pair of aces, jack kicker; the pair decides: Ann's "
        "aces beat Bob's kings.\nThe hand is over.")
    await ledger_ok(service)


async def test_twice_when_everyone_agrees(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor, chips in ((ANN, 301), (BOB, 300)):
        assert (await service.handle(PLACE, actor, f"/join {chips}")).error is None
    stack_deck(monkeypatch, ["Kc", "Ah", "Kd", "As"], "7d 9h Jc 8s 4d", rest="6c Ks Th 2h 2c Qh 3c 2s")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/allin")
    asked = await service.handle(PLACE, BOB, "/call")
    twice = next(button.payload for button in asked.table.buttons if button.label == "Run it twice")  # type: ignore[union-attr]
    agreed = await service.press(PLACE, ANN, twice)
    assert agreed.error is None and agreed.table is not None and agreed.table.text.splitlines()[-2:] == [
        "Ann wants to run it twice.", "▶ Run it once or twice? Waiting for: Bob (twice only if everyone agrees)."]
    again = await service.press(PLACE, ANN, twice)
    assert again.error == "You have already answered."
    done = await service.press(PLACE, BOB, twice)
    assert done.table is not None and done.table.text == RUN_TWICE.format(ann=301)
    history = await exported(service, "ann")
    assert history.split("Uncalled bet (1) returned to Ann\n")[1] == (
        "*** FIRST FLOP *** [7d 9h Jc]\n*** FIRST TURN *** [7d 9h Jc] [8s]\n*** FIRST RIVER *** [7d 9h Jc 8s] [4d]\n"
        "*** SECOND FLOP *** [Ks Th 2h]\n*** SECOND TURN *** [Ks Th 2h] [Qh]\n*** SECOND RIVER *** [Ks Th 2h Qh] [2s]\n"
        "*** FIRST SHOW DOWN ***\nBob: shows [Kc Kd] (a pair of Kings)\nAnn: shows [Ah As] (a pair of Aces)\n"
        "Ann collected 300 from pot\n*** SECOND SHOW DOWN ***\n"
        "Bob: shows [Kc Kd] (a full house, Kings full of Deuces)\nAnn: shows [Ah As] (two pair, Aces and Deuces)\n"
        "Bob collected 300 from pot\n*** SUMMARY ***\n"
        "Total pot 600 | Rake 0\nHand was run twice\nFIRST Board [7d 9h Jc 8s 4d]\nSECOND Board [Ks Th 2h Qh 2s]\n"
        "Seat 1: Ann (button) (small blind) showed [Ah As] and won (300) with a pair of Aces, and lost with two pair, "
        "Aces and Deuces\nSeat 2: Bob (big blind) showed [Kc Kd] and lost with a pair of Kings, and won (300) with a "
        "full house, Kings full of Deuces")
    loaded = await service.store.read(lambda tx: resumed_table(service.store, tx, PLACE.table_id))
    assert loaded is not None
    stacks = loaded[1]["seats"]
    assert {seat["id"]: seat["stack"] for seat in stacks} == {"ann": 301, "bob": 300}
    await ledger_ok(service)


async def test_the_question_times_out_to_once(service: Service, clock: FakeClock,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    stack_deck(monkeypatch, ["Kc", "Ah", "Kd", "As"], "7d 9h Jc 8s 4d")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/allin")
    await service.handle(PLACE, BOB, "/call")
    assert (await service.handle(PLACE, ANN, "/run twice")).error is None
    heard = listen(service)
    clock.advance(14)
    assert await service.scheduler.fire_due() == 0
    clock.advance(2)
    assert await service.scheduler.fire_due() == 1
    text = everything_said(heard)
    # who did not answer, then the run's own line once (it said "the board is run once" twice)
    assert heard[-1].table is not None and heard[-1].table.text.split("\n\n")[1] == (
        "Time is up — no answer from Bob.\nThe board is run once.\nFlop: 7♦ 9♥ J♣\nTurn: 8♠ (board 7♦ 9♥ J♣ 8♠)\n"
        "River: 4♦ (board 7♦ 9♥ J♣ 8♠ 4♦)\nShowdown — Bob: K♣ K♦ (a pair of kings, jack kicker); Ann: A♥ A♠ (a pair "
        "of aces, jack kicker)\nAnn wins the main pot (600) with a pair of aces, jack kicker; the pair decides: Ann's "
        "aces beat Bob's kings.\nThe hand is over.")
    assert text.count("The board is run once.") == 1  # it said "the board is run once" twice
    await ledger_ok(service)


async def test_not_offered_when_the_table_turned_it_off_or_in_fixed_limit(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/set run_it_twice maybe")).error == (
        "“maybe” is not a valid value for “run it twice” (/set run_it_twice takes on, off).")
    assert (await service.handle(PLACE, ANN, "/set run_it_twice off")).error is None
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/allin")
    called = await service.handle(PLACE, BOB, "/call")
    assert called.table is not None and called.table.text.splitlines()[-1] == "The hand is over."
    assert called.table.text.splitlines()[-7:-5] == ["Bob calls 280, all-in.", "Flop: J♥ 6♣ J♠"]  # no question
    assert "Run it" not in everything_public(called)


async def test_turning_it_off_during_a_hand_says_it_applies_from_the_next_one(service: Service) -> None:
    """The hand in play keeps the question it was dealt with, and the change says so."""
    assert (await service.handle(PLACE, ANN, "/set structure no-limit")).error is None
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    await service.handle(PLACE, ANN, "/deal")
    changed = await service.handle(PLACE, ANN, "/set run_it_twice off")
    assert changed.public == ["Setting changed: run it twice — off, from the next hand (this one plays on as it was "
                              "dealt)."]
    await service.handle(PLACE, ANN, "/allin")
    called = await service.handle(PLACE, BOB, "/call")
    assert called.table is not None and called.table.text.splitlines()[-1] == (  # this hand still asks
        "▶ Run it once or twice? Waiting for: Ann, Bob (twice only if everyone agrees).")
    assert [button.label for button in called.table.buttons] == ["🂠 My cards", "Run it once", "Run it twice"]


async def test_the_uncontested_winner_may_show_until_the_next_deal(service: Service) -> None:
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/raise")
    folded = await service.handle(PLACE, BOB, "/fold")
    show = press_label(folded, "show")
    assert (await service.press(PLACE, BOB, show)).error == "Only the winner of the pot may show."
    loaded = await service.store.read(lambda tx: resumed_table(service.store, tx, PLACE.table_id))
    assert loaded is not None
    state = loaded[1]
    assert state["won_uncontested"] is True  # the finished hand is the rabbit hunt's, kept once for both
    hole = next(seat["hole"] for seat in state["last_hand"]["seats"] if seat["id"] == "ann")
    stored = await service.store.read(lambda tx: tx.load_snapshot(PLACE.table_id))
    assert stored is not None and stored[2] is not None and stored[2].count('"deck"') == 1  # in the snapshot too
    cards = " ".join(cards_text(parse_cards(" ".join(hole))).split())
    shown = await service.press(PLACE, ANN, show)
    assert shown.error is None and shown.public == [f"Ann shows {cards}."]
    assert (await service.handle(PLACE, ANN, "/show")).error == (
        "There is nothing to show: only the winner of a pot nobody contested may show, until the next hand.")
    assert (await exported(service, "bob")).splitlines()[11:13] == [
        "Ann collected 40 from pot", f"Ann: shows [{' '.join(hole)}]"]


@patches_compiled_code("Hand.to_dict (its calls counted)")
async def test_a_hand_won_uncontested_is_written_once_for_the_rabbit_and_the_show(
        service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/raise")
    written: list[int] = []
    to_dict = Hand.to_dict
    monkeypatch.setattr(Hand, "to_dict", lambda hand: written.append(hand.hand_number) or to_dict(hand))
    assert (await service.handle(PLACE, BOB, "/fold")).error is None
    assert len(written) == 1
    assert (await service.handle(PLACE, ANN, "/rabbit")).error is None
    assert (await service.handle(PLACE, ANN, "/show")).error is None


async def test_the_question_and_its_answers_survive_a_restart(tmp_path, clock: FakeClock,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=1)
    await service.handle(PLACE, ANN, "/set structure no-limit")
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/join 300")
    stack_deck(monkeypatch, ["Kc", "Ah", "Kd", "As"], "7d 9h Jc 8s 4d", rest="6c Ks Th 2h 2c Qh 3c 2s")
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, ANN, "/allin")
    await service.handle(PLACE, BOB, "/call")
    assert (await service.handle(PLACE, ANN, "/run twice")).error is None
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=2)
    assert [timer.key for timer in restarted.scheduler.armed] == [f"holdem:{PLACE.table_id}"]
    assert (await restarted.handle(PLACE, ANN, "/run once")).error == "You have already answered."
    done = await restarted.handle(PLACE, BOB, "/run twice")
    assert done.table is not None and done.table.text == RUN_TWICE.format(ann=300)
    await ledger_ok(restarted)
    await store.close()


def test_the_showdown_picture_has_no_mucked_card_and_names_the_second_board() -> None:
    players = [SeatPlayer(name, 1000) for name in ("ann", "bob", "cat")]
    rules = ShowdownRules(muck=True, automuck=frozenset({"ann", "bob", "cat"}), run_it_twice=True)
    # Ann has the button: dealt Bob, Cat, Ann twice; Cat aces, Ann queens, Bob 4-5; nobody bets: all check down
    deck = Deck.stacked(parse_cards("4h Ac Qh 5h Ad Qd 2d 2c 7s 9h 3d Js 6d 3s"))
    hand, _ = Hand.start(players, 0, 10, NO_LIMIT, deck, 1, rules=rules)
    for player in ("ann", "bob", "cat", *["bob", "cat", "ann"] * 3):
        hand.act(player, Call() if hand.legal_actions().call_amount else Check())
    view = holdem_view(talk(), hand)
    assert hand.result is not None and hand.result.mucked == ("ann",)  # Bob shows first, Cat beats him: shown
    mucked = {str(card) for player in hand.result.mucked for card in hand.hole_cards(player)}
    assert mucked and not strings_of(view) & mucked
    assert {"Ac", "Ad", "4h", "5h"} <= strings_of(view)

    players = [SeatPlayer("bob", 300), SeatPlayer("ann", 301)]
    deck = Deck.stacked(parse_cards("Kc Ah Kd As 2c 7d 9h Jc 3c 8s 5c 4d 6c Ks Th 2h 2d Qh 3d 2s"))
    hand, _ = Hand.start(players, 1, 10, NO_LIMIT, deck, 2, rules=rules)
    hand.act("ann", AllIn())
    hand.act("bob", Call())
    hand.choose_runs("ann", twice=True)
    hand.choose_runs("bob", twice=True)
    assert holdem_view(talk(), hand).footer == (
        "Second board: K♠ T♥ 2♥ Q♥ 2♠; On the first board: Ann — pair; On the second board: Bob — full house")
