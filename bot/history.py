"""What was played: `/history` (hand histories in PokerStars format), `/stats` and the leaderboard's statistics."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bot import commands as cmd
from bot.command_parser import is_round_key, whole_number
from bot.games.context import Action
from bot.games.exports import TOURNAMENT_WORDS
from bot.i18n import Signed
from bot.output import File, Place
from bot.render import house, signed
from bot.render.pokerstars import RecordedHand, TournamentHand, export_hand, export_hands, is_one_hand
from bot.render.recorded import read_events
from bot.render.tournament import money
from bot.seasons import TournamentResult, results_of, was_played
from bot.statistics import PlayFigures, aggression_factor, percent
from bot.store import Tx, played
from engine.house import GAMES as HOUSE_GAMES
from engine.house.events import BoxCardsDealt, CardsDrawn
from engine.tournament import Tournament

log = logging.getLogger(__name__)

DAY = 86_400.0
DEFAULT_HANDS = 3
MAX_HANDS = 20

HandRecord = tuple[str, float, list[dict[str, Any]]]
"""A hand as `Tx.hand_records` reads it: its id, when it began, its events."""


Answer = Callable[[Action], None]
"""The second half of a read command: what it says, given what it read. It runs in the table's transaction (names,
wallets, refusals), while the reading itself was done on the store's read-only connection (`Store.query`), so no
table's commit waits for a slow read."""


def read_history(tx: Tx, place: Place, command: cmd.Command) -> Answer:
    """`/history [n]`: the table's last n hands and house rounds, privately, one message each, showing only the
    requester's hole cards (his boxes' cards) and the hands shown down; `/history tournament [N]`: the current or
    last tournament's hands (or those of tournament N, played at this table) as a file."""
    assert isinstance(command, cmd.History)
    argument = (command.argument or "").strip().lower()
    word, _, wanted = argument.partition(" ")
    if word in TOURNAMENT_WORDS:
        wanted = wanted.strip().lstrip("#№")
        tournament_id = whole_number(wanted) if wanted else tx.last_tournament(place.table_id)
        if wanted and tournament_id is None:
            return _usage
        if tournament_id is None:
            return _no_tournament
        if wanted and not tx.played_here(place.table_id, tournament_id):
            return functools.partial(_not_here, number=tournament_id)
        records = tx.hand_records(place.table_id, tx.tournament_hands(place.table_id, tournament_id))
        return functools.partial(_tournament_file, tournament_id=tournament_id,
                                 hands=_recorded(tx, place, records))
    count = whole_number(argument) if argument else DEFAULT_HANDS
    if count is None or count <= 0:
        return _usage
    finished = tx.finished_hands(place.table_id, min(count, MAX_HANDS), with_rounds=True)
    records = tx.hand_records(place.table_id, finished)
    return functools.partial(_show_hands, hands=_recorded(tx, place, records))


def _recorded(tx: Tx, place: Place, records: list[HandRecord]) -> list[tuple[str, RecordedHand]]:
    """The records as the exporter takes them, by id: a tournament's hand with its tournament's header."""
    played_in = tx.hands_tournaments(place.table_id, [hand_id for hand_id, _, _ in records])
    states = dict(played_in.values())  # one state per tournament, however many of its hands are asked for
    tournaments = {number: Tournament.from_dict(state) for number, state in states.items()}
    return [(hand_id, RecordedHand(events, at, place.table_id, None if hand_id not in played_in else
                                   tournament_hand(played_in[hand_id][0], tournaments[played_in[hand_id][0]], events)))
            for hand_id, at, events in records]


def tournament_hand(number: int, tournament: Tournament, events: list[dict[str, Any]]) -> TournamentHand | None:
    """A tournament's part of its hand's header: its number, its buy-in (the bounty apart) and the number of the
    level the hand was dealt at, as its `HandStarted` recorded it. None for a record that is not one whole hand."""
    if not is_one_hand(events):
        return None
    config = tournament.config
    parts = [config.stack_price, config.bounty] if config.bounty else [config.buy_in]
    recorded = events[0].get("level_number")
    number_of_level = int(recorded) if recorded is not None else _level_by_limit(tournament, int(events[0]["level"]))
    return TournamentHand(number, "+".join(str(money(part)) for part in parts), number_of_level)


def _level_by_limit(tournament: Tournament, limit: int) -> int:
    """The level of a hand recorded without its number (before `HandStarted.level_number`), guessed from its limit:
    the first level of the schedule with that limit (or, for a limit the schedule no longer has, the one after as
    many levels as there are lower limits)."""
    levels = tournament.clock.schedule.levels
    index = next((index for index, level in enumerate(levels) if level.limit == limit), None)
    if index is not None:
        return tournament.clock.schedule.level_number(index)
    return 1 + len({level.limit for level in levels if level.limit is not None and level.limit < limit})


def _usage(act: Action) -> None:
    raise act.usage_refusal(cmd.History.name, "usage.history")


def _no_tournament(act: Action) -> None:
    raise act.refuse("history.no_tournament")


def _not_here(act: Action, number: int) -> None:
    raise act.refuse("history.tournament_not_here", number=number)


def _show_hands(act: Action, hands: list[tuple[str, RecordedHand]]) -> None:
    """Each hand in PokerStars format, each house round as its story (`_round_text`), in the order they were
    played."""
    whole = {id(hand) for hand in _whole_hands(act, [item for item in hands if not is_round_key(item[0])])}
    shown = [(hand_id, hand) for hand_id, hand in hands if is_round_key(hand_id) or id(hand) in whole]
    if not shown:  # a house table plays rounds (DESIGN.md's names)
        raise act.refuse("history.no_rounds" if act.config["game"] in HOUSE_GAMES else "history.no_hands")
    for hand_id, hand in shown:
        act.reply.tell(act.user, _round_text(act, hand_id, hand.events) if is_round_key(hand_id)
                       else export_hand(hand, _names(act, [hand]), hero=act.user))


def _round_text(act: Action, round_id: str, events: Sequence[Mapping[str, Any]]) -> str:
    """A house round as its table told it, in the requester's language: its story's lines, with his own boxes'
    cards where they were dealt to him (no other box's cards but those its settlement showed)."""
    lines = []
    with act.privately(act.user):
        voice = act.voice
        lines.append(act.t("history.round", number=int(round_id.removeprefix("r"))))
        for event in read_events((*house.STORY_EVENTS, BoxCardsDealt, CardsDrawn), events):
            narration = house.narrate(voice, [event])
            lines += narration.lines
            lines += [act.t(told.key, **told.params) for told in narration.told if told.player == act.user]
    return "\n".join(lines)


def _tournament_file(act: Action, tournament_id: int, hands: list[tuple[str, RecordedHand]]) -> None:
    kept = _whole_hands(act, hands)
    if not kept:
        raise act.refuse("history.no_tournament_hands", number=tournament_id)
    text = export_hands(kept, _names(act, kept), hero=act.user)
    act.reply.files.append(File(f"tournament-{tournament_id}.txt", text.encode(), to=act.user))
    act.tell(act.user, "history.tournament_file", number=tournament_id, hands=len(kept))


def _whole_hands(act: Action, hands: list[tuple[str, RecordedHand]]) -> list[RecordedHand]:
    """The hands whose records are one hand each; any other (see `is_one_hand`) is left out, with a logged warning."""
    kept = []
    for hand_id, hand in hands:
        if is_one_hand(hand.events):
            kept.append(hand)
        else:
            log.warning("table %s: the history of %s is not one hand; left out of the export",
                        act.place.table_id, hand_id)
    return kept


def _names(act: Action, hands: list[RecordedHand]) -> dict[str, str]:
    players = {str(player) for hand in hands for player in hand.events[0]["players"]}
    return {player: act.written_name(player) for player in players}


# --- statistics -------------------------------------------------------------------------------------------------


@dataclass
class PlayerStats:
    """One player's record in a chat: his Hold'em figures (`bot.statistics`) and his results in the tournaments he
    played (a place, or None where he cashed out before the end; the money in cents)."""

    play: PlayFigures = field(default_factory=PlayFigures)
    tournaments: list[TournamentResult] = field(default_factory=list)


def chat_stats(tx: Tx, chat_id: str, since: float | None = None) -> dict[str, PlayerStats]:
    """Every player's statistics in the chat, from the hands and tournaments that ended at `since` or later (all of
    them when None). Hands pruned from the history (`pruned_stats`) count by the UTC day they ended on: with `since`,
    those of `since`'s day and later (see `played.pruned_counts`); those pruned before their day was kept, only in
    the statistics of all time."""
    stats: dict[str, PlayerStats] = {}
    for user, figures in played.chat_figures(tx, chat_id, since).items():
        stats.setdefault(user, PlayerStats()).play.add(figures)
    for user, counts in played.pruned_counts(tx, chat_id, since).items():
        stats.setdefault(user, PlayerStats()).play.add(PlayFigures(**counts))
    for record in played.chat_tournaments(tx, chat_id):
        for result in results_of(record):
            if since is None or result.finished_at.timestamp() >= since:
                stats.setdefault(result.player, PlayerStats()).tournaments.append(result)
    return stats


def read_stats(tx: Tx, place: Place, command: cmd.Command) -> Answer:
    """`/stats [player] [30d|all]`: a player's statistics (yours by default), over the last days or all time, in
    the channel."""
    assert isinstance(command, cmd.Stats)
    since = None if command.days is None else tx.now - command.days * DAY
    return functools.partial(show_stats, command=command, stats=chat_stats(tx, place.chat_id, since))


def show_stats(act: Action, command: cmd.Stats, stats: dict[str, PlayerStats]) -> None:
    """Say one player's lines of `stats` (the chat's statistics as read): his hands, his cash games' chips and his
    tournaments, each part left out when he played none of it (one line saying so when he played nothing)."""
    user = act.user
    if command.player:
        user = act.player_named(command.player)
    mine = stats.get(user, PlayerStats())
    play = mine.play
    period = "" if command.days is None else act.t("history.period", days=command.days)
    if not play.hands_played and not mine.tournaments:
        act.say("history.stats_none", player=act.name(user), period=period)
        return
    first = act.t("history.stats_hands", player=act.name(user), period=period, played=play.hands_played,
                  won=play.hands_won)
    # a tournament's hands count 0 in these chips: a player with neither put no chip into a cash game's pot
    if play.net or play.biggest_pot:
        first += " · " + act.t("history.stats_cash", net=signed(play.net), biggest=play.biggest_pot)
    lines = [first]
    if play.hands_played:
        lines.append(act.t("history.stats_play", vpip=_percent(act, play.vpip, play.hands_played),
                           pfr=_percent(act, play.pfr, play.hands_played), aggression=_aggression(play),
                           showdown=_percent(act, play.showdowns, play.saw_flop),
                           showdown_won=_percent(act, play.showdowns_won, play.showdowns)))
    if mine.tournaments:
        places = [result.place for result in mine.tournaments]
        shown = ", ".join(act.t("history.cashed_out") if place is None else act.t("history.place", place=place)
                          for place in places)
        lines.append(act.t("history.stats_tournaments", tournaments=len(places), places=shown,
                           wins=places.count(1),
                           money=_signed_money(sum(result.net_cents for result in mine.tournaments))))
    act.say_text("\n".join(lines))


def _percent(act: Action, part: int, whole: int) -> str:
    value = percent(part, whole)
    return "—" if value is None else act.t("history.percent", percent=value)


def _aggression(play: PlayFigures) -> object:
    value = aggression_factor(play)
    if value is None:
        return "∞" if play.postflop_aggressive else "—"
    return value


def read_top(tx: Tx, place: Place, command: cmd.Command) -> Answer:
    """`/top`: the chat's leaderboard, in the channel: net chips won or lost in its cash games (wallet, cash tables
    and house games, against the grants received), then, apart, the tournaments' net results in money."""
    cash = tx.cash_results(place.chat_id)
    tournaments = tournament_results(tx.finished_tournaments(place.chat_id))
    return functools.partial(_show_top, cash=cash, tournaments=tournaments)


def tournament_results(states: list[dict[str, Any]]) -> dict[str, int]:
    """Per player, his net money over the finished tournaments `states`, in cents: what their settlements say (of
    those played: see `was_played`)."""
    results: dict[str, int] = {}
    for tournament in map(Tournament.from_dict, states):
        if not was_played(tournament):
            continue
        for row in tournament.settle().rows:
            results[row.player] = results.get(row.player, 0) + row.net_cents
    return results


def _show_top(act: Action, cash: dict[str, int], tournaments: dict[str, int]) -> None:
    """The cash games' leaderboard ("—" when nobody played them yet), left out when only tournaments were played;
    then the tournaments' one, when any finished."""
    if cash or not tournaments:
        act.say("top", lines="\n".join(top_lines(act, cash, signed)) or "—")
    if tournaments:
        act.say("history.top_tournaments", lines="\n".join(top_lines(act, tournaments, _signed_money)))


def top_lines(act: Action, results: dict[str, int], show: Callable[[int], object], limit: int = 10) -> list[str]:
    """The best `limit` of `results` (a net per player), best first, each as `show` writes his net."""
    ranked = sorted(results.items(), key=lambda item: (-item[1], item[0]))[:limit]
    return [act.t("history.top_line", place=place, player=act.name(user), chips=show(net))
            for place, (user, net) in enumerate(ranked, start=1)]


def _signed_money(cents: int) -> Signed:
    return Signed(money(Fraction(cents, 100)))
