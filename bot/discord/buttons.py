"""Table-message buttons whose custom ids carry the table and the hand, so they work on any message, even after a
restart, without registering a view per message."""

from __future__ import annotations

import re
from typing import Protocol

import discord

from bot.i18n import text
from bot.output import Button, TableMessage

PREFIX = "poker"
CUSTOM_ID_LIMIT = 100
PUBLIC, PRIVATE = "a", "p"
"""Button kinds: an action for the table, or the "my cards" kind answered privately with the player's view."""

TEMPLATE = re.compile(rf"{PREFIX}:(?P<channel>[0-9]{{1,20}}):(?P<kind>[{PUBLIC}{PRIVATE}]):(?P<payload>.+)")
BUTTONS_PER_ROW, ROWS = 5, 5


def custom_id(channel_id: int, button: Button) -> str:
    """`poker:<channel>:<kind>:<key>|<command>`: the table, the hand (in the payload) and what the press does."""
    value = f"{PREFIX}:{channel_id}:{PRIVATE if button.private else PUBLIC}:{button.payload}"
    if len(value) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long: {value!r}")
    return value


def my_cards_button(message: TableMessage, language: str) -> Button:
    """The "my cards" button the adapter adds when the service drew none."""
    return Button(text(language, "button.my_cards"), f"{message.key}|cards", private=True)


def table_view(channel_id: int, message: TableMessage, language: str) -> discord.ui.View:
    """The buttons of a table message, in rows of five, the private kind last and grey."""
    buttons = list(message.buttons)
    if (buttons or message.to_act) and not any(button.private for button in buttons):
        buttons.append(my_cards_button(message, language))
    view = discord.ui.View(timeout=None)
    for index, button in enumerate(buttons[: BUTTONS_PER_ROW * ROWS]):
        style = discord.ButtonStyle.secondary if button.private else discord.ButtonStyle.primary
        if button.payload.endswith(("|fold", "|leave")):
            style = discord.ButtonStyle.danger
        elif "|pre " in button.payload:  # a choice for later, by the players not yet to act
            style = discord.ButtonStyle.secondary
        view.add_item(TableButton(label=button.label[:80], custom_id=custom_id(channel_id, button), style=style,
                                  row=index // BUTTONS_PER_ROW))
    return view


def release(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """Let go of a view once the request that carried it is made: its buttons refer to it and it to them, a reference
    cycle that only a full collection frees (`bot.collector`, half a second at 10,000 tables); cleared, the view and
    its buttons go as soon as nothing holds them. discord.py keeps no view of `TableButton`s (`is_dispatchable`)."""
    view.clear_items()


def pressed(interaction: discord.Interaction) -> tuple[int, bool, str] | None:
    """(channel id, whether it is the private kind, payload) of a press of a table button, else None: read from
    its custom id alone, whatever the message carries now (a button the bot has since taken off it, the hand having
    moved on while the member's client still showed it, is answered as an old hand's)."""
    if interaction.type != discord.InteractionType.component or interaction.data is None:
        return None
    custom_id = interaction.data.get("custom_id")
    if not isinstance(custom_id, str) or (match := TEMPLATE.fullmatch(custom_id)) is None:
        return None
    return int(match["channel"]), match["kind"] == PRIVATE, match["payload"]


class PressHandler(Protocol):
    """What a button press is handed to (the adapter, reached through the client): the buttons need nothing else of
    it, so they do not import it and the adapter's imports point one way."""

    async def on_press(self, interaction: discord.Interaction, channel_id: int, private: bool, payload: str) -> None:
        """Apply a press of a table button."""


class TableButton(discord.ui.Button[discord.ui.View]):
    """A table button as sent, which discord.py is not to dispatch: it then keeps no view of ours (it stores a sent
    view holding a dispatchable item, by message) and, for a press, makes none from the pressed message's buttons to
    look for the pressed one (it did for every press of a registered dynamic item, and dropped the view in a
    reference cycle with its buttons when it found none: a press of a button the message no longer carries). Every
    press of a table button reaches the adapter through the client's `on_interaction` instead (`pressed`)."""

    def is_dispatchable(self) -> bool:
        """Not for discord.py's view store (see the class)."""
        return False
