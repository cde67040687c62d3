"""The WebAuthn ceremonies with py_webauthn: registering a passkey and signing in with one.

The relying party is the site the page was loaded from: its ID is the host name of the request's
``Origin`` and the origin expected in the signed client data is that ``Origin``. The app's
guard has already refused a state-changing request from a foreign origin (``origin_allowed`` in
:mod:`upriver.web.hosting.guard`), so the Origin a ceremony reads is this server's own. Passkeys are
asked to be discoverable (a resident key: signing in needs no user name) and to verify their
user where they can; an authenticator that only proves presence is accepted.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, options_to_json_dict
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from upriver.web.accounts.errors import AccountError
from upriver.web.accounts.store import NewPasskey, Passkey

__all__ = [
    "RP_NAME",
    "RelyingParty",
    "authentication_options",
    "credential_id",
    "registration_options",
    "verify_authentication",
    "verify_registration",
]

RP_NAME = "upriver"
"""The site's name an authenticator shows beside a passkey."""
_TIMEOUT_MS = 120_000
"""How long the browser waits for the person at the authenticator."""
_KNOWN_TRANSPORTS = frozenset({"usb", "nfc", "ble", "internal", "cable", "hybrid", "smart-card"})


@dataclasses.dataclass(frozen=True, slots=True)
class RelyingParty:
    """The site a ceremony is for: its RP ID (a host name) and the page's origin."""

    id: str
    origin: str

    @classmethod
    def of(cls, request: Request) -> RelyingParty:
        """The relying party of ``request``, from its ``Origin`` header.

        :raises AccountError: (400) no Origin (not a browser page), or a host that is an IP address,
            which WebAuthn refuses as an RP ID.
        """
        origin = request.headers.get("origin")
        host = urlsplit(origin).hostname if origin else None
        if not origin or not host:
            raise AccountError(
                "a passkey is made and used from this site's page: the request needs its Origin header",
                400,
                rule="origin",
            )
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return cls(id=host, origin=origin)
        raise AccountError(
            f"passkeys work only at a host name, not at the IP address {host}: open this site as "
            "http://localhost:PORT on this machine, or under its domain name",
            400,
            rule="origin",
        )


def _options(options: Any) -> dict[str, Any]:
    data: dict[str, Any] = options_to_json_dict(options)
    return data


def registration_options(
    rp: RelyingParty, user_id: str, name: str, exclude: list[Passkey]
) -> tuple[str, dict[str, Any]]:
    """A new passkey's creation options for the account ``user_id`` shown as ``name`` (``exclude``:
    the account's passkeys, which an authenticator need not make twice); the challenge (base64url)
    and the options as JSON for ``navigator.credentials.create``."""
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_name=name,
        user_id=user_id.encode(),
        user_display_name=name,
        timeout=_TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(key.id)) for key in exclude],
    )
    return bytes_to_base64url(options.challenge), _options(options)


def authentication_options(rp: RelyingParty) -> tuple[str, dict[str, Any]]:
    """Sign-in options with no credential named (a discoverable passkey picks its account); the
    challenge (base64url) and the options as JSON for ``navigator.credentials.get``."""
    options = generate_authentication_options(
        rp_id=rp.id, timeout=_TIMEOUT_MS, user_verification=UserVerificationRequirement.PREFERRED
    )
    return bytes_to_base64url(options.challenge), _options(options)


def credential_id(credential: dict[str, Any]) -> str:
    """The credential id a browser's answer names (base64url).

    :raises AccountError: (400) the answer names none.
    """
    found = credential.get("id")
    if not isinstance(found, str) or not found or len(found) > 1400:
        raise AccountError(
            "'credential': the browser's answer must be a PublicKeyCredential as JSON, with its 'id'",
            400,
            field="credential",
        )
    return found


def _transports(credential: dict[str, Any]) -> tuple[str, ...]:
    response = credential.get("response")
    listed = response.get("transports") if isinstance(response, dict) else None
    if not isinstance(listed, list):
        return ()
    return tuple(sorted({item for item in listed if isinstance(item, str) and item in _KNOWN_TRANSPORTS}))


def verify_registration(
    rp: RelyingParty, credential: dict[str, Any], challenge: str, name: str
) -> NewPasskey:
    """The passkey a browser's registration answer made, checked against ``challenge`` and ``rp``.

    :raises AccountError: (400) the answer does not verify: its sentence says why.
    """
    try:
        verified = verify_registration_response(
            credential=json.dumps(credential),
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            require_user_verification=False,
        )
    except Exception as error:  # py_webauthn raises many kinds for a malformed answer: all are a 400
        raise AccountError(f"the new passkey could not be verified: {error}", 400, rule="passkey") from None
    return NewPasskey(
        id=bytes_to_base64url(verified.credential_id),
        public_key=bytes_to_base64url(verified.credential_public_key),
        sign_count=verified.sign_count,
        transports=_transports(credential),
        name=name,
    )


def verify_authentication(
    rp: RelyingParty, credential: dict[str, Any], challenge: str, passkey: Passkey
) -> int:
    """Check a browser's sign-in answer made with ``passkey``; its new signature counter.

    :raises AccountError: (400) the answer does not verify (a wrong signature, another site, a
        counter gone backwards: a cloned authenticator): its sentence says why.
    """
    handle = (
        credential.get("response", {}).get("userHandle")
        if isinstance(credential.get("response"), dict)
        else None
    )
    if isinstance(handle, str) and handle and handle != bytes_to_base64url(passkey.user_id.encode()):
        raise AccountError("this passkey belongs to another account", 400, rule="passkey")
    try:
        verified = verify_authentication_response(
            credential=json.dumps(credential),
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp.id,
            expected_origin=rp.origin,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=False,
        )
    except Exception as error:  # py_webauthn raises many kinds for a malformed answer: all are a 400
        raise AccountError(
            f"the passkey's answer could not be verified: {error}", 400, rule="passkey"
        ) from None
    return verified.new_sign_count
