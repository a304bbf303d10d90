"""What was played: `/history` (hand histories in PokerStars format), `/stats` and the leaderboard's statistics."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from bot import commands as cmd
from bot.games.context import Action
from bot.output import File
from bot.render import signed
from bot.render.pokerstars import RecordedHand, export_hand, export_hands, is_one_hand

log = logging.getLogger(__name__)

DEFAULT_HANDS = 3
MAX_HANDS = 20


def show_history(act: Action, command: cmd.History) -> None:
    """`/history [n]`: the table's last n hands, privately, one message each, showing only the requester's hole
    cards and the hands shown down; `/history tournament`: the current or last tournament's hands as a file."""
    argument = (command.argument or "").strip().lower()
    if argument in ("tournament", "t", "турнир"):
        _tournament_file(act)
        return
    count = cmd.whole_number(argument) if argument else DEFAULT_HANDS
    if count is None or count <= 0:
        raise act.refuse("parse.usage", command=cmd.History.name, usage=cmd.History.usage)
    count = min(count, MAX_HANDS)
    hand_ids = act.tx.finished_hands(act.place.table_id, count)
    records = _whole_hands(act, act.tx.hand_records(act.place.table_id, hand_ids))
    if not records:
        raise act.refuse("history.no_hands")
    for _, at, events in records:
        hand = RecordedHand(events, at, act.place.table_id)
        act.reply.tell(act.user, export_hand(hand, _names(act, events), hero=act.user))


def _tournament_file(act: Action) -> None:
    tournament_id = act.tx.last_tournament(act.place.table_id)
    if tournament_id is None:
        raise act.refuse("history.no_tournament")
    hand_ids = act.tx.tournament_hands(act.place.table_id, tournament_id)
    records = _whole_hands(act, act.tx.hand_records(act.place.table_id, hand_ids))
    if not records:
        raise act.refuse("history.no_tournament_hands", number=tournament_id)
    events = [event for _, _, hand_events in records for event in hand_events]
    hands = [RecordedHand(hand_events, at, act.place.table_id) for _, at, hand_events in records]
    text = export_hands(hands, _names(act, events), hero=act.user)
    act.reply.files.append(File(f"tournament-{tournament_id}.txt", text.encode(), to=act.user))
    act.tell(act.user, "history.tournament_file", number=tournament_id, hands=len(records))


def _whole_hands(act: Action, records: list[tuple[str, float, list[dict[str, Any]]]]
                 ) -> list[tuple[str, float, list[dict[str, Any]]]]:
    """The records that are one hand each; any other (see `is_one_hand`) is left out, with a logged warning."""
    kept = []
    for record in records:
        if is_one_hand(record[2]):
            kept.append(record)
        else:
            log.warning("table %s: the history of %s is not one hand; left out of the export",
                        act.place.table_id, record[0])
    return kept


def _names(act: Action, events: list[dict[str, object]]) -> dict[str, str]:
    players = {str(player) for event in events if event.get("kind") == "HandStarted"
               for player in event["players"]}  # type: ignore[attr-defined]
    return {player: act.name(player) for player in players}


# --- statistics -------------------------------------------------------------------------------------------------


@dataclass
class PlayerStats:
    """One player's record in a chat: Hold'em hands played and won, net chips over them, the most chips collected in
    one hand, and his finishing places in tournaments."""

    hands_played: int = 0
    hands_won: int = 0
    net: int = 0
    biggest_pot: int = 0
    places: list[int] = field(default_factory=list)


def chat_stats(act: Action) -> dict[str, PlayerStats]:
    """Every player's statistics in the action's chat, computed from the history rows."""
    stats: dict[str, PlayerStats] = {}
    for user, (played, net) in act.tx.hand_totals(act.place.chat_id).items():
        stats.setdefault(user, PlayerStats()).hands_played, stats[user].net = played, net
    for user, (won, biggest) in act.tx.hand_wins(act.place.chat_id).items():
        stats.setdefault(user, PlayerStats()).hands_won, stats[user].biggest_pot = won, biggest
    for user, places in act.tx.tournament_places(act.place.chat_id).items():
        stats.setdefault(user, PlayerStats()).places = places
    return stats


def show_stats(act: Action, command: cmd.Stats) -> None:
    """`/stats [@player]`: a player's statistics (yours by default), in the channel."""
    user = act.user
    if command.player:
        found = act.tx.find_player(act.place.chat_id, command.player)
        if found is None:
            raise act.refuse("unknown_player", player=command.player)
        user = found
    mine = chat_stats(act).get(user, PlayerStats())
    places = ", ".join(str(place) for place in mine.places) or "—"
    act.say("history.stats", player=act.name(user), played=mine.hands_played, won=mine.hands_won,
            net=signed(mine.net), biggest=mine.biggest_pot, tournaments=len(mine.places), places=places,
            wins=mine.places.count(1))


def top_lines(act: Action, limit: int = 10) -> list[str]:
    """The leaderboard: wallets first (the order), with each player's hands won and net chips at Hold'em."""
    prefix = f"wallet:{act.place.chat_id}:"
    wallets = sorted(act.tx.balances(prefix).items(), key=lambda item: (-item[1], item[0]))[:limit]
    stats = chat_stats(act)
    lines = []
    for place, (account, chips) in enumerate(wallets, start=1):
        user = account.removeprefix(prefix)
        mine = stats.get(user, PlayerStats())
        line = act.t("history.top_line", place=place, player=act.name(user), chips=chips)
        if mine.hands_played:
            line += act.t("history.top_hands", won=mine.hands_won, played=mine.hands_played, net=signed(mine.net))
        lines.append(line)
    return lines
