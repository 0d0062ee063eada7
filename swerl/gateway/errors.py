"""API errors: raised anywhere in the gateway, rendered as OpenAI-style JSON by the app's handlers."""

from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, message: str, type_: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type_ or _TYPES.get(status, "invalid_request_error")


_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
          409: "conflict_error", 413: "request_too_large", 422: "invalid_request_error", 502: "upstream_error",
          503: "service_unavailable", 504: "upstream_timeout"}
