"""Stage 4: model-based difficulty from probe results (AL1 sec. 4.3.1).

Probe lines `{"instance_id", "attempt", "resolved"}`; a repeated (instance_id, attempt) is a
retry of a resumed probe (the last line wins). Fewer than `k` distinct attempts is `not_probed`:
excluded and listed in `dropped.jsonl`, so a rerun picks it up once the probe finishes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from swerl.data.params import ALL_FAIL, ALL_FAIL_UNSAMPLED, MIXED, NOT_PROBED, TOO_EASY
from swerl.data.split import seeded_sample
from swerl.errors import DataError

if TYPE_CHECKING:
    import pyarrow as pa

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


def _attempt_order(a: int | str) -> tuple[int, int | str]:
    return (0, a) if isinstance(a, int) else (1, a)


def probe_category(attempts: Mapping[int | str, bool] | None, k: int) -> str:
    """`not_probed` (< k attempts), `too_easy` (all k resolved), `mixed`, or `all_fail`. The first k attempts
    (by id) decide, so extra attempts a resumed probe added change nothing."""
    if not attempts or len(attempts) < k:
        return NOT_PROBED
    first = [attempts[a] for a in sorted(attempts, key=_attempt_order)[:k]]
    if all(first):
        return TOO_EASY
    if any(first):
        return MIXED
    return ALL_FAIL


def probe_batch(batch: pa.Table, probes: Mapping[str, Mapping[int | str, bool]], k: int) -> pa.Table:
    """`datasets.map` body (arrow batch): the difficulty category of each row."""
    import pyarrow as pa

    ids = batch["instance_id"].to_pylist()
    return pa.table({"_category": pa.array([probe_category(probes.get(i), k) for i in ids], pa.string())})


def sample_all_fail(instance_ids: Sequence[str], keep: int, seed: int) -> set[str]:
    """A seeded sample of `keep` all-fail tasks: order-free, and stable as a resumed probe adds tasks."""
    return seeded_sample(instance_ids, keep, seed=seed, tag="swerl-all-fail")


def category_reason(category: str, sampled: bool) -> str | None:
    """Drop reason for a category (None = kept)."""
    if category == ALL_FAIL:
        return None if sampled else ALL_FAIL_UNSAMPLED
    if category == MIXED:
        return None
    return category  # not_probed, too_easy
