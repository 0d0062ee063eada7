"""Load SWE-smith / SWE-bench rows with `datasets`: a hub name (with split), a file or a save_to_disk dir.

JSON inputs are scanned by swerl first, one row at a time: `datasets` reports a broken line as
"An error occurred while generating the dataset" and silently coerces wrong types (a `repo`
object turns every row's `repo` into a JSON string). The scan names `FILE:LINE` and the field;
`--on-bad-row skip` leaves such rows out as `bad_row`.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.errors import DataError
from swerl.log import get_logger
from swerl.tasks.schema import REQUIRED_COLUMNS, TEST_LIST_FIELDS

if TYPE_CHECKING:
    from datasets import Dataset

log = get_logger(__name__)

_FILE_BUILDERS = {".parquet": "parquet", ".jsonl": "json", ".json": "json"}
_STRING_FIELDS = tuple(c for c in REQUIRED_COLUMNS if c not in TEST_LIST_FIELDS)
_SKIP_HINT = "--on-bad-row skip drops such rows as bad_row"
_LOG_SKIPPED = 20  # skipped rows logged one by one; the rest are counted (all are in dropped.jsonl)


@dataclass
class BadRow:
    """An input row left out before loading: its 0-based position among the input rows and why."""

    position: int
    instance_id: str | None
    message: str


@dataclass
class LoadedRows:
    """The loaded dataset, the rows the pre-load scan left out, and dataset row i's position among all input
    rows (`positions`) and its `FILE:LINE` / `FILE item N` label (`labels`; None for non-JSON formats)."""

    ds: Dataset
    source: str
    skipped: list[BadRow] = field(default_factory=list)
    positions: list[int] | None = None
    labels: list[str] | None = None

    @property
    def n_input(self) -> int:
        return len(self.ds) + len(self.skipped)

    def position(self, i: int) -> int:
        return self.positions[i] if self.positions is not None else i

    def label(self, i: int) -> str:
        """`FILE:LINE` (JSON lines), `FILE item N` (JSON array) or `SOURCE row N` (0-based), for messages."""
        if self.labels is not None:
            return self.labels[i]
        return f"{self.source} row {i}"


def looks_like_path(source: str) -> bool:
    return source.startswith((".", "/", "~")) or Path(source).suffix.lower() in _FILE_BUILDERS or source.count("/") > 1


def load_rows(source: str, split: str = "train", *, num_proc: int | None = None,
              cache_dir: Path | None = None) -> Dataset:
    """Load `--dataset` as one `Dataset`; any malformed row is an error naming file, line and field."""
    return load_rows_checked(source, split, num_proc=num_proc, cache_dir=cache_dir).ds


def load_rows_checked(source: str, split: str = "train", *, num_proc: int | None = None,
                      cache_dir: Path | None = None, on_bad_row: str = "error") -> LoadedRows:
    """Load `--dataset` and check the SWE-smith columns and their types (errors name the flag, file and line).

    `cache_dir` is where a local file is converted to arrow: the filter passes a per-run work dir,
    because the HF cache would keep a full copy of every file ever filtered (hub downloads use it).
    `on_bad_row="skip"`: malformed JSON rows are left out (`LoadedRows.skipped`) instead of stopping.
    """
    path = Path(source).expanduser()
    labels: list[str] | None = None
    skipped: list[BadRow] = []
    positions: list[int] | None = None
    try:
        if path.is_dir():
            ds = load_dir(path, split)
        elif path.is_file():
            builder = _FILE_BUILDERS.get(path.suffix.lower())
            if builder is None:
                raise DataError(
                    f"--dataset {source!r}: unsupported file type {path.suffix!r} "
                    f"(use .parquet, .jsonl, .json or a save_to_disk directory)"
                )
            if builder == "json":
                ds, labels, skipped, positions = _load_json(path, source, cache_dir, num_proc, on_bad_row)
            else:
                ds = _load_file(builder, path, cache_dir, num_proc)
        elif looks_like_path(source):
            raise DataError(f"--dataset {source!r}: no such file or directory")
        else:
            ds = _load_hub(source, split, num_proc)
    except DataError:
        raise
    except Exception as exc:  # datasets raises many types (arrow, json, builder); all are bad input here
        raise DataError(f"--dataset {source!r}: could not be read: {_root_cause(exc)}") from exc
    check_columns(ds.column_names, source)
    check_column_types(ds, source)
    if len(ds) == 0:
        what = f"all {len(skipped)} row(s) are malformed (skipped)" if skipped else "it holds no rows"
        raise DataError(f"--dataset {source!r}: no rows to use: {what}")
    log.info("loaded", dataset=source, rows=len(ds), skipped=len(skipped))
    return LoadedRows(ds=ds, source=source, skipped=skipped, positions=positions, labels=labels)


def _root_cause(exc: BaseException) -> str:
    """The innermost exception's text: datasets wraps the useful arrow/json message in a generic one."""
    inner, seen = exc, {id(exc)}
    while (nxt := inner.__cause__ or inner.__context__) is not None and id(nxt) not in seen:
        seen.add(id(nxt))
        inner = nxt
    return f"{type(inner).__name__}: {str(inner).strip() or '(no message)'}"


def _load_file(builder: str, path: Path, cache_dir: Path | None, num_proc: int | None) -> Dataset:
    import datasets

    return datasets.load_dataset(builder, data_files=str(path.resolve()), split="train", num_proc=num_proc,
                                 cache_dir=str(cache_dir) if cache_dir is not None else None)


# --- JSON / JSON lines: scanned by swerl first


def _is_array(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(4096).lstrip().startswith(b"[")


def _iter_json_rows(path: Path, source: str) -> Iterator[tuple[str, int, Any, str]]:
    """(label, line, value or None, error or "") per row of a JSON-lines file or JSON array, one at a time (a
    large file is never held in memory as Python objects); blank lines skipped."""
    if _is_array(path):
        try:
            items = json.loads(path.read_bytes())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            where = f"{source}:{exc.lineno}" if isinstance(exc, json.JSONDecodeError) else source
            raise DataError(f"--dataset {where}: not valid JSON: {_json_msg(exc)}") from None
        if not isinstance(items, list):
            raise DataError(f"--dataset {source!r}: a JSON file must hold an array of row objects")
        for n, item in enumerate(items, start=1):
            yield f"{source} item {n}", n, item, ""
        return
    with path.open("rb") as f:
        for n, raw in enumerate(f, start=1):
            if not raw.strip():
                continue
            try:
                yield f"{source}:{n}", n, json.loads(raw.rstrip(b"\r\n").decode("utf-8")), ""
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                yield f"{source}:{n}", n, None, f"not valid JSON: {_json_msg(exc)}"


def _json_msg(exc: json.JSONDecodeError | UnicodeDecodeError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (column {exc.colno})"
    return f"not UTF-8 text ({exc.reason})"


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
            float: "a number"}.get(type(v), type(v).__name__)


def _short(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


def row_problem(row: Any) -> str:
    """Why one parsed JSON row cannot be used ("" if it can): not an object, or a required field of a wrong type.
    Nulls pass here (a more specific message comes later); missing fields are checked once all keys are known."""
    if not isinstance(row, dict):
        return f"a row must be a JSON object, got {_type_name(row)}"
    for col in REQUIRED_COLUMNS:
        v = row.get(col)
        if v is None:
            continue
        if col in _STRING_FIELDS and not isinstance(v, str):
            return f"{_who(row)}field {col} must be a string, got {_type_name(v)} {_short(v)}"
        if col in TEST_LIST_FIELDS:
            if isinstance(v, list):
                if not all(isinstance(t, str) for t in v):
                    return f"{_who(row)}field {col} must be a list of test-id strings"
            elif not isinstance(v, str):
                return f"{_who(row)}field {col} must be a list of test ids (or its JSON string), got {_type_name(v)}"
    return ""


def _who(row: dict[str, Any]) -> str:
    iid = row.get("instance_id")
    return f"row {iid!r}: " if isinstance(iid, str) else ""


@dataclass
class _Scanned:
    label: str
    line: int
    instance_id: str | None
    problem: str
    missing: tuple[str, ...]


def _load_json(path: Path, source: str, cache_dir: Path | None, num_proc: int | None,
               on_bad_row: str) -> tuple[Dataset, list[str], list[BadRow], list[int] | None]:
    """Scan every row, then load the good ones (from a cleaned copy when any row was left out). A required field
    absent from *some* rows is a per-row error, not a silent null; from every row, a missing column."""
    scanned: list[_Scanned] = []
    columns: set[str] = set()
    for label, line, row, err in _iter_json_rows(path, source):
        if isinstance(row, dict):
            columns.update(row)
            iid = row.get("instance_id") if isinstance(row.get("instance_id"), str) else None
            missing = tuple(c for c in REQUIRED_COLUMNS if c not in row)
        else:
            iid, missing = None, ()
        scanned.append(_Scanned(label, line, iid, err or row_problem(row), missing))
    if not scanned:
        raise DataError(f"--dataset {source!r}: no rows to use: the file is empty")
    for s in scanned:
        absent = [c for c in s.missing if c in columns]
        if absent and not s.problem:
            who = f"row {s.instance_id!r}: " if s.instance_id else ""
            s.problem = f"{who}field {absent[0]} is missing"
    bad = [(pos, s) for pos, s in enumerate(scanned) if s.problem]
    if bad and on_bad_row != "skip":
        first = bad[0][1]
        raise DataError(f"--dataset {first.label}: {first.problem} ({len(bad)} malformed row(s); {_SKIP_HINT})")
    skipped = [BadRow(pos, s.instance_id, f"{s.label}: {s.problem}") for pos, s in bad]
    for b in skipped[:_LOG_SKIPPED]:
        log.warning("bad row skipped", row=b.message)
    if len(skipped) > _LOG_SKIPPED:
        log.warning("more bad rows skipped", count=len(skipped) - _LOG_SKIPPED, listed_in="dropped.jsonl")
    good = [(pos, s) for pos, s in enumerate(scanned) if not s.problem]
    if not good:
        first = bad[0][1]
        raise DataError(f"--dataset {source!r}: no rows to use: all {len(bad)} row(s) are malformed "
                        f"(first: {first.label}: {first.problem})")
    labels = [s.label for _, s in good]
    if not bad:
        return _load_file("json", path, cache_dir, num_proc), labels, skipped, None
    keep = {s.line for _, s in good}
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".swerl-rows-", dir=cache_dir))
    try:
        clean = scratch / "rows.jsonl"
        with clean.open("wb") as out:
            if _is_array(path):
                for n, item in enumerate(json.loads(path.read_bytes()), start=1):
                    if n in keep:
                        out.write(json.dumps(item).encode() + b"\n")
            else:
                with path.open("rb") as f:
                    for n, raw in enumerate(f, start=1):
                        if n in keep:
                            out.write(raw.rstrip(b"\r\n") + b"\n")
        ds = _load_file("json", clean, cache_dir, num_proc)
    finally:
        if cache_dir is None:  # the arrow conversion went to the HF cache; the copy is not needed
            shutil.rmtree(scratch, ignore_errors=True)
    return ds, labels, skipped, [pos for pos, _ in good]


def load_dir(path: Path, split: str) -> Dataset:
    """A `save_to_disk` directory: a `Dataset`, or `split` of a `DatasetDict`."""
    import datasets

    if not ((path / "state.json").exists() or (path / "dataset_dict.json").exists()):
        raise DataError(f"--dataset {str(path)!r}: a directory must be written by datasets' save_to_disk")
    loaded = datasets.load_from_disk(str(path))
    if isinstance(loaded, datasets.DatasetDict):
        if split not in loaded:
            raise DataError(f"--split {split!r}: not in {str(path)!r} (splits: {', '.join(sorted(loaded))})")
        return loaded[split]
    return loaded


def _load_hub(name: str, split: str, num_proc: int | None) -> Dataset:
    import datasets

    try:
        return datasets.load_dataset(name, split=split, num_proc=num_proc)
    except Exception as exc:
        raise DataError(
            f"--dataset {name!r} (split {split!r}): could not load it from the Hugging Face hub "
            f"(offline, or no such dataset/split?): {type(exc).__name__}: {exc}. "
            f"Download it once with network access, or pass a local parquet/jsonl/json file or save_to_disk dir."
        ) from exc


def check_columns(columns: list[str], source: str) -> None:
    """Missing SWE-smith columns are an error naming them all, before any row is touched."""
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise DataError(f"--dataset {source!r}: missing required column(s): {', '.join(missing)}")


def check_column_types(ds: Dataset, source: str) -> None:
    """Typed inputs (parquet, saved datasets): a required column of the wrong type is named with its type
    (otherwise an integer or struct `repo` column would pass through and be written out as is)."""
    import datasets
    from datasets import LargeList, List, Sequence, Value

    json_feature = getattr(datasets, "Json", None)  # mixed lists / JSON strings in one JSON column (datasets >= 4)

    def is_text(f: Any) -> bool:
        return isinstance(f, Value) and f.dtype in ("string", "large_string", "null")

    def is_test_list(f: Any) -> bool:
        return ((isinstance(f, List | LargeList | Sequence) and is_text(f.feature))
                or (json_feature is not None and isinstance(f, json_feature)))

    for col in REQUIRED_COLUMNS:
        feat = ds.features[col]
        ok = is_text(feat) or (col in TEST_LIST_FIELDS and is_test_list(feat))
        if not ok:
            want = "a list of strings (or a JSON string)" if col in TEST_LIST_FIELDS else "strings"
            raise DataError(f"--dataset {source!r}: column {col} holds {feat}, expected {want}")
