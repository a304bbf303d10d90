"""A tournament's pawned items (RULES.md §1): pawning an item in a hand, redeeming it between hands, the items held.

A pawned item is a loan from the bank. The bank holds the item and the player's stack grows by its value in chips;
between hands he may redeem it by paying those chips back; otherwise he buys it back at the rate when he cashes out or
at the end (100 chips at 6 per unit = 50/3 units, exactly; `engine.tournament_end`). The Hold'em table adds the chips
to the stack and its pawn event carries that chip move; `record_pawn` records the item and the debt and carries no
move, so the ledger counts the chips once. Ask `verify_pawn` (or `can_pawn`) before letting the table add the chips.
Items count against the limit when pawned, even if redeemed later (the rules are silent).
"""

from __future__ import annotations

from engine.common import Event, IllegalAmount, Move, RuleError, allowed
from engine.holdem_types import PawnRules
from engine.reasons import Reason
from engine.tournament_entries import Entries
from engine.tournament_events import PawnRecorded, PawnRedeemed
from engine.tournament_types import BANK, ItemStatus, PawnedItem

__all__ = ["Pawns"]


class Pawns(Entries):
    """Pawning, redeeming and listing items, as part of a `Tournament`."""

    def verify_pawn(self, player: str, description: str | None = None, value: int | None = None) -> None:
        """Raise unless `player` may pawn an item (the description and value are checked when given)."""
        self._verify_playing(player)
        pawned = sum(item.owner == player for item in self.items)
        if pawned >= self.config.max_pawns:
            raise RuleError("too_many_pawns", f"at most {self.config.max_pawns} items per player",
                            limit=self.config.max_pawns)
        if value is not None and value != self.config.pawn_chips:
            raise IllegalAmount("pawn_value", f"an item is worth {self.config.pawn_chips} chips, not {value}",
                                chips=value, value=self.config.pawn_chips)
        if description is not None:
            PawnRules().verify_item(description)  # the same rules (and refusals) as pawning in the hand

    def can_pawn(self, player: str, description: str | None = None, value: int | None = None) -> bool:
        """Whether `player` may pawn an item (this one, when described)."""
        return allowed(self.verify_pawn, player, description, value)

    def record_pawn(self, player: str, description: str, value: int, hand_number: int) -> list[Event]:
        """Record an item pawned in a hand for `value` chips: the bank holds it and the owner owes its price."""
        self.verify_pawn(player, description, value)
        item = PawnedItem(len(self.items) + 1, player, description.strip(), value, hand_number)
        self.items.append(item)
        self.chips_in_play += value
        return [PawnRecorded(item_id=item.item_id, owner=player, description=item.description, chips=value,
                           hand_number=hand_number, price=self.config.to_money(value))]

    def verify_redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> None:
        """Raise unless `player` owns held item `item_id` (and, when his `stack` is given, has more than its chips).

        A redemption never takes his last chip (RULES.md is silent; a card room sells nothing that would bust a player
        between hands): a player with no chips is out, and an elimination belongs to the end of a hand, not to a
        purchase between hands. Paying back his whole stack would leave him seated at 0 (neither out nor able to post
        a blind); he keeps the item in pawn instead, bought back at the rate when he cashes out or at the end
        (RULES.md §1), which moves the same value: a cash-out with exactly the item's chips pays for it. Both
        refusals say so, the short one with his stack."""
        self._verify_playing(player)
        item = self._item(item_id)
        if item is None or item.owner != player or item.status is not ItemStatus.HELD:
            raise RuleError("no_such_item", "you have no pawned item with that number", item_id=item_id)
        if stack is not None and stack < item.chips:
            raise IllegalAmount("short_stack", f"redeeming it costs {item.chips} chips and you have {stack}; it stays "
                                "in pawn and is bought back at the rate when you cash out or at the end",
                                chips=item.chips, stack=stack)
        if stack is not None and stack == item.chips:
            raise IllegalAmount("redeem_last_chips", f"redeeming it would take all your {stack} chips; it stays in "
                                "pawn and is bought back at the rate when you cash out or at the end", chips=stack)

    def held_items(self, player: str) -> list[PawnedItem]:
        """The items `player` has pawned and not yet redeemed or bought back, by number."""
        return [item for item in self.items if item.owner == player and item.status is ItemStatus.HELD]

    def can_redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> bool:
        """Whether `redeem_pawn` is allowed."""
        return allowed(self.verify_redeem_pawn, player, item_id, stack=stack)

    def redeem_pawn(self, player: str, item_id: int, *, stack: int | None = None) -> list[Event]:
        """Between hands: the owner pays the item's chips back to the bank and has it again."""
        self.verify_redeem_pawn(player, item_id, stack=stack)
        item = self._item(item_id)
        assert item is not None
        item.status = ItemStatus.REDEEMED
        self.chips_in_play -= item.chips
        return [PawnRedeemed(item_id=item_id, owner=player, description=item.description, chips=item.chips,
                             moves=(Move(f"stack:{player}", BANK, item.chips, Reason.REDEEM),))]

    # --- helpers ---------------------------------------------------------------------------------------------------

    def _item(self, item_id: int) -> PawnedItem | None:
        """The pawned item with that number, None when there is none."""
        return next((item for item in self.items if item.item_id == item_id), None)
