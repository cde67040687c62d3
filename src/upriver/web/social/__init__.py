"""Table talk: chat, reactions and the table's notices."""
