"""Plots that read right: the compare chart's legend clears the bars, values are labelled, small n is flagged."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.eval.compare import SMALL_N, compare, compare_figure, small_n_warning
from swerl.eval.schema import EvalReport, InstanceAttempt
from swerl.eval.store import write_json_atomic

matplotlib.use("Agg")


def _report(run_dir: Path, outcomes: dict[str, str]) -> Path:
    run_dir.mkdir(parents=True, exist_ok=True)
    rep = EvalReport(run_id=run_dir.name, model="m", dataset="d", split="test", total=len(outcomes), counts={},
                     resolved_pct=0, resolved_ids=[], per_repo=[], mean_steps=0, mean_tokens=0, mean_cost=0,
                     exit_status={}, attempts=1,
                     instances=[InstanceAttempt(instance_id=i, attempt=0, repo=f"o/{i.split('-')[0]}",
                                                outcome=o)  # type: ignore[arg-type]
                                for i, o in outcomes.items()])
    write_json_atomic(run_dir / "report.json", rep.model_dump(mode="json"))
    return run_dir


def test_legend_is_outside_the_bars_and_every_bar_is_labelled(tmp_path: Path) -> None:
    # B resolves everything: its bars reach 100%, where an in-axes legend used to sit on them
    a = _report(tmp_path / "A", {"x-1": "resolved", "y-2": "unresolved"})
    b = _report(tmp_path / "B", {"x-1": "resolved", "y-2": "resolved"})
    rep = compare(a, b, samples=500)
    fig = compare_figure(rep, label_a="A", label_b="B")
    fig.canvas.draw()
    ax = fig.axes[0]
    legend_box = ax.get_legend().get_window_extent()
    axes_box = ax.get_window_extent()
    assert legend_box.x0 >= axes_box.x1  # entirely right of the plotting area
    for container in ax.containers:
        for bar in container:
            assert not legend_box.overlaps(bar.get_window_extent())
    labels = [t.get_text() for t in ax.texts]
    assert labels == ["50", "100", "0", "100", "100", "100"]  # A then B: overall, o/x, o/y
    assert ax.get_ylim()[1] > 100  # the label of a 100% bar stays inside the figure
    assert f"n={rep.common} is too few for a meaningful CI" in ax.get_title()


def test_small_n_warning_threshold() -> None:
    assert small_n_warning(SMALL_N) is None
    msg = small_n_warning(2)
    assert msg is not None and msg.startswith("only 2 common instance(s): too few for a meaningful confidence interval")


def test_compare_command_prints_the_small_n_warning(tmp_path: Path) -> None:
    a = _report(tmp_path / "A", {"x-1": "resolved", "y-2": "unresolved"})
    b = _report(tmp_path / "B", {"x-1": "resolved", "y-2": "resolved"})
    res = CliRunner().invoke(app, ["eval", "compare", str(a), str(b), "--samples", "500"], env={"COLUMNS": "300"})
    assert res.exit_code == 0, res.output
    assert "warning: only 2 common instance(s): too few for a meaningful confidence interval" in res.output


@pytest.mark.parametrize("n", [SMALL_N, 40])
def test_no_warning_with_enough_instances(tmp_path: Path, n: int) -> None:
    outcomes = {f"x-{i}": "resolved" if i % 2 else "unresolved" for i in range(n)}
    rep = compare(_report(tmp_path / "A", outcomes), _report(tmp_path / "B", outcomes), samples=500)
    fig = compare_figure(rep, label_a="A", label_b="B")
    assert "too few" not in fig.axes[0].get_title()
