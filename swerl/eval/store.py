"""The run directory: append-only JSONL files that make a run resumable and its report reproducible.

    RUN_DIR/run.json            RunManifest (run id, model, dataset, attempts, instances)
    RUN_DIR/preds.jsonl         attempt 0 predictions, official format (`preds.attempt<k>.jsonl` for k > 0)
    RUN_DIR/agent.jsonl         one AgentRecord per finished agent attempt (also infra failures)
    RUN_DIR/grades.jsonl        one GradeRecord per graded prediction
    RUN_DIR/trajs/<id>/attempt<k>.traj.json, RUN_DIR/logs/<run_id>_a<k>/..., RUN_DIR/report.json

Appends (`swerl.atomic.append_line`) put a prediction on disk as soon as it exists, so a kill
loses at most the instance in flight; a line cut by a crash is dropped on the next open. When a
key appears twice the last line wins.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from swerl.atomic import append_line, repair_tail, write_text_atomic
from swerl.errors import SwerlError
from swerl.eval.schema import AgentRecord, GradeRecord, PredRow, RunManifest
from swerl.log import get_logger
from swerl.tasks.schema import read_json_rows

log = get_logger(__name__)

M = TypeVar("M", bound=BaseModel)


def patch_sha(patch: str | None) -> str:
    # surrogateescape: a patch read from bytes that are not UTF-8 (or a prediction holding a lone surrogate,
    # valid JSON) has a hash too, the one of those bytes
    return hashlib.sha256((patch or "").encode("utf-8", "surrogateescape")).hexdigest()[:16]


def preds_name(attempt: int) -> str:
    return "preds.jsonl" if attempt == 0 else f"preds.attempt{attempt}.jsonl"


def read_lines(path: Path, model: type[M]) -> Iterator[M]:
    if not path.exists():
        return
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:  # Python's JSON reader: it takes a lone surrogate's escape (agent data), pydantic's does not
            yield model.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise SwerlError(f"{path}: line {n} is not valid JSON: {exc.msg}") from exc
        except ValidationError as exc:
            raise SwerlError(f"{path}: line {n} is not a valid {model.__name__}: {exc.errors()[0]['msg']}") from exc


def write_json_atomic(path: Path, obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


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
            if cut := repair_tail(p):
                log.warning("dropped a partial last line", file=str(p), bytes=cut)

    # ---------------------------------------------------------------- appends
    def _append(self, name: str, rec: BaseModel) -> None:
        line = json.dumps(rec.model_dump(mode="json"), ensure_ascii=False) + "\n"
        with self._lock:  # a lone surrogate in agent data (R42s-A1) is written as its JSON escape, read back as it was
            append_line(self.root / name, line.encode("utf-8", "backslashreplace"))

    def add_pred(self, attempt: int, row: PredRow) -> None:
        self._append(preds_name(attempt), row)

    def add_agent(self, rec: AgentRecord) -> None:
        self._append("agent.jsonl", rec)

    def add_grade(self, rec: GradeRecord) -> None:
        self._append("grades.jsonl", rec)

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
            write_text_atomic(path, "".join(k + "\n" for k in kept))


def read_predictions(path: Path) -> list[PredRow]:
    """`--grade-only PREDS`: official JSONL, or mini-swe-agent's preds.json (a dict or list). Errors name the line."""
    flag = f"--grade-only {str(path)!r}"
    if not path.is_file():
        raise SwerlError(f"{flag}: no such file")
    items = read_json_rows(path, flag, SwerlError)
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
