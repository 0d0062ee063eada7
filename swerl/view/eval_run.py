"""A `swerl eval swebench` run directory (or a `swerl eval compare` output) as the viewer's pages.

Records come from the eval room's own reader (`swerl.eval.store.RunStore`: last line wins, only this
run id's agent records and grades). Files named by a record (trajectory, harness log) are served only
when they resolve inside the run directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from swerl import __version__
from swerl.errors import SwerlError
from swerl.eval.store import RunStore
from swerl.view.redact import clean

LOG_BYTES = 64_000
"""The tail of each harness log file shown (test output can be megabytes)."""
MAX_LOG_FILES = 20


def _inside(root: Path, rel: str | None) -> Path | None:
    if not rel:
        return None
    try:
        p = (root / rel).resolve()
        p.relative_to(root.resolve())
    except (ValueError, OSError):
        return None
    return p if p.exists() else None


def _tail(p: Path) -> str:
    size = p.stat().st_size
    with p.open("rb") as fh:
        fh.seek(max(0, size - LOG_BYTES))
        data = fh.read()
    head = f"[... {size - LOG_BYTES} bytes not shown ...]\n" if size > LOG_BYTES else ""
    return head + data.decode("utf-8", "replace")


def log_files(root: Path, rel: str | None) -> list[dict[str, str]]:
    p = _inside(root, rel)
    if p is None:
        return []
    files = [p] if p.is_file() else sorted(f for f in p.rglob("*") if f.is_file())[:MAX_LOG_FILES]
    return [{"name": str(f.relative_to(root.resolve())), "text": clean(_tail(f))} for f in files]


def compares(root: Path) -> list[dict[str, Any]]:
    """`compare.json` in the dir itself (a `--out` of compare) or in `compare-vs-*/` below it."""
    out = []
    for p in [root / "compare.json", *sorted(root.glob("compare-vs-*/compare.json"))]:
        if p.is_file():
            try:
                out.append({"file": str(p.relative_to(root)), **orjson.loads(p.read_bytes())})
            except orjson.JSONDecodeError:
                continue
    return clean(out)


class EvalRun:
    kind = "eval"

    def __init__(self, root: Path) -> None:
        self.root = root
        self.store = RunStore(root)

    def _records(self) -> tuple[Any, dict, dict]:
        m = self.store.manifest()
        if m is None:
            return None, {}, {}
        return m, self.store.agent_records(m.run_id), self.store.grades(m.run_id)

    def _grade(self, grades: dict, iid: str, attempt: int, sha: str | None) -> Any:
        if sha is not None and (iid, attempt, sha) in grades:
            return grades[(iid, attempt, sha)]
        return next((g for (i, a, _), g in reversed(grades.items()) if i == iid and a == attempt), None)

    def summary(self) -> dict[str, Any]:
        m, agents, grades = self._records()
        report = self.root / "report.json"
        rep = orjson.loads(report.read_bytes()) if report.is_file() else None
        rows = []
        for iid in m.instance_ids if m else []:
            atts = []
            for k in range(m.attempts):
                a = agents.get((iid, k))
                g = self._grade(grades, iid, k, a.patch_sha if a else None)
                atts.append({"attempt": k, "outcome": g.outcome if g else ("pending" if a is None or a.patch_bytes
                                                                           else "empty_patch"),
                             "exit_status": a.exit_status if a else None, "n_calls": a.n_calls if a else None,
                             "tokens": (a.prompt_tokens + a.completion_tokens) if a else None,
                             "patch_bytes": a.patch_bytes if a else None, "error_kind": a.error_kind if a else None})
            rows.append({"instance_id": iid, "repo": m.repos.get(iid, ""), "attempts": atts})
        return {"kind": "eval", "name": self.root.name, "path": str(self.root), "viewer_version": __version__,
                "manifest": clean(m.model_dump(mode="json")) if m else None,
                "report": clean({k: v for k, v in (rep or {}).items() if k != "instances"}) if rep else None,
                "instances": rows, "compare": compares(self.root)}

    def instance(self, iid: str) -> dict[str, Any] | None:
        m, agents, grades = self._records()
        if m is None or iid not in m.instance_ids:
            return None
        atts = []
        for k in range(m.attempts):
            a = agents.get((iid, k))
            g = self._grade(grades, iid, k, a.patch_sha if a else None)
            pred = self.store.preds(k).get(iid)
            atts.append({"attempt": k, "agent": clean(a.model_dump(mode="json")) if a else None,
                         "grade": clean(g.model_dump(mode="json")) if g else None,
                         "patch": clean(pred.model_patch or "") if pred else None,
                         "logs": log_files(self.root, g.log if g else None),
                         "trajectory": self._trajectory(a.trajectory if a else None)})
        return {"kind": "instance", "instance_id": iid, "repo": m.repos.get(iid, ""), "attempts": atts}

    def _trajectory(self, rel: str | None) -> list[dict[str, Any]] | None:
        p = _inside(self.root, rel)
        if p is None or not p.is_file():
            return None
        try:
            data = orjson.loads(p.read_bytes())
        except orjson.JSONDecodeError:
            return None
        msgs = data.get("messages", []) if isinstance(data, dict) else []
        return clean([{"role": x.get("role"), "content": x.get("content") if isinstance(x.get("content"), str)
                       else orjson.dumps(x.get("content")).decode()} for x in msgs if isinstance(x, dict)])


class CompareRun:
    """A directory holding only `swerl eval compare` output."""

    kind = "compare"

    def __init__(self, root: Path) -> None:
        self.root = root

    def summary(self) -> dict[str, Any]:
        return {"kind": "compare", "name": self.root.name, "path": str(self.root), "viewer_version": __version__,
                "compare": compares(self.root)}


def safe_summary(run: EvalRun) -> dict[str, Any]:
    """A run dir with a malformed record line still opens: the error is shown instead of the table."""
    try:
        return run.summary()
    except SwerlError as exc:
        return {"kind": "eval", "name": run.root.name, "path": str(run.root), "error": str(exc), "instances": [],
                "compare": compares(run.root)}


__all__ = ["CompareRun", "EvalRun", "compares", "log_files", "safe_summary"]
