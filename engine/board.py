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

__all__ = ["ADJACENT", "REGIONS", "connected_groups", "largest_group", "region_named"]

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
