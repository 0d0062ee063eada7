"""`swerl train` as a user runs it: dry run, clear errors before any work, `report`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import ConfigError


def swerl(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "swerl.cli", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_dry_run_prints_resolved_recipe_and_plan_without_starting_anything(tmp_path: Path) -> None:
    res = swerl("train", "--recipe", "toy-sao", "--set", "train.steps=7", "--mode", "sync", "--dry-run",
                "--out", str(tmp_path / "run"))
    assert res.returncode == 0, res.stderr
    assert "steps: 7" in res.stdout and "mode: sync" in res.stdout and "name: sao" in res.stdout
    assert "resource plan" in res.stdout
    assert not (tmp_path / "run").exists()


def test_unknown_recipe_is_a_one_line_error() -> None:
    res = swerl("train", "--recipe", "nope")
    assert res.returncode == 2
    assert "unknown recipe 'nope'" in res.stderr and "toy" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize(("args", "needle"), [
    (["--recipe", "toy", "--set", "train.lrx=1"], "'train.lrx'"),
    (["--recipe", "toy", "--set", "train.steps=many"], "'train.steps'"),
    (["--recipe", "toy", "--mode", "fast"], "--mode 'fast'"),
    (["--recipe", "toy", "--resume"], "--resume needs --out"),
    (["--recipe", "toy-sao", "--set", "rollout.n_per_task=4", "--dry-run"], "group size 1"),
])
def test_bad_input_is_refused_before_work(args: list[str], needle: str) -> None:
    res = CliRunner().invoke(app, ["train", *args])
    assert isinstance(res.exception, ConfigError), res.output
    assert needle in str(res.exception)


def test_resume_and_reuse_of_run_dirs_are_checked(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    res = CliRunner().invoke(app, ["train", "--out", str(run), "--resume"])
    assert isinstance(res.exception, ConfigError) and "recipe.yaml" in str(res.exception)
    (run / "metrics.jsonl").write_text("")
    res = CliRunner().invoke(app, ["train", "--recipe", "toy", "--out", str(run)])
    assert isinstance(res.exception, ConfigError) and "already holds a run" in str(res.exception)


def test_report_command_renders_plots_and_table(tmp_path: Path) -> None:
    lines = [{"step": s, "train/reward_mean": s / 4, "policy/entropy": 8.0, "assembly/samples_per_rollout": 1.5,
              "time/rollout_s": 1.0, "time/wall_s": float(s)} for s in (1, 2, 3)]
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(ln) + "\n" for ln in lines))
    res = CliRunner().invoke(app, ["train", "report", str(tmp_path)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "train reward: first / last" in res.output and "0.500 / 0.500" in res.output
    assert (tmp_path / "report" / "reward.png").is_file()
    res = CliRunner().invoke(app, ["train", "report", str(tmp_path / "missing")])
    assert res.exception is not None and "no such run directory" in str(res.exception)


def test_ctrl_c_stops_at_a_safe_point_with_a_checkpoint(tmp_path: Path, tok_cache: Path, tiny_tok: object) -> None:
    import signal
    import time

    run = tmp_path / "run"
    env = {**os.environ, "COLUMNS": "200", "SWERL_CACHE_DIR": str(tok_cache.parent)}
    proc = subprocess.Popen([sys.executable, "-m", "swerl.cli", "train", "--recipe", "toy", "--out", str(run),
                             "--set", "train.steps=500", "--set", "train.rollouts_per_step=16",
                             "--set", "train.tensorboard=false"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    metrics = run / "metrics.jsonl"
    deadline = time.monotonic() + 120
    while not (metrics.is_file() and metrics.read_text().strip()):  # the first update is done
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no update within 120 s"
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "stopped early" in out and "Traceback" not in err
    steps = len((run / "metrics.jsonl").read_text().splitlines())
    assert (run / "checkpoints" / "latest").read_text().strip() == f"step-{steps:06d}"
