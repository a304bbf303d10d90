"""What the tournament's bank takes in pawn (RULES.md §1): any piece of clothing, but no socks, belts, jewellery,
accessories or watches, recognised by word and stem in English and Russian.

The refused kinds are data: per kind, a frozen set of stems. A word of the item's description names a refused kind
when it is one of the stems followed by nothing or by an inflectional ending (`ENDINGS`): "watch", "watches",
"часы", "часов", "серёжки", "Rolex". A stem is matched as a whole word, never inside another, so "belted coat",
"cape" (not "cap"), "watchman's coat" and "ringer T-shirt" are clothing. English compounds written as one word
("smartwatch", "earrings", "sunglasses") are stems of their own; hyphenated ones ("смарт-часы") are two words.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.common import RuleError

__all__ = ["ENDINGS", "FORBIDDEN_PAWN_KINDS", "PawnRules", "item_words", "refused_word"]

FORBIDDEN_PAWN_KINDS: Mapping[str, frozenset[str]] = MappingProxyType({
    "socks": frozenset({
        "sock", "stocking", "носок", "носк", "носочек", "носочк", "гольф",
    }),
    "belts": frozenset({
        "belt", "waistbelt", "sash", "suspender", "brace",
        "ремень", "ремн", "ремешок", "ремешк", "пояс", "поясок", "пояск", "кушак", "подтяжк", "подтяжек",
    }),
    "jewellery": frozenset({
        "jewel", "jewelry", "jewellery", "ring", "earring", "necklace", "bracelet", "bangle", "anklet", "pendant",
        "locket", "chain", "brooch", "choker", "tiara", "pearl", "piercing",
        "украшени", "бижутери", "драгоценност", "кольц", "колец", "колечк", "колечек", "перстень", "перстн",
        "цеп", "цепочк", "цепочек", "серьг", "серег", "сережк", "сережек", "браслет", "кулон", "кулончик",
        "ожерель", "ожерели", "колье", "брош", "брошк", "брошек", "подвеск", "подвесок", "жемчуг",
        "пирсинг", "диадем",
    }),
    "accessories": frozenset({
        "accessory", "accessories", "tie", "necktie", "bowtie", "tiepin", "cufflink", "clip", "pin",
        "sunglass", "glass", "eyeglass", "spectacle", "hat", "cap", "beanie", "beret", "fedora", "bandana",
        "headband", "bag", "handbag", "purse", "wallet", "backpack", "umbrella", "keychain", "keyring",
        "аксессуар", "галстук", "бабочк", "запонк", "запонок", "зажим", "заколк", "заколок", "булавк",
        "булавок", "очк", "очочк", "шляп", "шляпк", "шляпок", "кепк", "кепок", "шапк", "шапок", "шапочк",
        "шапочек", "панам", "панамк", "панамок", "берет", "бейсболк", "бейсболок", "бандан", "сумк", "сумок",
        "сумочк", "сумочек", "кошелек", "кошельк", "бумажник", "рюкзак", "зонт", "зонтик", "брелок", "брелк",
    }),
    "watches": frozenset({
        "watch", "wristwatch", "smartwatch", "stopwatch", "pocketwatch", "timepiece", "iwatch", "rolex", "casio",
        "swatch", "seiko", "tissot", "omega", "breitling", "patek", "fitbit",
        "час", "часик", "смартчас", "ролекс", "касио", "свотч", "сейко", "тиссот", "омег", "фитбит",
    }),
})
"""Kinds of items the bank refuses, each a frozen set of stems (lower case, Russian with е for ё). A tie, a hat,
a bag or sunglasses are accessories; a scarf, gloves or a hoodie are clothing and accepted."""

ENDINGS: tuple[str, ...] = (
    "", "s", "es",  # English plurals ("'s" is a word of its own once the apostrophe splits it)
    "а", "я", "о", "е", "ы", "и", "у", "ю", "ь", "й", "ой", "ей", "ом", "ем", "ам", "ям", "ами", "ями", "ах",
    "ях", "ов", "ев", "ью",  # Russian cases and numbers
)
"""What may follow a stem in a word that names it: the inflections of English and Russian nouns."""


def item_words(description: str) -> list[str]:
    """The words of an item's description, lower case, ё read as е; anything but a letter or digit separates."""
    text = unicodedata.normalize("NFC", description).casefold().replace("ё", "е")
    return "".join(char if char.isalnum() else " " for char in text).split()


def refused_word(word: str, forbidden: Mapping[str, frozenset[str]] = FORBIDDEN_PAWN_KINDS) -> str | None:
    """The refused kind that `word` (from `item_words`) names, or None: a stem of the kind plus one of `ENDINGS`."""
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            stem = word[: len(word) - len(ending)]
            for kind, stems in forbidden.items():
                if stem in stems:
                    return kind
    return None


@dataclass(frozen=True, slots=True)
class PawnRules:
    """The chips an item is worth and the kinds refused (data, not branches)."""

    value: int = 100
    forbidden: Mapping[str, frozenset[str]] = field(default_factory=lambda: FORBIDDEN_PAWN_KINDS)

    def verify_item(self, item: str) -> None:
        """Raise RuleError unless the item may be pawned: a description is required (`pawn_item_missing`), and no
        word of it may name a refused kind (`pawn_item_forbidden`, naming the kind and the word)."""
        words = item_words(item) if isinstance(item, str) else []  # anything but text describes nothing
        if not words:
            raise RuleError("pawn_item_missing", "describe the item you pawn")
        for word in words:
            kind = refused_word(word, self.forbidden)
            if kind is not None:
                raise RuleError("pawn_item_forbidden", f"{word!r} cannot be pawned ({kind} are not accepted)",
                                kind=kind, word=word, item=" ".join(item.split()))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form: the refused kinds only when they are not the standard ones (every hand's snapshot
        holds its rules, and the standard list is long)."""
        data: dict[str, Any] = {"value": self.value}
        if self.forbidden != FORBIDDEN_PAWN_KINDS:
            data["forbidden"] = {kind: sorted(stems) for kind, stems in self.forbidden.items()}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PawnRules:
        """Rebuild from `to_dict` (a snapshot without refused kinds uses the standard ones)."""
        forbidden = data.get("forbidden")
        if forbidden is None:
            return cls(data["value"])
        return cls(data["value"], MappingProxyType({kind: frozenset(stems) for kind, stems in forbidden.items()}))
