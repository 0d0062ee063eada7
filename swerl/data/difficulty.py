"""Stage 4: model-based difficulty from probe results (AL1 sec. 4.3.1).

Probe lines `{"instance_id", "attempt", "resolved"}`; a repeated (instance_id, attempt) is a
retry of a resumed probe (the last line wins). Fewer than `k` distinct attempts is `not_probed`:
excluded and listed in `dropped.jsonl`, so a rerun picks it up once the probe finishes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from swerl.data.params import ALL_FAIL, ALL_FAIL_UNSAMPLED, MIXED, NOT_PROBED, TOO_EASY
from swerl.data.split import seeded_sample

if TYPE_CHECKING:
    import pyarrow as pa

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
