"""The `swerl train` command body: resolve the recipe, check the run dir, show progress, stop on Ctrl-C.

Kept out of `swerl/train/cli.py` so that module stays import-light (`swerl --help`).
"""

from __future__ import annotations

import errno
import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from swerl.config import Recipe, load_recipe
from swerl.errors import ConfigError, SwerlError


def resolve_recipe(recipe: str | None, overrides: list[str], out: Path | None, resume: bool,
                   mode: str | None) -> tuple[Recipe, Path]:
    """The recipe (a resumed run uses its saved one, plus `--set`) and the run directory."""
    if mode is not None:
        if mode not in ("collocated", "sync"):
            raise ConfigError(f"--mode {mode!r}: expected collocated or sync")
        overrides = [*overrides, f"train.mode={mode}"]
    if resume:
        if out is None:
            raise ConfigError("--resume needs --out RUN_DIR (the run to continue)")
        saved = out / "recipe.yaml"
        if not saved.is_file():
            raise ConfigError(f"--resume: {saved} does not exist (not a `swerl train` run directory?)")
        r = load_recipe(str(saved), overrides)
        if recipe is not None and recipe not in (r.name, str(saved)):
            raise ConfigError(f"--recipe {recipe!r} differs from the run's recipe {r.name!r}; drop --recipe to resume")
        return r, out
    if recipe is None:
        raise ConfigError("--recipe is required (see `swerl recipe list`)")
    r = load_recipe(recipe, overrides)
    run_dir = out or Path("runs") / f"{r.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    if (run_dir / "metrics.jsonl").exists() or (run_dir / "checkpoints").exists():
        raise ConfigError(f"--out {run_dir} already holds a run; use --resume to continue it or another --out")
    return r, run_dir


def disk_full_error(exc: OSError, run_dir: Path) -> SwerlError | None:
    """A full disk under the run (metrics, trajectories: writes that name no path) as one error naming the run
    dir and how to continue; None for other errors. Checkpoint writes raise their own (checkpoint.py)."""
    if exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return None
    return SwerlError(f"out of disk space writing {exc.filename or run_dir} ({exc.strerror}); the last checkpoint "
                     f"in {run_dir / 'checkpoints'} is intact: free space, then `swerl train --resume --out {run_dir}`")


def print_dry_run(console: Console, r: Recipe) -> None:
    from swerl.train.backends.verl.plan import dry_run_text
    from swerl.train.loop.runtime import check_recipe

    check_recipe(r)
    console.print(dry_run_text(r), markup=False, highlight=False, soft_wrap=True)


def _progress_bar(console: Console, plain: bool) -> Progress:
    """The live bar: phase, updates done of the recipe's steps, rollouts, rewards (disabled when `plain`)."""
    return Progress(TextColumn("[bold]{task.fields[phase]:<10}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("rollouts done {task.fields[done]} · in flight {task.fields[flight]} · "
                               "reward {task.fields[reward]} · val {task.fields[val]}"),
                    TimeElapsedColumn(), console=console, transient=False, disable=plain)


def _stop_on_sigint(console: Console, trainer: Any) -> Callable[[int, Any], None]:
    """A SIGINT handler: the first Ctrl-C asks `trainer` to stop at the next safe point (so the run ends with a
    checkpoint), a second one aborts at once."""
    interrupts = 0

    def on_sigint(signum: int, frame: Any) -> None:
        nonlocal interrupts
        interrupts += 1
        if interrupts > 1:
            raise KeyboardInterrupt
        console.print("[yellow]stopping at the next safe point (Ctrl-C again to abort)[/yellow]")
        trainer.stop()

    return on_sigint


def _print_result(console: Console, result: Any, run_dir: Path) -> None:
    """The run's last words: how it ended, its last reward, and where its metrics and report are."""
    state = "stopped early" if result.stopped_early else "finished"
    last = result.last
    reward = f"; last train reward {last['train/reward_mean']:.3f}" if "train/reward_mean" in last else ""
    console.print(f"training {state} after {result.steps} updates{reward}")
    console.print(f"metrics: {run_dir / 'metrics.jsonl'}; plots and summary: swerl train report {run_dir}")


def run_training(console: Console, *, recipe: str | None, overrides: list[str], out: Path | None, resume: bool,
                 mode: str | None, dry_run: bool) -> None:
    """`swerl train`: resolve the recipe and run the loop with a live bar (plain lines when not a terminal)."""
    from swerl.train.loop.trainer import Progress as LoopProgress
    from swerl.train.loop.trainer import Trainer

    r, run_dir = resolve_recipe(recipe, overrides, out, resume, mode)
    root = logging.getLogger()
    if not root.handlers:  # `import swebench` (grading) calls basicConfig(INFO): make that a no-op
        root.addHandler(logging.NullHandler())
    if dry_run:
        print_dry_run(console, r)
        return
    # Not a terminal (a pipe, a log file, a scheduler): no live bar, one plain line per update instead.
    plain = not console.is_terminal
    bar = _progress_bar(console, plain)
    task = bar.add_task("train", total=r.train.steps, phase="starting", done=0, flight=0, reward="-", val="-")
    echoed = {"step": 0}
    echo_lock = threading.Lock()

    def echo_updates() -> None:
        from swerl.train.loop.metrics import format_update_line

        with echo_lock:
            line = trainer.last_line
            if line and int(line.get("step", 0)) > echoed["step"]:
                echoed["step"] = int(line["step"])
                console.print(format_update_line(line, r.train.steps), markup=False, highlight=False,
                              soft_wrap=True)

    def show(p: LoopProgress) -> None:
        phase = p.phase + ("+val" if p.validating else "")
        bar.update(task, completed=p.step, phase=phase, done=p.rollouts_done, flight=p.in_flight,
                   reward="-" if p.reward is None else f"{p.reward:.3f}",
                   val="-" if p.val_reward is None else f"{p.val_reward:.3f}")
        if plain:
            echo_updates()

    trainer = Trainer(r, run_dir, resume=resume, on_progress=show)
    previous = signal.signal(signal.SIGINT, _stop_on_sigint(console, trainer))
    console.print(f"run directory: {run_dir}")
    try:
        with bar:
            result = trainer.run()
    except OSError as exc:
        full = disk_full_error(exc, run_dir)
        if full is None:
            raise
        raise full from exc
    finally:
        signal.signal(signal.SIGINT, previous)
    if plain:
        echo_updates()
    _print_result(console, result, run_dir)


def print_report(console: Console, run_dir: Path, out: Path | None) -> None:
    from swerl.train.loop.report import render_report

    if not Path(run_dir).is_dir():
        raise SwerlError(f"{run_dir}: no such run directory")
    summary = render_report(run_dir, out)
    table = Table(title=f"run {run_dir}", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for k, v in summary.rows:
        table.add_row(k, v)
    console.print(table)
    for p in summary.plots:
        console.print(f"plot: {p}")


__all__ = ["print_dry_run", "print_report", "resolve_recipe", "run_training"]
