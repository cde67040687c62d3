"""The arena: bots play each other on duplicate deals, and the statistics say where each stands."""
