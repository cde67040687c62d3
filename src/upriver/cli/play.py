"""`upriver play`: a game in the terminal against bots."""
