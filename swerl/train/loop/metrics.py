"""Per-update metrics: one JSON object per line in `RUN_DIR/metrics.jsonl`, mirrored to TensorBoard / W&B.

The JSONL file is the record (`swerl train report` reads it); the loggers are views. Lines are
flushed per update, so a killed run keeps every finished step; on `--resume` lines beyond the
checkpoint's step are dropped first, so the file never holds a step twice. `RUN_DIR/updates.jsonl`
holds what each update trained on (groups, rollouts, per-sample sizes and advantages) for `swerl view`.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from swerl.errors import ConfigError
from swerl.log import get_logger

if TYPE_CHECKING:
    from swerl.config import Recipe

log = get_logger(__name__)


def _clean(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


class MetricsWriter:
    """metrics.jsonl plus the loggers `recipe` asks for (`train.loggers`; without a recipe: TensorBoard)."""

    def __init__(self, run_dir: Path, *, tensorboard: bool = True, resume_step: int | None = None,
                 recipe: Recipe | None = None) -> None:
        loggers: Sequence[str] = recipe.train.loggers if recipe is not None else ("tensorboard",)
        tensorboard = tensorboard and "tensorboard" in loggers
        self.path = run_dir / "metrics.jsonl"
        self.hacking_path = run_dir / "hacking.jsonl"
        self.updates_path = run_dir / "updates.jsonl"
        if resume_step is not None:
            for p in (self.path, self.hacking_path, self.updates_path):
                truncate_after(p, resume_step)
        self._f = self.path.open("a")
        self._h = self.hacking_path.open("a")
        self._u = self.updates_path.open("a")
        self._tb: Any = None
        if tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter

                self._tb = SummaryWriter(log_dir=str(run_dir / "tensorboard"))
            except ImportError as exc:  # tensorboard is in the train extra; without it, JSONL only
                log.warning("tensorboard unavailable", error=str(exc))
        self._wandb: Any = None
        if "wandb" in loggers and recipe is not None:
            self._wandb = start_wandb(run_dir, recipe, resume=resume_step is not None)

    def write(self, line: dict[str, Any]) -> None:
        self._f.write(json.dumps({k: _clean(v) for k, v in line.items()}, sort_keys=False) + "\n")
        self._f.flush()
        step = int(line["step"])
        scalars = {k: float(v) for k, v in line.items()
                   if k != "step" and isinstance(v, int | float) and math.isfinite(float(v))}
        if self._tb is not None:
            for k, v in scalars.items():
                self._tb.add_scalar(k, v, step)
            self._tb.flush()
        if self._wandb is not None:
            self._wandb.log(scalars, step=step)

    def hacking(self, step: int, attempts: list[Any]) -> None:
        for a in attempts:
            self._h.write(json.dumps({"step": step, "kind": a.kind, "rollout_id": a.rollout_id,
                                      "command": a.command, "evidence": a.evidence}) + "\n")
        if attempts:
            self._h.flush()

    def update(self, step: int, version: int, batch: Any) -> None:
        """What update `step` trained on (a `swerl.train.loop.update.Batch`): groups of rollout ids; per rollout
        its reward, staleness and per sample [tokens, response tokens, advantage or null (SAO: per-token, from
        the critic, not recorded)]; rollouts dropped as over-stale or without samples. Numbers only, no tokens:
        the viewer re-assembles tokens from the gateway store and checks them against these sizes."""
        per: dict[str, list[list[Any]]] = {}
        for s in batch.samples:
            per.setdefault(s.rollout_id, []).append(
                [s.num_tokens, s.num_response_tokens, batch.advantages.get((s.rollout_id, s.sample_index))])
        rollouts = {rid: {"reward": batch.rewards.get(rid), "staleness": batch.ages.get(rid), "samples": smp}
                    for rid, smp in per.items()}
        self._u.write(json.dumps({"step": step, "version": version, "groups": batch.groups, "rollouts": rollouts,
                                  "dropped_stale": batch.dropped_stale, "no_samples": batch.no_samples}) + "\n")
        self._u.flush()

    def close(self) -> None:
        self._f.close()
        self._h.close()
        self._u.close()
        if self._tb is not None:
            self._tb.close()
        if self._wandb is not None:
            self._wandb.finish()
            self._wandb = None


def start_wandb(run_dir: Path, recipe: Recipe, *, resume: bool) -> Any:
    """A W&B run under `RUN_DIR/wandb` with the resolved recipe as its config. Without an API key it runs
    offline (for a later `wandb sync`); the run id comes from the run dir's path, so `--resume` continues it."""
    try:
        import wandb
    except ImportError as exc:
        raise ConfigError("train.loggers includes wandb but the wandb package is not installed: "
                          "pip install 'swerl[wandb]' (or drop wandb from train.loggers)") from exc
    mode = os.environ.get("WANDB_MODE") or ("online" if os.environ.get("WANDB_API_KEY") else "offline")
    if mode == "online" and not os.environ.get("WANDB_API_KEY"):
        log.warning("WANDB_MODE=online without WANDB_API_KEY: wandb uses its stored login, if any")
    out = Path(run_dir).absolute()
    (out / "wandb").mkdir(parents=True, exist_ok=True)
    # Stable per run directory (so --resume continues the W&B run), unique across directories of the same name.
    slug = "".join(c if c.isalnum() else "-" for c in out.name)[-40:]
    run_id = f"swerl-{slug}-{hashlib.sha1(str(out).encode()).hexdigest()[:8]}"
    try:
        run = wandb.init(project=os.environ.get("WANDB_PROJECT", "swerl"), name=out.name, id=run_id,
                         dir=str(out), mode=mode, config=recipe.model_dump(mode="json"),
                         resume="allow" if resume else None, reinit="create_new",
                         settings=wandb.Settings(silent=True, console="off"))
    except Exception as exc:  # W&B unreachable or misconfigured: the run's record (metrics.jsonl) still holds all
        log.warning("wandb unavailable; metrics go to metrics.jsonl (and TensorBoard) only",
                    error=f"{type(exc).__name__}: {exc}", hint="WANDB_MODE=offline logs without a server")
        return None
    log.info("wandb run", mode=mode, dir=str(out / "wandb"), id=run_id)
    return run


def format_update_line(line: dict[str, Any], steps: int | None = None) -> str:
    """One plain line per update for logs: step, reward, val, samples/rollout, staleness, time.

    Fields the update did not record print as `-`, so columns keep their meaning.
    """

    def num(key: str, digits: int) -> str:
        v = line.get(key)
        return f"{float(v):.{digits}f}" if isinstance(v, int | float) and math.isfinite(float(v)) else "-"

    step = f"{line.get('step', '?')}" + (f"/{steps}" if steps else "")
    return (f"update {step}  reward {num('train/reward_mean', 3)}  val {num('val/reward_mean', 3)}  "
            f"samples/rollout {num('assembly/samples_per_rollout', 2)}  "
            f"staleness {num('staleness/mean', 2)} (max {num('staleness/max', 0)}, "
            f"dropped {num('staleness/dropped', 0)})  "
            f"time {num('time/step_s', 1)}s (total {num('time/wall_s', 0)}s)")


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


__all__ = ["MetricsWriter", "format_update_line", "read_metrics", "start_wandb", "truncate_after"]
