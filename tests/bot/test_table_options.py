"""Hold'em table options through the service (RULES.md §1a): pre-actions answered privately, the straddle, and a time
bank that runs across a restart (away and back: `test_away.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.games.holdem_preactions import pre_buttons
from bot.output import Actor, Reply
from bot.render.holdem import hand_view
from bot.service import Service
from bot.store import Store, Tx
from engine.betting import HOME_LIMIT
from tests.bot.conftest import ANN, BOB, CAT, DAN, PLACE, dump
from tests.bot.helpers import (
    everything_public,
    ledger_ok,
    listen,
    play,
    play_out,
    press_label,
    refused_without_change,
    resumed_table,
    started_service,
)
from tests.engine.holdem_helpers import start

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT, DAN)}


async def seat(service: Service, *actors: Actor) -> None:
    for actor in actors:
        assert (await service.handle(PLACE, actor, "/join 400")).error is None


def payload(reply: Reply, command: str) -> str:
    """The payload of the table's button for this exact command (`pre check`, `back wait`)."""
    assert reply.table is not None
    return next(button.payload for button in reply.table.buttons if button.payload.endswith(f"|{command}"))


# --- pre-actions ----------------------------------------------------------------------------------------------------


async def test_a_pre_action_is_answered_to_the_presser_alone_and_played_when_his_turn_comes(
        service: Service, clock: FakeClock, tmp_path: Path) -> None:
    await seat(service, ANN, BOB, CAT)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # button, first to act three-handed
    chosen = await service.press(PLACE, CAT, payload(dealt, "pre check"))  # the big blind
    assert chosen.error is None
    assert chosen.private == {"cat": ["You will check (cancelled if someone bets)."]}
    assert chosen.public == [] and chosen.table is None  # nothing for the channel: no message, no edit
    again = await service.press(PLACE, CAT, payload(dealt, "pre check"))
    assert again.error == "You will check (cancelled if someone bets)."  # a double click changes nothing
    called = await service.press(PLACE, ANN, press_label(dealt, "call"))
    called = await service.press(PLACE, BOB, press_label(called, "call"))
    assert called.table is not None
    assert called.table.text.splitlines()[-3:-1] == ["Cat checks.", "Flop: J♠ 6♠ 4♠"]  # his turn played at once
    await ledger_ok(service)


async def test_check_fold_folds_to_a_raise_and_a_second_press_cancels(service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB, CAT)
    dealt = await service.handle(PLACE, ANN, "/deal")
    check_fold = payload(dealt, "pre check_fold")
    assert (await service.press(PLACE, BOB, check_fold)).private == {"bob": ["You will check or fold."]}
    clock.advance(5)
    assert (await service.press(PLACE, BOB, check_fold)).private == {
        "bob": ["Your pre-action is cancelled: you will decide yourself."]}
    clock.advance(5)
    await service.press(PLACE, BOB, check_fold)
    raised = await service.press(PLACE, ANN, press_label(dealt, "raise"))
    assert raised.table is not None and "Bob folds." in raised.table.text.splitlines() and raised.table.to_act == "cat"


async def test_check_is_refused_facing_a_bet_and_to_the_player_to_act(service: Service, tmp_path: Path) -> None:
    await seat(service, ANN, BOB, CAT)
    dealt = await service.handle(PLACE, ANN, "/deal")
    before = dump(tmp_path / "bot.db")
    refused = await service.handle(PLACE, BOB, "/pre check")
    assert refused.error == "There is a bet to call (10): choose check/fold or call any."
    own_turn = await service.handle(PLACE, ANN, "/pre callany")
    assert own_turn.error == "It is your turn: act now."
    assert dump(tmp_path / "bot.db") == before
    assert dealt.table is not None


async def test_call_n_plays_while_the_bet_stands_and_a_stale_button_calls_nothing(
        service: Service, tmp_path: Path) -> None:
    await seat(service, ANN, BOB, CAT, DAN)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "dan"  # Bob small blind, Cat big blind
    raised = await service.handle(PLACE, DAN, "/raise")  # to 40: Bob would put in 30, Cat 20: the bet is named
    assert raised.table is not None and "⏩ Call to 40" in [button.label for button in raised.table.buttons]
    call_40 = payload(raised, "pre call 40")
    chosen = await service.press(PLACE, BOB, call_40)
    assert chosen.private == {"bob": ["You will call 30 (cancelled if someone raises)."]}  # what he puts in
    assert chosen.public == [] and chosen.table is None
    reraised = await service.press(PLACE, ANN, press_label(raised, "raise"))  # to 60: Bob's "call 40" is cancelled
    assert reraised.table is not None and reraised.table.to_act == "bob" and "Bob calls" not in reraised.table.text
    assert "⏩ Call to 60" in [button.label for button in reraised.table.buttons]
    before = dump(tmp_path / "bot.db")
    stale = await service.press(PLACE, CAT, call_40)
    assert stale.error == "The bet is now 60, not 40: choose again."
    assert dump(tmp_path / "bot.db") == before
    assert payload(reraised, "pre call 60")
    typed = await service.handle(PLACE, CAT, "/pre call")  # typed without an amount: the bet as it is now
    assert typed.private == {"cat": ["You will call 40 (cancelled if someone raises)."]}
    called = await service.handle(PLACE, BOB, "/call")
    assert called.table is not None
    assert called.table.text.splitlines()[-3:-1] == ["Bob calls 50.", "Cat calls 40."]  # his turn played at once
    assert called.table.to_act == "dan"
    await ledger_ok(service)


@pytest.mark.parametrize(("language", "pre", "chosen", "own"), [
    ("en", "⏩ Call 20", "You will call 20 (cancelled if someone raises).", "Call 20"),
    ("ru", "⏩ Колл 20", "Вы сделаете колл 20 (отменится, если кто-то повысит).", "Колл 20"),
])
async def test_the_pre_action_call_names_what_the_player_would_put_in_as_his_call_button_does(
        service: Service, clock: FakeClock, language: str, pre: str, chosen: str, own: str) -> None:
    """Ann raises to 40 and Cat, the big blind, has 20 in: "⏩ Call 40" named the bet, where his own Call button
    names the 20 he puts in; both now name 20, as does the answer to his press."""
    await seat(service, ANN, BOB, CAT)
    assert (await service.handle(PLACE, ANN, f"/lang {language}")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # Bob small blind, Cat big blind
    raised = await service.press(PLACE, ANN, press_label(dealt, "raise"))  # to 40
    assert raised.table is not None and raised.table.to_act == "bob"
    assert pre in [button.label for button in raised.table.buttons]
    assert (await service.press(PLACE, CAT, payload(raised, "pre call 40"))).private == {"cat": [chosen]}
    clock.advance(5)
    cancelled = await service.press(PLACE, CAT, payload(raised, "pre call 40"))  # taken back: he acts himself
    assert cancelled.error is None
    folded = await service.handle(PLACE, BOB, "/fold")
    assert folded.table is not None and folded.table.to_act == "cat"
    assert own in [button.label for button in folded.table.buttons]


async def test_call_any_calls_a_raise_made_after_it_was_chosen_all_in_when_short(service: Service) -> None:
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await seat(service, ANN, BOB)
    assert (await service.handle(PLACE, CAT, "/join 200")).error is None  # the short stack
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act == "ann"  # Bob small blind, Cat big blind
    for actor, language, said in ((BOB, "en", "You will call any bet."),  # while the bet is the big blind's 20
                                  (CAT, "ru", "Вы сделаете колл любой ставки.")):  # as its button: «Колл любой»
        await service.handle(PLACE, ANN, f"/lang {language}")
        chosen = await service.press(PLACE, actor, payload(dealt, "pre call_any"))
        assert chosen.private == {actor.user_id: [said]} and chosen.table is None
    await service.handle(PLACE, ANN, "/lang en")
    raised = await service.handle(PLACE, ANN, "/raise 300")
    assert raised.table is not None
    text = raised.table.text
    assert "Ann raises to 300." in text.splitlines()
    assert "Bob calls 290." in text.splitlines()  # whatever the bet has become
    assert "Cat calls 180, all-in." in text.splitlines()  # all he has
    assert "Flop: J♠ 6♠ 4♠" in text.splitlines() and raised.table.to_act == "bob"  # both played at once, Bob first
    await ledger_ok(service)


async def test_the_check_pre_action_is_drawn_only_while_someone_not_to_act_could_still_check(
        service: Service) -> None:
    """"⏩ Check" is refused to a player who owes chips or has acted on the street (his turn comes back only after a
    bet, which cancels it): the shared buttons offer it only while another player in the hand owes nothing and has
    not acted yet. Three-handed, Ann on the button, blinds 10/20."""
    def labels(reply: Reply) -> list[str]:
        assert reply.table is not None
        return [button.label for button in reply.table.buttons]

    await seat(service, ANN, BOB, CAT)
    dealt = await service.handle(PLACE, ANN, "/deal")  # Bob owes 10; Cat, the big blind, has not acted yet
    assert labels(dealt) == ["🂠 My cards", "Fold", "Call 20", "Raise to 40", "⏩ Check/fold", "⏩ Check", "⏩ Call 10",
                             "⏩ Call any"]
    called = await service.handle(PLACE, ANN, "/call")  # Cat still may check
    assert labels(called) == ["🂠 My cards", "Fold", "Call 10", "Raise to 40", "⏩ Check/fold", "⏩ Check",
                              "⏩ Call any"]
    called = await service.handle(PLACE, BOB, "/call")  # Ann and Bob have acted: a check of theirs could never play
    assert labels(called) == ["🂠 My cards", "Check", "Raise to 40", "⏩ Check/fold", "⏩ Call any"]
    flop = await service.handle(PLACE, CAT, "/check")  # a new street: nobody has acted on it
    assert labels(flop) == ["🂠 My cards", "Check", "Bet 20", "⏩ Check/fold", "⏩ Check", "⏩ Call any"]
    checked = await service.handle(PLACE, BOB, "/check")  # Ann has not acted on the flop
    assert labels(checked) == ["🂠 My cards", "Check", "Bet 20", "⏩ Check/fold", "⏩ Check", "⏩ Call any"]
    checked = await service.handle(PLACE, CAT, "/check")  # Ann last: Bob and Cat have checked
    assert labels(checked) == ["🂠 My cards", "Check", "Bet 20", "⏩ Check/fold", "⏩ Call any"]
    bet = await service.handle(PLACE, ANN, "/bet")  # Bob to act; Cat owes 20: nobody could check
    assert labels(bet) == ["🂠 My cards", "Fold", "Call 20", "Raise to 40", "⏩ Check/fold", "⏩ Call 20",
                           "⏩ Call any"]
    await ledger_ok(service)


# --- the straddle ---------------------------------------------------------------------------------------------------


async def test_the_player_left_of_the_big_blind_straddles_and_acts_last(service: Service) -> None:
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await seat(service, ANN, BOB, CAT, DAN)
    assert (await service.handle(PLACE, DAN, "/straddle")).error == \
        "Straddles are off at this table (/set straddle on)."
    await service.handle(PLACE, ANN, "/set straddle on")
    idle = await service.handle(PLACE, ANN, "/table")
    assert idle.table is not None
    assert "Straddle 40 (Dan)" in [button.label for button in idle.table.buttons]  # Ann has the first button
    assert (await service.handle(PLACE, BOB, "/straddle")).error == \
        "Only Dan, left of the next big blind, may straddle."
    pressed = await service.press(PLACE, DAN, press_label(idle, "straddle"))
    assert pressed.public == ["Dan will straddle 40 in the next hand."]
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and "Dan straddles 40." in dealt.table.text.splitlines()
    assert dealt.table.to_act == "ann" and dealt.table.text.splitlines()[-1] == "▶ Ann to act: 40 to call (⏱ 60\xa0s)."
    reply = await service.press(PLACE, ANN, press_label(dealt, "call"))
    reply = await service.press(PLACE, BOB, press_label(reply, "call"))
    reply = await service.press(PLACE, CAT, press_label(reply, "call"))
    assert reply.table is not None and reply.table.to_act == "dan"  # the straddler's option
    await ledger_ok(service)


async def test_a_straddle_announced_then_no_longer_allowed_is_dropped_with_its_reason(service: Service) -> None:
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set straddle on")
    await seat(service, ANN, BOB, CAT, DAN)
    assert (await service.handle(PLACE, DAN, "/straddle")).public == ["Dan will straddle 40 in the next hand."]
    await service.handle(PLACE, ANN, "/set structure fixed-limit")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.public == ["Dan does not straddle this hand. Straddles are played only at no-limit and pot-limit "
                            "tables."]
    assert dealt.table is not None and "straddle" not in dealt.table.text
    await ledger_ok(service)


async def test_a_straddler_who_goes_away_is_said_not_to_straddle_the_next_hand(service: Service) -> None:
    """An announced straddle was dropped without a word when its player went away: the table, told he would
    straddle, saw the next hand dealt without it."""
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set straddle on")
    await seat(service, ANN, BOB, CAT, DAN)
    assert (await service.handle(PLACE, DAN, "/straddle")).public == ["Dan will straddle 40 in the next hand."]
    assert (await service.handle(PLACE, DAN, "/away")).public == [
        "Dan is away and sits out from the next hand, keeping the seat: /back to return.",
        "Dan does not straddle the next hand. A player away is dealt out."]
    await service.handle(PLACE, ANN, "/lang ru")
    assert (await service.handle(PLACE, DAN, "/back")).error is None
    assert (await service.handle(PLACE, DAN, "/straddle")).error is None
    assert (await service.handle(PLACE, DAN, "/away")).public[-1] == (
        "Dan не ставит стрэддл в следующей раздаче. Отошедшему игроку карты не сдаются.")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and "стрэддл" not in dealt.table.text.lower()
    await ledger_ok(service)


async def test_a_level_changed_after_a_straddle_is_announced_tells_its_new_size(service: Service) -> None:
    """The straddle is twice the big blind of the hand it is posted in: announced as 40, it posted 80 after
    '/set level 40' with no word. The table now hears the new size, or that it is dropped when the straddler can no
    longer afford it (in both languages)."""
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set straddle on")
    await seat(service, ANN, BOB, CAT, DAN)
    assert (await service.handle(PLACE, DAN, "/straddle")).public == ["Dan will straddle 40 in the next hand."]
    assert (await service.handle(PLACE, ANN, "/set level 40")).public == [
        "Setting changed: level — 40.",
        "The level changed: Dan will straddle 80 in the next hand, twice the new big blind."]
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and "Dan straddles 80." in dealt.table.text.splitlines()
    await play_out(service, PLACE, PLAYERS, dealt, ("fold", "check"))
    await service.handle(PLACE, ANN, "/set level 20")
    await service.handle(PLACE, ANN, "/lang ru")
    assert (await service.handle(PLACE, ANN, "/straddle")).error is None  # Bob's button next: Ann (400 chips) straddles
    changed = await service.handle(PLACE, ANN, "/set level 200")
    assert changed.public[-1] == "Ann не ставит стрэддл в следующей раздаче. Для стрэддла 400 нужен стек побольше."
    assert (await service.handle(PLACE, ANN, "/set level 20")).public == ["Настройка изменена: уровень — 20."]
    assert (await service.handle(PLACE, ANN, "/straddle")).error is None
    assert (await service.handle(PLACE, ANN, "/set level 40")).public == [
        "Настройка изменена: уровень — 40.",
        "Уровень изменён: Ann ставит стрэддл 80 в следующей раздаче — два новых больших блайнда."]
    await ledger_ok(service)


async def test_a_tournament_refuses_the_straddle(store: Store) -> None:
    service = await started_service(store, FakeClock(1_800_000_000.0), seed=4)
    await service.handle(PLACE, ANN, "/tournament create 10/20 60m")
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set straddle on")
    for actor in (ANN, BOB, CAT, DAN):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    assert (await service.handle(PLACE, DAN, "/straddle")).error == "No straddles in a tournament."


@pytest.mark.parametrize(("tournament", "structure", "reasons"), [
    (True, "no-limit", {"en": "No straddles in a tournament.", "ru": "В турнире стрэддлов нет."}),
    (False, "home-limit", {"en": "Straddles are played only at no-limit and pot-limit tables.",
                           "ru": "Стрэддл ставят только за столами без лимита и с пот-лимитом."}),
])
async def test_a_straddle_the_table_can_never_have_is_refused_for_that_not_because_the_setting_is_off(
        service: Service, tournament: bool, structure: str, reasons: dict[str, str]) -> None:
    """With the setting off, `/straddle` in a tournament or at a fixed-limit table was answered "Straddles are off at
    this table (/set straddle on)"; following that advice only led to the real reason. The real reason comes first,
    in the player's language, to a player not seated as well, and nothing changes."""
    if tournament:
        await service.handle(PLACE, ANN, "/tournament create 10/20 60m")
    await play(service, (ANN, f"/set structure {structure}"), (ANN, "/join"), (BOB, "/join"), (CAT, "/join"))
    for actor in (CAT, DAN):
        await refused_without_change(service, actor, "/straddle", reasons)


# --- the time bank --------------------------------------------------------------------------------------------------


async def test_a_running_time_bank_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=11)
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set time_bank 30")
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None
    slow = dealt.table.to_act
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.to_act == slow
    assert f"⏳ {PLAYERS[slow or ''].name} is using the time bank: 30\xa0s." in view.table.text.splitlines()
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=12)
    heard = listen(restarted)
    clock.advance(20)
    assert await restarted.scheduler.fire_due() == 0  # the bank still runs
    clock.advance(11)
    assert await restarted.scheduler.fire_due() == 1
    ran_out = f"{PLAYERS[slow or ''].name} ran out of time."
    assert any(ran_out in everything_public(reply).splitlines() for reply in heard)
    assert heard[-1].table is not None and "time bank" not in heard[-1].table.text
    await ledger_ok(restarted)
    await store.close()


async def stored_timers(store: Store) -> list[tuple[str, float, dict[str, object]]]:
    """The timers' rows in the store (key, instant, payload), by key: what a restart would arm."""
    return sorted((key, due_at, stored) for key, _, due_at, stored in await store.read(lambda tx: tx.timers()))


def armed_timers(service: Service) -> list[tuple[str, float, dict[str, object]]]:
    """The timers the scheduler holds, as `stored_timers` gives the store's."""
    return sorted((timer.key, timer.due_at, timer.payload) for timer in service.scheduler.armed)


async def test_a_turn_that_starts_the_time_bank_rewrites_its_timer_row_with_the_banks_deadline(
        service: Service, store: Store, clock: FakeClock) -> None:
    """What a fired timer leaves in the store is what the scheduler then holds (a restart re-arms it): the turn that
    starts the time bank arms its key again, and its one row carries the bank's deadline."""
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set time_bank 30")
    assert (await service.handle(PLACE, ANN, "/deal")).error is None
    [(turn, _, _)] = await stored_timers(store)
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    [(key, due_at, _)] = armed = armed_timers(service)
    assert (key, due_at) == (turn, clock.now() + 30)
    assert await stored_timers(store) == armed


async def test_a_timer_whose_action_arms_nothing_leaves_no_row(service: Service, store: Store,
                                                                clock: FakeClock) -> None:
    """The stand-up of a player away too long arms no timer: its row goes with it."""
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set next_hand_seconds 100000")
    await service.handle(PLACE, CAT, "/away")
    [away] = [timer for timer in armed_timers(service) if timer[2].get("kind") == "away"]
    assert away in await stored_timers(store)
    clock.advance(30 * 60 + 1)
    assert await service.scheduler.fire_due() >= 1
    assert away[0] not in {key for key, _, _ in await stored_timers(store)}
    assert await stored_timers(store) == armed_timers(service)
    await ledger_ok(service)


async def banks(store: Store) -> dict[str, dict[str, int]]:
    """Each seat's stored time bank."""
    loaded = await store.read(lambda tx: resumed_table(store, tx, PLACE.table_id))
    assert loaded is not None
    return {seat["id"]: seat.get("bank") for seat in loaded[1]["seats"]}


async def spent_bank(store: Store, schedule: str) -> tuple[Service, FakeClock, str, Reply]:
    """A tournament of `schedule` with 30 s time banks, started: the first player to act lets his turn run out and
    acts 20 s into his bank. The service, its clock, that player and his action's reply."""
    clock = FakeClock(1_800_000_000.0)
    service = await started_service(store, clock, seed=4)
    await service.handle(PLACE, ANN, f"/tournament create {schedule}")
    await service.handle(PLACE, ANN, "/set time_bank 30")
    for actor in (ANN, BOB, CAT):
        assert (await service.handle(PLACE, actor, "/join")).error is None
    reply = await service.handle(PLACE, ANN, "/tournament start")
    assert reply.table is not None and reply.table.to_act is not None
    slow = reply.table.to_act
    clock.advance(61)
    await service.scheduler.fire_due()
    clock.advance(20)
    reply = await service.press(PLACE, PLAYERS[slow], press_label(await service.handle(PLACE, ANN, "/table"),
                                                                 "check", "call"))
    assert reply.error is None
    return service, clock, slow, reply


async def test_a_tournament_refills_the_time_banks_at_each_new_level(store: Store) -> None:
    service, clock, slow, reply = await spent_bank(store, "10/20 2m; 20/40 60m")
    assert (await banks(store))[slow] == {"full": 30, "left": 10, "hands": 0}  # 20 s of the bank spent
    await play_out(service, PLACE, PLAYERS, reply)
    clock.advance(9)
    await service.scheduler.fire_due()  # the next hand, still at the first level: nothing refilled
    assert (await banks(store))[slow]["left"] == 10
    await play_out(service, PLACE, PLAYERS, await service.handle(PLACE, ANN, "/table"))
    clock.advance(300)  # past the first level: the next hand is dealt at the second
    await service.scheduler.fire_due()
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None  # the second level's blinds (the first: 5/10)
    assert view.table.text.splitlines()[0] == "Hold'em — hand #3 · blinds 10/20 · home-limit"
    assert (await banks(store))[slow]["left"] == 30
    await ledger_ok(service)


async def test_a_level_after_a_break_with_the_same_limits_is_a_new_level_for_the_time_banks(store: Store) -> None:
    """RULES.md §1a: the banks refill at each new level. The level after the break repeats the limits before it; the
    banks, keyed by the limits, did not refill."""
    service, clock, slow, reply = await spent_bank(store, "10/20 2m; break 1m; 10/20 60m; 20/40")
    await play_out(service, PLACE, PLAYERS, reply)
    assert (await banks(store))[slow]["left"] == 10
    clock.advance(3 * 60)  # past the break: the next hand is dealt at the third level, 10/20 again
    await service.scheduler.fire_due()
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and view.table.to_act is not None
    assert view.table.text.splitlines()[0] == "Hold'em — hand #2 · blinds 5/10 · home-limit"
    assert (await banks(store))[slow]["left"] == 30
    await ledger_ok(service)


async def test_a_cash_table_refills_a_time_bank_every_20_hands_dealt_to_him(store: Store, clock: FakeClock) -> None:
    service = await started_service(store, clock, seed=4)
    await seat(service, ANN, BOB, CAT)
    await service.handle(PLACE, ANN, "/set time_bank 30")

    def nearly_spent(tx: Tx) -> None:  # 19 hands dealt to Ann since her bank was full, 18 to Bob; 5 s left each
        loaded = resumed_table(store, tx, PLACE.table_id)
        assert loaded is not None
        config, state = loaded
        hands = {"ann": 19, "bob": 18}
        for player_seat in state["seats"]:
            if player_seat["id"] in hands:
                player_seat["bank"] = {"full": 30, "left": 5, "hands": hands[player_seat["id"]]}
        tx.save_table(PLACE.table_id, PLACE.chat_id, config, state)

    await store.transact(nearly_spent, now=clock.now())
    restarted = await started_service(store, clock, seed=5)  # reads the table as stored
    assert (await restarted.handle(PLACE, ANN, "/deal")).error is None
    assert await banks(store) == {"ann": {"full": 30, "left": 30, "hands": 0},  # her 20th hand: full again
                                  "bob": {"full": 30, "left": 5, "hands": 19},
                                  "cat": {"full": 30, "left": 30, "hands": 1}}
    await ledger_ok(restarted)


async def test_a_time_bank_lowered_by_the_organizer_is_no_longer_than_the_new_setting(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB)
    await service.handle(PLACE, ANN, "/deal")  # each player's bank: the default 60 s
    assert (await service.handle(PLACE, ANN, "/set time_bank 5")).public == [
        "Setting changed: time bank (seconds) — 5."]
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # Ann's turn ran out: her bank starts
    view = await service.handle(PLACE, BOB, "/table")
    assert view.table is not None and "⏳ Ann is using the time bank: 5\xa0s." in view.table.text.splitlines()
    clock.advance(6)
    assert await service.scheduler.fire_due() == 1  # and ends 5 s later: she folds
    assert (await banks(service.store))["ann"]["left"] == 0
    await ledger_ok(service)


async def test_a_time_bank_turned_off_then_on_again_has_the_new_setting(
        service: Service, clock: FakeClock) -> None:
    await seat(service, ANN, BOB)
    await service.handle(PLACE, ANN, "/deal")  # each player's bank: the default 60 s
    await service.handle(PLACE, ANN, "/set time_bank 0")
    await service.handle(PLACE, ANN, "/fold")
    clock.advance(9)
    assert await service.scheduler.fire_due() == 1  # the next hand, dealt while the banks are off
    await service.handle(PLACE, ANN, "/set time_bank 30")
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # Bob's turn ran out: his bank starts
    view = await service.handle(PLACE, ANN, "/table")
    assert view.table is not None and "⏳ Bob is using the time bank: 30\xa0s." in view.table.text.splitlines()


async def test_a_time_bank_turned_off_while_it_runs_stops_and_the_turn_times_out(
        service: Service, clock: FakeClock) -> None:
    """RULES.md §1a: 0 turns the time bank off. '/set time_bank 0' let a running bank run to its end: it now stops at
    once, and the turn, whose own time ran out before the bank started, times out as it would have without one; the
    bank keeps what was left of it for when it is on again."""
    await seat(service, ANN, BOB)
    await service.handle(PLACE, ANN, "/deal")  # Ann's button: she acts first
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1  # her turn ran out: her 60 s bank starts
    clock.advance(10)
    off = await service.handle(PLACE, ANN, "/set time_bank 0")
    assert off.public == [
        "Setting changed: time bank (seconds) — 0.",
        "The time bank is now off: Ann's time for this turn had already run out, so the turn times out."]
    assert off.table is not None and off.table.to_act is None  # she folded: the hand is Bob's
    assert "Ann ran out of time." in off.table.text.splitlines() and "Ann folds." in off.table.text.splitlines()
    assert "time bank" not in off.table.text
    assert (await banks(service.store))["ann"]["left"] == 50
    await ledger_ok(service)


async def test_a_straddle_is_exported_as_pokerstars_writes_it(service: Service) -> None:
    await service.handle(PLACE, ANN, "/set structure no-limit")
    await service.handle(PLACE, ANN, "/set straddle on")
    await seat(service, ANN, BOB, CAT, DAN)
    assert (await service.handle(PLACE, DAN, "/straddle")).error is None
    dealt = await service.handle(PLACE, ANN, "/deal")
    await play_out(service, PLACE, PLAYERS, dealt, ("fold", "check"))
    exported = "\n".join((await service.handle(PLACE, DAN, "/history")).private["dan"])
    assert "Dan: posts straddle 40" in exported.splitlines()


def test_the_small_blind_covering_a_short_big_blind_is_offered_no_call_pre_action() -> None:
    """Blinds 5/10, the big blind all-in for 5 (the bet still 10, RULES.md §1): while the first player acts, the small
    blind has covered every other bet and owes nothing, as the engine will have it, so no "Call 5" pre-action is
    drawn for him; check/fold, check and call any are."""
    hand, _ = start(HOME_LIMIT, {"a": 500, "b": 500, "c": 5}, "a", {"a": "2c 7d", "b": "3c 8d", "c": "4c 9d"},
                    "Ah Kh Qh Jh 2s")
    assert hand.to_act == "a" and hand.bets == {"a": 0, "b": 5, "c": 5} and hand.current_bet == 10
    assert [button.label for button in pre_buttons("en", hand_view(hand), "h1")] == [
        "⏩ Check/fold", "⏩ Check", "⏩ Call any"]


# --- /set's answers -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "line", "english", "russian"), [
    ("three-card", "/set tier vip", "limit tier — VIP", "уровень лимитов — VIP"),
    ("three-card", "/set tier Respect", "limit tier — RESPECT", "уровень лимитов — RESPECT"),
    ("three-card", "/set tier LITE", "limit tier — LITE", "уровень лимитов — LITE"),
    ("three-card", "/set ante_bonus always", "ANTE bonus pays — always", "бонус к АНТЕ платится — всегда"),
    ("caribbean", "/set re_exchange ON", "re-exchange — on", "повторный обмен — вкл"),
    ("caribbean", "/set max_payout off", "maximum payout per box — no cap",
     "максимальная выплата на бокс — без ограничения"),
    ("texas", "/set pictures streets", "pictures — every street", "картинки — на каждой улице"),
    ("holdem", "/set structure No-Limit", "betting structure — no-limit", "структура ставок — безлимит"),
    ("holdem", "/set run_it_twice on", "run it twice — on", "раздача борда дважды — вкл"),
    ("holdem", "/set straddle off", "straddle — off", "стрэддл — выкл"),
], ids=["tier-vip", "tier-respect", "tier-lite", "ante-bonus", "re-exchange", "max-payout", "pictures", "structure",
        "run-it-twice", "straddle"])
@pytest.mark.parametrize("language", ["en", "ru"])
async def test_set_says_a_named_value_by_its_name_not_as_typed(
        service: Service, game: str, line: str, english: str, russian: str, language: str) -> None:
    """`/set tier vip` answered «уровень лимитов — vip», the word echoed as typed, where the tier is VIP (RULES.md
    §5: LITE, RESPECT, VIP): every setting that takes a word says the value by its name in the chat's language,
    whatever case it was typed in."""
    if game == "holdem":
        await seat(service, ANN)
    else:
        assert (await service.handle(PLACE, ANN, f"/game {game}")).error is None
    await service.handle(PLACE, ANN, f"/lang {language}")
    answer = await service.handle(PLACE, ANN, line)
    assert answer.error is None
    said = {"en": f"Setting changed: {english}.", "ru": f"Настройка изменена: {russian}."}[language]
    assert answer.public == [said]


@pytest.mark.parametrize(("language", "listed"), [
    ("en", "tier — limit tier: RESPECT (respect)"),
    ("ru", "tier — уровень лимитов: RESPECT (respect)"),
])
async def test_set_lists_the_tier_by_its_name_and_the_word_it_takes(service: Service, language: str,
                                                                  listed: str) -> None:
    await service.handle(PLACE, ANN, "/game three-card")
    await service.handle(PLACE, ANN, f"/lang {language}")
    assert (await service.handle(PLACE, ANN, "/set tier respect")).error is None
    settings = (await service.handle(PLACE, ANN, "/set")).private["ann"][0].split("\n")
    assert [item for item in settings if item.startswith("tier")] == [listed]
