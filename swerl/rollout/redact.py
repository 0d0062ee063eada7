"""Secrets out of saved trajectories (mini-swe-agent writes its model config, `api_key` included).

A trajectory is arbitrary nested JSON carrying model output, so three layers: secret-looking keys,
every occurrence of the known secret strings, and `Bearer ...` / `swr_...` tokens by pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

REDACTED = "[REDACTED]"
_SECRET_KEY = re.compile(r"(api[_-]?key|authorization|token|secret|password|passwd|credential)s?$", re.IGNORECASE)
_PATTERNS = (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"), re.compile(r"\bswr_[A-Za-z0-9_-]{16,}"))
_KEEP_KEYS = frozenset({"max_tokens", "prompt_tokens", "completion_tokens", "total_tokens", "n_tokens",
                        "token_ids", "prompt_token_ids", "max_completion_tokens", "cached_tokens", "reasoning_tokens"})


def _is_secret_key(key: str) -> bool:
    return key.lower() not in _KEEP_KEYS and not key.lower().endswith("_tokens") and bool(_SECRET_KEY.search(key))


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    for s in secrets:
        if s and len(s) >= 4:
            text = text.replace(s, REDACTED)
    for pat in _PATTERNS:
        text = pat.sub(lambda m: (m.group(1) if m.groups() else "") + REDACTED, text)
    return text


def redact(obj: Any, secrets: Iterable[str] = ()) -> Any:
    """A deep copy of `obj` with secret-looking keys and every known secret string replaced."""
    secrets = tuple(s for s in secrets if s)
    if isinstance(obj, dict):
        return {k: (REDACTED if isinstance(k, str) and _is_secret_key(k) and isinstance(v, str | bytes) and v
                    else redact(v, secrets)) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [redact(v, secrets) for v in obj]
    if isinstance(obj, str):
        return redact_text(obj, secrets)
    return obj
