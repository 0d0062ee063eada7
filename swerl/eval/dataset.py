"""Which instances an evaluation runs: `--dataset` (hub, file, or the bundled pack), `--instances`, `--limit`.

SWE-bench rows (`version`, `base_commit`, `test_patch`; no `image_name`: it is derived) and
SWE-smith rows (`image_name`, problem branch = `instance_id`) are told apart per row and graded
with their own harness. `taskpack` is the bundled pack as SWE-smith rows, `taskpack:swebench`
as SWE-bench rows. bwrap needs a local git repository per row: the `repo_dir` column (relative
to the dataset file) or the materialised pack.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swerl.errors import DataError, SwerlError
from swerl.log import get_logger
from swerl.sandbox.schema import SandboxTask
from swerl.tasks.load import load_dir, looks_like_path
from swerl.tasks.schema import TaskRow, read_json_rows, swebench_image_name

log = get_logger(__name__)

SWEBENCH_COLUMNS = ("instance_id", "repo", "base_commit", "test_patch", "version", "FAIL_TO_PASS", "PASS_TO_PASS",
                    "problem_statement")
SWESMITH_COLUMNS = ("instance_id", "repo", "FAIL_TO_PASS", "PASS_TO_PASS", "image_name", "problem_statement")
TASKPACK = "taskpack"
TASKPACK_SWEBENCH = "taskpack:swebench"


@dataclass
class EvalInstance:
    """One row to evaluate, normalised, with what a sandbox needs to run and grade it."""

    row: TaskRow
    kind: str  # "swebench" | "swesmith"
    repo_dir: Path | None = None
    test_cmd: str | None = None

    @property
    def instance_id(self) -> str:
        return self.row.instance_id

    @property
    def repo(self) -> str:
        return self.row.repo

    def task(self) -> SandboxTask:
        from swerl.sandbox.tasks import task_from_row

        return task_from_row(self.row, repo_dir=self.repo_dir, test_cmd=self.test_cmd)


def normalise(raw: dict[str, Any], *, base_dir: Path | None, where: str) -> EvalInstance:
    """A raw row as an `EvalInstance`; errors name the row (or line) and the field."""
    iid = raw.get("instance_id")
    if not isinstance(iid, str) or not iid:
        raise DataError(f"{where}: field instance_id is missing or not a string")
    # Any SWE-bench-only field makes it a SWE-bench row, so an incomplete one is reported as such.
    kind = "swebench" if any(raw.get(k) for k in ("base_commit", "test_patch", "version")) else "swesmith"
    required = SWEBENCH_COLUMNS if kind == "swebench" else SWESMITH_COLUMNS
    missing = [c for c in required if c not in raw or (c == "image_name" and not raw[c] and not raw.get("repo_dir"))]
    if missing:
        raise DataError(f"row {iid!r} ({where}): missing field(s) {', '.join(missing)} for a {kind} row")
    data = dict(raw)
    if kind == "swebench":
        data["version"] = str(data["version"])
        if not data.get("image_name"):
            data["image_name"] = swebench_image_name(iid)
    data.setdefault("patch", "")
    try:
        row = TaskRow.model_validate(data)
    except DataError:
        raise
    except Exception as exc:
        raise DataError(f"row {iid!r} ({where}): {exc}") from exc
    repo_dir = None
    if data.get("repo_dir"):
        repo_dir = Path(str(data["repo_dir"]))
        if not repo_dir.is_absolute() and base_dir is not None:
            repo_dir = (base_dir / repo_dir).resolve()
    return EvalInstance(row=row, kind=kind, repo_dir=repo_dir)


def _read_json_rows(path: Path, source: str) -> list[dict[str, Any]]:
    items = read_json_rows(path, f"--dataset {source!r}")
    bad = next((label for label, obj in items if not isinstance(obj, dict)), None)
    if bad is not None:
        raise DataError(f"--dataset {source!r}: {bad} is not a JSON object")
    return [obj for _, obj in items]


def _read_datasets(source: str, split: str) -> list[dict[str, Any]]:
    """Parquet files, save_to_disk dirs and hub names, through `datasets`."""
    import datasets

    path = Path(source).expanduser()
    try:
        if path.is_dir():
            ds = load_dir(path, split)
        elif path.is_file():
            ds = datasets.load_dataset("parquet", data_files=str(path.resolve()), split="train")
        else:
            ds = datasets.load_dataset(source, split=split)
    except DataError:
        raise
    except Exception as exc:
        raise DataError(
            f"--dataset {source!r} (split {split!r}): could not be loaded: {type(exc).__name__}: {exc}. Pass a hub "
            f"dataset reachable from here (download it once with network access), a local .jsonl/.json/.parquet "
            f"file, a save_to_disk dir, or 'taskpack' / 'taskpack:swebench'.") from exc
    return [dict(r) for r in ds]


def load_instances(source: str, split: str = "test") -> list[EvalInstance]:
    """Every row of `--dataset`, normalised (duplicate ids are an error: predictions are keyed by id)."""
    if source == TASKPACK:
        return _bundled_swesmith()
    if source == TASKPACK_SWEBENCH:
        from swerl.eval.taskpack import build, default_path

        source = str(build(default_path()))
    path = Path(source).expanduser()
    if path.is_dir() and (path / "instances.jsonl").exists():
        path = path / "instances.jsonl"
    if path.is_file() and path.suffix.lower() in (".jsonl", ".json"):
        raws, base = _read_json_rows(path, source), path.parent.resolve()
    elif path.suffix.lower() in (".jsonl", ".json", ".parquet") and not path.exists():
        raise DataError(f"--dataset {source!r}: no such file")
    elif looks_like_path(source) and not path.exists():
        raise DataError(f"--dataset {source!r}: no such file or directory")
    elif path.exists() and path.is_file() and path.suffix.lower() != ".parquet":
        raise DataError(f"--dataset {source!r}: unsupported file type {path.suffix!r} (.jsonl, .json or .parquet)")
    else:
        raws, base = _read_datasets(source, split), (path.parent.resolve() if path.exists() else None)
    if not raws:
        raise DataError(f"--dataset {source!r}: no rows")
    out: list[EvalInstance] = []
    seen: set[str] = set()
    for i, raw in enumerate(raws, 1):
        inst = normalise(raw, base_dir=base, where=f"row {i} of {source}")
        if inst.instance_id in seen:
            raise DataError(f"--dataset {source!r}: instance_id {inst.instance_id!r} appears twice")
        seen.add(inst.instance_id)
        out.append(inst)
    _attach_local(out)
    log.info("instances loaded", dataset=source, rows=len(out))
    return out


def _attach_local(instances: list[EvalInstance]) -> None:
    """Rows of the bundled pack's repos: register their harness profiles/specs and give bwrap their repos."""
    from swerl.tasks.taskpack import OWNER

    ours = [i for i in instances if i.repo.startswith(OWNER + "/")]
    if not ours:
        return
    from swerl.eval.taskpack import register_rows
    from swerl.sandbox.tasks import load_taskpack

    register_rows([i.row.model_dump(mode="json") for i in ours if i.kind == "swebench"])
    smith = [i for i in ours if i.kind == "swesmith"]
    if smith:
        _, tasks = load_taskpack()  # registers the swesmith profiles
        for inst in smith:
            task = tasks.get(inst.instance_id)
            if inst.repo_dir is None and task is not None:
                inst.repo_dir = task.repo_dir
            inst.test_cmd = inst.test_cmd or (task.test_cmd if task is not None else None)


def _bundled_swesmith() -> list[EvalInstance]:
    from swerl.sandbox.tasks import load_taskpack

    pack, _ = load_taskpack()
    return [EvalInstance(row=row, kind="swesmith", repo_dir=pack.repo_dir(row), test_cmd=pack.test_cmd(row))
            for row in pack.rows]


def parse_instance_ids(value: str) -> list[str]:
    """`--instances`: comma/space-separated ids, or a file with one id per line (`#` comments allowed)."""
    path = Path(value).expanduser()
    if path.is_file():
        text = "\n".join(line.split("#", 1)[0] for line in path.read_text().splitlines())
    elif "/" in value and not any(c in value for c in ", "):
        raise SwerlError(f"--instances {value!r}: no such file")
    else:
        text = value
    ids = [t for t in text.replace(",", " ").split() if t]
    if not ids:
        raise SwerlError(f"--instances {value!r}: no instance ids given")
    return list(dict.fromkeys(ids))


def select(instances: list[EvalInstance], ids: list[str] | None = None, limit: int | None = None) -> list[EvalInstance]:
    """Keep `ids` (in dataset order; an unknown id is an error naming it), then the first `limit`."""
    if ids:
        known = {i.instance_id for i in instances}
        unknown = [x for x in ids if x not in known]
        if unknown:
            hints = [m for x in unknown[:3] for m in difflib.get_close_matches(x, known, n=1)]
            hint = f" (did you mean {', '.join(hints)}?)" if hints else ""
            raise SwerlError(f"--instances: unknown instance id(s) {', '.join(unknown)}{hint}")
        wanted = set(ids)
        instances = [i for i in instances if i.instance_id in wanted]
    if limit is not None:
        if limit < 1:
            raise SwerlError(f"--limit {limit}: must be at least 1")
        instances = instances[:limit]
    return instances
