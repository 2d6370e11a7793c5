from condottiere.games.condottiere import Move


class Frugal:
    """Plays its smallest mercenary while it is not ahead in a battle, else passes."""

    name = "frugal"

    def choose(self, game, seat):
        moves = game.legal_moves()
        if game.phase != "battle":  # keep a hand; where to fight, the Favor: the first move
            return Move.parse("keep") if game.phase == "discard" else moves[0]
        rivals = max(game.strength(other) for other in range(game.players) if other != seat)
        mercenaries = [move for move in moves if move.card and move.card.isdigit()]
        if game.strength(seat) > rivals or not mercenaries:
            return Move.parse("pass")
        return min(mercenaries, key=lambda move: int(move.card))
