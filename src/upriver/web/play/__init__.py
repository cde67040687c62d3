"""Table play: the live tables, their WebSocket and messages, the clock, bots, claims, hints, rematches."""
