"""The secrets of accounts, made and hashed in one place: session ids, CSRF tokens, recovery codes.

The server keeps only a SHA-256 of a session id or a recovery code: whoever reads the database
learns no secret that opens an account. A plain hash is enough here (no slow password hash),
because every one of these secrets is drawn at random with at least 50 bits, not chosen by a person.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = [
    "RECOVERY_CODES",
    "digest",
    "new_ceremony_id",
    "new_csrf_token",
    "new_recovery_codes",
    "new_session_id",
    "new_user_id",
    "normal_code",
]

RECOVERY_CODES = 10
"""How many recovery codes an account gets at a time."""

_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits a person reads without doubt (no i, l, o, 0, 1)."""
_CODE_LENGTH = 12
"""Characters of a recovery code: about 59 bits, written as three groups of four."""


def digest(secret: str) -> str:
    """What the store keeps of ``secret``: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_session_id() -> str:
    """A session's id, the cookie's value (256 bits)."""
    return secrets.token_urlsafe(32)


def new_csrf_token() -> str:
    """A session's CSRF token, which the page sends back in a header (192 bits)."""
    return secrets.token_urlsafe(24)


def new_user_id() -> str:
    """An account's id, also its WebAuthn user handle (128 bits; not a secret)."""
    return secrets.token_urlsafe(16)


def new_ceremony_id() -> str:
    """The id of a WebAuthn challenge kept between its options and its verification."""
    return secrets.token_urlsafe(16)


def new_recovery_codes(count: int = RECOVERY_CODES) -> list[str]:
    """``count`` fresh recovery codes, written ``abcd-efgh-jkmn``."""
    codes = []
    for _ in range(count):
        raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
        codes.append("-".join(raw[i : i + 4] for i in range(0, _CODE_LENGTH, 4)))
    return codes


def normal_code(text: str) -> str:
    """A recovery code as typed (any case, spaces or dashes anywhere) in the form it was made in.

    >>> normal_code(" ABCD efgh-JKMN ")
    'abcd-efgh-jkmn'
    """
    raw = "".join(char for char in text.lower() if char.isalnum())
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))
