"""What a paused table keeps of the texts Telegram dropped for it: its last few public ones, from its pause on."""

from __future__ import annotations

from bot.telegram.lost import LostTexts
from bot.telegram.ops import DocumentOp, PhotoOp, TextOp, public_texts

TABLE = "tg:-100500:7"


def test_a_paused_table_keeps_its_last_five_dropped_texts_oldest_first() -> None:
    lost = LostTexts()
    lost.begin([TABLE])
    for number in range(1, 8):
        lost.keep(TABLE, f"text {number}")
    assert lost.take(TABLE) == ["text 3", "text 4", "text 5", "text 6", "text 7"]
    assert lost.take(TABLE) == [], "shown once"


def test_a_new_pause_forgets_the_texts_kept_from_an_earlier_one() -> None:
    lost = LostTexts()
    lost.keep(TABLE, "Bob wins 40")
    lost.begin([TABLE])
    lost.keep(TABLE, "Level 2 in 5 minutes")
    assert lost.take(TABLE) == ["Level 2 in 5 minutes"]


def test_only_public_texts_are_kept_of_what_was_dropped() -> None:
    dropped = [
        TextOp(-100500, 7, "Bob wins 40"),
        TextOp(-100500, 7, "Your cards: As Kd", private_to=102),
        PhotoOp(-100500, 7, b"png", "Hand #1 · showdown", text="Showdown — Bob wins 40"),
        PhotoOp(101, None, b"png", "Your cards", private_to=101, text="Your cards: As Kd"),
        DocumentOp(-100500, 7, "history.csv", b"1"),
    ]
    assert [op.text for op in public_texts(dropped)] == ["Bob wins 40", "Showdown — Bob wins 40"]
