"""Nothing secret reaches a page: every JSON object the viewer serves from run files goes through `clean`.

The gateway stores requests redacted and trajectories are saved redacted, but run files can come
from older versions, other harnesses, or hand edits, so the viewer redacts again: secret-looking
keys and bearer / rollout tokens (`swerl.rollout.redact`), plus API-key shapes (`sk-...`,
`hf_...`) in any string. The store's token hashes are never read at all (`swerl.view.store`).
"""

from __future__ import annotations

import re
from typing import Any

from swerl.rollout.redact import REDACTED, redact

_KEYS = re.compile(r"\b(sk-[A-Za-z0-9_-]{16,}|hf_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,})")


def _more(obj: Any) -> Any:
    if isinstance(obj, str):
        return _KEYS.sub(REDACTED, obj)
    if isinstance(obj, dict):
        return {k: _more(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_more(v) for v in obj]
    return obj


def clean(obj: Any) -> Any:
    """A redacted deep copy of JSON-like `obj`."""
    return _more(redact(obj))


__all__ = ["clean"]
