"""The host names this server answers to: a guard against DNS rebinding.

A page of ``evil.example`` can make its own name resolve to the address of a server on the
visitor's machine or network (DNS rebinding): the browser then sends that server requests
with ``Host: evil.example`` and ``Origin: http://evil.example``, which look same-origin. So
``upriver serve`` answers only requests whose ``Host`` names one of its allowed hosts
(``--allowed-host``, repeatable); any other is refused before the app reads it (HTTP 400, a
WebSocket closed with :data:`CLOSE_BAD_HOST`), and a page's Origin must name an allowed host too
(:func:`upriver.web.hosting.guard.origin_allowed`).

By default the allowed hosts are the address the server is bound to and the loopback names
(``localhost``, ``127.0.0.1``, ``::1``). A server bound to every address (``0.0.0.0`` or ``::``)
also answers to any IP address written as such (a rebinding attack needs a name: an address in
the Host header is the one the browser connected to) and to this machine's own host name; a name
in DNS (``cards.example``) must be given with ``--allowed-host``. ``*`` allows every host.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket
from collections.abc import Iterable

__all__ = ["CLOSE_BAD_HOST", "LOOPBACK_NAMES", "HostPolicy"]

CLOSE_BAD_HOST = 4400
"""WebSocket close code: the connection named a host this server does not answer to."""

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names of this machine that every server answers to unless told otherwise."""

_WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})


def host_name(header: str) -> str:
    """The host name of a ``Host`` header (or an ``--allowed-host``), without its port, brackets or final
    dot, in lower case.

    >>> host_name("Cards.Example.:8443"), host_name("[::1]:8000"), host_name("::1")
    ('cards.example', '::1', '::1')
    """
    text = header.strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclasses.dataclass(frozen=True, slots=True)
class HostPolicy:
    """Which ``Host`` headers are answered: ``names`` (host names without ports), any IP address if
    ``any_address``, anything if ``anything``."""

    names: frozenset[str]
    any_address: bool = False
    anything: bool = False

    @classmethod
    def of(cls, allowed: Iterable[str], bound: str = "127.0.0.1") -> HostPolicy:
        """The policy of ``--allowed-host`` values ``allowed``, or when there are none the default for a
        server bound to ``bound`` (see the module).

        >>> sorted(HostPolicy.of([], "192.168.1.5").names)
        ['127.0.0.1', '192.168.1.5', '::1', 'localhost']
        >>> HostPolicy.of(["cards.example"]).allows("cards.example:443")
        True
        """
        given = [host_name(name) for name in allowed if name.strip()]
        if given:
            return cls(frozenset(given) - {"*"}, anything="*" in given)
        names = {*LOOPBACK_NAMES}
        wildcard = host_name(bound) in _WILDCARDS or bound in _WILDCARDS
        if wildcard:
            own = socket.gethostname().lower()
            names |= {own, f"{own}.local"}
        else:
            names.add(host_name(bound))
        return cls(frozenset(names), any_address=wildcard)

    def allows(self, header: str | None) -> bool:
        """Whether a request whose ``Host`` header is ``header`` (``None``: none sent) is answered."""
        if self.anything:
            return True
        if not header:
            return False
        name = host_name(header)
        return name in self.names or (self.any_address and _is_address(name))

    def sentence(self, header: str | None) -> str:
        """Why a request for ``header`` is refused, and what would be answered."""
        shown = "no Host header" if not header else f"the host {header[:100]!r}"
        allowed = sorted(self.names) + (["any IP address"] if self.any_address else [])
        return (
            f"this server does not answer to {shown}: it answers to {', '.join(allowed)} "
            "(the host's --allowed-host option adds a name)"
        )
