#!/usr/bin/env python3
"""Generate the golden PySolFC deal fixtures used by demon's tests.

For each supported game this script reproduces PySolFC's deal #N for a fixed,
deterministic list of game numbers and writes one text file per game to
``crates/core/tests/fixtures/pysolfc/<game>.txt``.

How a PySolFC deal is made (read from PySolFC's source, see GAMES.md §4):

* ``pysollib/pysolrandom.py`` ``construct_random``: game numbers
  1 <= N < 32000 use the Microsoft FreeCell LCG (``LCRandom31``), larger ones
  MT19937 (``pysol_cards.random.MTRandom``); N = 0 is rejected.
* ``pysollib/game/__init__.py`` ``Game.shuffle``: the ordered deck (for each
  copy, suits C S H D, ranks A..K) is rearranged rank-major with
  ``ms_rearrange`` when the LCG is used (a no-op unless the deck has exactly
  52 cards), shuffled, then passed to the game's ``_shuffleHook``.  The last
  element of the list is the top of the talon, i.e. the first card dealt.
* the game's ``startGame`` then deals from the top of the talon.

The random generators and the deck come from the PyPI package ``pysol-cards``,
which PySolFC itself uses.  Its ``pysol_cards.random.shuffle()`` helper is
deliberately NOT used to make deals: it picks the LCG for N <= 32000, whereas
PySolFC uses it only for N < 32000.  (It is used below only as a cross-check
for the numbers where both agree.)  The shuffles are also checked against an
independent re-implementation of the algorithm written out in GAMES.md §4.3,
and the script checks the test vectors of GAMES.md §4.3; it stops with an
error if anything disagrees.

Output format (UTF-8, one deal per line, tab-separated columns)::

    <N> <dealing order> <foundations> <reserve> <tableau> <stock>

Cards are written rank then suit (``TD``, ``AS``) and separated by single
spaces.  ``dealing order`` lists every card, first dealt first.
``foundations`` lists the cards placed on foundations at the start, in the
order they are placed.  ``reserve`` is bottom to top.  ``tableau`` gives the
piles left to right separated by `` | ``, each bottom to top, face-down cards
in parentheses.  ``stock`` is the rest, next card to be turned first; the
cards PySolFC turns onto the waste at the end of the deal (Canfield-type
games) are left at the front of the stock.  ``-`` marks an empty column.
The layout is the one right after ``startGame``, before PySolFC's autoplay.

To re-run (from the repository root)::

    pip install pysol-cards==0.24.0
    python3 scripts/gen_pysolfc_fixtures.py
"""

from __future__ import annotations

import importlib.metadata
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from pysol_cards.cards import Card, createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random import shuffle as pysol_cards_shuffle_helper
from pysol_cards.random_base import RandomBase

PYSOL_CARDS_VERSION = importlib.metadata.version("pysol_cards")
OUTPUT_DIR = (Path(__file__).resolve().parent.parent
              / "crates" / "core" / "tests" / "fixtures" / "pysolfc")

RANKS = "A23456789TJQK"
SUITS = "CSHD"
LCG_LIMIT = 32000  # PySolFC: 1 <= N < 32000 -> LCG, N >= 32000 -> MT19937


# ---------------------------------------------------------------------------
# Game numbers
# ---------------------------------------------------------------------------

def _splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return state, z ^ (z >> 31)


def game_numbers() -> list[int]:
    """The fixed, deterministic list of game numbers written for every game."""
    numbers = set(range(1, 101))                           # small (LCG)
    numbers.update(range(LCG_LIMIT - 10, LCG_LIMIT + 11))  # generator switch
    numbers.update([
        164, 617, 1000, 1941, 5000, 9999, 10000, 11982, 16384, 20000,
        24999, 30000, 31000,
        32767, 32768, 50000, 65535, 65536, 99999, 100000, 123456,
        999999, 1000000, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1,
        2**33, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
        2**64 + 1, 2**65, 10**17, 10**19, 12345678901234567890,
        100000000000000000000 - 1,  # PySolFC's MAX_SEED - 1
    ])
    # Pseudo-random extras from a fixed SplitMix64 stream: 40 LCG numbers and
    # 40 MT numbers of every magnitude from 5 to 20 decimal digits.
    state = 20240601
    for _ in range(40):
        state, z = _splitmix64(state)
        numbers.add(1 + z % (LCG_LIMIT - 1))
    for i in range(40):
        state, z = _splitmix64(state)
        digits = 5 + i % 16
        numbers.add(max(LCG_LIMIT, z * (z + 7) % 10**digits))
    return sorted(numbers)


# ---------------------------------------------------------------------------
# Shuffling, as PySolFC does it
# ---------------------------------------------------------------------------

def pysolfc_random(number: int) -> Union[LCRandom31, MTRandom]:
    """The generator PySolFC's construct_random() picks for game number N."""
    if number < 1:
        raise ValueError(f"PySolFC game number must be >= 1, got {number}")
    if number < LCG_LIMIT:
        return LCRandom31(number)
    return MTRandom(number)


def shuffled_talon(number: int, decks: int) -> list[Card]:
    """Game.shuffle() without the hook: the talon, its top card LAST."""
    cards = createCards(decks)
    rng = pysolfc_random(number)
    if isinstance(rng, LCRandom31):
        cards = ms_rearrange(cards)  # only changes a single 52-card deck
    rng.shuffle(cards)
    return cards


def move_to_top(cards: list[Card], rank: int) -> list[Card]:
    """Game._shuffleHookMoveToTop(cards, lambda c: (c.rank == rank, c.suit)).

    Port of Game._shuffleHookMoveSorter: the selected cards go to the top of
    the talon (end of the list) so that the topmost is the lowest suit (C, S,
    H, D); copies of one card keep their relative order; the other cards keep
    theirs.  ``rank`` is pysol_cards' 1-based rank (PySolFC uses 0-based).
    """
    extracted, rest = [], []
    position = len(cards)  # PySolFC's "i": counts down from len(cards)
    for card in cards:
        if card.rank == rank:
            extracted.append((card.suit, position, card))
        else:
            rest.append(card)
        position -= 1
    extracted.sort(key=lambda item: (item[0], item[1]))
    return rest + [item[2] for item in reversed(extracted)]


def reference_shuffle_ids(number: int, decks: int) -> list[int]:
    """GAMES.md §4.3 written out from scratch (no pysol_cards): card ids."""
    deck = list(range(52 * decks))  # id = copy*52 + suit*13 + rank
    if number < LCG_LIMIT:
        if decks == 1:
            deck = [deck[i + k] for i in range(13) for k in (0, 39, 26, 13)]
        state = number

        def randint(n: int) -> int:
            nonlocal state
            state = (state * 214013 + 2531011) % 2**32
            return ((state >> 16) & 0x7FFF) % (n + 1)
    else:
        mt = random.Random(number)

        def randint(n: int) -> int:
            a, b = mt.getrandbits(32), mt.getrandbits(32)
            u = ((a >> 5) * 67108864 + (b >> 6)) / 2**53
            return int(u * (n + 1))
    for n in range(len(deck) - 1, 0, -1):
        j = randint(n)
        deck[n], deck[j] = deck[j], deck[n]
    return deck


def check_shuffle(number: int, decks: int, talon: list[Card]) -> None:
    """Cross-check a shuffle with the reference and pysol_cards' helper."""
    ids = [card.id for card in talon]
    expect(ids == reference_shuffle_ids(number, decks),
           f"#{number} ({decks} deck(s)): pysol_cards disagrees with the "
           f"GAMES.md §4.3 algorithm")
    helper = pysol_cards_shuffle_helper(createCards(decks), number,
                                        RandomBase.DEALS_PYSOLFC)
    helper_ids = [card.id for card in helper]
    if number == LCG_LIMIT:
        expect(helper_ids != ids, "#32000: the helper should differ (LCG)")
    else:
        expect(helper_ids == ids,
               f"#{number}: pysol_cards.random.shuffle() disagrees")


# ---------------------------------------------------------------------------
# Dealing
# ---------------------------------------------------------------------------

# Tableau piles left to right, each bottom to top, as (card, face up).
Tableau = list[list[tuple[Card, bool]]]


class Talon:
    """PySolFC's talon: a list whose last element is the top card."""

    def __init__(self, cards: list[Card]):
        self.cards = list(cards)

    def deal(self) -> Card:
        return self.cards.pop()


@dataclass
class Layout:
    dealing_order: list[Card]
    foundations: list[Card]
    reserve: list[Card]
    tableau: Tableau
    stock: list[Card]


@dataclass(frozen=True)
class CanfieldGame:
    """A game dealt by Canfield.startGame (pysollib/games/canfield.py).

    ``preplaced_rank``/``preplaced_count``: the game's _shuffleHook moves all
    cards of that rank to the top of the talon and its startGame deals the
    first ``preplaced_count`` of them to the foundations (dealRow over
    foundations[:k]) before calling Canfield.startGame, which deals the last
    one as the base card.
    """
    name: str
    pysolfc_id: int
    decks: int
    piles: int
    reserve_cards: int
    preplaced_rank: int | None = None
    preplaced_count: int = 0

    def shuffle_hook(self, cards: list[Card]) -> list[Card]:
        if self.preplaced_rank is None:
            return cards
        return move_to_top(cards, self.preplaced_rank)

    def deal(self, talon: Talon) -> Layout:
        dealing_order = list(reversed(talon.cards))
        # Foundations are created "for suit: for copy", so slot i holds
        # suit i // decks.
        slots: list[Card | None] = [None] * (4 * self.decks)
        foundations = []
        for i in range(self.preplaced_count):
            card = talon.deal()
            expect(card.suit == i // self.decks and
                   card.rank == self.preplaced_rank,
                   f"{self.name}: pre-placed {card_str(card)} in slot {i}")
            slots[i] = card
            foundations.append(card)
        base = talon.deal()
        slot = base.suit * self.decks
        if slots[slot] is not None:
            slot += 1
        expect(slots[slot] is None, f"{self.name}: base slot taken")
        slots[slot] = base
        foundations.append(base)
        # The first reserve card dealt ends at the bottom.
        reserve = [talon.deal() for _ in range(self.reserve_cards)]
        # dealRow(reverse=1): one card per pile, the LAST pile first.
        tableau: Tableau = [[] for _ in range(self.piles)]
        for pile in reversed(tableau):
            pile.append((talon.deal(), True))
        # (startGame ends with talon.dealCards(): ignored, see module doc.)
        return Layout(dealing_order, foundations, reserve, tableau,
                      list(reversed(talon.cards)))


@dataclass(frozen=True)
class EasthavenGame:
    """Easthaven.startGame (klondike.py, inherited from Eastcliff) and
    Gypsy.startGame (gypsy.py): two rounds face down, one face up, each
    round dealRow() from the first pile to the last."""
    name: str
    pysolfc_id: int
    decks: int
    piles: int

    def shuffle_hook(self, cards: list[Card]) -> list[Card]:
        return cards

    def deal(self, talon: Talon) -> Layout:
        dealing_order = list(reversed(talon.cards))
        tableau: Tableau = [[] for _ in range(self.piles)]
        for face_up in (False, False, True):
            for pile in tableau:
                pile.append((talon.deal(), face_up))
        return Layout(dealing_order, [], [], tableau,
                      list(reversed(talon.cards)))


Game = Union[CanfieldGame, EasthavenGame]

GAMES: list[Game] = [
    CanfieldGame("canfield", 105, decks=1, piles=4, reserve_cards=13),
    CanfieldGame("superior-canfield", 101, decks=1, piles=4, reserve_cards=13),
    CanfieldGame("double-canfield", 106, decks=2, piles=5, reserve_cards=13),
    CanfieldGame("rainbow", 108, decks=1, piles=4, reserve_cards=13),
    CanfieldGame("chameleon", 43, decks=1, piles=3, reserve_cards=12),
    CanfieldGame("storehouse", 100, decks=1, piles=4, reserve_cards=13,
                 preplaced_rank=2, preplaced_count=3),
    CanfieldGame("variegated-canfield", 102, decks=2, piles=5,
                 reserve_cards=13, preplaced_rank=1, preplaced_count=7),
    CanfieldGame("american-toad", 103, decks=2, piles=8, reserve_cards=20),
    EasthavenGame("easthaven", 224, decks=1, piles=7),
    # PySolFC's DoubleEasthaven [452] (klondike.py); its deal is the same as
    # Gypsy [1] (gypsy.py): 2 decks, 8 piles, 2 down + 1 up.
    EasthavenGame("double-easthaven", 452, decks=2, piles=8),
]


def pysolfc_deal(game: Game, number: int) -> Layout:
    talon = shuffled_talon(number, game.decks)
    check_shuffle(number, game.decks, talon)
    talon = game.shuffle_hook(talon)
    layout = game.deal(Talon(talon))
    check_complete(game, number, layout)
    return layout


# ---------------------------------------------------------------------------
# Formatting and checks
# ---------------------------------------------------------------------------

def card_str(card: Card) -> str:
    return RANKS[card.rank - 1] + SUITS[card.suit]


def cards_str(cards: list[Card]) -> str:
    return " ".join(card_str(card) for card in cards) or "-"


def tableau_str(tableau: Tableau) -> str:
    def pile_str(pile: list[tuple[Card, bool]]) -> str:
        return " ".join(card_str(card) if face_up else f"({card_str(card)})"
                        for card, face_up in pile) or "-"
    return " | ".join(pile_str(pile) for pile in tableau) or "-"


def fixture_line(number: int, layout: Layout) -> str:
    return "\t".join([
        str(number),
        cards_str(layout.dealing_order),
        cards_str(layout.foundations),
        cards_str(layout.reserve),
        tableau_str(layout.tableau),
        cards_str(layout.stock),
    ])


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"gen_pysolfc_fixtures.py: CHECK FAILED: {message}")


def check_complete(game: Game, number: int, layout: Layout) -> None:
    """Every card of the deck(s) is somewhere, exactly once, in deal order."""
    placed = (layout.foundations + layout.reserve
              + [card for pile in layout.tableau for card, _ in pile]
              + layout.stock)
    expect(sorted(c.id for c in placed) == list(range(52 * game.decks)),
           f"{game.name} #{number}: cards lost or duplicated")
    expect(sorted(c.id for c in layout.dealing_order)
           == list(range(52 * game.decks)),
           f"{game.name} #{number}: bad dealing order")
    expect(layout.stock == layout.dealing_order[len(placed)
                                                 - len(layout.stock):],
           f"{game.name} #{number}: stock is not the end of the deal")


def check_test_vectors() -> None:
    """The test vectors of GAMES.md §4.3."""
    by_name = {game.name: game for game in GAMES}

    def deal(name: str, number: int) -> dict[str, str]:
        layout = pysolfc_deal(by_name[name], number)
        return {
            "order": cards_str(layout.dealing_order),
            "foundations": cards_str(layout.foundations),
            "reserve": cards_str(layout.reserve),
            "reserve top": card_str(layout.reserve[-1]) if layout.reserve
            else "-",
            "tableau": tableau_str(layout.tableau),
            "stock": cards_str(layout.stock),
        }

    def check(label: str, got: dict[str, str], exact: dict[str, str],
              prefix: dict[str, str]) -> None:
        for key, want in exact.items():
            expect(got[key] == want,
                   f"{label}: {key} is {got[key]!r}, expected {want!r}")
        for key, want in prefix.items():
            expect(got[key].startswith(want + " "),
                   f"{label}: {key} is {got[key]!r}, expected to start "
                   f"with {want!r}")

    check("Canfield #1", deal("canfield", 1), exact={
        "order": "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D "
                 "QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C "
                 "JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H",
        "foundations": "JD",
        "reserve": "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC",
        "reserve top": "QC",
        "tableau": "KS | 2S | 3H | KH",
    }, prefix={"stock": "9D QD JS AS AH 3C"})

    check("Canfield #123456", deal("canfield", 123456), exact={
        "order": "3D 2D 2C 9C AC 6H 4C KC 6C TC 8S 8C 9D TH 2S JS AS 4H AH "
                 "QH 7H 8H 3S 9H TS JD KD 3C 6D QS 6S 4S QC TD KH 5D KS 7D "
                 "5H 7S 8D 2H 5S 9S JH JC 3H AD 4D 5C 7C QD",
        "foundations": "3D",
        "reserve top": "TH",
        "tableau": "4H | AS | JS | 2S",
    }, prefix={})

    check("Storehouse #1", deal("storehouse", 1), exact={
        "foundations": "2C 2S 2H 2D",
        "reserve top": "QC",
        "tableau": "9D | KS | 3H | KH",
    }, prefix={"order": "2C 2S 2H 2D JD 9H JC 5D 7H 7C 5H KD KC 9S 5S AD "
                        "QC KH 3H KS 9D QD JS AS"})

    check("Double Easthaven (Gypsy) #1", deal("double-easthaven", 1), exact={
        "foundations": "-",
        "reserve": "-",
        "tableau": "(3D) (8D) 4C | (5H) (JD) JS | (JC) (AS) QC | "
                   "(KH) (8C) 4H | (5S) (6C) KD | (5H) (6H) 2H | "
                   "(KC) (TC) TD | (KC) (8D) 8S",
    }, prefix={
        "order": "3D 5H JC KH 5S 5H KC KC 8D JD AS 8C 6C 6H TC 8D 4C JS QC "
                 "4H KD 2H TD 8S",
        "stock": "AC 7C 2H AD",
    })

    # Variegated Canfield: the eight Aces, topmost suit C then S, H, D.
    order = deal("variegated-canfield", 1)["order"].split()
    expect(order[:8] == ["AC", "AC", "AS", "AS", "AH", "AH", "AD", "AD"],
           f"Variegated Canfield #1 starts {order[:8]}")


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def write_fixture(game: Game, numbers: list[int]) -> Path:
    path = OUTPUT_DIR / f"{game.name}.txt"
    lines = [
        f"# PySolFC deals for {game.name} (PySolFC game id "
        f"{game.pysolfc_id}), generated by scripts/gen_pysolfc_fixtures.py "
        f"with pysol-cards {PYSOL_CARDS_VERSION}",
        "# columns (tab-separated): number, dealing order, foundations, "
        "reserve, tableau, stock",
    ]
    lines += [fixture_line(n, pysolfc_deal(game, n)) for n in numbers]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main() -> None:
    check_test_vectors()
    numbers = game_numbers()
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path = write_fixture(game, numbers)
        print(f"wrote {path} ({len(numbers)} deals)")


if __name__ == "__main__":
    main()
