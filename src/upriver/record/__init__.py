"""The game record (docs/record.md): read it, write it, and replay it through the engine.

>>> from upriver import Game, preset
>>> from upriver.record import dumps, loads, replay
>>> game = Game(preset("classic", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=3)
>>> record = loads(dumps(game))
>>> record.rounds[0].bids
(None, None, None, None)
>>> replay(record).hand(0) == game.hand(0)
True
"""

from upriver.record.model import FORMAT, Record, RecordRuleError, RoundRecord
from upriver.record.pbn import PbnError
from upriver.record.reading import load, loads, parse_record
from upriver.record.replay import replay
from upriver.record.trickster import dumps_pbn, loads_any, loads_pbn
from upriver.record.writing import dump, dumps, record_of, to_json

__all__ = [
    "FORMAT",
    "PbnError",
    "Record",
    "RecordRuleError",
    "RoundRecord",
    "dump",
    "dumps",
    "dumps_pbn",
    "load",
    "loads",
    "loads_any",
    "loads_pbn",
    "parse_record",
    "record_of",
    "replay",
    "to_json",
]
