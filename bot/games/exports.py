"""`/export`: the chat's records as CSV files sent privately to the organizer who asks — `/export ledger` (every
ledger row of the chat) and `/export tournament [N]` (a finished tournament's players and its settlement's transfers).

The files are UTF-8 with a byte-order mark (so spreadsheets read Cyrillic names right), comma-separated, headed in
the organizer's language (and so is each row's reason: the phrase for what the ledger stores, see `reason_text`); chips
are whole numbers, money has two decimals with a point (a spreadsheet's locale may
show it otherwise), times are in the chat's time zone (the one its tournaments use). Each column of chips sums to the
ledger's rows for it; each tournament player's net is what the transfers pay him (or he pays).
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from zoneinfo import ZoneInfo

from bot import commands as cmd
from bot.command_parser import whole_number
from bot.games.context import Action
from bot.games.zones import table_zone
from bot.output import File, Place
from bot.render import Voice
from bot.render.house import stake_label
from bot.store import Tx
from bot.store.pauses import tables_of_chat
from bot.store.played import LedgerEntry, TournamentRecord, chat_ledger, chat_tournaments
from engine.reasons import GRANT_BY, HOUSE_STAKES, Reason
from engine.tournament import Phase, Tournament

LEDGER_COLUMNS = ("time", "from", "to", "chips", "reason", "table", "hand", "from_player", "to_player")
PLAYER_COLUMNS = ("player", "place", "entries", "paid_in", "rebuys", "addons", "chips_bought", "pawned_items",
                  "pawned_chips", "bought_back", "cashed_out_chips", "cashed_out", "bounties", "net")
TRANSFER_COLUMNS = ("payer", "payee", "amount")
LEDGER_WORDS = ("ledger", "журнал")
TOURNAMENT_WORDS = ("tournament", "t", "турнир")
_FORMULA_STARTS = frozenset("=+-@\t\r")

LEDGER_REASONS: Mapping[Reason, str] = MappingProxyType({
    Reason.WELCOME_GRANT: "welcome_grant", Reason.PRACTICE_SEAT: "practice_seat", Reason.BUY_IN: "buy_in",
    Reason.CASH_OUT: "cash_out", Reason.TOP_UP: "top_up", Reason.HAND_VOIDED: "hand_voided",
    Reason.ROUND_VOIDED: "round_voided", Reason.KEPT: "kept", Reason.GIVEN_BACK: "given_back",
    Reason.SMALL_BLIND: "small_blind", Reason.BIG_BLIND: "big_blind", Reason.STRADDLE: "straddle",
    Reason.CALL: "call", Reason.BET: "bet", Reason.RAISE: "raise", Reason.UNCALLED_BET: "uncalled_bet",
    Reason.POT_WON: "pot_won", Reason.PAWN: "pawn", Reason.REDEEM: "redeem", Reason.UNREGISTER: "unregister",
    Reason.RE_ENTRY: "reentry", Reason.REBUY: "rebuy", Reason.ADD_ON: "addon", Reason.PAID_OUT: "paid_out",
    Reason.FEE_BUY: "fee_buy", Reason.FEE_EXCHANGE: "fee_exchange", Reason.FEE_RE_EXCHANGE: "fee_re_exchange",
    Reason.FEE_DEALER_GAME: "fee_dealer_game"})
"""Each reason the ledger stores (`engine.reasons.Reason`, which every move names) with its phrase
`export.reason.<key>`. A house box's stake lines are read apart (`HOUSE_STAKES`), and `grant by <id>` names the
organizer."""


def read_export(tx: Tx, place: Place, command: cmd.Command) -> Callable[[Action], None]:
    """Read what `/export` asks for (on the read-only connection); the answer, made in the table's transaction,
    refuses anyone but an organizer before anything is sent."""
    assert isinstance(command, cmd.Export)
    if command.what in LEDGER_WORDS and not command.argument:
        return functools.partial(_ledger, rows=chat_ledger(tx, place.chat_id),
                                 tables=tables_of_chat(tx, place.chat_id))
    if command.what in TOURNAMENT_WORDS:
        wanted = command.argument.strip().lstrip("#№")
        number = whole_number(wanted) if wanted else tx.last_tournament(place.table_id)
        if wanted and number is None:
            return _usage
        records = [record for record in chat_tournaments(tx, place.chat_id) if record.tournament_id == number]
        return functools.partial(_tournament, number=number, record=records[0] if records else None)
    return _usage


def _usage(act: Action) -> None:
    raise act.usage_refusal(cmd.Export.name, "usage.export")


def _check(act: Action) -> None:
    if not act.is_organizer:
        raise act.organizer_refusal("export.organizer_only")


def _ledger(act: Action, rows: list[LedgerEntry], tables: list[str]) -> None:
    _check(act)
    zone = ZoneInfo(table_zone(act))
    owners = functools.partial(_owner, chat_id=act.place.chat_id,
                               tables=sorted(tables, key=len, reverse=True))  # `a:b` before `a`
    with act.privately(act.user):
        written = Voice(act.voice.language, act.written_name)  # a grant's organizer named as the name columns are
        header = [act.t(f"export.column.{column}", zone=zone.key) for column in LEDGER_COLUMNS]
        name = f"ledger-{datetime.fromtimestamp(act.now, tz=zone):%Y-%m-%d}.csv"
        lines = [[datetime.fromtimestamp(row.at, tz=UTC).astimezone(zone).strftime("%Y-%m-%d %H:%M:%S"),
                  text_cell(row.source), text_cell(row.target), str(row.amount),
                  text_cell(reason_text(written, row)),
                  text_cell(row.table_id or ""), text_cell(row.hand_id or ""), _name(act, owners(row.source)),
                  _name(act, owners(row.target))] for row in rows]
        act.reply.files.append(File(name, csv_bytes(header, lines), to=act.user))
        act.tell(act.user, "export.ledger_sent", rows=len(rows), file=name)


def reason_text(voice: Voice, row: LedgerEntry) -> str:
    """A ledger row's reason as a phrase in the voice's language ("ANTE won", «выигрыш: АНТЕ», "kept for the bets
    to follow"); a reason it does not know (one an older version stored, a test's), as stored."""
    reason = row.reason
    stake, _, result = reason.rpartition("_")
    if result in ("won", "lost") and stake in HOUSE_STAKES:
        return voice.t("export.reason.stake_won" if result == "won" else "export.reason.stake_lost",
                       stake=stake_label(voice, stake))
    if reason in HOUSE_STAKES and row.target.startswith("box:"):  # Hold'em's `bet` goes to the pot
        return voice.t("export.reason.stake_placed", stake=stake_label(voice, reason))
    if reason.startswith(GRANT_BY):
        return voice.t("export.reason.grant_by", player=voice.name(reason.removeprefix(GRANT_BY)))
    try:
        known = Reason(reason)
    except ValueError:  # one an older version stored, or a test's
        return reason
    return voice.t(f"export.reason.{LEDGER_REASONS[known]}")


def _owner(account: str, chat_id: str, tables: list[str]) -> str | None:
    """The player whose account it is (his wallet, his stack at a table, his box), None for any other account."""
    kind, _, rest = account.partition(":")
    if kind == "wallet" and rest.startswith(f"{chat_id}:"):
        return rest.removeprefix(f"{chat_id}:")
    if kind in ("stack", "box"):
        for table_id in tables:
            if rest.startswith(f"{table_id}:"):
                owner = rest.removeprefix(f"{table_id}:")
                return owner.rsplit(":", 1)[0] if kind == "box" else owner  # `box:<table>:<player>:<n>`
    return None


def _name(act: Action, player: str | None) -> str:
    """A player's name as a cell ("" for no player)."""
    return "" if player is None else text_cell(act.written_name(player))


def _tournament(act: Action, number: int | None, record: TournamentRecord | None) -> None:
    _check(act)
    if number is None:
        raise act.refuse("export.no_tournament")
    if record is None:
        raise act.refuse("export.unknown_tournament", number=number)
    if record.status != Phase.FINISHED.value:
        raise act.refuse("export.unfinished", number=number)
    tournament = Tournament.from_dict(record.state)
    settlement = tournament.settle()
    places, _ = tournament.standings()
    config = tournament.config
    with act.privately(act.user):
        lines = []
        for row in settlement.rows:
            entrant = tournament.entrants[row.player]
            pawned = [item for item in tournament.items if item.owner == row.player]
            place = places.get(row.player)
            lines.append([
                _name(act, row.player), act.t("history.cashed_out") if place is None else str(place),
                str(1 + entrant.reentries), money_text(row.paid_in), str(entrant.rebuys), str(entrant.addons),
                str(entrant.buy_ins * config.chips), str(len(pawned)), str(sum(item.chips for item in pawned)),
                money_text(row.items_bought_back), str(entrant.cashed_out_chips), money_text(row.cashed_out),
                money_text(row.bounties), cents_text(row.net_cents)])
        transfers = [[_name(act, item.payer), _name(act, item.payee), cents_text(item.cents)]
                     for item in settlement.transfers]
        players, paid = f"tournament-{number}.csv", f"tournament-{number}-transfers.csv"
        act.reply.files.append(File(players, csv_bytes(_header(act, PLAYER_COLUMNS), lines), to=act.user))
        act.reply.files.append(File(paid, csv_bytes(_header(act, TRANSFER_COLUMNS), transfers), to=act.user))
        act.tell(act.user, "export.tournament_sent", number=number, players=players, transfers=paid)


def _header(act: Action, columns: Sequence[str]) -> list[str]:
    return [act.t(f"export.column.{column}") for column in columns]


def csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    """A CSV file's bytes: the header and the rows, UTF-8 with a byte-order mark."""
    text = io.StringIO(newline="")
    writer = csv.writer(text)
    writer.writerow(header)
    writer.writerows(rows)
    return text.getvalue().encode("utf-8-sig")


def text_cell(value: str) -> str:
    """Text a spreadsheet shows as written, never runs as a formula: a cell starting with `=`, `+`, `-`, `@`, a tab
    or a carriage return (a player may call himself `=HYPERLINK(…)`) gets a leading apostrophe, as OWASP advises
    against CSV injection. Numbers are written apart and keep their sign."""
    return f"'{value}" if value[:1] in _FORMULA_STARTS else value


def money_text(amount: Fraction) -> str:
    """Money units to the cent, with a point: 50/3 is "16.67", −3 is "-3.00"."""
    return cents_text(round(amount * 100))


def cents_text(cents: int) -> str:
    """Cents as money with two decimals and a point: 1250 is "12.50"."""
    return f"{Decimal(cents).scaleb(-2):.2f}"
