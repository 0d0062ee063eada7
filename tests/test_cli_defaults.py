"""Flags of `swerl eval swebench` and `swerl train sft` that fill a settings field state no default of their own:
a flag left out leaves the model's default (a changed default is what runs), and `--help` prints the model's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field
from typer.testing import CliRunner

from swerl.cli import app
from swerl.cli_defaults import model_default
from swerl.config import RolloutConfig
from swerl.eval.options import EvalOptions, eval_rollout
from swerl.train.sft import SftParams

runner = CliRunner(env={"COLUMNS": "250", "TERMINAL_WIDTH": "250"})


class _Ran(Exception):
    """Raised by the stand-in for the run: the options the CLI built, nothing run."""

    def __init__(self, opts: Any) -> None:
        super().__init__("stand-in run")
        self.opts = opts


def _stop(opts: Any, **_: Any) -> Any:
    raise _Ran(opts)


def _help_line(args: list[str], flag: str) -> str:
    """The option's row in the options panel, its wrapped continuation lines joined (the width rich picks depends
    on the terminal, or on none)."""
    res = runner.invoke(app, [*args, "--help"])
    assert res.exit_code == 0, res.output
    lines = [ln.strip("│ ").lstrip("* ") for ln in re.sub(r"\x1b\[[0-9;]*m", "", res.output).splitlines()
             if ln.startswith("│")]  # the panels' rows only (the usage text may start a line with a flag)
    starts = [i for i, ln in enumerate(lines) if ln.startswith(f"{flag} ")]
    assert len(starts) == 1, res.output
    row = [lines[starts[0]]]
    for ln in lines[starts[0] + 1:]:
        if not ln or ln.startswith("-") or ln.startswith("╰"):
            break
        row.append(ln)
    return " ".join(row)


def _eval_opts(tmp_path: Path, *flags: str) -> Any:
    res = runner.invoke(app, ["eval", "swebench", "--out", str(tmp_path / "run"), "--backend", "bwrap", *flags])
    assert isinstance(res.exception, _Ran), (res.exception, res.output)
    return res.exception.opts


def _sft_params(tmp_path: Path, *flags: str) -> Any:
    res = runner.invoke(app, ["train", "sft", "--data", str(tmp_path / "t.traj.json"), "--out", str(tmp_path / "m"),
                              *flags])
    assert isinstance(res.exception, _Ran), (res.exception, res.output)
    return res.exception.opts


def test_help_prints_the_models_defaults() -> None:
    steps = model_default(EvalOptions, "rollout.max_steps")
    assert f"[default: {steps}]" in _help_line(["eval", "swebench"], "--step-limit")
    grade = model_default(EvalOptions, "grade_timeout_s")
    assert f"[default: {grade}]" in _help_line(["eval", "swebench"], "--grade-timeout")
    assert "[default: pull]" in _help_line(["eval", "swebench"], "--pull")
    assert f"[default: {SftParams.model_fields['epochs'].default}]" in _help_line(["train", "sft"], "--epochs")
    assert "[default: only-resolved]" in _help_line(["train", "sft"], "--only-resolved")
    for flag in ("--out", "--model", "--docker-host"):  # required, or no default to tell
        assert "[default:" not in _help_line(["eval", "swebench"], flag)


def test_eval_flags_left_out_take_the_models_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Changed(EvalOptions):
        grade_timeout_s: float = Field(123.0, gt=0)
        pull: bool = False
        rollout: RolloutConfig = Field(default_factory=lambda: eval_rollout().model_copy(update={"max_steps": 77}))

    monkeypatch.setattr("swerl.eval.options.EvalOptions", Changed)
    monkeypatch.setattr("swerl.eval.runner.run_eval", _stop)
    opts = _eval_opts(tmp_path)
    assert (opts.rollout.max_steps, opts.grade_timeout_s, opts.pull) == (77, 123.0, False)
    assert opts.rollout.temperature == eval_rollout().temperature  # the rest of the section: eval's own defaults
    assert opts.sandbox.backend == "bwrap"
    assert "[default: 77]" in _help_line(["eval", "swebench"], "--step-limit")
    assert "[default: no-pull]" in _help_line(["eval", "swebench"], "--pull")
    opts = _eval_opts(tmp_path, "--step-limit", "5", "--grade-timeout", "9", "--pull")
    assert (opts.rollout.max_steps, opts.grade_timeout_s, opts.pull) == (5, 9.0, True)


def test_sft_flags_left_out_take_the_models_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Changed(SftParams):
        epochs: int = Field(7, ge=1)
        only_resolved: bool = False

    monkeypatch.setattr("swerl.train.sft.SftParams", Changed)
    monkeypatch.setattr("swerl.train.sft.run_sft", _stop)
    params = _sft_params(tmp_path)
    assert (params.epochs, params.only_resolved, params.lr) == (7, False, SftParams.model_fields["lr"].default)
    assert "[default: 7]" in _help_line(["train", "sft"], "--epochs")
    params = _sft_params(tmp_path, "--epochs", "2", "--only-resolved")
    assert (params.epochs, params.only_resolved) == (2, True)
