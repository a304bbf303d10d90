"""Telegram's send budget: at most so many requests in any rolling window, per chat and for the whole bot (each a
`Window`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.pacing import Window


@dataclass(frozen=True)
class Limits:
    """How many sends and edits Telegram accepts: per group, per private chat, and per bot (count, seconds).

    `time_scale` divides every window (a test or a benchmark against a fake Bot API on the same fast clock)."""

    group: tuple[int, float] = (20, 60.0)
    private: tuple[int, float] = (1, 1.0)
    bot: tuple[int, float] = (30, 1.0)
    time_scale: float = 1.0
    group_burst: int = 3
    """How many requests a group may be sent back to back; beyond them its budget is spread evenly over the minute
    (see `Window`), so a busy table is shown every few seconds instead of in a burst followed by a long silence."""
    hold: float = 2.5
    """Seconds a table state that found the group's budget spent may wait for a newer state to go with it."""
    notice_wait: float = 6.0
    """Seconds a notice (a text, a picture, a new table message) may be overtaken by edits of the table message."""

    def window(self, chat_id: int) -> Window:
        """A new window for one chat (a group or channel has a negative id, a private chat a positive one)."""
        if chat_id < 0:
            return Window(self.group[0], self.group[1] / self.time_scale, self.group_burst)
        return Window(self.private[0], self.private[1] / self.time_scale)

    def bot_window(self) -> Window:
        """The window every request of the bot shares."""
        return Window(self.bot[0], self.bot[1] / self.time_scale)
