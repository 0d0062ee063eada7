"""`swerl train report RUN_DIR`: PNG plots (reward, entropy, samples per rollout, phases,
staleness) and a summary of a run, from `metrics.jsonl` alone."""

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


def _plot(path: Path, title: str, ylabel: str, curves: list[tuple[str, list[int], list[float], str]],
          *, ylim: tuple[float, float] | None = None) -> Path | None:
    """Write `make_figure(...)` to `path` (None, and no file, when every curve is empty)."""
    import matplotlib.pyplot as plt

    fig = make_figure(title, ylabel, curves, ylim=ylim)
    if fig is None:
        return None
    try:
        fig.savefig(path, bbox_inches="tight")
    finally:
        plt.close(fig)
    return path


def make_figure(title: str, ylabel: str, curves: list[tuple[str, list[int], list[float], str]],
                *, ylim: tuple[float, float] | None = None) -> Any:
    """One line chart over update steps that reads right at a glance: integer steps, no offset notation,
    a nearly flat series widened so float noise does not look like a trend, `ylim` pinned unless data
    leave it, the legend outside the axes. Returns the figure (the caller closes it), or None if empty.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator, ScalarFormatter

    curves = [c for c in curves if c[1]]
    if not curves:
        return None
    fig, ax = plt.subplots(figsize=(8, 4), dpi=100)
    for label, xs, ys, style in curves:
        ax.plot(xs, ys, style, label=label, markersize=4, clip_on=False)
    ax.set_title(title)
    ax.set_xlabel("update step")
    ax.set_ylabel(ylabel)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    fmt = ScalarFormatter(useOffset=False)
    fmt.set_scientific(False)
    ax.yaxis.set_major_formatter(fmt)
    ax.set_ylim(*_y_range([y for c in curves for y in c[2]], ylim))
    xs_all = [x for c in curves for x in c[1]]
    if min(xs_all) == max(xs_all):
        ax.set_xlim(min(xs_all) - 1, max(xs_all) + 1)
    ax.grid(alpha=0.3)
    if len(curves) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, fontsize="small")
    fig.tight_layout()
    return fig


def _y_range(ys: list[float], pinned: tuple[float, float] | None) -> tuple[float, float]:
    """`pinned` if every value fits in it; else the data's range (never inside `pinned`'s bounds that the data
    reach), widened to a visible minimum span and padded 5%."""
    lo, hi = min(ys), max(ys)
    if pinned is not None:
        if pinned[0] <= lo and hi <= pinned[1]:
            return pinned
        lo, hi = min(lo, pinned[0]), max(hi, pinned[1])
    mid = (lo + hi) / 2
    min_span = max(abs(mid) * 0.05, 1e-3)
    if hi - lo < min_span:
        lo, hi = mid - min_span / 2, mid + min_span / 2
    pad = (hi - lo) * 0.05
    keep_lo = pinned is not None and lo == pinned[0] and min(ys) >= pinned[0]
    return (lo if keep_lo else lo - pad), hi + pad


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
              [("train", sx, sy, "-"), ("train (5-step mean)", sx, _smooth(sy), "--"), ("validation", vx, vy, "o-")],
              ylim=(0.0, 1.0)),
        _plot(out / "entropy.png", "policy entropy (response tokens)", "nats", [("entropy", ex, ey, "-")]),
        _plot(out / "samples_per_rollout.png", "samples per rollout (cf. AL1 Fig. 10)", "value",
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
    if total("hacking/canary_rollouts") or total("val/hacking/canary_rollouts"):  # data.canary_fraction > 0
        rate = [f"{int(total(f'{p}hacking/canary_passed'))}/{int(total(f'{p}hacking/canary_graded'))}" for p in ("", "val/")]
        rows.append(("canary passes, train / val (passed / graded: hacks)", " / ".join(rate)))
    causes = {k.rsplit("/", 1)[1]: total(k) for k in last if k.startswith("assembly/merge_failures/")}
    rows.append(("merge failures by cause", ", ".join(f"{c}: {int(n)}" for c, n in causes.items()) or "-"))
    return rows


__all__ = ["Summary", "make_figure", "render_report"]
