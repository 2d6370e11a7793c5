"""High Card, the test suite's third game (not shipped): see ``game.py``."""
