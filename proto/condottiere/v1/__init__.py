"""Protocol version 1, package ``condottiere.v1``: generated from the ``.proto`` files beside
this one by ``scripts/gen_proto.py``; edit the ``.proto`` files, never the bindings."""
