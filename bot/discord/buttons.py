"""Table-message buttons whose custom ids carry the table and the hand, so they work on any message, even after a
restart, without registering a view per message."""

from __future__ import annotations

import re
from typing import Any, Protocol

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
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=button.label[:80], custom_id=custom_id(channel_id, button), style=style, row=index // BUTTONS_PER_ROW
        )
        view.add_item(TableButton(item))
    return view


def release(view: discord.ui.View | discord.ui.LayoutView) -> None:
    """Let go of a view once the request that carried it is made: its buttons refer to it and it to them, a reference
    cycle that only a full collection frees (`bot.collector`, half a second at 10,000 tables); cleared, the view and
    its buttons go as soon as nothing holds them. discord.py keeps no view whose buttons are all `TableButton`s."""
    view.clear_items()


def unclaimed(interaction: discord.Interaction) -> tuple[int, bool, str] | None:
    """(channel id, whether it is the private kind, payload) of a press of a table button that discord.py hands to no
    `TableButton`, else None. discord.py looks for the pressed custom id among the components of the message as
    Discord sent it with the press (`ViewStore.schedule_dynamic_item_call`), which is the message as it is now: a
    button the bot has since taken off it (the hand moved on while the member's client still showed it) is found
    nowhere, and the press would go unanswered ("This interaction failed")."""
    if interaction.type != discord.InteractionType.component or interaction.data is None:
        return None
    custom_id = interaction.data.get("custom_id")
    if not isinstance(custom_id, str) or (match := TEMPLATE.fullmatch(custom_id)) is None:
        return None
    message = interaction.message
    if message is not None and _carries(message, interaction.data.get("component_type"), custom_id):
        return None  # discord.py hands it to a `TableButton`
    return _parsed(match)


def _carries(message: discord.Message, component_type: object, custom_id: str) -> bool:
    """Whether the message holds the component as discord.py looks for it (its type and custom id)."""
    if message.flags.components_v2:  # (the bot draws none such) walked as discord.py walks them
        items: Any = discord.ui.LayoutView.from_message(message, timeout=None).walk_children()
    else:  # action rows of components: what `View.from_message` makes its items of
        items = (child for row in message.components for child in getattr(row, "children", (row,)))
    return any(item.type.value == component_type and getattr(item, "custom_id", None) == custom_id for item in items)


def _parsed(match: re.Match[str]) -> tuple[int, bool, str]:
    return int(match["channel"]), match["kind"] == PRIVATE, match["payload"]


class PressHandler(Protocol):
    """What a button press is handed to (the adapter, reached through the client): the buttons need nothing else of
    it, so they do not import it and the adapter's imports point one way."""

    async def on_press(self, interaction: discord.Interaction, channel_id: int, private: bool, payload: str) -> None:
        """Apply a press of a table button."""


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """Any table button on any message: the press goes to the service, which decides whether its hand is over."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @property
    def parsed(self) -> tuple[int, bool, str]:
        """(channel id, whether it is the private kind, payload) from the custom id."""
        match = TEMPLATE.fullmatch(self.item.custom_id or "")
        assert match is not None
        return _parsed(match)

    @classmethod
    async def from_custom_id(  # type: ignore[override]
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        adapter: PressHandler = interaction.client.adapter  # type: ignore[attr-defined]
        channel_id, private, payload = self.parsed
        try:
            await adapter.on_press(interaction, channel_id, private, payload)
        finally:  # the view discord.py made from the pressed message for this press alone
            if self.view is not None:
                release(self.view)
