"""The send budget and one chat's queue on a fake clock: a busy group paced evenly, table states held for a newer
one, edits before notices, a picture taking the text before it as its caption."""

from __future__ import annotations

from itertools import pairwise

from bot.output import TableMessage
from bot.pacing import Window
from bot.telegram.budget import Limits
from bot.telegram.ops import ChatQueue, PhotoOp, TableOp, TextOp

GROUP = -100500


def sends_under_steady_demand(window: Window, seconds: float) -> list[float]:
    """When a group with something always waiting is sent each request (answered at once)."""
    sent, now = [], 0.0
    while now < seconds:
        while window.wait(now) <= 0:
            window.start()
            window.finish(now)
            sent.append(now)
        now = round(now + 0.01, 2)
    return sent


def busiest_minute(stamps: list[float]) -> int:
    return max(sum(1 for other in stamps if stamp <= other < stamp + 60) for stamp in stamps)


def test_a_busy_group_is_sent_a_request_every_few_seconds_not_a_burst_then_a_silent_minute() -> None:
    sent = sends_under_steady_demand(Limits().window(GROUP), 180)
    assert sent[:3] == [0.0, 0.0, 0.0]  # an idle group answers a burst at once
    gaps = [later - earlier for earlier, later in pairwise(sent[2:])]
    assert max(gaps) <= 60 / 18 + 0.02, "never a long silence"
    assert busiest_minute(sent) <= 20  # and never more than Telegram accepts
    assert len(sent) >= 20 * 3 - 1


def test_without_a_burst_the_window_is_the_plain_rolling_limit() -> None:
    private = Limits().window(1)
    assert private.wait(0.0) == 0
    private.start()
    assert private.wait(0.0) == float("inf")  # one in flight: wait for its answer
    private.finish(0.5)
    assert private.wait(1.0) == 0.5


def table(key: str = "h1", text: str = "Bob checks", to_act: str | None = "tg:1", version: int = 0,
          repost: bool = False, announced: bool = False) -> TableOp:
    return TableOp("tg:-100500:0", GROUP, None, TableMessage(key, text, (), to_act), "en", version, repost=repost,
                   announced=announced)


def spent_queue() -> ChatQueue:
    """A group's queue whose budget was just spent (three requests back to back at 0 s, the burst)."""
    window = Limits().window(GROUP)
    for _ in range(3):
        window.start()
        window.finish(0.0)
    return ChatQueue(GROUP, window, hold=2.5, notice_wait=6.0, is_edit=lambda op: op.message.key == "h1")


def test_a_table_state_that_found_the_budget_spent_waits_for_a_newer_one_to_go_with() -> None:
    queue = spent_queue()
    queue.add_table(table(text="Bob checks"), now=1.0)
    assert queue.ready_in(1.0) > 0  # the budget is spent: it missed its turn
    freed = 60 / 18
    assert queue.ready_in(freed) == 1.0 + 2.5 - freed, "held: a newer state is likely to come"
    queue.add_table(table(text="Bob checks · Cat bets"), now=3.5)
    assert queue.ready_in(3.5) == 0  # it came: sent at once, carrying both actions
    sent = queue.take(3.5)
    assert isinstance(sent, TableOp) and sent.message.text == "Bob checks · Cat bets" and sent.since == 1.0


def test_a_table_state_queued_after_a_newer_one_of_its_hand_is_left_out() -> None:
    """A turn timer's reply waits for its chat while a press that came meanwhile is answered first: the timer's
    state (produced first, version 1) is queued after the press's (version 2), and must not replace it."""
    queue = spent_queue()
    queue.add_table(table(text="Ann folds · Bob wins 30", to_act=None, version=2), now=1.0)
    queue.add_table(table(text="Ann is using the time bank", version=1), now=1.1)
    assert [op.message.text for op in queue.ops] == ["Ann folds · Bob wins 30"]  # type: ignore[union-attr]
    assert queue.settled, "the newest state queued has nobody to act still"
    queue.add_table(table(text="Ann folds · Bob wins 30 · Bob shows", to_act=None, version=3), now=1.2)
    assert [op.message.text for op in queue.ops] == ["Ann folds · Bob wins 30 · Bob shows"]  # type: ignore[union-attr]


def test_a_table_asked_for_is_still_posted_anew_when_a_state_of_its_hand_joins_it() -> None:
    """`/table` posts the table anew below: the state that says so coalesces with the others of its hand, older
    or newer, and the one that goes is posted anew."""
    for first, second in ((table(version=1, repost=True), table(text="Cat bets", version=2)),
                          (table(text="Cat bets", version=2), table(version=1, repost=True))):
        queue = spent_queue()
        queue.add_table(first, now=1.0)
        queue.add_table(second, now=1.1)
        [op] = queue.ops
        assert isinstance(op, TableOp) and op.message.text == "Cat bets" and op.repost


def test_a_held_state_goes_when_its_hold_ran_out_and_a_final_state_is_not_held() -> None:
    queue = spent_queue()
    queue.add_table(table(), now=1.0)
    queue.ready_in(1.0)
    assert queue.ready_in(3.5) == 0  # 2.5 s after it was queued: no newer one came
    queue.take(3.5)
    final = spent_queue()
    final.add_table(table(to_act=None), now=1.0)  # nobody is to act: no newer state is coming soon
    final.ready_in(1.0)
    assert final.ready_in(60 / 18) == 0


def test_an_edit_goes_before_a_notice_queued_ahead_of_it_until_the_notice_waited_too_long() -> None:
    queue = ChatQueue(GROUP, Limits().window(GROUP), hold=2.5, notice_wait=6.0,
                      is_edit=lambda op: op.message.key == "h1")
    queue.add_text(TextOp(GROUP, None, "Level 2: blinds 20/40"), now=0.0)
    queue.add_table(table(), now=0.0)
    assert isinstance(queue.take(0.0), TableOp), "the edit moves no message: it goes first"
    queue.add_table(table(text="Cat folds"), now=6.0)
    assert isinstance(queue.take(6.0), TextOp), "the notice waited 6 s: its turn"
    assert isinstance(queue.take(6.0), TableOp)
    queue.add_text(TextOp(GROUP, None, "Showdown"), now=7.0)
    queue.add_table(table(key="h2"), now=7.0)
    assert isinstance(queue.take(7.0), TextOp), "a new table message stays after the text before it"


def test_an_edit_that_shows_an_announcement_goes_after_it_and_one_without_still_goes_first() -> None:
    """"Bob sits down" and the table showing his seat: read in that order, in the turns of the budget the two took
    before (the edit first); a showdown's picture and the table's end likewise. A notice the edit does not show the
    effect of (another topic's) is still passed, at once."""
    queue = ChatQueue(GROUP, Limits().window(GROUP), hold=2.5, notice_wait=6.0,
                      is_edit=lambda op: op.message.key == "h1")
    queue.add_text(TextOp(GROUP, None, "Bob sits down with 200 chips."), now=0.0)
    queue.add_table(table(text="Ann · Bob", to_act=None, announced=True), now=0.0)
    assert queue.ready_in(0.0) == 0
    assert [type(queue.take(0.0)), type(queue.take(0.0))] == [TextOp, TableOp]
    # a showdown's picture whose result went on its own (too long for its caption): the table's end after it
    queue.add(PhotoOp(GROUP, None, b"png", "Hand #1 · showdown"), now=1.0)
    queue.add_text(TextOp(GROUP, 7, "Dan sits down."), now=1.0)  # another forum topic's: another table's
    queue.add_table(table(text="Ann · Bob", to_act=None, announced=True), now=1.0)
    assert isinstance(queue.take(1.0), PhotoOp), "the picture of its place goes first"
    assert isinstance(queue.take(1.0), TableOp), "nothing ahead for its place: it goes before the other topic's"
    queue.add_text(TextOp(GROUP, None, "Level 2: blinds 20/40"), now=2.0)
    queue.add_table(table(text="Ann · Bob · Cat"), now=2.0)
    assert isinstance(queue.take(2.0), TableOp), "no announcement of its own: it goes first, as before"


def test_a_newer_state_with_an_announcement_goes_after_the_texts_queued_since_the_state_it_replaces() -> None:
    """Bob's seat waits; Cat sits down: Cat's line is queued, then the state showing both replaces Bob's. It goes
    after Cat's line (last), not where Bob's state waited; a state without an announcement replaces in place."""
    queue = ChatQueue(GROUP, Limits().window(GROUP), hold=2.5, notice_wait=6.0,
                      is_edit=lambda op: op.message.key == "h1")
    queue.add_table(table(text="Ann · Bob", to_act=None, version=1, announced=True), now=0.0)
    queue.add_text(TextOp(GROUP, None, "cat sits down with 200 chips."), now=0.1)
    queue.add_table(table(text="Ann · Bob · Cat", to_act=None, version=2, announced=True), now=0.1)
    assert [type(op) for op in queue.ops] == [TextOp, TableOp]
    assert [type(queue.take(0.1)), type(queue.take(0.1))] == [TextOp, TableOp]
    queue.add_table(table(text="Ann calls", version=3), now=0.2)
    queue.add_text(TextOp(GROUP, None, "@bob, open a private chat with me"), now=0.2)  # the press's pointer
    queue.add_table(table(text="Ann calls · Bob folds", version=4), now=0.3)
    assert [type(op) for op in queue.ops] == [TableOp, TextOp], "no announcement: the state stays where it waited"
    assert queue.take(0.3).message.text == "Ann calls · Bob folds"  # type: ignore[union-attr]


def test_a_picture_takes_the_text_queued_just_before_it_as_its_caption() -> None:
    queue = ChatQueue(GROUP, Limits().window(GROUP))
    queue.add_text(TextOp(GROUP, None, "Showdown — Bob wins 80"), now=0.0)
    queue.add(PhotoOp(GROUP, None, b"png", "Hand #1 · showdown"), now=0.0)
    assert len(queue.ops) == 1
    photo = queue.ops[0]
    assert isinstance(photo, PhotoOp) and photo.text == "Showdown — Bob wins 80"
    private = ChatQueue(GROUP, Limits().window(GROUP))
    private.add_text(TextOp(GROUP, None, "x" * 1020), now=0.0)
    private.add(PhotoOp(GROUP, None, b"png", "Hand #1 · showdown"), now=0.0)
    assert len(private.ops) == 2, "too long for a caption: the text stays a message of its own"


def test_a_settled_hand_goes_when_the_minutes_count_allows_not_at_the_spread_pace() -> None:
    """Once nobody is to act (the hand is over) no newer action is coming to share the budget with: its last state
    and the picture after it go as soon as Telegram's 20 a minute allow, not a spread step later. A state with
    someone to act still waits its step, and the window's count still binds a settled table."""
    playing = spent_queue()
    playing.add_table(table(to_act="tg:1"), now=0.5)
    assert playing.ready_in(0.5) > 2  # the spread's next step
    settled = spent_queue()
    settled.add_table(table(text="Ann wins 40", to_act=None), now=0.5)
    settled.add(PhotoOp(GROUP, None, b"png", "Ann wins"), now=0.5)
    assert settled.ready_in(0.5) == 0
    assert settled.take(0.5).message.to_act is None  # type: ignore[union-attr]
    full = Limits().window(GROUP)
    for second in range(20):
        full.start()
        full.finish(float(second))
    assert full.wait(20.0, spread=False) == 40.0  # the oldest of the 20 leaves the window at 60 s
