"""The one error of the account routes: a refusal with its status and data, in the API's shape."""

from __future__ import annotations

__all__ = ["AccountError"]


class AccountError(Exception):
    """A request the account routes refuse: the sentence, the HTTP status and the refusal's data
    (``rule``, ``field``, …), answered as :func:`upriver.web.hosting.guard.refusal` answers."""

    def __init__(self, message: str, status: int = 400, **data: object) -> None:
        super().__init__(message)
        self.status = status
        self.data = data
