"""`swerl train report RUN_DIR`: PNG plots and a summary of a run, from `metrics.jsonl` alone.

Plots: `reward.png` (train reward per update, validation reward where validated),
`entropy.png`, `samples_per_rollout.png` (mean samples per rollout and the single-sample
fraction over training, like AL1 Fig. 10), `phases.png` (seconds per update in each
phase: rollout, drain, update, sync) and `staleness.png`.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.train.loop.metrics import read_metrics


@dataclass
class Summary:
    rows: list[tuple[str, str]]
    plots: list[Path]


def _series(lines: list[dict[str, Any]], key: str) -> tuple[list[int], list[float]]:
    xs, ys = [], []
    for ln in lines:
        v = ln.get(key)
        if isinstance(v, int | float):
            xs.append(int(ln["step"]))
            ys.append(float(v))
    return xs, ys


def _smooth(ys: list[float], k: int = 5) -> list[float]:
    return [statistics.fmean(ys[max(0, i - k + 1):i + 1]) for i in range(len(ys))]


def _plot(path: Path, title: str, ylabel: str, curves: list[tuple[str, list[int], list[float], str]]) -> Path | None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = [c for c in curves if c[1]]
    if not curves:
        return None
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for label, xs, ys, style in curves:
        ax.plot(xs, ys, style, label=label, markersize=4)
    ax.set_title(title)
    ax.set_xlabel("update step")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def render_report(run_dir: Path, out_dir: Path | None = None) -> Summary:
    """Write the plots under `out_dir` (default RUN_DIR/report) and return the summary rows."""
    path = Path(run_dir) / "metrics.jsonl"
    if not path.is_file():
        raise SwerlError(f"{run_dir}: no metrics.jsonl (not a `swerl train` run directory?)")
    lines = read_metrics(path)
    if not lines:
        raise SwerlError(f"{path}: no finished update yet")
    out = Path(out_dir) if out_dir else Path(run_dir) / "report"
    out.mkdir(parents=True, exist_ok=True)
    sx, sy = _series(lines, "train/reward_mean")
    vx, vy = _series(lines, "val/reward_mean")
    ex, ey = _series(lines, "policy/entropy")
    nx, ny = _series(lines, "assembly/samples_per_rollout")
    fx, fy = _series(lines, "assembly/single_sample_frac")
    plots = [
        _plot(out / "reward.png", "reward", "mean reward",
              [("train", sx, sy, "-"), ("train (5-step mean)", sx, _smooth(sy), "--"), ("validation", vx, vy, "o-")]),
        _plot(out / "entropy.png", "policy entropy (response tokens)", "nats", [("entropy", ex, ey, "-")]),
        _plot(out / "samples_per_rollout.png", "samples per rollout (AL1 Fig. 10)", "value",
              [("mean samples per rollout", nx, ny, "-"), ("single-sample fraction", fx, fy, "--")]),
        _plot(out / "phases.png", "time per update by phase", "seconds",
              [(p, *_series(lines, f"time/{p}_s"), "-") for p in ("rollout", "drain", "update", "sync")]),
        _plot(out / "staleness.png", "staleness (policy versions)", "versions",
              [("mean", *_series(lines, "staleness/mean"), "-"), ("max", *_series(lines, "staleness/max"), "--"),
               ("dropped (this step)", *_series(lines, "staleness/dropped"), ":")]),
    ]
    return Summary(_rows(lines, sy, vy), [p for p in plots if p is not None])


def _fmt(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _rows(lines: list[dict[str, Any]], rewards: list[float], val: list[float]) -> list[tuple[str, str]]:
    last = lines[-1]

    def total(key: str) -> float:
        return sum(float(ln.get(key) or 0.0) for ln in lines)

    def mean(key: str) -> float | None:
        vals = [float(ln[key]) for ln in lines if isinstance(ln.get(key), int | float)]
        return statistics.fmean(vals) if vals else None

    k = min(3, len(rewards))
    rows = [
        ("updates", f"{last['step']}"),
        ("train reward: first / last (mean of 3 updates)",
         f"{_fmt(statistics.fmean(rewards[:k]) if k else None)} / {_fmt(statistics.fmean(rewards[-k:]) if k else None)}"),
        ("train reward: best update", _fmt(max(rewards) if rewards else None)),
        ("val reward: first / last / best",
         f"{_fmt(val[0] if val else None)} / {_fmt(val[-1] if val else None)} / {_fmt(max(val) if val else None)}"),
        ("entropy: first / last", f"{_fmt(lines[0].get('policy/entropy'))} / {_fmt(last.get('policy/entropy'))}"),
        ("samples per rollout (mean)", _fmt(mean("assembly/samples_per_rollout"), 2)),
        ("rollouts trained", f"{int(total('train/rollouts'))}"),
        ("rollouts dropped as over-stale", f"{int(total('staleness/dropped'))}"),
        ("staleness (mean of means)", _fmt(mean("staleness/mean"), 2)),
        ("rollouts failed on infrastructure", f"{int(total('rollouts/failed_infra'))}"),
        ("blocked hacking attempts (git / network / test tampering)",
         f"{int(total('hacking/git'))} / {int(total('hacking/network'))} / {int(total('hacking/test_tamper'))}"),
        ("wall time", f"{_fmt(last.get('time/wall_s'), 1)} s"),
        ("seconds per update: rollout / drain / update / sync",
         " / ".join(_fmt(mean(f"time/{p}_s"), 2) for p in ("rollout", "drain", "update", "sync"))),
        ("trainer idle fraction (mean)", _fmt(mean("time/trainer_idle_frac"), 2)),
    ]
    causes = {k.rsplit("/", 1)[1]: total(k) for k in last if k.startswith("assembly/merge_failures/")}
    rows.append(("merge failures by cause", ", ".join(f"{c}: {int(n)}" for c, n in causes.items()) or "-"))
    return rows


__all__ = ["Summary", "render_report"]
