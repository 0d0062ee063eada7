"""`swerl train ...`: the training loop, its report, SFT, export and sample-assembly inspection.

Heavy imports (torch, transformers, matplotlib) stay inside the commands so `swerl --help` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.table import Table

from swerl.cli_defaults import defaults_from

if TYPE_CHECKING:
    from swerl.train.schema import AssemblyStats

app = typer.Typer(help="RL training: `swerl train --recipe NAME` runs the loop; `report`, `assemble` inspect.",
                  no_args_is_help=True)
console = Console()


@app.callback(invoke_without_command=True)
def train_cmd(
    ctx: typer.Context,
    recipe: str | None = typer.Option(None, "--recipe", help="Recipe name (recipes/NAME.yaml) or a YAML path."),
    set_: list[str] = typer.Option([], "--set", help="Override a recipe key: --set train.lr=1e-5 (repeatable)."),
    out: Path | None = typer.Option(None, "--out", help="Run directory (default runs/<recipe>-<time>)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --out from its latest checkpoint."),
    mode: str | None = typer.Option(None, "--mode", help="collocated (default, async) or sync (for comparison)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Print the resolved recipe (and resource plan); start nothing."),
) -> None:
    """Train a policy with a recipe (see `swerl recipe list`)."""
    if ctx.invoked_subcommand is not None:
        return
    from swerl.train.loop.cli_run import run_training

    run_training(console, recipe=recipe, overrides=set_, out=out, resume=resume, mode=mode, dry_run=dry_run)


@app.command("report")
def report_cmd(
    run_dir: Path = typer.Argument(..., help="A run directory written by `swerl train`."),
    out: Path | None = typer.Option(None, "--out", help="Where to write the PNGs (default RUN_DIR/report)."),
) -> None:
    """Render reward / entropy / samples-per-rollout / phase-time plots and print a summary table."""
    from swerl.train.loop.cli_run import print_report

    print_report(console, run_dir, out)


def stats_table(stats: AssemblyStats) -> Table:
    """A rich table of `AssemblyStats` (what merged, what split and why)."""
    table = Table(title=f"sample assembly ({stats.mode})", show_header=True, header_style="bold")
    table.add_column("metric")
    table.add_column("value", justify="right")
    rows = [
        ("rollouts", f"{stats.num_rollouts}"),
        ("samples", f"{stats.num_samples}"),
        ("model calls (after de-duplication)", f"{stats.num_calls}"),
        ("retried calls dropped", f"{stats.num_retries_dropped}"),
        ("events of superseded attempts dropped", f"{stats.num_superseded_attempt_events}"),
        ("failed calls skipped", f"{stats.num_failed_calls}"),
        ("rollouts without reward", f"{stats.num_rollouts_without_reward}"),
        ("single-sample rollouts", f"{stats.single_sample_fraction:.1%}"),
        ("mean samples per rollout", f"{stats.mean_samples_per_rollout:.2f}"),
        ("samples per rollout (N: rollouts)", ", ".join(f"{k}: {v}" for k, v in stats.samples_per_rollout.items())),
        ("tokens / response tokens", f"{stats.num_tokens} / {stats.num_response_tokens}"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    for cause, count in stats.merge_failures.items():
        table.add_row(f"merge failures: {cause}", f"{count}")
    return table


@app.command("assemble")
def assemble_cmd(
    events: Path = typer.Option(..., "--events", help="Gateway events, one JSON object per line."),
    mode: str = typer.Option("best_effort", "--mode", help="best_effort (prefix merging) or per_call (ablation)."),
    tokenizer: str | None = typer.Option(
        None, "--tokenizer",
        help="qwen2.5, tiny-bpe or a tokenizer directory; optional, sharpens merge-failure causes by decoding."),
    out: Path | None = typer.Option(None, "--out", help="Write the samples here as JSONL."),
) -> None:
    """Assemble recorded calls into training samples and print the merge statistics."""
    from swerl.errors import SwerlError
    from swerl.train.assembly import assemble
    from swerl.train.io import read_events_jsonl, write_samples_jsonl

    if mode not in ("best_effort", "per_call"):
        raise SwerlError(f"--mode {mode!r}: expected best_effort or per_call")
    tok = None
    if tokenizer is not None:
        from swerl.models import load_tokenizer

        tok = load_tokenizer(tokenizer)
    samples, stats = assemble(read_events_jsonl(events), mode=mode, tokenizer=tok)  # type: ignore[arg-type]
    console.print(stats_table(stats))
    if out is not None:
        n = write_samples_jsonl(samples, out)
        console.print(f"wrote {n} samples to {out}")


@app.command("sft", cls=defaults_from("swerl.train.sft:SftParams"))
def sft_cmd(
    data: list[Path] = typer.Option(..., "--data", help="*.traj.json files/dirs (mini-swe-agent), SWE-smith "
                                                        "trajectory rows (.jsonl/.json/.parquet with `messages`) or "
                                                        "`swerl eval swebench` run dirs (graded attempts)."),
    out: Path = typer.Option(..., "--out", help="Model directory to write (transformers + tokenizer)."),
    recipe: str | None = typer.Option(None, "--recipe", help="Recipe whose model section sizes a tiny init and "
                                                             "names the tokenizer."),
    init: str | None = typer.Option(None, "--init", help="tiny (random init) or a model directory to continue from."),
    epochs: int | None = typer.Option(None, "--epochs"),
    lr: float | None = typer.Option(None, "--lr"),
    batch_tokens: int | None = typer.Option(None, "--batch-tokens", help="Padded tokens per optimizer step."),
    max_tokens: int | None = typer.Option(None, "--max-tokens", help="Cut conversations at the last assistant "
                                                                     "turn that fits: --set model.max_context=N."),
    only_resolved: bool | None = typer.Option(None, "--only-resolved/--all", help="Skip unresolved trajectories."),
    seed: int | None = typer.Option(None, "--seed", help="--set train.seed=N."),
    threads: int | None = typer.Option(None, "--threads", help="torch threads: --set train.threads=N."),
    set_: list[str] = typer.Option([], "--set", help="Recipe override (e.g. model.max_context=2048)."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Supervised warm-start on assistant turns of agent trajectories (the rollouts' chat template)."""
    from pydantic import ValidationError

    from swerl.config import shorthand_overrides
    from swerl.errors import SwerlError
    from swerl.train.sft import SftParams, run_sft

    try:
        shorthands = shorthand_overrides(("model.max_context", max_tokens), ("train.seed", seed),
                                         ("train.threads", threads))
        given = {"recipe": recipe, "init": init, "epochs": epochs, "lr": lr, "batch_tokens": batch_tokens,
                 "only_resolved": only_resolved}  # a flag left out sets nothing: SftParams' default applies
        params = SftParams(data=list(data), out=out, overrides=[*shorthands, *set_], force=force,
                           **{k: v for k, v in given.items() if v is not None})
    except ValidationError as exc:
        err = exc.errors()[0]
        raise SwerlError(f"--{str(err['loc'][0]).replace('_', '-')}: {err['msg']} (got {err.get('input')!r})") from None
    summary = run_sft(params)
    table = Table(title=f"swerl train sft → {out}")
    table.add_column("")
    table.add_column("value", justify="right")
    c = summary["counts"]
    table.add_row("conversations (examples)", f"{c['conversations']} ({c['examples']})")
    table.add_row("skipped unresolved / no answer / too long",
                  f"{c['skipped_unresolved']} / {c['skipped_no_answer']} / {c['too_long']}")
    table.add_row("tokens (assistant)", f"{c['tokens']} ({c['assistant_tokens']})")
    for ep in summary["epochs"]:
        table.add_row(f"epoch {ep['epoch']}: loss / token acc", f"{ep['loss']:.3f} / {ep['token_acc']:.3f}")
    table.add_row("steps / seconds", f"{summary['steps']} / {summary['seconds']}")
    console.print(table)
    console.print(f"next: swerl train --recipe swe-tiny --set model.path={out} "
                  "--set data.dataset=TASKGEN_DIR/train.jsonl   (and swerl eval swebench --model DIR)")


@app.command("export")
def export_cmd(
    source: Path = typer.Argument(..., help="A run directory (its latest checkpoint), a checkpoint dir or state.pt."),
    out: Path = typer.Option(..., "--out", help="Directory for the transformers model + tokenizer."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Export a training checkpoint as a transformers model directory (for eval, vLLM or another recipe)."""
    from swerl.models.checkpoint import export_checkpoint

    path = export_checkpoint(source, out, force=force)
    console.print(f"exported {source} → {path}")
    console.print(f"next: swerl eval swebench --model {path} --dataset taskpack --backend bwrap --out runs/eval-after")
