"""The full-screen terminal client (``condottiere play``), built on prompt_toolkit: the shell
that every game shares.

As in ptpython and pymux, the parts are kept apart:

- :mod:`condottiere.cli.client.model`: what the screen shows of the table (no prompt_toolkit);
- :mod:`condottiere.cli.client.commands`: what the command line understands, and its completion;
- :mod:`condottiere.cli.client.views`: how each part of the screen draws the model;
- :mod:`condottiere.cli.client.layout`: where each part goes;
  :mod:`condottiere.cli.client.style`: the colours;
- :mod:`condottiere.cli.client.keys`: what each key does;
- :mod:`condottiere.cli.client.app`: the application, following the seat's controller in the
  peer's own event loop.

The shell knows no game: it imports only :mod:`condottiere.interface` (the interface and the
registry) and asks the table's game for its :class:`~condottiere.interface.screen.GameScreen`
(the board, the rows, the hand, the choices and what each would do, the help).
"""
