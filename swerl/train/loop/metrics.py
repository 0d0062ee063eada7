"""Per-update metrics: one JSON object per line in `RUN_DIR/metrics.jsonl`, mirrored to TensorBoard.

The JSONL file is the record (`swerl train report` reads it); TensorBoard is a view. Lines
are appended and flushed per update, so a killed run keeps every finished step; on
`--resume`, lines beyond the checkpoint's step are dropped first so the file never holds a
step twice. Hacking examples go to `RUN_DIR/hacking.jsonl` (one per blocked attempt).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from swerl.log import get_logger

log = get_logger(__name__)


def _clean(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


class MetricsWriter:
    def __init__(self, run_dir: Path, *, tensorboard: bool = True, resume_step: int | None = None) -> None:
        self.path = run_dir / "metrics.jsonl"
        self.hacking_path = run_dir / "hacking.jsonl"
        if resume_step is not None:
            truncate_after(self.path, resume_step)
            truncate_after(self.hacking_path, resume_step)
        self._f = self.path.open("a")
        self._h = self.hacking_path.open("a")
        self._tb: Any = None
        if tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter

                self._tb = SummaryWriter(log_dir=str(run_dir / "tensorboard"))
            except ImportError as exc:  # tensorboard is in the train extra; without it, JSONL only
                log.warning("tensorboard unavailable", error=str(exc))

    def write(self, line: dict[str, Any]) -> None:
        self._f.write(json.dumps({k: _clean(v) for k, v in line.items()}, sort_keys=False) + "\n")
        self._f.flush()
        if self._tb is not None:
            step = int(line["step"])
            for k, v in line.items():
                if k != "step" and isinstance(v, int | float) and math.isfinite(float(v)):
                    self._tb.add_scalar(k, float(v), step)
            self._tb.flush()

    def hacking(self, step: int, attempts: list[Any]) -> None:
        for a in attempts:
            self._h.write(json.dumps({"step": step, "kind": a.kind, "rollout_id": a.rollout_id,
                                      "command": a.command, "evidence": a.evidence}) + "\n")
        if attempts:
            self._h.flush()

    def close(self) -> None:
        self._f.close()
        self._h.close()
        if self._tb is not None:
            self._tb.close()


def truncate_after(path: Path, step: int) -> None:
    """Keep only lines with `step <= step` (a resumed run rewrites what came after its checkpoint)."""
    if not path.exists():
        return
    kept = [ln for ln in path.read_text().splitlines() if ln.strip() and json.loads(ln).get("step", 0) <= step]
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(ln + "\n" for ln in kept))
    tmp.replace(path)


def read_metrics(path: Path) -> list[dict[str, Any]]:
    """All lines of a metrics.jsonl (a torn last line from a killed run is skipped)."""
    out = []
    for ln in path.read_text().splitlines():
        try:
            out.append(json.loads(ln))
        except json.JSONDecodeError:
            continue
    return out


__all__ = ["MetricsWriter", "read_metrics", "truncate_after"]
