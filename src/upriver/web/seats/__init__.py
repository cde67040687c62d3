"""Seats and who holds them: tokens, invites, moving a seat, stand-in bots and presence."""
