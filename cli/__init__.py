"""The ``condottiere`` command (:mod:`condottiere.cli.main`) and what it shows: for now the offline
bot demo (:mod:`condottiere.cli.demo`); the full-screen prompt_toolkit client comes later."""
