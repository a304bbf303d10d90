"""The story's lines are written when a table message or a snapshot reads them, not at the action: the same lines as
written at once, with the names as they were at the action; a snapshot stores them as text, as it always did."""

from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.output import Button, TableMessage
from bot.render import Voice, story
from bot.render import holdem as render
from bot.service import Service
from bot.store import Store, Tx
from engine import holdem as engine
from engine.betting import STRUCTURES
from engine.cards import Deck
from engine.common import Event
from engine.showdown import ShowdownRules
from tests.bot.conftest import ANN, BOB, CAT, PLACE
from tests.bot.helpers import calls_to, press_label, resumed_table, started_service

PLAYERS = {actor.user_id: actor for actor in (ANN, BOB, CAT)}
NAMES = {"p0": "Ann", "p1": "Борис", "p2": "Cat", "p3": "Dan"}


def _batches(seed: int) -> list[tuple[list[Event], engine.HandsShown | None]]:
    """The events of one random hand (no-limit or pot-limit Omaha, showdowns in turn, runs twice), action by action,
    each with the hands shown so far (as the controller narrates them)."""
    rng = random.Random(seed)
    variant = engine.Variant.OMAHA if seed % 3 == 0 else engine.Variant.HOLDEM
    structure = STRUCTURES["pot-limit" if variant is engine.Variant.OMAHA else "no-limit"]
    players = [engine.SeatPlayer(f"p{index}", rng.choice([60, 400, 1000])) for index in range(rng.randint(2, 4))]
    hand, events = engine.Hand.start(players, 0, 20, structure, Deck(rng), seed, variant=variant,
                                     rules=ShowdownRules(muck=seed % 2 == 0, run_it_twice=True))
    batches = [(events, hand.shown_so_far())]
    while not hand.is_over:
        if hand.runs_asked:
            events = hand.choose_runs(hand.runs_asked[0], rng.random() < 0.5)
        elif hand.showing:
            events = hand.show_or_muck(hand.showing, rng.random() < 0.5)
        else:
            legal = hand.legal_actions()
            choices: list[engine.Action] = [engine.Call() if legal.call_amount else engine.Check()]
            if legal.can_fold:
                choices.append(engine.Fold())
            if legal.can_raise or legal.can_bet:
                bet = engine.RaiseTo if legal.can_raise else engine.Bet
                choices += [bet(legal.min_to), bet(legal.max_to)]
            events = hand.act(legal.player, rng.choice(choices))
        batches.append((events, hand.shown_so_far()))
    return batches


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_lines_written_later_are_those_narrate_writes_at_once(language: str) -> None:
    voice = Voice(language, NAMES.__getitem__)
    kinds: set[str] = set()
    for seed in range(60):
        for events, shown in _batches(seed):
            kinds |= {type(event).__name__ for event in events}
            now = render.narrate(voice, events, shown)
            narration, lines = render.narrate_later(voice, events, shown)
            assert story.written(lines) == now.lines
            assert narration.lines == [] and narration.notice == now.notice and narration.told == now.told
    assert {"PlayerFolded", "PlayerRaised", "BoardDealt", "PotAwarded", "HandsShown", "RunsSettled"} <= kinds


def test_a_written_line_lets_go_of_what_wrote_it() -> None:
    voice = Voice("en", NAMES.__getitem__)
    events, _ = _batches(1)[1]
    lines = render.narrate_later(voice, events)[1]
    assert lines, "a betting action tells a line"
    line = lines[0]
    assert isinstance(line, story.Later)
    assert any(isinstance(thing, Event) for thing in _held(line)) and voice in _held(line), "before it is written"
    text = story.written([line])[0]
    assert text and line.to_dict() == text, "written once, read again as it was"
    assert not any(thing is voice or isinstance(thing, Event) for thing in _held(line))


def _held(line: story.Later) -> list[object]:
    """What the line refers to, its arguments' tuple opened."""
    return [thing for held in gc.get_referents(line) for thing in (held if isinstance(held, tuple) else (held,))]


async def seat(service: Service) -> None:
    for actor in PLAYERS.values():
        assert (await service.handle(PLACE, actor, "/join 200")).error is None


async def test_an_actions_lines_are_written_only_when_its_table_text_is_read(service: Service,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    await seat(service)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    written = calls_to(monkeypatch, render, "_line")
    raised = await service.press(PLACE, PLAYERS[dealt.table.to_act], press_label(dealt, "raise"))
    assert raised.table is not None and raised.table.buttons, "the buttons are there to press"
    assert written == [], "no line was written before the table's text was read"
    assert "raises to 40." in raised.table.text
    assert [type(event) for _voice, event in written] == [engine.PlayerRaised]
    assert "raises to 40." in raised.table.text and len(written) == 1, "a line is written once"


async def test_a_line_written_late_names_the_player_as_he_was_named_at_the_action(service: Service) -> None:
    await seat(service)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    actor = PLAYERS[dealt.table.to_act]
    raised = await service.press(PLACE, actor, press_label(dealt, "raise"))
    renamed = type(actor)(actor.user_id, actor.name + "ie")
    now = await service.handle(PLACE, renamed, "/table")
    assert raised.table is not None and now.table is not None
    assert f"{actor.name} raises to 40." in raised.table.text.splitlines()
    assert f"{actor.name} raises to 40." in now.table.text.splitlines(), "a line told stays as it was told"
    assert f"{renamed.name} · " in now.table.text, "the seats name him as he is named now"


async def test_a_snapshot_stores_the_story_as_text_and_one_so_written_shows_it(tmp_path: Path,
                                                                                clock: FakeClock) -> None:
    """What a snapshot stores is the lines' text (the form of every snapshot written before lines were written
    late): one holding such lines, however they read, shows them and goes on with the hand's story."""
    store = await Store.open(tmp_path / "bot.db")
    service = await started_service(store, clock, seed=5)
    await seat(service)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    raised = await service.press(PLACE, PLAYERS[dealt.table.to_act], press_label(dealt, "raise"))
    assert raised.table is not None
    told = raised.table.text.split("\n\n", 1)[1].splitlines()[:-1]

    def rewrite(tx: Tx) -> None:
        loaded = resumed_table(store, tx, PLACE.table_id)
        assert loaded is not None
        config, state = loaded
        assert state["story"] == told, "stored as the text the table showed"
        state["story"] = ["An older line.", *state["story"][1:]]
        tx.save_table(PLACE.table_id, PLACE.chat_id, config, state)

    await store.transact(rewrite, now=clock.now())
    await store.close()

    store = await Store.open(tmp_path / "bot.db")
    restarted = await started_service(store, clock, seed=6)
    view = await restarted.handle(PLACE, BOB, "/table")
    assert view.table is not None and view.table.to_act is not None
    assert view.table.text.split("\n\n", 1)[1].splitlines()[:-1] == ["An older line.", *told[1:]]
    after = await restarted.press(PLACE, PLAYERS[view.table.to_act], press_label(view, "call"))
    assert after.table is not None
    lines = after.table.text.split("\n\n", 1)[1].splitlines()
    assert lines[:len(told)] == ["An older line.", *told[1:]] and lines[len(told)].endswith(" calls 30.")
    await store.close()


def test_buttons_given_as_a_function_are_made_when_first_read_and_only_then() -> None:
    made: list[int] = []

    def buttons() -> tuple[Button, ...]:
        made.append(1)
        return (Button("Check", "h1|s1|check"),)

    message = TableMessage("h1", "text", buttons, "ann")
    assert made == []
    assert message.buttons == (Button("Check", "h1|s1|check"),) and message.buttons is message.buttons
    assert made == [1]
    assert message == TableMessage("h1", "text", (Button("Check", "h1|s1|check"),), "ann")


async def test_an_actions_buttons_are_made_only_when_read(service: Service) -> None:
    """Read from the table message itself (its buttons still a function, then made once): compiled, a patch of
    `render.action_buttons` would not reach `holdem_text`, which calls it directly."""
    await seat(service)
    dealt = await service.handle(PLACE, ANN, "/deal")
    assert dealt.table is not None and dealt.table.to_act is not None
    payload = press_label(dealt, "raise")
    raised = await service.press(PLACE, PLAYERS[dealt.table.to_act], payload)
    assert raised.table is not None
    assert callable(raised.table._buttons), "no button was made before the buttons were read"
    made = raised.table.buttons
    assert any(button.label == "Call 30" for button in made)
    assert raised.table.buttons is made, "the buttons are made once"


async def _play(tmp_path: Path, name: str, read_at_once: bool) -> list[tuple[str, str, tuple[Button, ...]]]:
    """A few hands played by the same script of commands; each table message's text and buttons, read as it comes
    or only after the whole run (when the live table has long moved on)."""
    store = await Store.open(tmp_path / f"{name}.db")
    service = await started_service(store, FakeClock(), seed=11)
    for actor in PLAYERS.values():
        assert (await service.handle(PLACE, actor, "/join 1000")).error is None
    script = random.Random(3)
    messages: list[TableMessage] = []
    reply = await service.handle(PLACE, ANN, "/deal")
    last = reply.table
    for _ in range(150):
        if reply.table is not None:
            last = reply.table
            messages.append(last)
            if read_at_once:
                assert last.text and last.buttons is not None
        assert last is not None
        if last.to_act is None:
            reply = await service.handle(PLACE, ANN, "/deal")
        else:
            command = script.choice(["/call", "/check", "/raise", "/fold", "/call", "/bet"])
            reply = await service.handle(PLACE, PLAYERS[last.to_act], command)
    await store.close()
    assert len({message.key for message in messages}) > 3, "several hands were played"
    return [(message.key, message.text, message.buttons) for message in messages]


async def test_table_messages_read_late_show_what_they_showed_when_made(tmp_path: Path) -> None:
    assert await _play(tmp_path, "late", read_at_once=False) == await _play(tmp_path, "now", read_at_once=True)
