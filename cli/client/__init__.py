"""The full-screen terminal client (``condottiere play``), built on prompt_toolkit.

As in ptpython and pymux, the parts are kept apart:

- :mod:`cli.client.model`: what the screen shows of the table (no prompt_toolkit);
- :mod:`cli.client.commands`: what the command line understands, and its completion;
- :mod:`cli.client.views`: how each part of the screen draws the model;
- :mod:`cli.client.layout`: where each part goes; :mod:`cli.client.style`: the colours;
- :mod:`cli.client.keys`: what each key does;
- :mod:`cli.client.app`: the application, following the seat's controller in the peer's own
  event loop.
"""
