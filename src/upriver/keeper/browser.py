"""The score keeper's engine on a phone: the entry point the page's Web Worker calls in Pyodide.

The page keeps a sheet on the phone as a *stored record* (IndexedDB, ``keep-api.js``): the
game record of the sheet as last agreed with a server (or as started on the phone), and the
log of entries made since, each ``{"action", "body"}`` exactly as the keeper API takes them.
Everything here speaks JSON text, so the worker passes strings both ways:

- :func:`open_sheet` rebuilds a sheet from its record and log, and keeps it in memory under
  a key, so each later entry costs one replay, not one per entry so far.
- :func:`act` applies one entry through :func:`upriver.keeper.commands.apply` — the very
  function the server's API applies — and answers the sheet's JSON view
  (:func:`upriver.keeper.commands.sheet_view`), its record and the entry as the page keeps it
  to merge later (its body, a bid's seat pinned, and the round it was made against:
  :mod:`upriver.keeper.conflicts`), or the engine's refusal as the API gives it (``{"error",
  "rule", "seat", "facts"}``), the sheet unchanged.
- :func:`warm` loads, as the worker starts, what the first entry would otherwise wait for.
- :func:`start` and :func:`import_record` make a new sheet, as ``POST /api/sheets`` and
  ``POST /api/sheets/import``; :func:`options` is ``GET /api/sheets/options``.

No rule is decided here: every refusal and every score is the engine's, as on the server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from upriver.errors import IllegalActionError, RecordError, RulesError
from upriver.keeper import KeptSheet, commands, conflicts
from upriver.names import PlayerNameError, check_names
from upriver.record import RecordRuleError, dumps, loads
from upriver.rules import rules_catalogue

__all__ = ["act", "export", "import_record", "open_sheet", "options", "start", "warm"]

_SHEETS: dict[str, KeptSheet] = {}


def warm() -> str:
    """Load what the engine otherwise loads on its first use (the names' look-alike table), so the
    first entry is answered as fast as the others; called once as the worker starts."""
    check_names(["Ann", "Bob"])
    return "{}"


def _refusal(message: str, rule: str, **data: object) -> dict[str, object]:
    return {"error": message, "rule": rule, **data}


def _illegal(error: IllegalActionError) -> dict[str, object]:
    return _refusal(str(error), error.rule, seat=error.seat, facts=error.facts_json())


def _answer(sheet: KeptSheet) -> str:
    return json.dumps({"view": commands.sheet_view(sheet), "record": dumps(sheet.to_record())})


def _apply(sheet: KeptSheet, action: str, body: Mapping[str, Any]) -> dict[str, object] | None:
    """Apply one entry to ``sheet``; the refusal as the API answers it, or ``None`` when applied."""
    try:
        commands.apply(sheet, action, body)
    except IllegalActionError as error:
        return _illegal(error)
    except commands.BadEntryError as error:
        return _refusal(str(error), error.rule, field=error.field, facts=error.facts_json())
    return None


def open_sheet(key: str, record: str, log: str = "[]") -> str:
    """Rebuild the sheet kept under ``key``: its ``record`` (JSON text), then each entry of ``log``.

    An entry the engine refuses is skipped and named in ``"refused"`` (its index and the
    refusal), never dropped from the log by this function: the page decides what to show.
    Answers ``{"view", "record", "refused": [{"index", "error", "rule", …}]}``.
    """
    try:
        sheet = KeptSheet.from_record(loads(record))
    except (RecordError, RecordRuleError) as error:
        return json.dumps(_refusal(f"not a game record: {error}", "record"))
    refused: list[dict[str, object]] = []
    for index, entry in enumerate(json.loads(log)):
        answer = _apply(sheet, str(entry.get("action", "")), entry.get("body") or {})
        if answer is not None:
            refused.append({"index": index, **answer})
    _SHEETS[key] = sheet
    answer = json.loads(_answer(sheet))
    answer["refused"] = refused
    return json.dumps(answer)


def act(key: str, action: str, body: str = "{}") -> str:
    """One entry on the sheet kept under ``key`` (opened by :func:`open_sheet`): ``{"view",
    "record"}`` after it, or the engine's refusal, the sheet unchanged."""
    sheet = _SHEETS.get(key)
    if sheet is None:
        return json.dumps(_refusal("no such sheet on this phone", "sheet"))
    data = json.loads(body)
    entry = conflicts.entry_of(sheet, action, data) if isinstance(data, dict) else data
    made = conflicts.against(sheet, action, entry) if isinstance(entry, dict) else None
    refused = _apply(sheet, action, entry)
    if refused is not None:
        return json.dumps(refused)
    answer = json.loads(_answer(sheet))
    answer["entry"] = {"body": entry, "against": None if made is None else made.to_json()}
    return json.dumps(answer)


def _started(key: str, sheet: KeptSheet) -> str:
    _SHEETS[key] = sheet
    return _answer(sheet)


def start(key: str, body: str) -> str:
    """A new sheet from the start page's request (``POST /api/sheets``), kept under ``key``."""
    try:
        sheet = commands.new_sheet(json.loads(body))
    except commands.BadEntryError as error:
        return json.dumps(_refusal(str(error), error.rule, field=error.field, facts=error.facts_json()))
    except PlayerNameError as error:
        return json.dumps(
            _refusal(str(error), "name", seat=error.seat, field="players", facts={"case": error.reason})
        )
    except RulesError as error:
        return json.dumps(_refusal(str(error), "rules", option=error.option))
    except IllegalActionError as error:
        return json.dumps(_illegal(error))
    except ValueError as error:  # a dealer that is no seat, or given with first_jack
        return json.dumps(_refusal(str(error), "dealer"))
    return _started(key, sheet)


def import_record(key: str, text: str) -> str:
    """A sheet carrying on from a game record's text (``POST /api/sheets/import``), kept under ``key``."""
    try:
        sheet = KeptSheet.from_record(loads(text))
    except RecordError as error:
        return json.dumps(_refusal(f"not a game record: {error}", "record"))
    except RecordRuleError as error:
        return json.dumps(_refusal(f"rule broken: {error}", error.rule))
    return _started(key, sheet)


def export(key: str, kind: str) -> str:
    """The sheet kept under ``key`` as CSV (``kind`` ``"csv"``) or as its game record's text."""
    sheet = _SHEETS[key]
    return sheet.to_csv() if kind == "csv" else dumps(sheet.to_record())


def options() -> str:
    """The rules and presets a new sheet may choose from, as ``GET /api/sheets/options``."""
    return json.dumps(rules_catalogue())
