"""Optional accounts by passkey (WebAuthn) for the web app: nothing at a table needs one.

An account keeps the seats its person holds, so that **My tables** lists their games on any
browser they sign in on. Its parts: the store (:mod:`.store`, over :mod:`upriver.database`),
the secrets and their hashes (:mod:`.tokens`), the WebAuthn ceremonies (:mod:`.passkeys`), the
session cookie and the CSRF check (:mod:`.sessions`), the seats and My tables (:mod:`.mytables`)
and the routes (:mod:`.routes`). docs/accounts.md says what a person sees.
"""

from __future__ import annotations

from upriver.web.accounts.routes import AccountRouter, account_router
from upriver.web.accounts.store import AccountStore, open_account_store

__all__ = ["AccountRouter", "AccountStore", "account_router", "open_account_store"]
