"""The games the platform plays, and the one interface through which it plays them."""
