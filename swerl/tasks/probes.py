"""Probe results: per task, which attempts of the model resolved it (`swerl rollout probe` writes them, the data
filter's difficulty stage reads them). A task-level record, so it lives with the task model.

Lines `{"instance_id", "attempt", "resolved"}`; a repeated (instance_id, attempt) is a retry of a resumed probe
(the last line wins).
"""

from __future__ import annotations

import json
from pathlib import Path

from swerl.errors import DataError

# instance_id -> {attempt: resolved}
ProbeResults = dict[str, dict[int | str, bool]]


def read_probe_results(path: Path) -> ProbeResults:
    """Parse the probe JSONL; a bad line is an error naming its line number and field."""
    results: ProbeResults = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"--probe-results {str(path)!r}: cannot read: {exc}") from exc
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"--probe-results {str(path)!r} line {lineno}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}: not JSON: {exc.msg}") from exc
        if not isinstance(rec, dict):
            raise DataError(f"{where}: must be an object {{instance_id, attempt, resolved}}")
        iid, attempt, resolved = rec.get("instance_id"), rec.get("attempt"), rec.get("resolved")
        if not isinstance(iid, str) or not iid:
            raise DataError(f"{where}: field instance_id must be a non-empty string")
        if isinstance(attempt, bool) or not isinstance(attempt, int | str):
            raise DataError(f"{where} (instance {iid!r}): field attempt must be an integer or string")
        if not isinstance(resolved, bool):
            raise DataError(f"{where} (instance {iid!r}): field resolved must be true or false")
        results.setdefault(iid, {})[attempt] = resolved  # last line wins (resumed probes)
    return results
