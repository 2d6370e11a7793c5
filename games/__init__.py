"""The games the platform plays, one subpackage each (``condottiere.games.condottiere``).

The platform never imports them: it finds a game by name in the registry of
:mod:`condottiere.interface`, and reaches it only through that interface.
"""
