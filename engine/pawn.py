"""What the tournament's bank takes in pawn (RULES.md §1): any piece of clothing, but no socks, belts, jewellery,
accessories or watches, recognised by meaning in English and Russian: by word and stem, by phrase, and by which word
of a phrase is the thing itself.

The refused kinds are data: per kind, a frozen set of stems. A word of the item's description names a refused kind
when it is one of the stems followed by nothing or by an inflectional ending (`ENDINGS`): "watch", "watches",
"часы", "часов", "серёжки", "Rolex". A stem is matched as a whole word, never inside another, so "belted coat",
"cape" (not "cap"), "watchman's coat" and "ringer T-shirt" are clothing. English compounds written as one word
("smartwatch", "earrings", "sunglasses") are stems of their own; a stem of several words is a phrase, matched word by
word, each with its ending, so "cuff links", "cuff-links", "Ray-Bans" and "wedding band" are refused while "cuff" or
"band" alone are not.

A description may name several things ("a shirt and a watch", «рубашка, часы»): it is read as phrases, split at
listing punctuation and at the words that join two things (`JOINING_WORDS`), and every phrase is checked. In a
phrase, a refused word that only describes a piece of clothing does not refuse it: when the phrase ends in a garment
word (`GARMENTS`), that word is the head noun and what comes before it a modifier, as in English and in a Russian
adjective before its noun ("tie-dye shirt", "Pearl Jam T-shirt", "chain-stitch sweater"); a refused word at the end
is the thing itself ("shirt clip", "silk tie"). A Russian garment named after its head in Latin letters («футболка
Pearl Jam», «куртка Harley Davidson») is that garment: a band's or a brand's name, as on its label. Any other Russian
noun after its head (a genitive, a name in Cyrillic) is not told apart from a second thing: such a phrase is refused,
the bank's choice when in doubt.

A few refused words also name something else (`UNCLEAR_STEMS`: «котелок» is a bowler hat or a pot, "panama" a hat or
the country, "diamond" a jewel or a card's suit). Where such a word is the only refused one, nothing is taken and
the player is asked what he means (`pawn_item_unclear_*`: it reads as a hat, which is refused; if he means something
else, to name it otherwise); a phrase that also names the refused kind plainly ("bowler hat") is refused as usual.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.common import RuleError
from engine.text import log_quote, quote_input

__all__ = ["ENDINGS", "FORBIDDEN_PAWN_KINDS", "GARMENTS", "JOINING_WORDS", "LISTING_MARKS", "UNCLEAR_STEMS",
           "PawnRules", "is_garment", "item_phrases", "item_words", "names_garment", "refused_at", "refused_word",
           "unclear_sense"]

FORBIDDEN_PAWN_KINDS: Mapping[str, frozenset[str]] = MappingProxyType({
    "socks": frozenset({
        "sock", "stocking", "носок", "носк", "носочек", "носочк", "гольф", "чулок", "чулк",
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
        "пирсинг", "диадем", "бус",
        "wedding band", "tiffany", "cartier", "swarovski", "тиффани", "картье", "сваровски",
        "medallion", "amulet", "cameo", "diamond", "signet", "медальон", "амулет", "бриллиант", "печатк", "печаток",
        "крестик",
    }),
    "accessories": frozenset({
        "accessory", "accessories", "tie", "necktie", "bowtie", "tiepin", "cufflink", "clip", "pin",
        "sunglass", "glass", "eyeglass", "spectacle", "hat", "cap", "beanie", "beret", "fedora", "bandana",
        "headband", "bag", "handbag", "purse", "wallet", "backpack", "umbrella", "keychain", "keyring",
        "аксессуар", "галстук", "бабочк", "запонк", "запонок", "зажим", "заколк", "заколок", "булавк",
        "булавок", "очк", "очочк", "шляп", "шляпк", "шляпок", "кепк", "кепок", "шапк", "шапок", "шапочк",
        "шапочек", "панам", "панамк", "панамок", "берет", "бейсболк", "бейсболок", "бандан", "сумк", "сумок",
        "сумочк", "сумочек", "кошелек", "кошельк", "бумажник", "рюкзак", "зонт", "зонтик", "брелок", "брелк",
        "значок", "значк", "sunnies", "aviator",
        "cuff link", "shades", "rayban", "ray ban", "oakley", "рэйбан", "рейбан", "рэй бэн", "рей бен",
        # hats by their own names
        "ushanka", "sombrero", "stetson", "trilby", "bowler", "panama", "bonnet", "toque", "tuque", "snapback",
        "visor", "fez", "ушанк", "кепи", "треуголк", "фуражк", "фуражек", "тюбетейк", "тюбетеек", "папах",
        "картуз", "цилиндр", "котелок", "котелк", "сомбреро",
        # for the hair and the eyes
        "hairpin", "hairclip", "hairband", "scrunchie", "monocle", "lorgnette", "goggle", "ободок", "ободк",
        "монокл", "пенсне", "лорнет",
    }),
    "watches": frozenset({
        "watch", "wristwatch", "smartwatch", "stopwatch", "pocketwatch", "timepiece", "iwatch", "rolex", "casio",
        "swatch", "seiko", "tissot", "omega", "breitling", "patek", "fitbit",
        "час", "часик", "смартчас", "ролекс", "касио", "свотч", "сейко", "тиссот", "омег", "фитбит",
        "g shock", "gshock", "garmin", "amazfit", "heuer", "longines", "hublot", "audemars", "panerai",
        "вотч", "айвотч", "смартвотч", "джи шок", "гармин", "амазфит", "лонжин", "хублот", "патек", "панерай",
        "одемар",
        # a fitness band is a watch by another name
        "fitness tracker", "fitness band", "smart band", "smartband", "mi band", "фитнес трекер", "ми бэнд",
        "ми бенд",
    }),
})
"""Kinds of items the bank refuses, each a frozen set of stems (lower case, Russian with е for ё); a stem of several
words, separated by spaces, is a phrase. A tie, a hat, a bag or sunglasses are accessories; a scarf, gloves or a
hoodie are clothing and accepted."""

GARMENTS: frozenset[str] = frozenset({
    "shirt", "tshirt", "tee", "blouse", "top", "sweater", "jumper", "pullover", "cardigan", "sweatshirt", "hoodie",
    "jacket", "blazer", "coat", "overcoat", "raincoat", "waistcoat", "parka", "anorak", "vest", "suit", "tuxedo",
    "dress", "gown", "skirt", "trousers", "pants", "jeans", "shorts", "leggings", "tracksuit", "pyjamas", "pajamas",
    "robe", "shoe", "boot", "sneaker", "trainer", "loafer", "sandal", "slipper", "glove", "mitten", "scarf", "scarv",
    "рубашк", "рубах", "футболк", "майк", "блузк", "блуз", "свитер", "джемпер", "пуловер", "кардиган", "свитшот",
    "толстовк", "худи", "кофт", "водолазк", "куртк", "пиджак", "пальт", "плащ", "пуховик", "парк", "ветровк",
    "жилет", "жилетк", "костюм", "смокинг", "плать", "юбк", "брюк", "штан", "джинс", "шорт", "легинс", "лосин",
    "пижам", "халат", "ботинк", "ботинок", "сапог", "сапожк", "туфл", "кроссовк", "кроссовок", "кед",
    "сандали", "тапк", "тапочк", "перчатк", "перчаток", "варежк", "варежек", "шарф",
})
"""Stems of pieces of clothing (as `FORBIDDEN_PAWN_KINDS` writes them): at the end of a phrase such a word is the
thing pawned, and a refused word before it only describes it ("tie-dye shirt", "chain-stitch sweater")."""

UNCLEAR_STEMS: Mapping[str, str] = MappingProxyType({
    "котелок": "hat", "котелк": "hat", "цилиндр": "hat", "bowler": "hat", "panama": "hat", "diamond": "jewel",
})
"""Refused stems (of `FORBIDDEN_PAWN_KINDS`) that also name something else, with what they are read as: a pot, a
cylinder, a cricketer, a country, a card's suit or a pattern. Alone, such a word is asked about, not refused."""

JOINING_WORDS: frozenset[str] = frozenset({"and", "with", "or", "plus", "и", "с", "со", "или", "плюс"})
"""Words that join two things in a description ("a shirt with cufflinks", «рубашка и часы»): a phrase ends at them."""

LISTING_MARKS = ",;/&+()[]|"
"""Punctuation that lists things in a description: a phrase ends at it (a hyphen or an apostrophe joins words)."""

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


def item_phrases(description: str) -> list[list[str]]:
    """The description as phrases that each name one thing, every one a list of its words (as `item_words` reads
    them): split at listing punctuation (`LISTING_MARKS`) and at joining words (`JOINING_WORDS`)."""
    phrases: list[list[str]] = [[]]
    for part in description.translate({ord(mark): "\n" for mark in LISTING_MARKS}).split("\n"):
        for word in item_words(part):
            if word in JOINING_WORDS:
                phrases.append([])
            else:
                phrases[-1].append(word)
        phrases.append([])
    return [phrase for phrase in phrases if phrase]


def _stems(word: str) -> Iterator[str]:
    """What `word` may be a stem of: itself less each of `ENDINGS` it ends with (never nothing)."""
    for ending in ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            yield word[: len(word) - len(ending)]


def refused_word(word: str, forbidden: Mapping[str, frozenset[str]] = FORBIDDEN_PAWN_KINDS) -> str | None:
    """The refused kind that `word` (from `item_words`) names, or None: a stem of the kind plus one of `ENDINGS`."""
    for stem in _stems(word):
        for kind, stems in forbidden.items():
            if stem in stems:
                return kind
    return None


def refused_at(words: Sequence[str], start: int,
               forbidden: Mapping[str, frozenset[str]] = FORBIDDEN_PAWN_KINDS) -> tuple[str, int] | None:
    """The refused kind that the words from `start` on name, and how many of them name it: a phrase of stems ("cuff
    link" for "cuff links", each word with one of `ENDINGS`), else the one word (`refused_word`); None if neither."""
    for kind, stems in forbidden.items():
        for stem in stems:
            parts = stem.split()
            following = words[start:start + len(parts)]
            if len(parts) > 1 and len(following) == len(parts) and all(  # no `in` of a generator compiled
                    any(found == part for found in _stems(word)) for part, word in zip(parts, following, strict=True)):
                return kind, len(parts)
    single = refused_word(words[start], forbidden)
    return None if single is None else (single, 1)


def unclear_sense(word: str) -> str | None:
    """What a refused `word` is read as when it may also name something else (`UNCLEAR_STEMS`), else None."""
    return next((UNCLEAR_STEMS[stem] for stem in _stems(word) if stem in UNCLEAR_STEMS), None)


def is_garment(word: str) -> bool:
    """Whether `word` names a piece of clothing: a stem of `GARMENTS` plus one of `ENDINGS`."""
    return any(stem in GARMENTS for stem in _stems(word))


def names_garment(words: Sequence[str]) -> bool:
    """Whether a phrase (from `item_phrases`) is one piece of clothing: it ends in a garment word, its head noun, or
    it is a Russian garment word followed by a name in Latin letters («футболка Pearl Jam»). An English phrase
    that begins with a garment keeps its last word as the thing ("shirt clip")."""
    if is_garment(words[-1]):
        return True
    head, *name = words
    return bool(name) and not head.isascii() and is_garment(head) and all(word.isascii() for word in name)


def _unclear(sense: str, *, kind: str, word: str, item: str) -> RuleError:
    """The question put about a refused word that may mean something else, by what it is read as."""
    message = f"{log_quote(word)} reads as a {sense}, which is not accepted: say what it is"
    if sense == "hat":
        return RuleError("pawn_item_unclear_hat", message, kind=kind, word=word, item=item)
    return RuleError("pawn_item_unclear_jewel", message, kind=kind, word=word, item=item)


@dataclass(frozen=True, slots=True)
class PawnRules:
    """The chips an item is worth and the kinds refused (data, not branches)."""

    value: int = 100
    forbidden: Mapping[str, frozenset[str]] = field(default_factory=lambda: FORBIDDEN_PAWN_KINDS)

    def verify_item(self, item: str) -> None:
        """Raise RuleError unless the item may be pawned: a description is required (`pawn_item_missing`), and no
        phrase of it may name a refused kind, unless it names a piece of clothing (`names_garment`);
        `pawn_item_forbidden` names the kind and the words. When the only refused words are ones that may mean
        something else (`unclear_sense`), `pawn_item_unclear_<sense>` (hat, jewel) asks about the first of them."""
        phrases = item_phrases(item) if isinstance(item, str) else []  # anything but text describes nothing
        if not phrases:
            raise RuleError("pawn_item_missing", "describe the item you pawn")
        unclear: RuleError | None = None
        for words in phrases:
            if names_garment(words):
                continue  # a piece of clothing, whatever describes or names it
            for start in range(len(words)):
                found = refused_at(words, start, self.forbidden)
                if found is None:
                    continue
                kind, count = found
                word = " ".join(words[start:start + count])
                sense = unclear_sense(word) if count == 1 else None
                if sense is None:
                    raise RuleError("pawn_item_forbidden",
                                    f"{log_quote(word)} cannot be pawned ({kind} are not accepted)",
                                    kind=kind, word=quote_input(word), item=quote_input(item))
                unclear = unclear or _unclear(sense, kind=kind, word=quote_input(word), item=quote_input(item))
        if unclear is not None:
            raise unclear

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
