"""The table message tells the story: each action shows in the edited table message, and the chat gets a new message
only where it should notice something (the showdown, a house round's reveal and result)."""

from __future__ import annotations

from pathlib import Path

from bot.clock import FakeClock
from bot.output import Actor, Reply
from bot.render.story import SHOWN_LINES
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import everything_said, ledger_ok, listen, play_out, press_label, started_service, table_showed

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
SCRIPT = ("raise", "call", "fold", "bet", "call", "check", "check", "bet", "call")
"""What the players choose in turn (the next one the buttons allow, else check or call)."""


async def seat(service: Service, *actors: Actor) -> None:
    for actor in actors:
        assert (await service.handle(PLACE, actor, "/join 200")).error is None


def story_of(reply: Reply) -> list[str]:
    """The lines under the seats of a table message: what happened lately (not whose turn it is)."""
    assert reply.table is not None
    text = reply.table.text
    lines = text.split("\n\n", 1)[1].splitlines() if "\n\n" in text else []
    return [line for line in lines if not line.startswith("▶") and line != "The hand is over."]


async def play_script(service: Service, reply: Reply, offset: int = 0) -> list[tuple[str, str, Reply]]:
    """Play the hand dealt in `reply` by `SCRIPT` (from `offset`); per press, who pressed what and the reply."""
    pressed = []
    for step in range(60):
        if reply.table is None or reply.table.to_act is None:
            return pressed
        payload = press_label(reply, SCRIPT[(step + offset) % len(SCRIPT)], "check", "call")
        actor = PLAYERS[reply.table.to_act]
        reply = await service.press(PLACE, actor, payload)
        assert reply.error is None, reply.error
        pressed.append((actor.name, payload.rsplit("|", 1)[1].split()[0], reply))
    raise AssertionError("the hand did not end")


async def test_a_holdem_hand_is_told_in_its_table_message_with_no_message_per_action(service: Service) -> None:
    await seat(service, ANN, BOB, CAT)
    start = await service.handle(PLACE, ANN, "/deal")
    pressed = await play_script(service, start)
    assert start.public == [], "the new hand is its new table message, not one more text"
    assert start.table is not None and start.table.key == "h1"
    assert story_of(start) == ["Hand #1: button Ann, blinds 10/20. Cards are dealt — press “My cards” to see yours.",
                               "Bob posts the small blind 10.", "Cat posts the big blind 20."]
    # Ann 8♦ J♥, Bob 4♦ 2♠, Cat 7♠ 7♦; board J♠ 6♠ 4♠, 8♣, 9♦
    told = ["Ann raises to 40.", "Bob calls 30.", "Cat folds.", "Bob bets 20.", "Ann calls 20.", "Bob checks.",
            "Ann checks.", "Bob bets 40.", "Ann calls 40."]
    assert [(name, command) for name, command, _ in pressed] == [
        ("Ann", "raise"), ("Bob", "call"), ("Cat", "fold"), ("Bob", "bet"), ("Ann", "call"), ("Bob", "check"),
        ("Ann", "check"), ("Bob", "bet"), ("Ann", "call")]
    for line, (_, _, reply) in zip(told, pressed, strict=True):  # each action in the table message of its own reply
        assert line in story_of(reply), (line, story_of(reply))
    *during, (_, _, last) = pressed
    assert all(reply.public == [] for _, _, reply in during), "no narration message per action"
    assert last.public == ["Showdown — Bob: 4♦ 2♠ (a pair of fours, jack kicker)\n"
                           "Showdown — Ann: 8♦ J♥ (two pair, jacks and eights, nine kicker)\n"
                           "Ann wins the main pot (220) with two pair, jacks and eights, nine kicker."], (
        "the showdown is the one notification")
    assert last.table is not None and last.table.to_act is None and last.table.buttons == ()
    summary = story_of(last)  # the hand's last table message stays as its summary
    assert last.table.text.splitlines()[-1] == "The hand is over."
    assert set(last.public[0].splitlines()) <= set(summary)
    await ledger_ok(service)


async def test_the_story_runs_on_across_streets(service: Service) -> None:
    await seat(service, ANN, BOB)
    reply = await service.handle(PLACE, ANN, "/deal")
    caller = PLAYERS[reply.table.to_act]
    called = await service.press(PLACE, caller, press_label(reply, "call"))
    checker = PLAYERS[called.table.to_act]
    flop = await service.press(PLACE, checker, press_label(called, "check"))
    assert story_of(flop) == [*story_of(called), f"{checker.name} checks.", story_of(flop)[-1]]
    assert story_of(flop)[-1] == "Flop: J♥ 6♣ J♠", "the street's first line, after what closed the last one"
    bettor = PLAYERS[flop.table.to_act]
    bet = await service.press(PLACE, bettor, press_label(flop, "bet"))
    assert story_of(bet)[-2:] == [story_of(flop)[-1], f"{bettor.name} bets 20."]


async def test_a_long_street_shows_its_latest_lines_under_who_posted_the_blinds(service: Service) -> None:
    """Eight players call round preflop: under the deal's lines (the hand's start, who posted the blinds), which stay
    through the preflop round, the table shows the street's latest `SHOWN_LINES`; from the flop on, only the latest
    lines (the blinds are in the pot by then)."""
    await service.handle(PLACE, ANN, "/set max_seats 10")
    crowd = [Actor(f"p{index}", f"P{index}") for index in range(8)]
    await seat(service, *crowd)
    players = {actor.user_id: actor for actor in crowd}
    reply = await service.handle(PLACE, crowd[0], "/deal")
    dealt = ["Hand #1: button P0, blinds 10/20. Cards are dealt — press “My cards” to see yours.",
             "P1 posts the small blind 10.", "P2 posts the big blind 20."]
    assert story_of(reply) == dealt
    replies = await play_out(service, PLACE, players, reply, preference=("call", "check"))
    calls = [*(f"P{index} calls 20." for index in (3, 4, 5, 6, 7, 0)), "P1 calls 10."]
    preflop = [r for r in replies if r.table is not None and "Board: —" in r.table.text][1:]
    assert [story_of(r) for r in preflop] == [[*dealt, *calls[:count][-SHOWN_LINES:]]
                                              for count in range(1, len(calls) + 1)]
    flop = replies[len(preflop) + 1]
    assert story_of(flop) == [*calls[-4:], "P2 checks.", "Flop: 9♣ 4♥ 8♥"]


async def test_a_house_round_is_told_in_its_table_message(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/game russian")).error is None
    players = {actor.user_id: actor for actor in (ANN, BOB)}
    bets = [await service.handle(PLACE, actor, "/ante 10") for actor in players.values()]
    for actor, reply in zip(players.values(), bets, strict=True):
        assert reply.public == [] and f"{actor.name} bets on box 1: ANTE 10." in story_of(reply)
    assert story_of(bets[1])[0] == "Ann bets on box 1: ANTE 10."
    dealt = await service.handle(PLACE, BOB, "/deal")
    assert dealt.public == [] and story_of(dealt) == [*story_of(bets[1]), "Dealer shows 9♠."]
    replies = await play_out(service, PLACE, players, dealt, preference=("play", "fold"))
    decisions = replies[1:]
    result = ["Dealer reveals K♥ 8♣ T♦ 9♦ 9♠: a pair of nines, king kicker — qualifies.",
              "Ann, box 1: loses (−30) — a pair of sevens, eight kicker: 4♦ 7♠ 8♦ 2♠ 7♦; ANTE −10 · BET −20.",
              "Bob, box 1: wins (+40) — two pair, jacks and sixes, four kicker: J♥ 6♣ J♠ 6♠ 4♠; ANTE 0 · BET +40 (two "
              "pair, jacks and sixes, ×2).",
              "Round over: Ann −30, Bob +40."]
    assert [story_of(reply) for reply in decisions] == [
        [*story_of(dealt), "Ann, box 1: plays (20)."], ["Ann, box 1: plays (20).", "Bob, box 1: plays (20).", *result]]
    *during, last = decisions
    assert all(reply.public == [] for reply in during)
    assert last.public == ["\n".join(result)], "the result is the one notification"
    assert set(last.public[0].splitlines()) <= set(story_of(last)), "the last table message sums the round up"
    again = await service.handle(PLACE, ANN, "/ante 10")
    assert story_of(again) == ["Ann bets on box 1: ANTE 10."], "a new round starts a new story"
    await ledger_ok(service)


async def test_a_restart_in_the_middle_of_a_hand_keeps_its_story(tmp_path: Path, clock: FakeClock) -> None:
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=5)
    await seat(service, ANN, BOB, CAT)
    reply = await service.handle(PLACE, ANN, "/deal")
    reply = await service.press(PLACE, PLAYERS[reply.table.to_act], press_label(reply, "raise"))
    told = reply.table.text
    assert told.splitlines()[-2] == "Ann raises to 40."
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=6)
    view = await restarted.handle(PLACE, BOB, "/table")
    assert view.table is not None and view.table.text == told
    after = await restarted.press(PLACE, PLAYERS[view.table.to_act], press_label(view, "call"))
    assert story_of(after)[:-1] == story_of(reply) and story_of(after)[-1] == "Bob calls 30."
    await store.close()


async def test_no_hole_card_is_in_any_public_message_or_table_text(service: Service) -> None:
    await seat(service, ANN, BOB, CAT)
    for number in range(3):  # hands that end by folds and at showdowns alike
        start = await service.handle(PLACE, ANN, "/deal")
        hole = {user: messages[0].removeprefix("Your cards: ") for user, messages in start.private.items()}
        assert set(hole) == set(PLAYERS)
        pressed = await play_script(service, start, offset=2 * number)
        replies = [start, *(reply for _, _, reply in pressed)]
        shown = replies[-1].public[0] if replies[-1].public else ""
        said = everything_said(replies) + "\n" + table_showed(replies)
        for user, cards in hole.items():
            if f"{PLAYERS[user].name}: {cards}" in shown:  # shown at the showdown: public from then on
                assert cards not in everything_said(replies[:-1])
            else:
                assert cards not in said, f"{user}'s cards were shown"


async def test_a_house_time_out_is_a_line_of_the_rounds_story(service: Service, clock: FakeClock) -> None:
    assert (await service.handle(PLACE, ANN, "/game russian")).error is None
    heard = listen(service)
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/ante 10")
    dealt = await service.handle(PLACE, BOB, "/deal")
    slow = PLAYERS[dealt.table.to_act].name
    clock.advance(61)
    assert await service.scheduler.fire_due() == 1
    assert heard and heard[-1].public == [], "a time-out is told in the table message, not in a message of its own"
    assert f"{slow}, box 1: out of time." in story_of(heard[-1])
    await ledger_ok(service)


async def test_the_table_message_says_how_long_the_turn_lasts_in_english_and_russian(service: Service,
                                                                                    clock: FakeClock) -> None:
    assert (await service.handle(PLACE, ANN, "/set turn_seconds 45")).error is None
    await seat(service, ANN, BOB)
    dealt = await service.handle(PLACE, ANN, "/deal")
    first = PLAYERS[dealt.table.to_act]
    assert dealt.table.text.endswith(f"\n▶ {first.name} to act: 10 to call (⏱ 45\xa0s).")
    assert service.scheduler.due_at("holdem:chat/table") == clock.now() + 45, "the turn timer's own seconds"
    called = await service.press(PLACE, first, press_label(dealt, "call"))
    second = PLAYERS[called.table.to_act]
    assert called.table.text.endswith(f"\n▶ {second.name} to act (⏱ 45\xa0s).")
    await service.handle(PLACE, ANN, "/lang ru")
    shown = await service.handle(PLACE, ANN, "/table")
    assert shown.table.text.endswith(f"\n▶ Ход: {second.name} (⏱ 45\xa0с).")  # the same figure: no edit to count down
    clock.advance(46)
    assert await service.scheduler.fire_due() == 1  # the turn ran out: the time bank runs, on its own line
    banked = await service.handle(PLACE, ANN, "/table")
    assert banked.table.text.endswith(f"\n▶ Ход: {second.name}.\n⏳ {second.name} тратит запас времени: 60\xa0с.")


async def test_a_house_table_message_says_how_long_the_turn_lasts_in_english_and_russian(service: Service) -> None:
    assert (await service.handle(PLACE, ANN, "/game russian")).error is None
    assert (await service.handle(PLACE, ANN, "/set turn_seconds 30")).error is None
    for actor in (ANN, BOB):
        await service.handle(PLACE, actor, "/ante 10")
    dealt = await service.handle(PLACE, BOB, "/deal")
    first = PLAYERS[dealt.table.to_act].name
    assert dealt.table.text.endswith(f"\n▶ {first}, box 1: your decision (⏱ 30\xa0s).")
    await service.handle(PLACE, ANN, "/lang ru")
    shown = await service.handle(PLACE, ANN, "/table")
    assert shown.table.text.endswith(f"\n▶ {first}, бокс 1: ваше решение (⏱ 30\xa0с).")
