"""`swerl eval compare RUN_A RUN_B`: which instances flipped, per-repo deltas, and how sure we can be.

Paired over the instances both runs evaluated (attempt 0); the interval on B - A is a paired
bootstrap, because on 500 instances a 2-point difference is usually noise and a bare delta hides it.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.eval.schema import CompareReport, EvalReport, Flip, RepoDelta

SMALL_N = 30  # below this many pairs a bootstrap interval understates the uncertainty: not worth quoting


def small_n_warning(n: int) -> str | None:
    """The caveat printed (and drawn) when `n` common instances are too few for a confidence interval."""
    if n >= SMALL_N:
        return None
    return (f"only {n} common instance(s): too few for a meaningful confidence interval "
            f"(use at least {SMALL_N}; SWE-bench Verified has 500)")


def load_report(run_dir: Path) -> EvalReport:
    path = Path(run_dir) / "report.json"
    if not path.is_file():
        raise SwerlError(f"{run_dir}: no report.json (not an eval run dir, or not finished: "
                         f"`swerl eval report {run_dir}` rebuilds it)")
    try:
        return EvalReport.model_validate_json(path.read_text())
    except Exception as exc:
        raise SwerlError(f"{path}: not a swerl eval report: {exc}") from exc


def paired_bootstrap(a: list[bool], b: list[bool], *, samples: int = 10_000, seed: int = 0,
                     confidence: float = 0.95) -> tuple[float, float, float]:
    """(delta, low, high) in percentage points for mean(b) - mean(a) over paired outcomes."""
    import numpy as np

    if len(a) != len(b) or not a:
        raise ValueError("paired bootstrap needs two non-empty lists of the same length")
    diff = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(diff), size=(samples, len(diff)))
    means = diff[idx].mean(axis=1)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(means, [alpha, 1 - alpha])
    return 100 * float(diff.mean()), 100 * float(low), 100 * float(high)


def compare(run_a: Path, run_b: Path, *, samples: int = 10_000, seed: int = 0, confidence: float = 0.95,
            chart: Path | None = None) -> CompareReport:
    if samples < 100:
        raise SwerlError(f"--samples {samples}: use at least 100 bootstrap samples")
    if not 0.5 <= confidence < 1:
        raise SwerlError(f"--confidence {confidence}: must be in [0.5, 1)")
    ra, rb = load_report(run_a), load_report(run_b)
    a = {x.instance_id: x for x in ra.instances if x.attempt == 0}
    b = {x.instance_id: x for x in rb.instances if x.attempt == 0}
    common = sorted(set(a) & set(b))
    if not common:
        raise SwerlError(f"{run_a} and {run_b} have no instance in common: nothing to compare")
    ya = [a[i].outcome == "resolved" for i in common]
    yb = [b[i].outcome == "resolved" for i in common]
    delta, low, high = paired_bootstrap(ya, yb, samples=samples, seed=seed, confidence=confidence)
    flips = [Flip(instance_id=i, repo=b[i].repo, a=x, b=y) for i, x, y in zip(common, ya, yb, strict=True) if x != y]
    repos: dict[str, list[tuple[bool, bool]]] = defaultdict(list)
    for i, x, y in zip(common, ya, yb, strict=True):
        repos[b[i].repo].append((x, y))
    per_repo = [RepoDelta(repo=r, instances=len(v), a_resolved=sum(x for x, _ in v), b_resolved=sum(y for _, y in v),
                          delta_pct=round(100 * (sum(y for _, y in v) - sum(x for x, _ in v)) / len(v), 2))
                for r, v in sorted(repos.items())]
    rep = CompareReport(
        run_a=str(run_a), run_b=str(run_b), common=len(common), only_a=sorted(set(a) - set(b)),
        only_b=sorted(set(b) - set(a)), a_resolved_pct=round(100 * sum(ya) / len(common), 2),
        b_resolved_pct=round(100 * sum(yb) / len(common), 2), delta_pct=round(delta, 2), ci_low=round(low, 2),
        ci_high=round(high, 2), confidence=confidence, bootstrap_samples=samples, seed=seed,
        gained=[f for f in flips if f.b], lost=[f for f in flips if f.a], per_repo=per_repo)
    if chart is not None:
        plot(rep, chart, label_a=Path(run_a).name or str(run_a), label_b=Path(run_b).name or str(run_b))
        rep.chart = str(chart)
    return rep


def plot(rep: CompareReport, path: Path, *, label_a: str, label_b: str) -> None:
    """Write `compare_figure(...)` to `path` (PNG)."""
    import matplotlib.pyplot as plt

    fig = compare_figure(rep, label_a=label_a, label_b=label_b)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=100, bbox_inches="tight")
    finally:
        plt.close(fig)


def compare_figure(rep: CompareReport, *, label_a: str, label_b: str) -> Any:
    """Resolved % per repository (and overall) for A and B, side by side, each bar labelled; Agg backend.
    The legend sits outside the axes (inside, it would cover a 100% bar). The caller closes the figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = ["overall"] + [r.repo for r in rep.per_repo]
    va = [rep.a_resolved_pct] + [100 * r.a_resolved / r.instances for r in rep.per_repo]
    vb = [rep.b_resolved_pct] + [100 * r.b_resolved / r.instances for r in rep.per_repo]
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(names) + 2), 4.5))
    ax.bar(x - 0.2, va, 0.4, label=label_a)
    ax.bar(x + 0.2, vb, 0.4, label=label_b)
    ax.set_xticks(x, names, rotation=30, ha="right")
    ax.set_ylabel("resolved %")
    ax.set_ylim(0, 108)  # room for the value label of a 100% bar
    ax.set_yticks(range(0, 101, 20))
    title = (f"B - A = {rep.delta_pct:+.1f} pts, {int(rep.confidence * 100)}% CI "
             f"[{rep.ci_low:+.1f}, {rep.ci_high:+.1f}] (n={rep.common})")
    short = f"\nn={rep.common} is too few for a meaningful CI (use >= {SMALL_N})" if rep.common < SMALL_N else ""
    ax.set_title(title + short, fontsize="medium")
    for bars in ax.containers:  # the value on each bar, so no bar needs the axis to be read
        ax.bar_label(bars, fmt="%.0f", fontsize="small", padding=2)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, title="run")
    fig.tight_layout()
    return fig


def render(rep: CompareReport) -> list[object]:
    from swerl.eval.report import table

    head = [("A resolved", f"{rep.a_resolved_pct:.1f}%"), ("B resolved", f"{rep.b_resolved_pct:.1f}%"),
            ("B - A", f"{rep.delta_pct:+.1f} pts"),
            (f"{int(rep.confidence * 100)}% CI (paired bootstrap)", f"[{rep.ci_low:+.1f}, {rep.ci_high:+.1f}]"),
            ("gained / lost", f"{len(rep.gained)} / {len(rep.lost)}")]
    if rep.only_a or rep.only_b:
        head.append(("only in A / only in B", f"{len(rep.only_a)} / {len(rep.only_b)}"))
    out: list[object] = [
        table(f"{rep.run_b} vs {rep.run_a} ({rep.common} common instances)", ("metric", "value"), head),
        table("per repository", ("repo", "instances", "A", "B", "Δ %"),
              [(r.repo, str(r.instances), str(r.a_resolved), str(r.b_resolved), f"{r.delta_pct:+.1f}")
               for r in rep.per_repo])]
    if rep.gained or rep.lost:
        out.append(table("flips", ("instance", "repo", "A", "B"), [
            (f.instance_id, f.repo, "✓" if f.a else "✗", "✓" if f.b else "✗") for f in rep.gained + rep.lost],
            right=False))
    warning = small_n_warning(rep.common)
    if warning:
        from rich.text import Text

        out.append(Text(f"warning: {warning}", style="yellow"))
    return out
