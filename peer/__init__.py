"""The peer: one seat of a table played among peers, with no trusted server.

Every peer keeps a signed, hash-chained log of its own entries and follows every other
peer's; the table is a fold over those logs, so that every peer computes the same game and
catches a cheater at the entry where it cheats. The game itself is reached only through the
game interface and its registry (:mod:`condottiere.interface`).

The table:

- :mod:`~condottiere.peer.entries`: one signed log entry, made, read and checked on its own,
  and the typed reasons an entry is refused;
- :mod:`~condottiere.peer.logs`: the logs of one table, one append-only chain per author;
- :mod:`~condottiere.peer.lobby`: the table's definition, the joins, the seating, who is ready;
- :mod:`~condottiere.peer.dealing`: the game's deals answered by mental-poker decks, every card
  followed (one module per sub-protocol behind one ``Dealer``);
- :mod:`~condottiere.peer.coin`: fair random choices (commit-reveal) and withheld reveals;
- :mod:`~condottiere.peer.driver`: the table as a fold over every author's log (the loop), and
  :mod:`~condottiere.peer.steps`: its steps, one rule per kind, one module per sub-protocol;
- :mod:`~condottiere.peer.keeper`: where a table keeps its entries and secrets;
- :mod:`~condottiere.peer.record`: a game's record in one file, and its verification;
- :mod:`~condottiere.peer.limits`: what keeps one bad peer from exhausting another.

The process:

- :mod:`~condottiere.peer.store`: everything a peer keeps, in one SQLite file per data
  directory;
- :mod:`~condottiere.peer.node`: a peer process's runtime (table, store, gRPC server, links to
  the other peers) in one asyncio event loop; :mod:`~condottiere.peer.links` follows the other
  peers into its inbox, :mod:`~condottiere.peer.timers` keeps its deadlines and paces its forced
  moves, :mod:`~condottiere.peer.admissions` keeps its owner's admissions in the store,
  :mod:`~condottiere.peer.served` holds what it serves its subscribers;
- :mod:`~condottiere.peer.service`: the ``Peer`` gRPC service the other peers call;
- :mod:`~condottiere.peer.controller`: what a seat's owner (the client, a bot) sees of its
  table and how it acts on it; :mod:`~condottiere.peer.controller_service` serves it over gRPC
  to programs in any language, and :mod:`~condottiere.peer.access` says who may drive it.

The LAN:

- :mod:`~condottiere.peer.interfaces`: which network interface a peer shows itself on;
- :mod:`~condottiere.peer.advert`: a table's advertisement (DNS-SD TXT record) and its reader;
- :mod:`~condottiere.peer.discovery`: tables on the LAN over zeroconf;
- :mod:`~condottiere.peer.presence`: a peer's life on the LAN: it browses, advertises its
  table, follows the other peers at the addresses they advertise, and withdraws when it stops.
"""
