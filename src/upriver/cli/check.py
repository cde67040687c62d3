"""`upriver check FILE`: validate and score a game record (see RECORD.md)."""
