"""`swerl data filter` as a library: load -> normalise -> stages 1-4 -> split -> write.

Each stage is one batched `datasets.map` over only the columns it needs, returning a narrow
reason column (the wide `patch` / statement columns are never rewritten), then `select` (an index
mapping, no copy). A row's drop reason is the first stage that drops it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.data import difficulty, filters
from swerl.data.inventory import BranchInventory, ImageUnavailable, make_inventory
from swerl.data.params import (
    ALL_FAIL,
    BAD_ROW,
    MIXED,
    PROBE_REASONS,
    STATIC,
    STATIC_REASONS,
    FilterParams,
    FilterReport,
)
from swerl.data.split import split_indices
from swerl.errors import DataError
from swerl.log import get_logger
from swerl.tasks.load import LoadedRows, load_rows_checked
from swerl.tasks.probes import ProbeResults, read_probe_results

if TYPE_CHECKING:
    import pyarrow as pa
    from datasets import Dataset

log = get_logger(__name__)

# (stage, completed, total): the CLI draws one progress bar per stage from these calls.
ProgressHook = Callable[[str, int, int], None]

STAGE_LOAD = "load"
STAGE_NORMALISE = "normalise rows"
STAGE_1 = "1 empty_problem_statement"
STAGE_INSPECT = "2 inspect images"
STAGE_2 = "2 missing_branch"
STAGE_3 = "3 too_many_tests"
STAGE_4 = "4 difficulty (probe results)"
STAGE_WRITE = "split + write"

# Below this many rows, extra processes cost more than they save (measured: bench/data_filter.py).
AUTO_NUM_PROC_MIN_ROWS = 500_000


def _no_progress(stage: str, completed: int, total: int) -> None:
    return None


@dataclass
class FilterOutcome:
    """What the filter decided; `write_outputs` turns it into files."""

    n_input: int
    dropped: list[tuple[int, str | None, str]]  # (input row, instance_id, reason), input order
    kept: dict[str, int]
    train: Dataset
    test: Dataset
    reasons: list[str] = field(default_factory=list)  # the reasons this run could produce, in order

    def report(self, params: FilterParams) -> FilterReport:
        counts = dict.fromkeys(self.reasons, 0) | Counter(reason for _, _, reason in self.dropped)
        return FilterReport(input=self.n_input, dropped=counts, kept=dict(self.kept),
                            splits={"train": len(self.train), "test": len(self.test)}, params=params.report_params())


def resolve_num_proc(num_proc: int | None, n_rows: int) -> int | None:
    """`--num-proc`, or 1 process below `AUTO_NUM_PROC_MIN_ROWS` rows, else up to 4 cores."""
    if num_proc is not None:
        return None if num_proc <= 1 else num_proc
    if n_rows < AUTO_NUM_PROC_MIN_ROWS:
        return None
    return min(os.cpu_count() or 1, 4)


class _Survivors:
    """The rows still in play: a `select`-ed dataset plus their input-row numbers and ids."""

    def __init__(self, ds: Dataset, rows: list[int], ids: list[str]) -> None:
        self.ds, self.rows, self.ids = ds, rows, ids

    def classify(self, fn: Callable[..., pa.Table], columns: list[str], out_column: str,
                 num_proc: int | None, **kwargs: Any) -> list[Any]:
        """Run an arrow batch function over `columns`; only its narrow output column is materialised."""
        if len(self.ds) == 0:
            return []
        narrow = self.ds.select_columns(columns).with_format("arrow")
        res = narrow.map(
            fn, batched=True, batch_size=20_000, remove_columns=columns, fn_kwargs=kwargs, keep_in_memory=True,
            num_proc=num_proc, load_from_cache_file=False, new_fingerprint=_derived_fingerprint(self.ds, fn.__name__),
        )
        return res.with_format(None)[out_column][:]

    def drop(self, reasons: Sequence[str | None], dropped: list[tuple[int, str | None, str]]) -> _Survivors:
        keep = [i for i, r in enumerate(reasons) if r is None]
        for i, r in enumerate(reasons):
            if r is not None:
                dropped.append((self.rows[i], self.ids[i], r))
        if len(keep) == len(self.rows):
            return self
        ds = self.ds.select(keep, new_fingerprint=_derived_fingerprint(self.ds, f"keep{len(keep)}"))
        return _Survivors(ds, [self.rows[i] for i in keep], [self.ids[i] for i in keep])


def _is_string_list(feature: Any) -> bool:
    from datasets import List, Value

    return isinstance(feature, List) and feature.length == -1 and feature.feature == Value("string")


def _has_arrow_fast_path(ds: Dataset) -> bool:
    """Test lists already `list<string>` and id/statement columns strings: screen with arrow, rewrite nothing."""
    from datasets import Value

    f = ds.features
    return (_is_string_list(f["FAIL_TO_PASS"]) and _is_string_list(f["PASS_TO_PASS"])
            and all(f[c] == Value("string") for c in ("instance_id", "image_name", "problem_statement")))


def normalise(ds: Dataset, num_proc: int | None, work_dir: Path | None = None) -> tuple[Dataset, list[str]]:
    """Test lists as lists (from lists or JSON strings) + helper columns; returns (dataset, bad messages).
    Native `list<string>` rows are screened with arrow and not rewritten; others are parsed in Python into
    `work_dir` (or memory), never into the HF cache."""
    from datasets import Features, List, Value, concatenate_datasets

    cols = ["instance_id", "image_name", "problem_statement", "FAIL_TO_PASS", "PASS_TO_PASS"]
    helpers = {filters.N_TESTS: Value("int64"), filters.BAD: Value("string"), filters.ROW: Value("int64")}
    clash = [c for c in filters.HELPER_COLUMNS if c in ds.column_names]
    if clash:
        raise DataError(f"--dataset: column(s) {', '.join(clash)} are reserved for the filter's bookkeeping")
    if ds._indices is not None:  # a selected/shuffled dataset: column-wise concatenation needs a flat table
        ds = ds.flatten_indices()
    fp = _derived_fingerprint(ds, "normalise")
    common = {"batched": True, "batch_size": 2000, "with_indices": True, "num_proc": num_proc,
              "new_fingerprint": fp, "load_from_cache_file": False}
    if _has_arrow_fast_path(ds):
        narrow = ds.select_columns(cols).with_format("arrow")
        norm = narrow.map(filters.screen_arrow_batch, remove_columns=cols, features=Features(helpers),
                          keep_in_memory=True, **common).with_format(None)
        full = concatenate_datasets([ds, norm], axis=1)
    else:
        features = Features({"FAIL_TO_PASS": List(Value("string")), "PASS_TO_PASS": List(Value("string")),
                             **helpers})
        where: dict[str, Any] = ({"cache_file_name": str(work_dir / f"normalised-{fp}.arrow")}
                                 if work_dir is not None else {"keep_in_memory": True})
        norm = ds.map(filters.normalise_batch, input_columns=cols, remove_columns=ds.column_names,
                      features=features, **common, **where)
        full = concatenate_datasets([ds.remove_columns(["FAIL_TO_PASS", "PASS_TO_PASS"]), norm], axis=1)
    order = [*ds.column_names, filters.N_TESTS, filters.BAD, filters.ROW]
    return full.select_columns(order), norm[filters.BAD][:]


def _derived_fingerprint(ds: Dataset, step: str) -> str:
    """A fingerprint without hashing the function's arguments (datasets would pickle whole dicts)."""
    return hashlib.sha256(f"{ds._fingerprint}:{step}:swerl-filter-v1".encode()).hexdigest()[:16]


def inspect_images(images: Sequence[str], inventory: BranchInventory,
                   progress: ProgressHook) -> dict[str, frozenset[str] | None]:
    """Each distinct image once; an image that cannot be inspected maps to None (-> image_unavailable)."""
    found: dict[str, frozenset[str] | None] = {}
    progress(STAGE_INSPECT, 0, len(images))
    for n, image in enumerate(images, start=1):
        try:
            found[image] = frozenset(inventory.branches(image))
        except ImageUnavailable as exc:
            log.warning("image unavailable", image=image, reason=str(exc))
            found[image] = None
        progress(STAGE_INSPECT, n, len(images))
    return found


def filter_dataset(ds: Dataset, params: FilterParams, *, inventory: BranchInventory | None,
                   probes: ProbeResults | None = None, progress: ProgressHook = _no_progress,
                   work_dir: Path | None = None, row_label: Callable[[int], str] | None = None) -> FilterOutcome:
    """Classify every row (bad row, stages 1-4), then split the kept rows. Nothing is written but scratch in
    `work_dir` (None: memory); `row_label(i)` names row i in errors (`FILE:LINE`)."""
    from datasets import Dataset as HFDataset

    n = len(ds)
    num_proc = resolve_num_proc(params.num_proc, n)
    dropped: list[tuple[int, str | None, str]] = []

    progress(STAGE_NORMALISE, 0, n)
    cur, had_bad = _screen_rows(ds, params, num_proc, dropped, work_dir, row_label)
    progress(STAGE_NORMALISE, n, n)

    cur = _stage(cur, STAGE_1, dropped, progress, filters.stage1_batch, ["problem_statement"], num_proc)
    if inventory is not None:
        images = sorted(set(cur.ds["image_name"][:])) if cur.rows else []
        found = inspect_images(images, inventory, progress)
        keys, unavailable = filters.inventory_keys(found)
        cur = _stage(cur, STAGE_2, dropped, progress, filters.stage2_batch, ["instance_id", "image_name"],
                     num_proc, keys=keys, unavailable=unavailable)
    cur = _stage(cur, STAGE_3, dropped, progress, filters.stage3_batch, [filters.N_TESTS], num_proc,
                 max_tests=params.max_tests)

    reasons_order = ([BAD_ROW] if params.on_bad_row == "skip" or had_bad else []) + list(STATIC_REASONS)
    if probes is None:
        kept = {STATIC: len(cur.rows)}
    else:
        cur, kept = _stage4(cur, probes, params, num_proc, dropped, progress)
        reasons_order += list(PROBE_REASONS)

    train_pos, test_pos = split_indices(cur.ids, params.test_size, params.seed)
    dropped.sort(key=lambda d: d[0])
    kept_ds = cur.ds.remove_columns(list(filters.HELPER_COLUMNS))
    digest = _fingerprint_seed(params, cur.ids)
    train = _finalise(HFDataset, kept_ds, train_pos, "train", digest)
    test = _finalise(HFDataset, kept_ds, test_pos, "test", digest)
    log.info("filtered", input=n, dropped=len(dropped), train=len(train), test=len(test))
    return FilterOutcome(n_input=n, dropped=dropped, kept=kept, train=train, test=test, reasons=reasons_order)


def _screen_rows(ds: Dataset, params: FilterParams, num_proc: int | None,
                 dropped: list[tuple[int, str | None, str]], work_dir: Path | None,
                 row_label: Callable[[int], str] | None = None) -> tuple[_Survivors, bool]:
    """Normalise, then stop on the first malformed row (`error`) or drop them all as `bad_row` (`skip`)."""
    full, bad = normalise(ds, num_proc, work_dir)
    ids: list[Any] = ds["instance_id"][:]
    for i, msg in filters.duplicate_ids(ids).items():
        bad[i] = bad[i] or msg
    bad_rows = [i for i, msg in enumerate(bad) if msg]
    if bad_rows and params.on_bad_row == "error":
        where = f"--dataset {row_label(bad_rows[0])}: " if row_label is not None else ""
        raise DataError(
            f"{where}{bad[bad_rows[0]]} ({len(bad_rows)} malformed row(s); "
            f"--on-bad-row skip drops them as {BAD_ROW})"
        )
    dropped.extend((i, ids[i], BAD_ROW) for i in bad_rows)
    good = [i for i, msg in enumerate(bad) if not msg]
    if bad_rows:
        full = full.select(good, new_fingerprint=_derived_fingerprint(full, "good"))
    return _Survivors(full, good, [ids[i] for i in good]), bool(bad_rows)


def _stage(cur: _Survivors, name: str, dropped: list[tuple[int, str | None, str]], progress: ProgressHook,
           fn: Callable[..., pa.Table], columns: list[str], num_proc: int | None,
           **kwargs: Any) -> _Survivors:
    """One static stage: classify the survivors, record the dropped, keep the rest."""
    total = len(cur.rows)
    progress(name, 0, total)
    survivors = cur.drop(cur.classify(fn, columns, filters.REASON, num_proc, **kwargs), dropped)
    log.info("stage", stage=name, rows=total, dropped=total - len(survivors.rows))
    progress(name, total, total)
    return survivors


def _stage4(cur: _Survivors, probes: ProbeResults, params: FilterParams, num_proc: int | None,
            dropped: list[tuple[int, str | None, str]], progress: ProgressHook) -> tuple[_Survivors, dict[str, int]]:
    """Difficulty from probe results: too easy and unprobed out, mixed kept, a seeded sample of all-fail kept."""
    total = len(cur.rows)
    progress(STAGE_4, 0, total)
    cats = cur.classify(difficulty.probe_batch, ["instance_id"], "_category", num_proc,
                        probes={i: probes[i] for i in cur.ids if i in probes}, k=params.attempts)
    sampled = difficulty.sample_all_fail(
        [i for i, c in zip(cur.ids, cats, strict=True) if c == ALL_FAIL], params.all_fail_keep, params.seed)
    reasons = [difficulty.category_reason(c, i in sampled) for i, c in zip(cur.ids, cats, strict=True)]
    survivors = cur.drop(reasons, dropped)
    progress(STAGE_4, total, total)
    return survivors, {MIXED: sum(c == MIXED for c in cats), ALL_FAIL: len(sampled)}


def _fingerprint_seed(params: FilterParams, kept_ids: Sequence[str]) -> str:
    h = hashlib.sha256(json.dumps(params.report_params(), sort_keys=True).encode())
    for i in kept_ids:
        h.update(i.encode() + b"\0")
    return h.hexdigest()


def _finalise(cls: type[Dataset], ds: Dataset, positions: list[int], split: str, digest: str) -> Dataset:
    """An in-memory dataset with a deterministic fingerprint and clean info, so `save_to_disk` is byte-stable
    (the loaded info carries the input's paths and stale sizes; datasets' own fingerprints can be random).
    Rows are gathered with arrow `take`, not `flatten_indices`, which round-trips through Python."""
    from datasets import DatasetInfo, NamedSplit
    from datasets.table import InMemoryTable

    fp = hashlib.sha256(f"{digest}:{split}".encode()).hexdigest()[:16]
    table = ds.select(positions, new_fingerprint=fp).with_format("arrow")[:]
    info = DatasetInfo(description=f"swerl data filter: {split} split", features=ds.features)
    return cls(InMemoryTable(table), info=info, split=NamedSplit(split), fingerprint=fp)


def _add_skipped(outcome: FilterOutcome, loaded: LoadedRows) -> None:
    """Rows the loader left out (`--on-bad-row skip`) join the dropped list as `bad_row`, in input order."""
    if not loaded.skipped:
        return
    outcome.dropped = sorted([(loaded.position(i), iid, reason) for i, iid, reason in outcome.dropped]
                             + [(b.position, b.instance_id, BAD_ROW) for b in loaded.skipped], key=lambda d: d[0])
    outcome.n_input = loaded.n_input
    if BAD_ROW not in outcome.reasons:
        outcome.reasons.insert(0, BAD_ROW)


def run_filter(params: FilterParams, progress: ProgressHook = _no_progress) -> FilterReport:
    """The whole command: check `--out`, build the inventory, load, filter, write atomically. Scratch (arrow
    conversions, parsed test lists) lives in a work dir next to `--out`, removed at the end."""
    from swerl.data.report import check_out_dir, write_outputs

    check_out_dir(params.out)
    inventory = make_inventory(branches=params.branches, inspect=params.resolved_inspect(),
                               repos=params.repos, cache_dir=params.cache_dir)
    probes = read_probe_results(params.probe_results) if params.probe_results else None
    out = Path(params.out).absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.work-", dir=out.parent))
    try:
        progress(STAGE_LOAD, 0, 1)
        loaded = load_rows_checked(params.dataset, params.split, num_proc=params.num_proc, cache_dir=work / "hf",
                                   on_bad_row=params.on_bad_row)
        progress(STAGE_LOAD, 1, 1)
        outcome = filter_dataset(loaded.ds, params, inventory=inventory, probes=probes, progress=progress,
                                 work_dir=work, row_label=loaded.label)
        _add_skipped(outcome, loaded)
        report = outcome.report(params)
        progress(STAGE_WRITE, 0, 1)
        write_outputs(outcome, report, out)
        progress(STAGE_WRITE, 1, 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return report
