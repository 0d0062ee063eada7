"""Row normalisation and the static filter stages (1-3), as pure functions.

Each stage is a vectorised arrow function (`stage*_batch`) that `datasets.map` runs over batches; its plain
per-row rule, the reference it must agree with, is in tests/data/test_filter_rows.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from swerl.data.params import EMPTY_PROBLEM_STATEMENT, IMAGE_UNAVAILABLE, MISSING_BRANCH, TOO_MANY_TESTS
from swerl.errors import DataError
from swerl.tasks.schema import parse_test_list

if TYPE_CHECKING:
    import pyarrow as pa

# Helper columns added during the run and removed before writing.
ROW = "_row"
BAD = "_bad"
N_TESTS = "_n_tests"
REASON = "_reason"
HELPER_COLUMNS = (ROW, BAD, N_TESTS)


def normalise_row(
    instance_id: Any, image_name: Any, problem_statement: Any, f2p: Any, p2p: Any
) -> tuple[list[str], list[str], str]:
    """(F2P, P2P, problem) for one row: test lists parsed from lists or JSON strings; problem "" if fine.
    Reported, not raised, so `skip` can drop the row and `error` name the first after the (parallel) pass."""
    iid = instance_id if isinstance(instance_id, str) else repr(instance_id)
    try:
        if not isinstance(instance_id, str) or not instance_id.strip():
            raise DataError(f"row {iid}: field instance_id must be a non-empty string")
        if not isinstance(image_name, str) or not image_name.strip():
            raise DataError(f"row {iid!r}: field image_name must be a non-empty string")
        if problem_statement is not None and not isinstance(problem_statement, str):
            raise DataError(f"row {iid!r}: field problem_statement must be a string or null")
        fail = parse_test_list(f2p, instance_id=iid, field="FAIL_TO_PASS")
        pas = parse_test_list(p2p, instance_id=iid, field="PASS_TO_PASS")
    except DataError as exc:
        return [], [], str(exc)
    return fail, pas, ""


def normalise_batch(
    instance_id: Sequence[Any],
    image_name: Sequence[Any],
    problem_statement: Sequence[Any],
    fail_to_pass: Sequence[Any],
    pass_to_pass: Sequence[Any],
    indices: Sequence[int],
) -> dict[str, list[Any]]:
    """`datasets.map` body: normalised test lists, their total, the row index and a bad-row message."""
    out: dict[str, list[Any]] = {"FAIL_TO_PASS": [], "PASS_TO_PASS": [], N_TESTS: [], BAD: [], ROW: []}
    for args in zip(instance_id, image_name, problem_statement, fail_to_pass, pass_to_pass, strict=True):
        fail, pas, bad = normalise_row(*args)
        out["FAIL_TO_PASS"].append(fail)
        out["PASS_TO_PASS"].append(pas)
        out[N_TESTS].append(len(fail) + len(pas))
        out[BAD].append(bad)
    out[ROW] = list(indices)
    return out


def screen_arrow_batch(batch: pa.Table, indices: Sequence[int]) -> pa.Table:
    """Vectorised `normalise_batch` for test lists already `list<string>`: nothing is rewritten; suspicious
    rows (nulls, blank ids, null test ids) found with arrow compute go through `normalise_row` for the message."""
    import pyarrow as pa
    import pyarrow.compute as pc

    fail, pas = batch["FAIL_TO_PASS"], batch["PASS_TO_PASS"]
    suspect = pc.or_(_blank(batch["instance_id"]), _blank(batch["image_name"]))
    suspect = pc.or_(suspect, pc.or_(pc.is_null(fail), pc.is_null(pas))).to_numpy(zero_copy_only=False).copy()
    for col in (fail.combine_chunks(), pas.combine_chunks()):
        parents = pc.list_parent_indices(col)
        null_items = pc.is_null(pc.list_flatten(col))
        suspect[pc.filter(parents, null_items).to_numpy(zero_copy_only=False)] = True
    n_tests = pc.add(pc.fill_null(pc.list_value_length(fail), 0), pc.fill_null(pc.list_value_length(pas), 0))
    bad = [""] * len(batch)
    for i in suspect.nonzero()[0].tolist():
        row = batch.slice(i, 1).to_pylist()[0]
        bad[i] = normalise_row(row["instance_id"], row["image_name"], row["problem_statement"],
                               row["FAIL_TO_PASS"], row["PASS_TO_PASS"])[2]
    return pa.table({N_TESTS: n_tests.cast(pa.int64()),
                     BAD: pa.array(bad, pa.string()), ROW: pa.array(list(indices), pa.int64())})


def duplicate_ids(instance_ids: Sequence[Any]) -> dict[int, str]:
    """Row index -> bad-row message for every repeat of an instance_id (the first occurrence stays): duplicates
    would make branch, probe and dropped.jsonl lookups ambiguous."""
    seen: dict[str, int] = {}
    dups: dict[int, str] = {}
    for i, iid in enumerate(instance_ids):
        if not isinstance(iid, str):
            continue
        if iid in seen:
            dups[i] = f"row {iid!r}: field instance_id duplicates row {seen[iid]}"
        else:
            seen[iid] = i
    return dups


def _blank(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """Null, empty or whitespace-only strings (arrow's whitespace is Python's `str.isspace`)."""
    import pyarrow.compute as pc

    return pc.fill_null(pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(col)), 0), True)


def _reasons(mask: pa.Array, reason: str) -> pa.Table:
    """A one-column table: `reason` where `mask` is true, null elsewhere."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pa.table({REASON: pc.if_else(mask, pa.scalar(reason, pa.string()), pa.scalar(None, pa.string()))})


# --- stage 1: empty problem statement


def stage1_batch(batch: pa.Table) -> pa.Table:
    """None, "" or whitespace only (the agent would have nothing to work from), over an arrow batch."""
    return _reasons(_blank(batch["problem_statement"]), EMPTY_PROBLEM_STATEMENT)


# --- stage 2: the problem branch must exist in the image


def inventory_keys(inventory: Mapping[str, frozenset[str] | None]) -> tuple[pa.Array, pa.Array]:
    """(`image NUL branch` for every known branch, images that could not be inspected) for `stage2_batch`."""
    import pyarrow as pa

    keys = [f"{img}\0{b}" for img, branches in sorted(inventory.items()) if branches is not None
            for b in sorted(branches)]
    down = [img for img, branches in sorted(inventory.items()) if branches is None]
    return pa.array(keys, pa.string()), pa.array(down, pa.string())


def stage2_batch(batch: pa.Table, keys: pa.Array, unavailable: pa.Array) -> pa.Table:
    """`image_unavailable` if the image could not be inspected, `missing_branch` if the branch is absent, over an
    arrow batch: hash lookups of `image NUL instance_id` (see `inventory_keys`)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    key = pc.binary_join_element_wise(batch["image_name"], batch["instance_id"], "\0")
    down = pc.is_in(batch["image_name"], value_set=unavailable)
    missing = pc.invert(pc.is_in(key, value_set=keys))
    null = pa.scalar(None, pa.string())
    reason = pc.if_else(down, pa.scalar(IMAGE_UNAVAILABLE, pa.string()),
                        pc.if_else(missing, pa.scalar(MISSING_BRANCH, pa.string()), null))
    return pa.table({REASON: reason})


# --- stage 3: too many tests


def stage3_batch(batch: pa.Table, max_tests: int) -> pa.Table:
    """`len(F2P) + len(P2P) > max_tests` over an arrow batch: exactly `max_tests` is kept."""
    import pyarrow.compute as pc

    return _reasons(pc.greater(batch[N_TESTS], max_tests), TOO_MANY_TESTS)
