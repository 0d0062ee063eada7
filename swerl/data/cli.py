"""`swerl data ...`: the bundled task pack and SWE-smith filtering."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Task data: the bundled task pack and SWE-smith filtering.", no_args_is_help=True)
console = Console()


@app.command("taskpack")
def taskpack(
    out: Path = typer.Option(..., "--out", help="Directory to write tasks.jsonl and the git repos into."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Materialise the bundled task pack: real git repos (a branch per instance_id) and SWE-smith rows."""
    from swerl.data.taskpack import materialize

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
    from pydantic import ValidationError

    from swerl.data.taskgen import FAMILIES, TaskgenParams, generate
    from swerl.errors import DataError

    try:
        params = TaskgenParams(out=out, repos=list(repos), families=list(families) or list(FAMILIES),
                               max_per_function=max_per_function, test_frac=test_frac, seed=seed, workers=workers,
                               force=force)
    except ValidationError as exc:
        err = exc.errors()[0]
        flag = "--" + str(err["loc"][0]).replace("_", "-")
        raise DataError(f"{flag}: {err['msg']} (got {err.get('input')!r})") from None
    report = generate(params)
    table = Table(title=f"swerl data taskgen → {out}")
    table.add_column("")
    table.add_column("tasks", justify="right")
    table.add_row("candidate edits", str(report.candidates))
    for reason, n in sorted(report.dropped.items()):
        table.add_row(f"dropped: {reason}", str(n))
    for fam, n in sorted(report.families.items()):
        table.add_row(f"family: {fam}", str(n))
    for name, n in sorted(report.splits.items()):
        table.add_row(f"split: {name}", str(n), style="bold")
    console.print(table)
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
    from pydantic import ValidationError
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from swerl.data.params import FilterParams
    from swerl.data.pipeline import run_filter
    from swerl.errors import DataError

    try:
        params = FilterParams(
            dataset=dataset, split=split, out=out, branches=branches, inspect=inspect, repos=repos,
            cache_dir=cache_dir, max_tests=max_tests, probe_results=probe_results, attempts=attempts,
            all_fail_keep=all_fail_keep, test_size=test_size, seed=seed, on_bad_row=on_bad_row, num_proc=num_proc,
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        flag = "--" + str(err["loc"][0]).replace("_", "-")
        raise DataError(f"{flag}: {err['msg']} (got {err.get('input')!r})") from None

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

    table = Table(title=f"swerl data filter → {out}")
    table.add_column("")
    table.add_column("rows", justify="right")
    table.add_row("input", str(report.input))
    for reason, n in report.dropped.items():
        table.add_row(f"dropped: {reason}", str(n))
    for cat, n in report.kept.items():
        table.add_row(f"kept: {cat}", str(n), style="green")
    for name, n in report.splits.items():
        table.add_row(f"split: {name}", str(n), style="bold")
    console.print(table)


@app.command("probe")
def probe(
    probe_results: Path = typer.Option(..., "--probe-results",
                                       help="JSONL to append {instance_id, attempt, resolved} to (resumable)."),
    attempts: int = typer.Option(4, "--attempts", min=1, help="Rollouts per task (k)."),
    endpoint: str | None = typer.Option(None, "--endpoint", help="OpenAI-compatible engine base URL "
                                                                 "(e.g. http://127.0.0.1:8000/v1)."),
    model: str | None = typer.Option(None, "--model", help="Model name to request (default: recipe model.path)."),
    api_key_env: str | None = typer.Option(None, "--api-key-env",
                                           help="--direct: environment variable holding the endpoint's API key."),
    direct: bool = typer.Option(False, "--direct", help="Call --endpoint directly instead of through a gateway "
                                                        "started here (nothing recorded)."),
    gateway: str | None = typer.Option(None, "--gateway", help="Use a running gateway instead (its engines)."),
    admin_token_file: Path | None = typer.Option(None, "--admin-token-file", help="Admin token of --gateway."),
    store: Path | None = typer.Option(None, "--store", help="Store of the gateway started here "
                                                            "(default: PROBE_RESULTS.gateway.sqlite)."),
    concurrency: int | None = typer.Option(None, "--concurrency", min=1, help="Default: recipe rollout.concurrency."),
    dataset: str | None = typer.Option(None, "--dataset", help="Tasks: taskpack or a rows file (default: recipe)."),
    split: str | None = typer.Option(None, "--split"),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N tasks."),
    repos: Path | None = typer.Option(None, "--repos", help="bwrap: DIR/<name> is the git mirror of owner/<name>."),
    recipe: str = typer.Option("tiny", "--recipe", help="Recipe (rollout, sandbox and model sections)."),
    set_: list[str] = typer.Option([], "--set", help="Recipe override (repeatable)."),
    rootfs: str = typer.Option("auto", "--rootfs", help="bwrap system tree: auto, host or a directory."),
    trajectories: Path | None = typer.Option(None, "--trajectories", help="Save trajectories here (redacted)."),
) -> None:
    """Difficulty probe: k real rollouts per task (agent in a sandbox, graded fresh) for `filter --probe-results`."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from swerl.rollout.context import WorkerOptions
    from swerl.rollout.probe import ProbeOptions, probe_main

    opts = ProbeOptions(
        probe_results=probe_results, attempts=attempts, endpoint=endpoint, model=model, api_key_env=api_key_env,
        direct=direct, gateway=gateway, admin_token_file=admin_token_file, store=store, concurrency=concurrency,
        limit=limit, worker=WorkerOptions(recipe=recipe, overrides=list(set_), dataset=dataset, split=split,
                                          repos=repos, rootfs=rootfs, trajectories=trajectories))
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
    table = Table(title=f"swerl data probe → {probe_results}")
    table.add_column("")
    table.add_column("attempts", justify="right")
    table.add_row("planned", str(report.total))
    table.add_row("already recorded (skipped)", str(report.skipped))
    table.add_row("recorded now", str(report.recorded))
    table.add_row("resolved now", str(report.resolved), style="green")
    table.add_row("infra failures (not recorded)", str(len(report.infra_failed)),
                  style="red" if report.infra_failed else None)
    console.print(table)
