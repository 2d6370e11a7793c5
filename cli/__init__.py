"""The ``condottiere`` command (:mod:`cli.main`) and what it shows: for now the offline bot demo
(:mod:`cli.demo`); the full-screen prompt_toolkit client comes later."""
