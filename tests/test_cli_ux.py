"""A newcomer's first hour: `--version`, aligned tables, plan-first dry runs, log lines, plots that read right.

The CLI cases run the real `swerl` entry point (in-process through `swerl.cli.main`, or as a
subprocess where the output must go through a pipe). The training case runs the real toy
recipe (tiny model, embedded engine, gateway) with its output piped, as under a scheduler.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import matplotlib
import pytest
from cli_helpers import run_swerl

from swerl import __version__
from swerl.cli import format_columns
from swerl.config import available_recipes, load_recipe
from swerl.train.loop.metrics import format_update_line
from swerl.train.loop.report import make_figure, render_report

matplotlib.use("Agg")
ROOT = Path(__file__).resolve().parent.parent




# --- the command line


def test_version_prints_the_version_alone() -> None:
    res = subprocess.run([sys.executable, "-m", "swerl.cli", "--version"], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"swerl {__version__}\n"


def test_recipe_list_is_aligned_and_complete_through_a_pipe() -> None:
    res = subprocess.run([sys.executable, "-m", "swerl.cli", "recipe", "list"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "COLUMNS": "60"})  # narrow: nothing may wrap
    assert res.returncode == 0, res.stderr
    rows = res.stdout.splitlines()
    assert rows[0].split() == ["RECIPE", "BACKEND", "DESCRIPTION"]
    assert [r.split()[0] for r in rows[1:]] == available_recipes()  # one line per recipe, none wrapped
    backend_col, desc_col = rows[0].index("BACKEND"), rows[0].index("DESCRIPTION")
    for r in rows[1:]:
        name = r.split()[0]
        recipe = load_recipe(name)
        assert r[backend_col:].startswith(recipe.train.backend + " ")
        assert r[desc_col:] == " ".join(recipe.description.split())
        assert r[backend_col - 1] == " " and r[desc_col - 1] == " "


def test_format_columns_pads_all_but_the_last_column() -> None:
    assert format_columns([("a", "bb", "x"), ("ccc", "d", "long last")]).splitlines() == [
        "a    bb  x", "ccc  d   long last"]


def test_dry_run_prints_the_plan_before_the_recipe(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_swerl(["train", "--recipe", "qwen9b", "--dry-run"], monkeypatch, capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "resource plan: qwen9b (backend verl)"
    fits = next(i for i, ln in enumerate(lines) if ln.strip().startswith("fits:"))
    recipe_at = lines.index("# resolved recipe")
    assert fits < recipe_at < lines.index("name: qwen9b")
    assert recipe_at < 40  # the plan is on the first screen, not after the 130-line recipe


def test_os_errors_are_one_line_without_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """An OSError that no command turned into a named error still prints one line, naming the path."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out, err = run_swerl(["data", "taskpack", "--out", str(blocker / "pack")], monkeypatch, capsys)
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    [line] = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert str(blocker) in line


# --- one plain line per update


def test_update_line_has_every_field_and_dashes_for_missing_ones() -> None:
    line = {"step": 3, "train/reward_mean": 0.25, "assembly/samples_per_rollout": 2.4, "staleness/mean": 0.4,
            "staleness/max": 1.0, "staleness/dropped": 0.0, "time/step_s": 2.06, "time/wall_s": 9.2}
    assert format_update_line(line, 40) == ("update 3/40  reward 0.250  val -  samples/rollout 2.40  "
                                            "staleness 0.40 (max 1, dropped 0)  time 2.1s (total 9s)")
    assert format_update_line({"step": 1, "val/reward_mean": float("nan")}).startswith("update 1  reward -  val -")


def test_piped_training_prints_a_line_per_update_as_it_goes_and_logs_to_wandb_offline(tmp_path: Path) -> None:
    """`swerl train --recipe toy | cat`: no progress bar, one line per update while training runs; W&B offline."""
    steps = 3
    run = tmp_path / "run"
    env = {**os.environ, "WANDB_MODE": "offline", "WANDB_SILENT": "true", "COLUMNS": "200"}
    env.pop("WANDB_API_KEY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "swerl.cli", "train", "--recipe", "toy", "--out", str(run),
         "--set", f"train.steps={steps}", "--set", "train.val_every=0", "--set", "train.rollouts_per_step=16",
         "--set", "train.loggers=[tensorboard,wandb]"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    seen: list[str] = []
    running_when_first_update_arrived = None
    assert proc.stdout is not None
    for line in proc.stdout:
        seen.append(line.rstrip("\n"))
        if line.startswith("update 1/") and running_when_first_update_arrived is None:
            running_when_first_update_arrived = proc.poll() is None
    err = proc.stderr.read() if proc.stderr else ""
    assert proc.wait(timeout=600) == 0, err
    updates = [ln for ln in seen if ln.startswith("update ")]
    assert [u.split()[1] for u in updates] == [f"{i}/{steps}" for i in range(1, steps + 1)], seen
    pattern = (r"update \d+/3  reward \d\.\d{3}  val -  samples/rollout \d+\.\d{2}  "
               r"staleness \d+\.\d{2} \(max \d+, dropped \d+\)  time \d+\.\ds \(total \d+s\)")
    assert all(re.fullmatch(pattern, u) for u in updates), updates
    assert running_when_first_update_arrived  # streamed while training, not dumped at the end
    assert not any("━" in ln for ln in seen)  # no progress-bar drawing in a log
    assert seen.index(updates[-1]) < next(i for i, ln in enumerate(seen) if ln.startswith("training finished"))
    # the same numbers are in metrics.jsonl
    metrics = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [f"{m['train/reward_mean']:.3f}" for m in metrics] == [u.split()[3] for u in updates]
    # W&B wrote an offline run with every update's metrics and the recipe as config
    [wandb_file] = list((run / "wandb").glob("offline-run-*/run-*.wandb"))
    data = wandb_file.read_bytes()
    assert data.count(b"train/reward_mean") >= steps
    for m in metrics:
        assert json.dumps(m["train/reward_mean"]).encode() in data
    assert b"rollouts_per_step" in data  # the resolved recipe is the run's config


# --- plots


def _metrics(run: Path, lines: list[dict[str, Any]]) -> Path:
    run.mkdir(parents=True, exist_ok=True)
    (run / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return run


def test_report_plots_read_right(tmp_path: Path) -> None:
    """Integer step ticks, no offset notation on a flat entropy, rewards on [0, 1], legends outside the axes."""
    lines = [{"step": s, "train/reward_mean": [0.0, 0.25, 0.5, 0.75, 1.0][s - 1],
              "policy/entropy": 8.9979 + (1e-6 if s in (1, 5) else 0.0),
              "val/reward_mean": 0.5 if s == 5 else None, "staleness/mean": 0.5, "staleness/max": 1.0,
              "staleness/dropped": 0.0} for s in range(1, 6)]
    summary = render_report(_metrics(tmp_path / "run", lines))
    assert {p.name for p in summary.plots} >= {"reward.png", "entropy.png", "staleness.png"}
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in summary.plots)

    xs = list(range(1, 6))
    reward = make_figure("reward", "mean reward", [("train", xs, [x["train/reward_mean"] for x in lines], "-"),
                                                   ("validation", [5], [0.5], "o-")], ylim=(0.0, 1.0))
    reward.canvas.draw()
    ax = reward.axes[0]
    assert ax.get_ylim() == (0.0, 1.0)
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1

    entropy = make_figure("entropy", "nats", [("entropy", xs, [x["policy/entropy"] for x in lines], "-")])
    entropy.canvas.draw()
    ay = entropy.axes[0]
    assert ay.yaxis.get_offset_text().get_text() == ""  # no "1e-6+8.9979"
    lo, hi = ay.get_ylim()
    assert hi - lo > 0.1  # a 1e-6 wobble is drawn flat, not as a V
    labels = [t.get_text() for t in ay.get_yticklabels()]
    assert all("e" not in s for s in labels)

    over = make_figure("reward", "r", [("train", [1, 2], [-0.5, 1.5], "-")], ylim=(0.0, 1.0))
    assert over.axes[0].get_ylim()[0] < -0.5 and over.axes[0].get_ylim()[1] > 1.5  # data outside [0, 1] stay visible


def test_error_lines_print_user_text_verbatim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Square brackets in a quoted value are text, not console markup (they used to vanish)."""
    monkeypatch.chdir(tmp_path)
    row = {"instance_id": "[red]o__r.1", "repo": ["[bold]x"], "patch": "", "FAIL_TO_PASS": [], "PASS_TO_PASS": [],
           "image_name": "i", "problem_statement": "p"}
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    code, _, err = run_swerl(["data", "filter", "--dataset", "rows.jsonl", "--inspect", "none", "--out", "o"],
                               monkeypatch, capsys)
    assert code == 2
    assert ("error: --dataset rows.jsonl:1: row '[red]o__r.1': field repo must be a string, got a list "
            '["[bold]x"]') in err


def test_wandb_logger_without_the_package_is_a_recipe_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Named when the recipe loads (before any engine or sandbox starts), with the install command."""
    import importlib.util

    from swerl.errors import ConfigError

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wandb" else real(name, *a))
    with pytest.raises(ConfigError, match=r"bad value for 'train.loggers' \(--set\): .*pip install 'swerl\[wandb\]'"):
        load_recipe("toy", ["train.loggers=[tensorboard,wandb]"])
    assert load_recipe("toy", ["train.loggers=[tensorboard]"]).train.loggers == ["tensorboard"]
