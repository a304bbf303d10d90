"""Away and back at a Hold'em table through the service (RULES.md §1a): sitting out from the next hand keeping the
seat, coming back posting a big blind or waiting for it, standing up after too long away; in a tournament, dealt in
and blinded out from the next hand."""

from __future__ import annotations

import orjson
import pytest

from bot import commands as cmd
from bot.clock import FakeClock
from bot.command_parser import parse
from bot.output import Reply
from bot.replay import command_entry, state_json
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE
from tests.bot.helpers import (
    deal_next,
    everything_said,
    ledger_ok,
    listen,
    night_registered,
    patches_compiled_code,
    play_out,
    press_label,
    resumed_table,
    started_service,
)
from tests.bot.test_table_options import PLAYERS, payload, seat

WELCOME_BACK = ("Welcome back. Post the big blind now and play the next hand (/back post), or wait for the big blind "
                "to come to you (/back wait).")
"""What an away player reads on /back while others play: post now or wait for the big blind."""


async def next_hand(service: Service, clock: FakeClock, reply: Reply) -> Reply:
    """Play the hand out (check or call), then let the next one be dealt by its timer."""
    replies = await play_out(service, PLACE, PLAYERS, reply)
    assert replies[-1].table is not None and replies[-1].table.to_act is None
    clock.advance(9)
    await service.scheduler.fire_due()
    return await service.handle(PLACE, ANN, "/table")


async def test_an_away_player_keeps_his_seat_and_comes_back_waiting_for_the_big_blind(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT, DAN)
    reply = await service.handle(PLACE, ANN, "/deal")
    away = await service.handle(PLACE, DAN, "/away")
    assert away.public == ["Dan is away and sits out from the next hand, keeping the seat: /back to return."]
    assert (await service.handle(PLACE, DAN, "/away")).error == "You are away already: /back to return."
    reply = await next_hand(service, clock, reply)
    assert reply.table is not None and "Dan" not in reply.table.text  # dealt out, seat kept
    back = await service.handle(PLACE, DAN, "/back")
    assert back.private == {"dan": [WELCOME_BACK]}
    assert back.table is not None
    labels = [button.label for button in back.table.buttons]
    assert "Post the big blind now" in labels and "Wait for the big blind" in labels
    waiting = await service.press(PLACE, DAN, payload(back, "back wait"))
    assert waiting.public == ["Dan is back and waits for the big blind."]
    assert (await service.press(PLACE, DAN, payload(back, "back wait"))).error == "Already done."
    for _ in range(4):  # the big blind comes round to him within a few hands
        reply = await next_hand(service, clock, reply)
        assert reply.table is not None
        if "Dan" in reply.table.text:
            assert "Dan posts the big blind 20." in reply.table.text.splitlines()
            break
    else:
        raise AssertionError("Dan was never dealt in")
    await ledger_ok(service)


async def test_a_returning_player_who_posts_plays_the_next_hand(service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT, DAN)
    reply = await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, BOB, "/away")
    reply = await next_hand(service, clock, reply)
    assert (await service.handle(PLACE, BOB, "/back post")).public == [
        "Bob is back and posts the big blind in the next hand."]
    reply = await next_hand(service, clock, reply)
    assert reply.table is not None and "Bob posts the big blind 20." in reply.table.text.splitlines()
    await ledger_ok(service)


async def test_a_returning_player_who_posts_from_the_small_blinds_seat_posts_the_big_blind(
        service: Service, clock: FakeClock) -> None:
    """RULES.md §1a: returning, "he posts a big blind at once": told so, he posts it where the small blind falls to
    him too (he posted only the small blind there)."""
    await seat(service, ANN, BOB, CAT, DAN)
    reply = await service.handle(PLACE, ANN, "/deal")  # Ann's button
    await service.handle(PLACE, DAN, "/away")
    reply = await next_hand(service, clock, reply)  # Bob's button, without Dan
    assert (await service.handle(PLACE, DAN, "/back post")).public == [
        "Dan is back and posts the big blind in the next hand."]
    reply = await next_hand(service, clock, reply)  # Cat's button: Dan's seat is the small blind's
    assert reply.table is not None
    assert reply.table.text == (  # no small blind
        "Hold'em — hand #3 · blinds 10/20 · home-limit\nBoard: — · Pot: 40\n  Ann · 400 bet 20\n▶ Bob · 360\n"
        "  Cat · 360 Ⓓ\n  Dan · 440 bet 20\n\nHand #3: button Cat, blinds 10/20. Cards are dealt — press “My cards” to "
        "see yours.\nDan posts the big blind 20.\nAnn posts the big blind 20.\n▶ Bob to act: 20 to call (⏱ 60\xa0s).")
    await ledger_ok(service)


async def test_a_player_waiting_for_the_big_blind_is_dealt_in_when_waiting_would_stop_the_game(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT, DAN)
    reply = await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, DAN, "/away")
    reply = await next_hand(service, clock, reply)  # dealt without him
    assert (await service.handle(PLACE, DAN, "/back wait")).public == ["Dan is back and waits for the big blind."]
    for actor in (BOB, CAT):  # they leave after this hand: Ann alone would be dealt in
        await service.handle(PLACE, actor, "/leave")
    reply = await next_hand(service, clock, reply)
    assert reply.table is not None and reply.table.to_act is not None, "no hand: Dan kept waiting"
    assert reply.table.text == (  # Dan dealt in, Bob and Cat away; the usual blinds, none extra for him
        "Hold'em — hand #3 · blinds 10/20 · home-limit\nBoard: — · Pot: 30\n▶ Ann · 410 Ⓓ bet 10\n  Dan · 440 bet 20"
        "\n\nHand #3: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\nAnn posts the small "
        "blind 10.\nDan posts the big blind 20.\n▶ Ann to act: 10 to call (⏱ 60\xa0s).")
    await ledger_ok(service)


async def test_a_player_still_choosing_how_to_come_back_is_dealt_in_rather_than_stop_the_game(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    reply = await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, CAT, "/away")
    reply = await next_hand(service, clock, reply)  # heads-up without him
    back = await service.handle(PLACE, CAT, "/back")
    assert back.private == {"cat": [WELCOME_BACK]}  # two others play: he is asked, post or wait
    await service.handle(PLACE, BOB, "/leave")
    reply = await next_hand(service, clock, reply)
    assert reply.table is not None and reply.table.to_act is not None, "no hand: Cat kept waiting"
    assert reply.table.text == (
        "Hold'em — hand #3 · blinds 10/20 · home-limit\nBoard: — · Pot: 30\n▶ Ann · 450 Ⓓ bet 10\n  Cat · 360 bet 20"
        "\n\nHand #3: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.\nAnn posts the small "
        "blind 10.\nCat posts the big blind 20.\n▶ Ann to act: 10 to call (⏱ 60\xa0s).")
    await ledger_ok(service)


async def test_away_too_long_stands_up_and_the_stack_goes_back_to_the_wallet(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set next_hand_seconds 100000")
    await service.handle(PLACE, CAT, "/away")
    heard = listen(service)
    clock.advance(30 * 60 + 1)
    await service.scheduler.fire_due()
    said = everything_said(heard)
    assert "Cat has been away for 30 minutes and gives up the seat." in said.splitlines()
    assert "Cat leaves the table with 400 chips." in said.splitlines()
    assert (await service.handle(PLACE, CAT, "/balance")).private["cat"] == ["Your wallet: 1,000 chips."]
    await ledger_ok(service)


async def test_away_minutes_shortened_stands_up_at_the_new_time_a_player_already_away(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, CAT, "/away")
    clock.advance(2 * 60)
    assert (await service.handle(PLACE, ANN, "/set away_minutes 5")).error is None
    heard = listen(service)
    clock.advance(3 * 60 + 1)  # five minutes away in all
    await service.scheduler.fire_due()
    said = everything_said(heard)
    assert "Cat has been away for 5 minutes and gives up the seat." in said.splitlines()
    assert "Cat leaves the table with 400 chips." in said.splitlines()
    await ledger_ok(service)


async def test_away_mid_hand_at_a_cash_table_leaves_him_this_hand_with_his_turn_time_and_time_bank(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set time_bank 30")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # Cat is the big blind, last to act
    assert (await service.handle(PLACE, CAT, "/away")).error is None  # away from the next hand
    reply = await service.press(PLACE, ANN, press_label(dealt, "call"))
    reply = await service.press(PLACE, BOB, press_label(reply, "call"))
    assert reply.table is not None and reply.table.to_act == "cat"
    clock.advance(59)
    assert await service.scheduler.fire_due() == 0  # his whole turn's time, not a moment
    clock.advance(2)
    assert await service.scheduler.fire_due() == 1  # then his time bank, as anyone's
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.to_act == "cat"
    assert view.table.text.splitlines()[-1] == "⏳ Cat is using the time bank: 30\xa0s."
    assert "Cat checks." not in view.table.text.splitlines()
    checked = await service.handle(PLACE, CAT, "/check")  # his own decision
    assert checked.error is None and checked.table is not None and "Cat checks." in checked.table.text.splitlines()
    await ledger_ok(service)


async def test_time_outs_of_a_player_away_already_do_not_sit_him_out_again(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set time_bank 0")
    dealt = await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, CAT, "/away")
    heard = listen(service)
    reply = await service.press(PLACE, ANN, press_label(dealt, "call"))
    reply = await service.press(PLACE, BOB, press_label(reply, "call"))
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # Cat's first time-out: he checks
    reply = await service.handle(PLACE, BOB, "/check")  # the flop: Bob, then Cat
    assert reply.table is not None and reply.table.to_act == "cat"
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # his second
    said = everything_said(heard)
    assert said.count("Cat ran out of time.") >= 2
    assert "sitting out after two time-outs" not in said  # he is away already, by his own word
    await ledger_ok(service)


async def test_an_away_tournament_player_is_dealt_in_and_folded_at_once(store: Store) -> None:
    clock = FakeClock(1_800_000_000.0)
    service = await started_service(store, clock, seed=4)
    await service.handle(PLACE, ANN, "/tournament create 10/20 60m")
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    await service.handle(PLACE, CAT, "/away")
    reply = await service.handle(PLACE, ANN, "/tournament start")
    assert reply.table is not None and reply.table.text.split("\n\n")[0].splitlines()[2:] == [
        "▶ Ann · 300 Ⓓ", "  Bob · 295 bet 5", "  Cat · 290 bet 10"]  # Cat dealt in, blinds posted
    story = [reply.table.text]
    for _ in range(30):  # Cat's turns pass the moment they come: nobody waits on a timer for him
        assert reply.table is not None and reply.table.to_act != "cat"
        if reply.table.to_act is None:
            break
        reply = await service.press(PLACE, PLAYERS[reply.table.to_act], press_label(reply, "check", "call"))
        story += [*reply.public, reply.table.text if reply.table else ""]
    told = "\n".join(story)
    # his hand is folded, even as the big blind of a limped pot he could check (RULES.md §1a): never checked down
    assert "Cat folds." in told.splitlines() and "Cat checks." not in told
    await ledger_ok(service)


async def tournament_of_four(store: Store, decks: list[str], deck: str) -> tuple[Service, FakeClock, Reply]:
    """A 10/20 tournament of Ann, Bob, Cat and Dan, started, its first hand dealt from `deck` (Ann's button: Bob,
    Cat, Dan, Ann twice; Bob posts 5, Cat 10, Dan acts first): the service, its clock, the start's reply."""
    clock = FakeClock(1_800_000_000.0)
    service = await started_service(store, clock, seed=4)
    await night_registered(service, (ANN, BOB, CAT, DAN), "10/20 60m", structure=None)
    decks.append(deck)
    started = await service.handle(PLACE, ANN, "/tournament start")
    assert started.table is not None and started.table.to_act == "dan"
    return service, clock, started


JACKS = "2c 3h Js 4d 7d 8c Jh 9s 6c Kc Qd 8h 6d 5s 6h Ah"
"""Dan's J♠ J♥ against Bob's 2♣ 7♦, Cat's 3♥ 8♣ and Ann's 4♦ 9♠; the board K♣ Q♦ 8♥ 5♠ A♥ (burns 6♣ 6♦ 6♥)."""


async def test_a_tournament_player_away_mid_hand_plays_it_out_and_is_blinded_out_from_the_next(
        store: Store, decks: list[str]) -> None:
    """RULES.md §1a: `/away` sits a player out from the next hand; a tournament then deals him in and blinds him
    out. Dan, holding J♠ J♥, types /away on his own turn and Bob on Ann's: neither hand is folded, the table hears
    they are away from the next hand, and each plays his own turns (Dan's jacks win). The next hand deals both in,
    Dan's big blind posted, and folds each hand the moment its turn comes. A restart resumes the table as it is."""
    service, clock, started = await tournament_of_four(store, decks, JACKS)
    assert started.table is not None
    own = await service.handle(PLACE, DAN, "/away")  # on his own turn
    assert own.error is None and own.public == [
        "Dan will be away from the next hand, dealt in and blinded out (blinds posted, the hand folded at each turn): "
        "/back to return."]
    assert own.table is not None and own.table.to_act == "dan" and own.table.text == started.table.text
    called = await service.press(PLACE, DAN, press_label(own, "call"))  # he still acts in this hand
    assert called.table is not None and called.table.to_act == "ann"
    other = await service.handle(PLACE, BOB, "/away")  # on Ann's turn
    assert other.public == [
        "Bob will be away from the next hand, dealt in and blinded out (blinds posted, the hand folded at each turn): "
        "/back to return."]
    assert other.table is not None and other.table.to_act == "ann"
    stored = await store.read(lambda tx: resumed_table(store, tx, PLACE.table_id))
    assert stored is not None and state_json(list(stored)) == service.live_state(PLACE.table_id)
    replies = await play_out(service, PLACE, PLAYERS, other)  # Bob checks and calls on his turns, as all do
    told = everything_said(replies).splitlines()
    assert "Bob calls 5." in told and "Dan folds." not in told and "Bob folds." not in told
    assert replies[-1].table is not None and replies[-1].table.text.split("\n\n")[1].splitlines() == [
        "Ann checks.",
        "Showdown — Bob: 2♣ 7♦ (ace high)",
        "Showdown — Cat: 3♥ 8♣ (a pair of eights, ace kicker)",
        "Showdown — Dan: J♠ J♥ (a pair of jacks, ace kicker)",
        "Ann mucks.",
        "Dan wins the main pot (40) with a pair of jacks, ace kicker; the pair decides: Dan's jacks beat Cat's eights.",
        "The hand is over."]
    clock.advance(9)
    await service.scheduler.fire_due()  # the next hand: Bob's button, Cat's small blind, Dan's big blind
    dealt = await service.handle(PLACE, ANN, "/table")
    assert dealt.table is not None and dealt.table.text.splitlines()[2:] == [
        "▶ Ann · 290", "  Bob · 290 Ⓓ", "  Cat · 285 bet 5", "  Dan · 320 bet 10", "",
        "Hand #2: button Bob, blinds 5/10. Cards are dealt — press “My cards” to see yours.",
        "Cat posts the small blind 5.", "Dan posts the big blind 10.", "▶ Ann to act: 10 to call (⏱ 60\xa0s)."]
    called = await service.press(PLACE, ANN, press_label(dealt, "call"))  # Bob's turn comes and is played at once
    assert called.table is not None and called.table.text.splitlines()[-3:] == [
        "Ann calls 10.", "Bob folds.", "▶ Cat to act: 5 to call (⏱ 60\xa0s)."]
    called = await service.press(PLACE, CAT, press_label(called, "call"))  # Dan's, folded though he could check
    assert called.table is not None and called.table.text.splitlines()[-4:] == [
        "Cat calls 5.", "Dan folds.", "Flop: A♠ 3♥ 7♥", "▶ Cat to act (⏱ 60\xa0s)."]
    await ledger_ok(service)


async def test_a_tournament_player_away_mid_hand_keeps_his_turn_time_and_back_before_the_next_hand_plays_it(
        store: Store, decks: list[str]) -> None:
    """Dan, away on his own turn, has his whole turn's time and his time bank, and his time-out folds for him (he
    faces the big blind), told as anyone's. His /back before the next hand cancels the away: nothing else is folded
    and his turn in the next hand is his own."""
    service, clock, _ = await tournament_of_four(store, decks, JACKS)
    assert (await service.handle(PLACE, DAN, "/away")).error is None
    clock.advance(59)
    assert await service.scheduler.fire_due() == 0  # his whole turn's time, not a moment
    clock.advance(2)
    assert await service.scheduler.fire_due() == 1  # then his time bank, as anyone's
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.text.splitlines()[-1] == "⏳ Dan is using the time bank: 60\xa0s."
    clock.advance(60)
    assert await service.scheduler.fire_due() == 1
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.to_act == "ann"
    assert view.table.text.splitlines()[-4:] == [
        "Cat posts the big blind 10.", "Dan ran out of time.", "Dan folds.", "▶ Ann to act: 10 to call (⏱ 60\xa0s)."]
    back = await service.handle(PLACE, DAN, "/back")
    assert back.public == ["Dan is back in."] and "dan" not in back.private
    await play_out(service, PLACE, PLAYERS, view)
    dealt = await deal_next(service, clock)  # Bob's button, Cat's small blind, Dan's big blind: Ann acts first
    for actor in (ANN, BOB, CAT):
        dealt = await service.press(PLACE, actor, press_label(dealt, "call"))
    assert dealt.table is not None and dealt.table.to_act == "dan"  # his option as the big blind, not a fold
    assert dealt.table.text.splitlines()[-4:] == [
        "Ann calls 10.", "Bob calls 10.", "Cat calls 5.", "▶ Dan to act (⏱ 60\xa0s)."]
    await ledger_ok(service)


async def test_a_tournament_player_sat_out_by_time_outs_is_blinded_out_of_the_rest_of_that_hand(
        store: Store, decks: list[str]) -> None:
    """Two time-outs in a row show a player is not there: unlike an `/away` typed by a player who is, they blind him
    out at once. Cat's second, on the flop, checks for him; on the turn his hand is folded the moment his turn comes,
    though checking is free, as a card room takes the hand of a player gone from the table as dead."""
    service, clock, dealt = await tournament_of_four(store, decks, JACKS)
    assert (await service.handle(PLACE, ANN, "/set time_bank 0")).error is None
    for actor in (DAN, ANN, BOB):
        dealt = await service.press(PLACE, actor, press_label(dealt, "call"))
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # Cat's first time-out: he checks as the big blind
    flop = await service.handle(PLACE, BOB, "/check")
    assert flop.table is not None and flop.table.to_act == "cat"
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # his second: he checks and sits out
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.text.splitlines()[-5:] == [
        "Bob checks.", "Cat ran out of time.", "Cat checks.",
        "Cat is sitting out after two time-outs: /back to come back.", "▶ Dan to act (⏱ 60\xa0s)."]
    for actor in (DAN, ANN, BOB):  # the flop checked round; the turn: Bob checks, then Cat's turn comes
        view = await service.press(PLACE, actor, press_label(view, "check"))
    assert view.table is not None and view.table.to_act == "dan"
    assert view.table.text.splitlines()[-4:] == [
        "Turn: 5♠ (board K♣ Q♦ 8♥ 5♠)", "Bob checks.", "Cat folds.", "▶ Dan to act (⏱ 60\xa0s)."]
    await ledger_ok(service)


@patches_compiled_code("bot.service.parse and command_entry (an older version's log written)")
async def test_an_away_logged_by_an_older_version_replays_as_it_was_applied_then(
        store: Store, decks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """An older version blinded a tournament player out at once on `/away`, his hand folded then if it was his turn,
    and logged the command with no field: a restart replays that row as it was applied (Dan's jacks folded), not as
    an `/away` typed now would be."""
    service, _, _ = await tournament_of_four(store, decks, JACKS)
    monkeypatch.setattr("bot.service.parse", lambda text: cmd.Away(from_next_hand=False) if text == "/away"
                        else parse(text))
    monkeypatch.setattr("bot.service.command_entry", lambda command: {"t": "Away"} if isinstance(command, cmd.Away)
                        else command_entry(command))
    gone = await service.handle(PLACE, DAN, "/away")  # as the older version applied and logged it
    monkeypatch.undo()
    assert gone.table is not None and gone.table.text.splitlines()[-2:] == [
        "Dan folds.", "▶ Ann to act: 10 to call (⏱ 60\xa0s)."]
    [(entry,)] = await store.read(lambda tx: tx.db.execute(
        "SELECT entry FROM actions JOIN tables USING (table_id) WHERE seq > snapshot_seq").fetchall())
    assert orjson.loads(entry)["e"] == {"k": "c", "c": {"t": "Away"}}
    stored = await store.read(lambda tx: resumed_table(store, tx, PLACE.table_id))
    assert stored is not None and state_json(list(stored)) == service.live_state(PLACE.table_id)


async def test_back_before_missing_a_hand_needs_no_choice(service: Service) -> None:
    await seat(service, ANN, BOB, CAT, DAN)
    await service.handle(PLACE, ANN, "/deal")
    await service.handle(PLACE, DAN, "/away")
    back = await service.handle(PLACE, DAN, "/back")  # the hand he is in still plays: he simply stays
    assert back.public == ["Dan is back in."] and "dan" not in back.private
