"""A home Hold'em tournament: entrants, buy-ins, cash-outs, eliminations, pawned items, its clock, and the settlement.

The tournament's bank is the counterparty of every buy-in and cash-out: players pay the buy-in in money units and get
chips at the rate; before the start a player may unregister, the chips going back to the bank and the buy-in to him (he
is then no entrant at all); cashing out (between hands, once, for good) turns chips back into money at the same rate.
The chips of a hand move between stacks inside the Hold'em table; this object only counts the chips in play (issued by
the bank, not yet returned), so that at the end the remaining stacks must add up to exactly that. At the end the bank is
empty, and each player's net is cashed out - paid in - items bought back; the settlement says who pays whom.

`Tournament` is assembled from its parts, each in its own module with the choices it makes where the rules are
silent: its state, summary and saved form (`engine.tournament_state`); entries: registration, the start, late
registration, re-entry, rebuys and add-ons (`engine.tournament_entries`); pawned items (`engine.tournament_pawns`);
leaving and the end: cash-outs, eliminations, bounties, the close, the standings and the settlement
(`engine.tournament_end`). Its vocabulary is `engine.tournament_types` (config, entrants, items) and
`engine.tournament_events`; every name is importable from here too. The parts are one chain of classes, each the
base of the next in that order (state, entries, pawns, end), since compiled code (`bot.compiled`) takes single
inheritance only. The schedule must have a break for rebuys, add-ons or re-entry (their period ends at it).
"""

from __future__ import annotations

from engine.tournament_end import Ending
from engine.tournament_events import (
    AddonsReopened,
    BountyCollected,
    ItemBoughtBack,
    PawnRecorded,
    PawnRedeemed,
    PlayerAddedOn,
    PlayerCashedOut,
    PlayerEliminated,
    PlayerRebought,
    PlayerReentered,
    PlayerRegistered,
    PlayerUnregistered,
    RebuysReopened,
    TournamentFinished,
    TournamentStarted,
)
from engine.tournament_types import (
    BANK,
    Entrant,
    EntrantStatus,
    ItemStatus,
    PawnedItem,
    Phase,
    TournamentConfig,
    TournamentSummary,
    first_break,
)

__all__ = [  # the tournament and the vocabulary it speaks (re-exported from tournament_types and tournament_events)
    "BANK",
    "AddonsReopened",
    "BountyCollected",
    "Entrant",
    "EntrantStatus",
    "ItemBoughtBack",
    "ItemStatus",
    "PawnRecorded",
    "PawnRedeemed",
    "PawnedItem",
    "Phase",
    "PlayerAddedOn",
    "PlayerCashedOut",
    "PlayerEliminated",
    "PlayerRebought",
    "PlayerReentered",
    "PlayerRegistered",
    "PlayerUnregistered",
    "RebuysReopened",
    "Tournament",
    "TournamentConfig",
    "TournamentFinished",
    "TournamentStarted",
    "TournamentSummary",
    "first_break",
]


class Tournament(Ending):
    """The tournament's state and every action on it; each action is a verify / can / do triad returning events."""
