"""Condottiere and Condottieri Captains as OpenSpiel games: importing this package registers
them with ``pyspiel`` (the optional extra ``openspiel``: ``pip install 'condottiere[openspiel]'``).

- ``condottiere`` (parameters ``edition``, default ``zman``; ``players``, default 3;
  ``options``, house rules comma-separated);
- ``condottieri_captains`` (``players``, default 3; ``options``).

>>> import pyspiel
>>> import condottiere.openspiel
>>> game = pyspiel.load_game("condottiere(edition=zman-duel,players=2)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_players()
(True, 2)

See :mod:`condottiere.openspiel.games` for the chance nodes, the observations and the returns,
and :mod:`condottiere.openspiel.vocabulary` for the action numbers.
"""

from __future__ import annotations

from condottiere.openspiel.games import CAPTAINS, CONDOTTIERE, CondottiereSpielGame, State, register

__all__ = ["CAPTAINS", "CONDOTTIERE", "CondottiereSpielGame", "State", "register"]

register()
