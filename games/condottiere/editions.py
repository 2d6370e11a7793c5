"""The editions as data: one rules core, and per edition its deck and its rule switches.

>>> EDITIONS["zman"].deck_size, EDITIONS["zman-classic"].deck_size, EDITIONS["zman-duel"].deck_size
(110, 96, 23)
>>> EDITIONS["ffg"].victory(3), EDITIONS["ffg"].victory(4)
(Victory(connected=4, total=6), Victory(connected=3, total=5))
>>> EDITIONS["eurogames"].victory(2)
Victory(connected=6, total=None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

__all__ = ["EDITIONS", "OPTIONS", "Edition", "Victory"]

OPTIONS: dict[str, str] = {
    "sieges": "the owner of a region may defend it: battles may be fought in controlled regions, "
    "and the owner may pass and come back until he plays a card (seed 002)",
    "cede": "the battle-marker holder may hand it to the left instead of opening a battle "
    "(seed 002)",
}


@dataclass(frozen=True, slots=True)
class Victory:
    """Regions needed to win at once: a connected group of ``connected``, or ``total`` anywhere."""

    connected: int
    total: int | None


def _deck(**counts: int) -> tuple[tuple[str, int], ...]:
    named = {
        "one": "1",
        "two": "2",
        "three": "3",
        "four": "4",
        "five": "5",
        "six": "6",
        "ten": "10",
    }
    return tuple((named.get(card, card), n) for card, n in counts.items() if n)


_NEW_DECK = _deck(
    one=10,
    two=8,
    three=8,
    four=8,
    five=8,
    six=8,
    ten=8,
    heroine=3,
    drummer=6,
    winter=3,
    spring=3,
    scarecrow=16,
    bishop=6,
)
_CLASSIC_DECK = _deck(
    one=15,
    two=8,
    three=8,
    four=8,
    five=8,
    six=8,
    ten=8,
    heroine=3,
    drummer=6,
    winter=3,
    scarecrow=15,
    bishop=3,
)


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition: its deck and how its rules differ. See DESIGN section 4 and ``engine.rules``."""

    name: str
    title: str
    min_players: int
    max_players: int
    cards: tuple[tuple[str, int], ...]
    """The deck (for ``zman-duel``: each player's own deck) as (card, copies)."""
    hand_size: int = 10
    board: bool = True
    per_seat_decks: bool = False
    bonus_per_region: int = 1
    bishop: Literal["discard-highest", "ends-battle"] = "discard-highest"
    favor: Literal["empty-region", "uncontrolled-or-off", "none"] = "empty-region"
    ends_battle: str = "turncoat"
    scarecrow_any_row: bool = False
    scarecrow_may_take_nothing: bool = False
    """True: ``play scarecrow`` taking nothing is legal at any time ("he may bring back", seeds
    003 and 004); False: only when no mercenary can be taken ("if possible", Z-Man)."""
    specials_stay_in_row: bool = True
    """False: a played Scarecrow or Bishop goes straight to the discard pile (FFG)."""
    seasons_replace: bool = True
    """True: a season card discards the one in play; False: only the other season's cards."""
    marker_card: str | None = "spy"
    """The card whose strict majority takes the battle marker (Spy, Courtesan), if any."""
    tie_marker: Literal["random", "next-clockwise", "holder-or-owner"] = "random"
    refill: Literal["when-none", "draw-up", "when-one-keeps-two", "when-one"] = "when-none"
    owner_defends: bool = False
    battle_in_owned: bool = False
    no_region_left: Literal["most-wins", "final-battle", "never", "no-board"] = "most-wins"
    victory_by_players: tuple[tuple[int, Victory], ...] = ((2, Victory(3, 5)),)
    """(fewest players, victory) pairs, ascending."""
    options: frozenset[str] = field(default_factory=frozenset)
    """The house-rule switches this edition allows (see :data:`OPTIONS`)."""
    may_cede: bool = False
    """The battle-marker holder may hand it to the left instead of opening a battle."""
    choice_after_compare: bool = False
    """FFG order: the next battle is chosen right after strengths are compared."""

    @property
    def deck(self) -> tuple[str, ...]:
        """Every card of the deck, by name (one deck of ``zman-duel``)."""
        return tuple(card for card, n in self.cards for _ in range(n))

    @property
    def deck_size(self) -> int:
        return sum(n for _, n in self.cards)

    def deck_counter(self) -> Counter[str]:
        return Counter(dict(self.cards))

    def with_options(self, options: Iterable[str]) -> Edition:
        """This edition with house-rule switches turned on; ValueError for one it does not allow.

        >>> sieges = EDITIONS["ffg"].with_options(["sieges"])
        >>> sieges.owner_defends, sieges.battle_in_owned, sieges.may_cede
        (True, True, False)
        """
        chosen = frozenset(options)
        for option in sorted(chosen):
            if option not in self.options:
                allowed = ", ".join(sorted(self.options)) or "none"
                known = "" if option in OPTIONS else " (no such option)"
                raise ValueError(
                    f"{self.name} has no option {option!r}{known}; its options: {allowed}"
                )
        if not chosen:
            return self
        sieges = "sieges" in chosen
        return replace(
            self,
            owner_defends=self.owner_defends or sieges,
            battle_in_owned=self.battle_in_owned or sieges,
            may_cede=self.may_cede or "cede" in chosen,
        )

    def victory(self, players: int) -> Victory:
        """The victory condition for a table of ``players``."""
        chosen = self.victory_by_players[0][1]
        for fewest, victory in self.victory_by_players:
            if players >= fewest:
                chosen = victory
        return chosen


EDITIONS: dict[str, Edition] = {
    "zman": Edition(
        name="zman",
        title="Z-Man 2018, the new version",
        min_players=2,
        max_players=6,
        cards=(*_NEW_DECK, ("spy", 12), ("turncoat", 3)),
    ),
    "zman-classic": Edition(
        name="zman-classic",
        title="Z-Man 2018, classic version",
        min_players=2,
        max_players=6,
        cards=(*_CLASSIC_DECK, ("turncoat", 3)),
        bishop="ends-battle",
        favor="none",
        marker_card=None,
    ),
    "zman-duel": Edition(
        name="zman-duel",
        title="Z-Man 2018, 2-player game",
        min_players=2,
        max_players=2,
        cards=_deck(
            one=2,
            two=2,
            three=2,
            four=2,
            five=2,
            six=2,
            ten=2,
            heroine=1,
            drummer=1,
            winter=1,
            spring=1,
            scarecrow=3,
            bishop=1,
            turncoat=1,
        ),
        hand_size=8,
        board=False,
        per_seat_decks=True,
        bonus_per_region=0,
        favor="none",
        marker_card=None,
        refill="draw-up",
        no_region_left="no-board",
        victory_by_players=((2, Victory(3, 3)),),
    ),
    "ffg": Edition(
        name="ffg",
        title="Fantasy Flight 2006/2007",
        min_players=2,
        max_players=6,
        cards=(*_NEW_DECK, ("courtesan", 12), ("surrender", 3)),
        favor="uncontrolled-or-off",
        ends_battle="surrender",
        specials_stay_in_row=False,
        scarecrow_may_take_nothing=True,
        seasons_replace=False,
        marker_card="courtesan",
        tie_marker="next-clockwise",
        refill="when-one-keeps-two",
        no_region_left="final-battle",
        victory_by_players=((2, Victory(4, 6)), (4, Victory(3, 5))),
        options=frozenset({"sieges", "cede"}),
        choice_after_compare=True,
    ),
    "eurogames": Edition(
        name="eurogames",
        title="Eurogames / Descartes 1995",
        min_players=2,
        max_players=6,
        cards=(*_CLASSIC_DECK, ("surrender", 3)),
        bonus_per_region=2,
        bishop="ends-battle",
        favor="none",
        ends_battle="surrender",
        scarecrow_any_row=True,
        scarecrow_may_take_nothing=True,
        seasons_replace=False,
        marker_card=None,
        tie_marker="holder-or-owner",
        refill="when-one",
        owner_defends=True,
        battle_in_owned=True,
        no_region_left="never",
        victory_by_players=((2, Victory(6, None)), (3, Victory(5, None)), (4, Victory(4, None))),
    ),
}
