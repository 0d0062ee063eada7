"""The run directory: append-only JSONL files that make a run resumable and its report reproducible.

    RUN_DIR/run.json            RunManifest (run id, model, dataset, attempts, instances)
    RUN_DIR/preds.jsonl         attempt 0 predictions, official format (`preds.attempt<k>.jsonl` for k > 0)
    RUN_DIR/agent.jsonl         one AgentRecord per finished agent attempt (also infra failures)
    RUN_DIR/grades.jsonl        one GradeRecord per graded prediction
    RUN_DIR/trajs/<id>/attempt<k>.traj.json   mini-swe-agent trajectories (secrets redacted)
    RUN_DIR/logs/<run_id>_a<k>/...            harness logs
    RUN_DIR/report.json         EvalReport

Why appends: a prediction is on disk as soon as it exists, a kill loses at most the
instance in flight, and nothing is ever rewritten in place. Each line is one
`os.write` on an `O_APPEND` descriptor followed by `fsync`; a line cut by a crash (no
trailing newline) is dropped when the file is next opened. When a key appears twice
the last line wins.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from swerl.errors import SwerlError
from swerl.eval.schema import AgentRecord, GradeRecord, PredRow, RunManifest
from swerl.log import get_logger

log = get_logger(__name__)

M = TypeVar("M", bound=BaseModel)


def patch_sha(patch: str | None) -> str:
    return hashlib.sha256((patch or "").encode()).hexdigest()[:16]


def preds_name(attempt: int) -> str:
    return "preds.jsonl" if attempt == 0 else f"preds.attempt{attempt}.jsonl"


def repair_tail(path: Path) -> None:
    """Drop a final line that a crash cut short (no trailing newline), so the next append starts clean."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        fh.seek(0)
        data = fh.read()
        keep = data.rfind(b"\n") + 1
        fh.truncate(keep)
    log.warning("dropped a partial last line", file=str(path), bytes=len(data) - keep)


def append_line(path: Path, obj: dict[str, Any]) -> None:
    data = (json.dumps(obj, sort_keys=False, ensure_ascii=False) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        n = os.write(fd, data)
        if n != len(data):
            raise OSError(f"short write to {path} ({n} of {len(data)} bytes)")
        os.fsync(fd)
    finally:
        os.close(fd)


def read_lines(path: Path, model: type[M]) -> Iterator[M]:
    if not path.exists():
        return
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield model.model_validate_json(line)
        except ValidationError as exc:
            raise SwerlError(f"{path}: line {n} is not a valid {model.__name__}: {exc.errors()[0]['msg']}") from exc


def write_json_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


class RunStore:
    """All reads and writes of one RUN_DIR; thread-safe appends (workers share it)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- manifest
    @property
    def manifest_path(self) -> Path:
        return self.root / "run.json"

    def manifest(self) -> RunManifest | None:
        if not self.manifest_path.exists():
            return None
        try:
            return RunManifest.model_validate_json(self.manifest_path.read_text())
        except ValidationError as exc:
            raise SwerlError(f"--out {self.root}: run.json is not a swerl eval manifest ({exc.errors()[0]['msg']})") from exc

    def write_manifest(self, m: RunManifest) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.manifest_path, m.model_dump(mode="json"))

    def open(self) -> None:
        """Prepare for appending (after a crash: cut partial lines)."""
        self.root.mkdir(parents=True, exist_ok=True)
        for p in [*self.root.glob("preds*.jsonl"), self.root / "agent.jsonl", self.root / "grades.jsonl"]:
            repair_tail(p)

    # ---------------------------------------------------------------- appends
    def add_pred(self, attempt: int, row: PredRow) -> None:
        with self._lock:
            append_line(self.root / preds_name(attempt), row.model_dump())

    def add_agent(self, rec: AgentRecord) -> None:
        with self._lock:
            append_line(self.root / "agent.jsonl", rec.model_dump(mode="json"))

    def add_grade(self, rec: GradeRecord) -> None:
        with self._lock:
            append_line(self.root / "grades.jsonl", rec.model_dump(mode="json"))

    # ---------------------------------------------------------------- reads (last line wins)
    def preds(self, attempt: int) -> dict[str, PredRow]:
        return {p.instance_id: p for p in read_lines(self.root / preds_name(attempt), PredRow)}

    def agent_records(self, run_id: str) -> dict[tuple[str, int], AgentRecord]:
        return {(r.instance_id, r.attempt): r for r in read_lines(self.root / "agent.jsonl", AgentRecord)
                if r.run_id == run_id}

    def grades(self, run_id: str) -> dict[tuple[str, int, str], GradeRecord]:
        """Grades of this run only, keyed by (instance, attempt, patch sha): nothing of another run is reused."""
        return {(g.instance_id, g.attempt, g.patch_sha): g for g in read_lines(self.root / "grades.jsonl", GradeRecord)
                if g.run_id == run_id}

    def drop_preds(self, attempt: int, ids: set[str]) -> None:
        """Remove `ids` from a predictions file (`--redo`), by an atomic rewrite."""
        path = self.root / preds_name(attempt)
        if not path.exists():
            return
        with self._lock:
            kept = [line for line in path.read_text().splitlines()
                    if line.strip() and json.loads(line).get("instance_id") not in ids]
            tmp = path.with_name(f".{path.name}.tmp")
            tmp.write_text("".join(k + "\n" for k in kept))
            os.replace(tmp, path)


def read_predictions(path: Path) -> list[PredRow]:
    """`--grade-only PREDS`: official JSONL, or mini-swe-agent's preds.json (a dict or list). Errors name the line."""
    flag = f"--grade-only {str(path)!r}"
    if not path.is_file():
        raise SwerlError(f"{flag}: no such file")
    text = path.read_text()
    items: list[tuple[str, Any]] = []
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SwerlError(f"{flag}: not valid JSON: {exc.msg} at line {exc.lineno}") from exc
        values = list(data.values()) if isinstance(data, dict) else data
        if not isinstance(values, list):
            raise SwerlError(f"{flag}: a .json predictions file must be a list or an {{instance_id: prediction}} object")
        items = [(f"entry {i}", v) for i, v in enumerate(values, 1)]
    else:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                items.append((f"line {n}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise SwerlError(f"{flag}: line {n} is not valid JSON: {exc.msg}") from exc
    if not items:
        raise SwerlError(f"{flag}: no predictions")
    out: list[PredRow] = []
    seen: dict[str, str] = {}
    for where, obj in items:
        if not isinstance(obj, dict):
            raise SwerlError(f"{flag}: {where} is not a JSON object")
        for key in ("instance_id", "model_patch"):
            if key not in obj:
                raise SwerlError(f"{flag}: {where} has no {key!r}")
        if not isinstance(obj["instance_id"], str) or not obj["instance_id"]:
            raise SwerlError(f"{flag}: {where}: instance_id must be a non-empty string")
        if obj["model_patch"] is not None and not isinstance(obj["model_patch"], str):
            raise SwerlError(f"{flag}: {where}: model_patch must be a string (a unified diff) or null")
        iid = obj["instance_id"]
        if iid in seen:
            raise SwerlError(f"{flag}: {where}: instance_id {iid!r} already appeared at {seen[iid]}")
        seen[iid] = where
        out.append(PredRow(instance_id=iid, model_name_or_path=str(obj.get("model_name_or_path") or "unknown"),
                           model_patch=obj["model_patch"]))
    return out
