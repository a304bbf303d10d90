"""What the bank takes in pawn (RULES.md §1): clothing yes; socks, belts, jewellery, accessories and watches no, by word
and stem in English and Russian."""

import pytest

from engine.common import RuleError
from engine.pawn import FORBIDDEN_PAWN_KINDS, GARMENTS, PawnRules, item_phrases, item_words, refused_word

ACCEPTED = [
    # English
    "jacket", "leather jacket", "Denim Jacket", "shirt", "my lucky shirt", "T-shirt", "trousers", "sweater",
    "wool sweater", "shoes", "running shoes", "coat", "my grandfather's coat", "belted coat", "cape",
    "capri pants", "jeans", "hoodie", "scarf", "gloves", "blazer", "waistcoat", "cardigan", "boots", "dress",
    "skirt", "shorts", "raincoat", "tuxedo", "ringer T-shirt", "watchman's coat", "chainmail", "PYJAMAS",
    "silk blouse", "tracksuit",
    # Russian, with inflections and capitals
    "куртка", "кожаная куртка", "куртку", "Рубашка", "рубашку", "брюки", "брюками", "свитер", "шерстяной свитер",
    "ботинки", "ботинок", "пальто", "джинсы", "пиджак", "футболка", "юбка", "платье", "шорты", "толстовка",
    "кроссовки", "сапоги", "туфли", "перчатки", "варежки", "шарф", "плащ", "пуховик", "водолазка", "кофта",
    "жилет", "костюм", "дедушкин пиджак", "носовой платок", "халат",
    # a refused word describing a piece of clothing, before it (the head noun): a pattern, a band, a stitch
    "tie-dye shirt", "Pearl Jam T-shirt", "chain-stitch sweater", "band T-shirt", "wedding dress", "pearl-grey coat",
    "шерстяной свитер", "кожаную куртку", "aviator jacket",
    # a Russian garment named after it in Latin letters: a band's or a brand's name, as on its label
    "футболка Pearl Jam", "футболку Pearl Jam", "куртка Harley Davidson", "худи Swatch",
]

REFUSED = [
    # watches
    ("smartwatch", "watches"), ("Rolex", "watches"), ("Apple Watch", "watches"), ("gold watch", "watches"),
    ("my grandfather's Rolex", "watches"), ("two WATCHES", "watches"), ("wristwatch", "watches"),
    ("Casio", "watches"), ("часы", "watches"), ("Часы Casio", "watches"), ("смарт-часы", "watches"),
    ("пара часов", "watches"), ("ролекс", "watches"), ("золотые часики", "watches"),
    # jewellery
    ("necklace", "jewellery"), ("earrings", "jewellery"), ("silver ring", "jewellery"), ("gold chain", "jewellery"),
    ("bracelet", "jewellery"), ("pearls", "jewellery"), ("jewellery", "jewellery"), ("ожерелье", "jewellery"),
    ("серьги", "jewellery"), ("серёжки", "jewellery"), ("сережки", "jewellery"), ("пара серёжек", "jewellery"),
    ("кольцо", "jewellery"), ("обручальное колечко", "jewellery"), ("золотая цепочка", "jewellery"),
    ("браслеты", "jewellery"), ("кулон", "jewellery"), ("брошь", "jewellery"),
    # accessories
    ("cufflinks", "accessories"), ("tie clip", "accessories"), ("sunglasses", "accessories"), ("hat", "accessories"),
    ("baseball cap", "accessories"), ("silk tie", "accessories"), ("Bow Tie", "accessories"),
    ("glasses", "accessories"), ("wallet", "accessories"), ("запонки", "accessories"),
    ("зажим для галстука", "accessories"), ("солнцезащитные очки", "accessories"), ("шляпа", "accessories"),
    ("шляпу", "accessories"), ("кепка", "accessories"), ("кепку", "accessories"), ("шапка", "accessories"),
    ("галстук", "accessories"), ("очков", "accessories"), ("бейсболка", "accessories"),
    # socks and belts
    ("socks", "socks"), ("wool socks", "socks"), ("a Sock", "socks"), ("носки", "socks"), ("шерстяные носки", "socks"),
    ("носок", "socks"), ("пару носков", "socks"), ("belt", "belts"), ("leather belt", "belts"), ("ремень", "belts"),
    ("кожаный ремень", "belts"), ("ремнём", "belts"), ("пояс", "belts"),
]


def test_the_table_is_long_enough() -> None:
    assert len(ACCEPTED) >= 40 and len(REFUSED) >= 40
    assert {kind for _, kind in REFUSED} == set(FORBIDDEN_PAWN_KINDS)


@pytest.mark.parametrize("item", ACCEPTED)
def test_clothing_is_accepted(item: str) -> None:
    PawnRules().verify_item(item)


@pytest.mark.parametrize(("item", "kind"), REFUSED)
def test_socks_belts_jewellery_accessories_and_watches_are_refused(item: str, kind: str) -> None:
    with pytest.raises(RuleError) as refused:
        PawnRules().verify_item(item)
    assert refused.value.code == "pawn_item_forbidden"
    assert refused.value.params["kind"] == kind
    assert refused.value.params["word"] in item_words(item)


BY_MEANING = [
    # phrases, hyphenated or not, and names of brands (RULES.md §1: by meaning, not by exact words)
    ("cuff links", "accessories", "cuff links"), ("cuff-links", "accessories", "cuff links"),
    ("shades", "accessories", "shades"), ("Ray-Bans", "accessories", "ray bans"),
    ("wedding band", "jewellery", "wedding band"), ("G-Shock", "watches", "g shock"), ("Garmin", "watches", "garmin"),
    ("эпл вотч", "watches", "вотч"),
    # the same kinds in the other language, and the brands and nicknames friends use for them
    ("чулки", "socks", "чулки"), ("пара чулок", "socks", "чулок"), ("бусы", "jewellery", "бусы"),
    ("жемчужные бусы", "jewellery", "бусы"), ("значок", "accessories", "значок"), ("sunnies", "accessories", "sunnies"),
    ("aviators", "accessories", "aviators"), ("Hublot", "watches", "hublot"), ("Хублот", "watches", "хублот"),
    ("Audemars Piguet", "watches", "audemars"), ("Panerai", "watches", "panerai"),
    ("Патек Филипп", "watches", "патек"),
    # a refused thing at the end of its phrase is the thing itself, whatever clothing describes it
    ("shirt clip", "accessories", "clip"), ("tie-dye", "accessories", "tie"),
    # two things named at once: each is checked, the clothing does not cover the other
    ("a shirt and a watch", "watches", "watch"), ("watch, shirt", "watches", "watch"),
    ("shirt with cufflinks", "accessories", "cufflinks"), ("рубашка и часы", "watches", "часы"),
    ("часы/куртка", "watches", "часы"),
    # a garment first names the thing only in Russian, and only before a name in Latin letters: an English phrase's
    # last word is still its head, a Cyrillic word after a Russian garment may be a second thing
    ("shirt pearls", "jewellery", "pearls"), ("футболка серьги", "jewellery", "серьги"),
    ("футболка Pearl Jam, часы", "watches", "часы"),
]


NAMED_KINDS = [
    # hats by their own names, not the word "hat": a Russian night's ушанка as much as a stetson
    ("ushanka", "accessories"), ("sombrero", "accessories"), ("Stetson", "accessories"), ("trilby", "accessories"),
    ("bonnet", "accessories"), ("toque", "accessories"),
    ("tuque", "accessories"), ("snapback", "accessories"), ("visor", "accessories"), ("fez", "accessories"),
    ("ушанка", "accessories"), ("ушанку", "accessories"), ("кепи", "accessories"), ("треуголка", "accessories"),
    ("фуражка", "accessories"), ("тюбетейка", "accessories"), ("папаха", "accessories"), ("картуз", "accessories"),
    ("сомбреро", "accessories"),
    # hair and eye accessories
    ("hairpin", "accessories"), ("hairclip", "accessories"), ("hairband", "accessories"), ("scrunchie", "accessories"),
    ("monocle", "accessories"), ("lorgnette", "accessories"), ("goggles", "accessories"), ("ободок", "accessories"),
    ("монокль", "accessories"), ("пенсне", "accessories"), ("лорнет", "accessories"),
    # jewellery by the piece's name
    ("medallion", "jewellery"), ("amulet", "jewellery"), ("cameo", "jewellery"),
    ("signet", "jewellery"), ("медальон", "jewellery"), ("амулет", "jewellery"), ("бриллиант", "jewellery"),
    ("печатка", "jewellery"), ("крестик", "jewellery"),
    # a fitness band is a watch by another name
    ("fitness tracker", "watches"), ("fitness band", "watches"), ("smart band", "watches"), ("Mi Band", "watches"),
    ("smartband", "watches"), ("фитнес-трекер", "watches"), ("ми бэнд", "watches"),
]


@pytest.mark.parametrize(("item", "kind"), NAMED_KINDS)
def test_a_hat_a_jewel_or_a_tracker_named_by_its_own_name_is_refused(item: str, kind: str) -> None:
    """RULES.md §1 refuses a hat, jewellery, accessories and watches by meaning: an ушанка, a Stetson, a medallion
    or a Mi Band were taken in pawn, since only "hat", "шапка" and the like were known."""
    with pytest.raises(RuleError) as refused:
        PawnRules().verify_item(item)
    assert (refused.value.code, refused.value.params["kind"]) == ("pawn_item_forbidden", kind)


UNCLEAR = [
    # a word that names a hat or a jewel, and as often something else: a pot, a cylinder, a cricketer, a country,
    # a card's suit; said alone (or with words that do not settle it) it is asked about
    ("котелок", "hat", "котелок"), ("котелка", "hat", "котелка"), ("старый котелок", "hat", "котелок"),
    ("цилиндр", "hat", "цилиндр"), ("bowler", "hat", "bowler"), ("Panama", "hat", "panama"),
    ("diamond", "jewel", "diamond"), ("diamonds", "jewel", "diamonds"), ("a shirt and a bowler", "hat", "bowler"),
]


@pytest.mark.parametrize(("item", "sense", "word"), UNCLEAR)
def test_a_word_that_may_mean_something_else_is_asked_about(item: str, sense: str, word: str) -> None:
    """«котелок», «цилиндр», "bowler", "panama" and "diamond" were refused as a hat or a jewel (no socks, belts,
    jewellery...) when a player may mean a pot, a cylinder or a country: he is told how the bank reads the word and
    asked to name the thing otherwise."""
    with pytest.raises(RuleError) as asked:
        PawnRules().verify_item(item)
    assert (asked.value.code, asked.value.params["word"]) == (f"pawn_item_unclear_{sense}", word)
    assert str(asked.value) == f"'{word}' reads as a {sense}, which is not accepted: say what it is"


@pytest.mark.parametrize(("item", "kind", "word"), [
    ("bowler hat", "accessories", "hat"), ("шляпа-котелок", "accessories", "шляпа"),
    ("diamond ring", "jewellery", "ring"), ("котелок и часы", "watches", "часы"), ("panama, socks", "socks", "socks"),
])
def test_an_unclear_word_beside_a_plainly_refused_one_is_refused(item: str, kind: str, word: str) -> None:
    """Whatever the unclear word means, the description names a refused thing plainly: that refuses it."""
    with pytest.raises(RuleError) as refused:
        PawnRules().verify_item(item)
    assert (refused.value.code, refused.value.params["kind"], refused.value.params["word"]) == (
        "pawn_item_forbidden", kind, word)


@pytest.mark.parametrize("item", ["diamond-pattern sweater", "bowler jacket", "Panama shirt"])
def test_an_unclear_word_describing_a_garment_is_clothing(item: str) -> None:
    PawnRules().verify_item(item)


@pytest.mark.parametrize(("item", "kind", "words"), BY_MEANING)
def test_refused_by_meaning_not_by_exact_words(item: str, kind: str, words: str) -> None:
    with pytest.raises(RuleError) as refused:
        PawnRules().verify_item(item)
    assert (refused.value.code, refused.value.params["kind"], refused.value.params["word"]) == (
        "pawn_item_forbidden", kind, words)


def test_a_description_is_read_as_phrases_each_naming_one_thing() -> None:
    assert item_phrases("Tie-dye shirt, with my Rolex & socks") == [["tie", "dye", "shirt"], ["my", "rolex"],
                                                                      ["socks"]]
    assert item_phrases("рубашка и часы (золотые)") == [["рубашка"], ["часы"], ["золотые"]]
    assert item_phrases(" , and ") == []


def test_no_stem_is_both_clothing_and_refused() -> None:
    refused = set().union(*FORBIDDEN_PAWN_KINDS.values())
    assert not GARMENTS & refused


def test_a_stem_is_matched_as_a_whole_word_with_an_ending() -> None:
    assert refused_word("watches") == "watches" and refused_word("watchman") is None
    assert refused_word("caps") == "accessories" and refused_word("cape") is None
    assert refused_word("часов") == "watches" and refused_word("часть") is None
    assert item_words("Серёжки, ЁЖИК-ring") == ["сережки", "ежик", "ring"]


def test_the_rules_keep_to_their_snapshot() -> None:
    assert PawnRules().to_dict() == {"value": 100}  # the standard list is not copied into every hand's snapshot
    assert PawnRules.from_dict({"value": 100}) == PawnRules()
    custom = PawnRules(50, {"hats": frozenset({"hat"})})
    assert PawnRules.from_dict(custom.to_dict()) == custom
    custom.verify_item("socks")
    with pytest.raises(RuleError):
        custom.verify_item("hats")
