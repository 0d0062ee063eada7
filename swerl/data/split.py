"""Seeded, order-free sampling (the train/test split and the all-fail sample).

A sample of size k is the k ids with the smallest `sha256(tag:seed:id)`: independent of row
order, and stable as the set grows (a resumed probe's new id displaces an old one only by
outranking it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from swerl.errors import DataError


def seeded_sample(ids: Iterable[str], k: int, *, seed: int, tag: str) -> set[str]:
    """The `k` ids ranked first by `sha256(tag:seed:id)` (all of them if fewer)."""
    def rank(i: str) -> bytes:
        return hashlib.sha256(f"{tag}:{seed}:{i}".encode()).digest()

    return set(sorted(ids, key=rank)[:k]) if k > 0 else set()


def split_indices(instance_ids: Sequence[str], test_size: int, seed: int) -> tuple[list[int], list[int]]:
    """(train, test) positions, each in input order. More test rows than kept is an error: a silently smaller
    test set would make results incomparable."""
    n = len(instance_ids)
    if test_size > n:
        raise DataError(f"--test-size {test_size}: only {n} rows are kept after filtering")
    test = seeded_sample(instance_ids, test_size, seed=seed, tag="swerl-split")
    return [i for i in range(n) if instance_ids[i] not in test], [i for i in range(n) if instance_ids[i] in test]
