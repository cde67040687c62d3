"""The bots' data files: the learned bid model ``bid_model.json`` (read by :mod:`upriver.bots.bidmodel`)."""
