"""`swerl data ...`: the bundled task pack and SWE-smith filtering."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from swerl.rollout.cli import DATASET, RECIPE, REPOS, ROOTFS, SET, SPLIT, TRAJ

if TYPE_CHECKING:
    from pydantic import BaseModel

app = typer.Typer(help="Task data: the bundled task pack and SWE-smith filtering.", no_args_is_help=True)
console = Console()
P = TypeVar("P", bound="BaseModel")


def _params(cls: type[P], **flags: Any) -> P:
    """Validate a command's flags as one pydantic model; the first bad value is a DataError naming its flag."""
    from pydantic import ValidationError

    from swerl.errors import DataError

    try:
        return cls(**flags)
    except ValidationError as exc:
        err = exc.errors()[0]
        flag = "--" + str(err["loc"][0]).replace("_", "-")
        raise DataError(f"{flag}: {err['msg']} (got {err.get('input')!r})") from None


def _counts(title: str, unit: str, rows: list[tuple[str, int, str | None]]) -> None:
    """Print a two-column table of (label, count, style) rows."""
    table = Table(title=title)
    table.add_column("")
    table.add_column(unit, justify="right")
    for label, n, style in rows:
        table.add_row(label, str(n), style=style)
    console.print(table)


@app.command("taskpack")
def taskpack(
    out: Path = typer.Option(..., "--out", help="Directory to write tasks.jsonl and the git repos into."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Materialise the bundled task pack: real git repos (a branch per instance_id) and SWE-smith rows."""
    from swerl.tasks.taskpack import materialize

    pack = materialize(out, force=force)
    table = Table(title=f"task pack → {out}")
    for col in ("instance_id", "F2P", "P2P", "statement"):
        table.add_column(col)
    for row in pack.rows:
        stmt = (row.problem_statement or "").strip().splitlines()
        table.add_row(row.instance_id, str(len(row.FAIL_TO_PASS)), str(len(row.PASS_TO_PASS)),
                      stmt[0][:50] if stmt else "[dim](empty)[/dim]")
    console.print(table)


@app.command("taskgen")
def taskgen(
    out: Path = typer.Option(..., "--out", help="Directory for tasks.jsonl, train.jsonl, test.jsonl, repos/, report.json."),
    repos: list[str] = typer.Option([], "--repo", help="Bundled repo to use (repeatable; default: all)."),
    families: list[str] = typer.Option([], "--family", help="Bug family (repeatable; default: all)."),
    max_per_function: int = typer.Option(6, "--max-per-function", help="Tasks kept per function (seeded)."),
    test_frac: float = typer.Option(0.2, "--test-frac", help="Share of tasks in the held-out split (whole files)."),
    seed: int = typer.Option(0, "--seed", help="Seed for selection, the split and statement phrasing."),
    workers: int = typer.Option(2, "--workers", help="Parallel test runs during verification."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Generate SWE-smith-style tasks from the bundled repos: bugs verified by running the tests, held-out files."""
    from swerl.data.taskgen import FAMILIES, TaskgenParams, generate

    report = generate(_params(TaskgenParams, out=out, repos=list(repos), families=list(families) or list(FAMILIES),
                              max_per_function=max_per_function, test_frac=test_frac, seed=seed, workers=workers,
                              force=force))
    _counts(f"swerl data taskgen → {out}", "tasks", [
        ("candidate edits", report.candidates, None),
        *((f"dropped: {k}", n, None) for k, n in sorted(report.dropped.items())),
        *((f"family: {k}", n, None) for k, n in sorted(report.families.items())),
        *((f"split: {k}", n, "bold") for k, n in sorted(report.splits.items()))])
    console.print(f"held-out files (test split only): {', '.join(report.heldout_files) or 'none'}")


@app.command("expert")
def expert(
    tasks: Path = typer.Option(..., "--tasks", help="Rows written by `swerl data taskgen` (e.g. DIR/train.jsonl)."),
    out: Path = typer.Option(..., "--out", help="Directory for <instance_id>.traj.json and summary.json."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N rows."),
    workers: int = typer.Option(1, "--workers", min=1, help="Agents run at once."),
    rootfs: str = typer.Option("auto", "--rootfs", help="bwrap system tree: auto, host or a directory."),
    strategy: str = typer.Option("search", "--strategy", help="search (generic search-based repair on the module "
                                 "the issue imports) or fix (answers from the row's fix column)."),
    agent_config: Path | None = typer.Option(None, "--agent-config", help="mini-swe-agent YAML merged over its "
                                             "templates (use the one the model is trained/evaluated with)."),
    step_limit: int = typer.Option(10, "--step-limit", min=1, help="Agent steps per task."),
) -> None:
    """Expert trajectories: mini-swe-agent with a scripted solver in a real sandbox, graded fresh (SFT data)."""
    from swerl.data.expert import load_agent_yaml, run_expert

    summary = run_expert(tasks, out, limit=limit, workers=workers, rootfs=rootfs, strategy=strategy,
                         agent_config=load_agent_yaml(agent_config), step_limit=step_limit)
    console.print(f"expert trajectories → {out}: {summary['resolved']}/{summary['tasks']} resolved")
    failed = [r for r in summary["results"] if not r["resolved"]]
    for r in failed[:5]:
        console.print(f"[red]not resolved[/red] {r['instance_id']}: {r['exit_status']} {r['error'] or ''}"[:200])


@app.command("filter")
def filter_(
    dataset: str = typer.Option("SWE-bench/SWE-smith", "--dataset",
                                help="HF hub name, or a local .parquet / .jsonl / .json file or save_to_disk dir."),
    split: str = typer.Option("train", "--split", help="Split of a hub dataset or a saved DatasetDict."),
    out: Path = typer.Option(..., "--out", help="Output dir: train/, test/, *.parquet, report.json, dropped.jsonl."),
    branches: Path | None = typer.Option(None, "--branches",
                                         help="JSON {image_name: \\[branch, ...]}: the branch inventory (stage 2)."),
    inspect: str | None = typer.Option(None, "--inspect",
                                       help="Inspect images for branches: docker, local (needs --repos) or none "
                                            "(skip stage 2 unless --branches). Default: local with --repos."),
    repos: Path | None = typer.Option(None, "--repos",
                                      help="--inspect local: DIR/<name> is the repo of image \\[org/]<name>\\[:tag]."),
    cache_dir: Path | None = typer.Option(None, "--cache-dir",
                                          help="Inventory cache (default ~/.cache/swerl/inventory)."),
    max_tests: int = typer.Option(200, "--max-tests", min=0, help="Stage 3: drop if len(F2P)+len(P2P) > this."),
    probe_results: Path | None = typer.Option(None, "--probe-results",
                                              help="Stage 4: JSONL {instance_id, attempt, resolved} from a probe."),
    attempts: int = typer.Option(4, "--attempts", min=1, help="Stage 4: attempts per task (k)."),
    all_fail_keep: int = typer.Option(1000, "--all-fail-keep", min=0,
                                      help="Stage 4: how many all-fail tasks to keep (seeded sample)."),
    test_size: int = typer.Option(400, "--test-size", min=0, help="Rows in the seeded test split."),
    seed: int = typer.Option(0, "--seed", help="Seed for the all-fail sample and the split."),
    on_bad_row: str = typer.Option("error", "--on-bad-row",
                                   help="A malformed row: error (names it) or skip (dropped as bad_row)."),
    num_proc: int | None = typer.Option(None, "--num-proc", min=1,
                                        help="Worker processes for datasets map (default: 1 below 500k rows)."),
) -> None:
    """Filter SWE-smith rows (empty statement, missing branch, too many tests, probe difficulty) and split."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from swerl.data.params import FilterParams
    from swerl.data.pipeline import run_filter

    params = _params(FilterParams, dataset=dataset, split=split, out=out, branches=branches, inspect=inspect,
                     repos=repos, cache_dir=cache_dir, max_tests=max_tests, probe_results=probe_results,
                     attempts=attempts, all_fail_keep=all_fail_keep, test_size=test_size, seed=seed,
                     on_bad_row=on_bad_row, num_proc=num_proc)

    import datasets

    datasets.disable_progress_bars()
    err = Console(stderr=True)
    with Progress(TextColumn("{task.description:<30}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not err.is_terminal) as bar:  # no bar drawings in a log file
        tasks: dict[str, int] = {}

        def progress(stage: str, completed: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=completed, total=total)

        report = run_filter(params, progress=progress)

    _counts(f"swerl data filter → {out}", "rows", [
        ("input", report.input, None), *((f"dropped: {k}", n, None) for k, n in report.dropped.items()),
        *((f"kept: {k}", n, "green") for k, n in report.kept.items()),
        *((f"split: {k}", n, "bold") for k, n in report.splits.items())])


def _probe_shorthands(*, concurrency: int | None, limit: int | None, endpoint: str | None, model: str | None,
                      gateway: str | None, admin_token_file: Path | None, store: Path | None) -> list[str]:
    """`swerl data probe`'s shorthand flags as `--set` items, each writing the recipe's one field (they go after
    `--set`: the flag wins). `--store` is a path from here, so it is written absolute."""
    from swerl.config import shorthand_overrides

    return shorthand_overrides(
        ("rollout.concurrency", concurrency), ("data.limit", limit), ("inference.url", endpoint),
        ("inference.model", model), ("gateway.url", gateway),
        ("gateway.admin_token_file", None if admin_token_file is None else str(admin_token_file)),
        ("gateway.store", None if store is None else str(store.expanduser().absolute())))


@app.command("probe")
def probe(
    probe_results: Path = typer.Option(..., "--probe-results",
                                       help="JSONL to append {instance_id, attempt, resolved} to (resumable)."),
    attempts: int = typer.Option(4, "--attempts", min=1, help="Rollouts per task (k)."),
    endpoint: str | None = typer.Option(None, "--endpoint", help="OpenAI-compatible engine base URL "
                                                                 "(e.g. http://127.0.0.1:8000/v1); shorthand for "
                                                                 "--set inference.url=URL."),
    model: str | None = typer.Option(None, "--model", help="Model name to request (default: the recipe's "
                                                           "inference.model, else model.path); shorthand for --set "
                                                           "inference.model=NAME."),
    api_key_env: str | None = typer.Option(None, "--api-key-env",
                                           help="--direct: environment variable holding the endpoint's API key."),
    direct: bool = typer.Option(False, "--direct", help="Call --endpoint directly instead of through a gateway "
                                                        "started here (nothing recorded)."),
    gateway: str | None = typer.Option(None, "--gateway", help="Use a running gateway instead (its engines); "
                                                               "shorthand for --set gateway.url=URL."),
    admin_token_file: Path | None = typer.Option(None, "--admin-token-file", help="Admin token of --gateway; "
                                                 "shorthand for --set gateway.admin_token_file=FILE."),
    store: Path | None = typer.Option(None, "--store", help="Store of the gateway started here "
                                                            "(default: PROBE_RESULTS.gateway.sqlite); shorthand "
                                                            "for --set gateway.store=FILE."),
    concurrency: int | None = typer.Option(None, "--concurrency", min=1, help="Shorthand for --set "
                                                                               "rollout.concurrency=N."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N tasks; shorthand for --set "
                                                                  "data.limit=N."),
    recipe: str = RECIPE, set_: list[str] = SET, dataset: str | None = DATASET, split: str | None = SPLIT,
    repos: Path | None = REPOS, rootfs: str = ROOTFS, trajectories: Path | None = TRAJ,
) -> None:
    """Difficulty probe: k real rollouts per task (agent in a sandbox, graded fresh) for `filter --probe-results`."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from swerl.rollout.cli import worker_options
    from swerl.rollout.probe import ProbeOptions, probe_main

    shorthands = _probe_shorthands(concurrency=concurrency, limit=limit, endpoint=endpoint, model=model,
                                   gateway=gateway, admin_token_file=admin_token_file, store=store)
    opts = ProbeOptions(probe_results=probe_results, attempts=attempts, api_key_env=api_key_env, direct=direct,
                        worker=worker_options(recipe, [*set_, *shorthands], dataset, split, repos, rootfs,
                                              trajectories))
    err = Console(stderr=True)
    plain = not err.is_terminal  # a log file or scheduler: one line per recorded attempt instead of a bar
    with Progress(TextColumn("{task.description:<24}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.fields[resolved]} resolved"), console=err, disable=plain) as bar:
        task = bar.add_task("probe", total=None, resolved=0)
        seen = {"resolved": 0}

        def progress(done: int, total: int, rec: object) -> None:
            seen["resolved"] += int(bool(getattr(rec, "resolved", False)))
            bar.update(task, completed=done, total=total, resolved=seen["resolved"])
            if plain:
                err.print(f"probe {done}/{total}  {getattr(rec, 'instance_id', '?')} attempt "
                          f"{getattr(rec, 'attempt', '?')}: {'resolved' if getattr(rec, 'resolved', False) else 'not resolved'}"
                          f"  ({seen['resolved']} resolved so far)", markup=False, highlight=False, soft_wrap=True)

        report = probe_main(opts, progress)
    _counts(f"swerl data probe → {probe_results}", "attempts", [
        ("planned", report.total, None), ("already recorded (skipped)", report.skipped, None),
        ("recorded now", report.recorded, None), ("resolved now", report.resolved, "green"),
        ("infra failures (not recorded)", len(report.infra_failed), "red" if report.infra_failed else None)])
