"""The ``condottiere`` command and what it shows (:mod:`~condottiere.cli.main` puts every
sub-command together).

Playing:

- :mod:`~condottiere.cli.play`: ``play``, the full-screen game, whose screen is the
  prompt_toolkit client (:mod:`condottiere.cli.client`);
- :mod:`~condottiere.cli.demo`: ``demo``, an offline game between bots, narrated as plain text;
- :mod:`~condottiere.cli.tournament`: ``tournament``, many offline games between bots, and each
  bot's figures.

The networked commands (``host``, ``join``, ``bot``, ``tables``, ``export``, ``verify``,
``replay``):

- :mod:`~condottiere.cli.peers`: their command line, and what runs each;
- :mod:`~condottiere.cli.peer_runner`: one peer of a table in plain text (``host``, ``join``,
  ``bot``);
- :mod:`~condottiere.cli.console`: a seat played at a prompt, line by line;
- :mod:`~condottiere.cli.seat`: who plays a seat instead (a strategy, or another program);
- :mod:`~condottiere.cli.lobby`: who sits at the table, with each key's fingerprint;
- :mod:`~condottiere.cli.finish`: the end of a game at a peer: goodbyes, record, summary;
- :mod:`~condottiere.cli.records`: ``export``, ``verify`` and ``replay`` of a game's record;
- :mod:`~condottiere.cli.tables`: ``tables``, the tables on the LAN.

Shared by the commands that host or join a table:

- :mod:`~condottiere.cli.table_options`: the options of a hosted table (game, edition, seats,
  house rules, name) and their defaults, from the game's registry;
- :mod:`~condottiere.cli.bot_peers`: bot peers started as processes of their own;
- :mod:`~condottiere.cli.launcher`: a command-line peer in a process of its own, forked
  from one process that imported the peer once where the system can fork;
- :mod:`~condottiere.cli.lan`: where a peer is on the LAN, and the join of a table by address,
  name or id;
- :mod:`~condottiere.cli.arguments`: argument types, and a peer's default data directory.

The networked commands, like the rest of the platform, reach a game only through
:mod:`condottiere.interface` (its interface and registry), never through a game's own modules.
"""
