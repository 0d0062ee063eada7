"""Structured logging: `key=value` records on stderr, JSON when SWERL_LOG_JSON=1."""

from __future__ import annotations

import json
import logging
import os
import sys
from typing import Any


class _KVFormatter(logging.Formatter):
    def __init__(self, as_json: bool) -> None:
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = getattr(record, "fields", {})
        if self.as_json:
            payload = {"ts": record.created, "level": record.levelname, "logger": record.name,
                       "msg": record.getMessage(), **fields}
            return json.dumps(payload, default=str)
        kv = " ".join(f"{k}={v!r}" if isinstance(v, str) and " " in v else f"{k}={v}" for k, v in fields.items())
        return f"{record.levelname.lower():5s} {record.name}: {record.getMessage()}" + (f" {kv}" if kv else "")


class KVLogger(logging.LoggerAdapter):
    """`log.info("event", key=value)`: keyword arguments become structured fields."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        reserved = {"exc_info", "stack_info", "stacklevel", "extra"}
        fields = {k: kwargs.pop(k) for k in list(kwargs) if k not in reserved}
        kwargs.setdefault("extra", {})["fields"] = fields
        return msg, kwargs


def get_logger(name: str) -> KVLogger:
    """A logger whose keyword arguments are recorded as fields, so logs stay machine-readable."""
    return KVLogger(logging.getLogger(name), {})


def configure(level: str | None = None) -> None:
    """Install the stderr handler once (CLI start-up); libraries never call this."""
    root = logging.getLogger("swerl")
    if any(getattr(h, "_swerl", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler._swerl = True  # type: ignore[attr-defined]
    handler.setFormatter(_KVFormatter(os.environ.get("SWERL_LOG_JSON") == "1"))
    root.addHandler(handler)
    root.setLevel(level or os.environ.get("SWERL_LOG_LEVEL", "WARNING"))
