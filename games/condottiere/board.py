"""The map of Italy: 17 regions and their borders, the same in every edition with a board.

A victory by "adjacent regions" counts a connected group: a chain is enough.

>>> len(REGIONS)
17
>>> region_named("firenze")
'Firenze'
>>> largest_group({"Roma", "Napoli", "Siena", "Torino"})
3
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "ADJACENT",
    "REGIONS",
    "TEXT_MAP",
    "connected_groups",
    "largest_group",
    "region_named",
]

_BORDERS = """
Torino:  Genova Milano
Milano:  Genova Mantova Modena Parma Torino Venezia
Genova:  Milano Parma Torino
Venezia: Ferrara Mantova Milano
Mantova: Ferrara Milano Modena Venezia
Parma:   Genova Lucca Milano Modena
Modena:  Bologna Ferrara Firenze Lucca Mantova Milano Parma
Ferrara: Bologna Mantova Modena Venezia
Bologna: Ferrara Firenze Modena Urbino
Lucca:   Firenze Modena Parma
Firenze: Bologna Lucca Modena Roma Siena Spoleto Urbino
Siena:   Firenze Roma
Urbino:  Ancona Bologna Firenze Spoleto
Ancona:  Napoli Spoleto Urbino
Spoleto: Ancona Firenze Napoli Roma Urbino
Roma:    Firenze Napoli Siena Spoleto
Napoli:  Ancona Roma Spoleto
"""


def _parse_borders(text: str) -> dict[str, frozenset[str]]:
    borders: dict[str, frozenset[str]] = {}
    for line in text.strip().splitlines():
        name, listed = line.split(":")
        borders[name] = frozenset(listed.split())
    for region, neighbours in borders.items():
        for other in neighbours:
            if region not in borders[other]:
                raise AssertionError(f"border {region}-{other} is not symmetric")
    return borders


ADJACENT: dict[str, frozenset[str]] = _parse_borders(_BORDERS)
REGIONS: tuple[str, ...] = tuple(ADJACENT)
TEXT_MAP: dict[str, tuple[int, int]] = {
    "Torino": (0, 1), "Milano": (0, 11), "Mantova": (0, 21), "Venezia": (0, 32),
    "Genova": (1, 3), "Parma": (1, 13), "Modena": (1, 22), "Ferrara": (1, 32),
    "Lucca": (2, 10), "Bologna": (2, 27),
    "Firenze": (3, 17), "Urbino": (3, 29), "Ancona": (3, 39),
    "Siena": (4, 13), "Spoleto": (4, 28),
    "Roma": (5, 22),
    "Napoli": (6, 32),
}
"""Where each region lies on the board, for a drawing in text: the (line, column) of its name
on a 7-line map, north at the top, as on the printed board. Each name may be followed by a
space and a one-letter mark, and framed by a character on either side, without overlapping
another region."""
_BY_LOWER = {region.lower(): region for region in REGIONS}


def region_named(name: str) -> str | None:
    """The region called ``name`` (any case), or None if there is none."""
    return _BY_LOWER.get(name.lower())


def connected_groups(regions: Iterable[str]) -> list[frozenset[str]]:
    """The connected groups that ``regions`` form on the board.

    >>> sorted(map(sorted, connected_groups({"Roma", "Napoli", "Torino"})))
    [['Napoli', 'Roma'], ['Torino']]
    """
    left = set(regions)
    groups = []
    while left:
        frontier = [left.pop()]
        group = set(frontier)
        while frontier:
            for neighbour in ADJACENT[frontier.pop()]:
                if neighbour in left:
                    left.remove(neighbour)
                    group.add(neighbour)
                    frontier.append(neighbour)
        groups.append(frozenset(group))
    return groups


def largest_group(regions: Iterable[str]) -> int:
    """The size of the largest connected group among ``regions``."""
    return max(map(len, connected_groups(regions)), default=0)
