"""Two processes on one PostgreSQL database writing one chat's settings at once (first players' welcomes, /lang):
neither write loses the other's change; and the lock of the chat's row that keeps it so is taken once a welcome."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from bot.clock import FakeClock
from bot.output import Actor, Place, Reply
from bot.service import Service
from bot.service.players import welcome
from bot.store import Store, Tx, wallet_account
from bot.store.batch import NotingConnection
from tests.bot.conftest import PLACE
from tests.bot.test_shared_database import two_services

CHATS = [f"c{number}" for number in range(20)]
"""The chats of a test, each written by both processes at once: a lost write showed in about half of them."""


def place(chat: str, table: str) -> Place:
    """A table of its own in the chat for each process (a Discord server's two channels)."""
    return Place(chat, f"{chat}/{table}")


async def at_once(*commands: tuple[Service, str, Actor, str]) -> list[Reply]:
    """Each command (its service, the chat's table, who sends it, its text), sent at the same moment, in each chat
    of `CHATS` in turn (one chat at a time: in one batch of each process's store, the first chat's write held the
    other process's batch until it committed, so only that chat's transactions overlapped)."""
    replies: list[Reply] = []
    for chat in CHATS:
        replies += await asyncio.gather(*(
            service.handle(place(chat, table), Actor(f"{chat}-{actor.user_id}", actor.name, actor.language), text)
            for service, table, actor, text in commands))
    assert [reply.error for reply in replies] == [None] * len(replies)
    return replies


async def settings_of(service: Service, chat: str) -> dict[str, Any]:
    """The chat's settings as stored."""
    return await service.store.read(lambda tx: tx.chat_settings(chat))


async def two_anns_join(one: Service, two: Service) -> dict[str, str]:
    """Two players, both named Ann, one speaking English through `one`, one Russian through `two`, join each chat
    at once: per chat, the language of the one who came first (the chat reads him as the bare "Ann": the other's
    transaction saw his row)."""
    await at_once((one, "a", Actor("en", "Ann", "en"), "/join 200"), (two, "b", Actor("ru", "Ann", "ru"), "/join 200"))

    def first(tx: Tx, chat: str) -> str:
        return next(language for language in ("en", "ru") if tx.player_name(chat, f"{chat}-{language}") == "Ann")

    return {chat: await one.store.read(functools.partial(first, chat=chat)) for chat in CHATS}


async def test_the_first_two_players_of_new_chats_joining_at_once_leave_the_first_the_organizer(
        postgres_url: str) -> None:
    """Two players, both named Ann (one speaking English, one Russian), are the first of a new chat and join at once,
    one through each process: the one who came first organizes the chat, which speaks his language until /lang.
    This held before welcomes locked the chat's row too: the second transaction's insert of the new chat's row
    waits for the first's to commit, and only then reads the settings (a chat that has a row already: below)."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        for chat, first in (await two_anns_join(one, two)).items():
            settings = await settings_of(one, chat)
            assert settings == {"organizers": [f"{chat}-{first}"], "locale": first}, (chat, first, settings)
        assert await one.store.read(lambda tx: tx.check_ledger()) == []


async def test_two_players_choosing_their_own_languages_at_once_through_two_processes_keep_both(
        postgres_url: str) -> None:
    """Ann and Bob, both known in the chat, each choose their own language (/lang ru me, /lang en me) at the same
    moment, one through each process: both choices are kept, where the second write, built on settings read before
    the first was committed, replaced the chat's choices with its own alone."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        await at_once((one, "a", Actor("ann", "Ann"), "/join 200"), (two, "b", Actor("bob", "Bob"), "/join 200"))
        await at_once((one, "a", Actor("ann", "Ann"), "/lang ru me"), (two, "b", Actor("bob", "Bob"), "/lang en me"))
        for chat in CHATS:
            settings = await settings_of(one, chat)
            assert settings.get("private_languages") == {f"{chat}-ann": "ru", f"{chat}-bob": "en"}, (chat, settings)


async def test_a_chats_language_set_while_a_new_player_is_welcomed_through_another_process_keeps_both(
        postgres_url: str) -> None:
    """Bob, the chat's organizer (his platform said no language), sets the chat's language (/lang ru) through one
    process at the moment Cat, new, speaking English, joins through the other: the chat keeps Bob's language and
    the language Cat's welcome gave it for timers, and Bob stays its organizer."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        await at_once((one, "a", Actor("bob", "Bob"), "/join 200"))
        await at_once((one, "a", Actor("bob", "Bob"), "/lang ru"), (two, "b", Actor("cat", "Cat", "en"), "/join 200"))
        for chat in CHATS:
            settings = await settings_of(one, chat)
            assert settings == {"organizers": [f"{chat}-bob"], "language": "ru", "language_changes": 1,
                                "locale": "en"}, (chat, settings)


async def test_two_new_players_joining_a_chat_without_a_language_at_once_give_it_the_first_ones(
        postgres_url: str) -> None:
    """Bob organizes the chat, his platform said no language. Two new players, both named Ann (one speaking English,
    one Russian), join at once, one through each process: the chat takes the language of the one who came first
    (read as the bare "Ann": the other's transaction saw his row) for timers, not the second's, whose welcome
    read the settings before the first was committed."""
    clock = FakeClock()
    async with two_services(postgres_url, clock) as (one, two):
        await at_once((one, "a", Actor("bob", "Bob"), "/join 200"))
        for chat, first in (await two_anns_join(one, two)).items():
            settings = await settings_of(one, chat)
            assert settings == {"organizers": [f"{chat}-bob"], "locale": first}, (chat, first, settings)


async def test_a_new_players_welcome_locks_the_chats_row_once(postgres_url: str) -> None:
    """A player's welcome (his row, then the chat's organizer and language: `welcome`) locks the chat's row once and
    reads its settings under that lock, where it locked it to label him (`Tx.ensure_player`) and again to change
    the settings (`Tx.change_chat_settings`). The first player of a new chat locks nothing: the row his welcome makes
    is its own until it commits."""
    store = await Store.open(postgres_url)

    def welcomed(tx: Tx, actor: Actor) -> list[str]:
        tx.db = noted = NotingConnection(tx.db)
        welcome(tx, PLACE, actor, 1_000)
        return [sql for sql, _, _ in noted.statements if "FOR UPDATE" in sql]

    try:
        assert await store.transact(functools.partial(welcomed, actor=Actor("bob", "Bob", "ru")), now=1.0) == []
        assert await store.transact(functools.partial(welcomed, actor=Actor("cat", "Cat", "en")), now=2.0) == [
            "SELECT settings FROM chats WHERE chat_id = ? FOR UPDATE NOWAIT"]
        assert await store.read(lambda tx: tx.chat_settings(PLACE.chat_id)) == {"organizers": ["bob"], "locale": "ru"}
        assert await store.read(lambda tx: tx.balances(f"wallet:{PLACE.chat_id}:")) == {
            wallet_account(PLACE.chat_id, "bob"): 1_000, wallet_account(PLACE.chat_id, "cat"): 1_000}
    finally:
        await store.close()
