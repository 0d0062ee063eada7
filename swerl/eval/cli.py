"""`swerl eval ...`: SWE-bench evaluation runs, reports and run comparison. Heavy imports stay inside commands."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from swerl.cli_defaults import defaults_from, model_default
from swerl.errors import SwerlError

if TYPE_CHECKING:
    from swerl.eval.options import EvalOptions

app = typer.Typer(help="SWE-bench evaluation: agent over instances, official-harness grading, run comparison.",
                  no_args_is_help=True)
console = Console()
err_console = Console(stderr=True)


def _tame_third_party_logging() -> None:
    """`import swebench` runs `logging.basicConfig(level=INFO)` (in its collect/inference modules), which would
    print every INFO record of every library (and swerl's twice). This CLI owns the process: undo it."""
    import swebench  # noqa: F401

    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)


# CLI flag -> the field it fills: `data.` / `rollout.` / `sandbox.` / `gateway.` are the recipe's own sections
# (EvalOptions composes them: `--workers` is rollout.concurrency, `--attempts` rollout.n_per_task);
# any other flag fills the field of its own name. A flag left out (None) sets nothing: the model's default applies.
_FIELDS = {"dataset": "data.dataset", "split": "data.split", "limit": "data.limit", "harness": "rollout.harness",
           "step_limit": "rollout.max_steps", "temperature": "rollout.temperature",
           "max_tokens": "rollout.max_tokens", "infra_retries": "rollout.max_infra_retries",
           "command_timeout": "sandbox.command_timeout_s", "rollout_timeout": "sandbox.rollout_timeout_s",
           "docker_host": "sandbox.docker.base_url", "grade_timeout": "grade_timeout_s",
           "agent_config": "rollout.agent_config", "gateway": "gateway.url",
           "gateway_token_file": "gateway.admin_token_file", "workers": "rollout.concurrency",
           "attempts": "rollout.n_per_task"}


@app.command("swebench", cls=defaults_from("swerl.eval.options:EvalOptions", _FIELDS))
def swebench(
    model: str | None = typer.Option(None, "--model", help="OpenAI-compatible endpoint URL (used as is) or a "
                                                           "checkpoint dir (served by vLLM on GPU / embedded on CPU)."),
    out: Path = typer.Option(..., "--out", help="Run dir: preds.jsonl, report.json, trajectories, harness logs. "
                                                "Rerun with the same --out to resume."),
    dataset: str | None = typer.Option(None, "--dataset", help="HF hub name, a .jsonl/.json/.parquet file or "
                                                                "save_to_disk dir (SWE-bench or SWE-smith rows, e.g. "
                                                                "`swerl data filter`'s test split), or taskpack / "
                                                                "taskpack:swebench."),
    split: str | None = typer.Option(None, "--split", help="Split of a hub dataset or a saved DatasetDict."),
    instances: str | None = typer.Option(None, "--instances", help="Instance ids (comma-separated) or a file with one "
                                                                   "per line."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N selected instances."),
    workers: int | None = typer.Option(None, "--workers", min=1, help="Instances run in parallel."),
    backend: str = typer.Option("auto", "--backend", help="auto (docker if an engine answers, else bwrap), docker, "
                                                          "kubernetes or bwrap (local repos only, e.g. taskpack)."),
    attempts: int | None = typer.Option(None, "--attempts", min=1, help="Runs per instance; reports pass@1..pass@k."),
    grade_only: Path | None = typer.Option(None, "--grade-only", help="Grade this predictions file (.jsonl, or "
                                                                     "mini-swe-agent's preds.json); no agent."),
    run_only: bool = typer.Option(False, "--run-only", help="Write predictions, skip grading."),
    redo: bool = typer.Option(False, "--redo", help="Re-run the selected instances even if they have predictions."),
    grader: str | None = typer.Option(None, "--grader", help="auto (swebench's run_instance for SWE-bench rows on "
                                                             "docker, else the sandbox's fresh-container grading), "
                                                             "official, sandbox."),
    model_name: str | None = typer.Option(None, "--model-name", help="Model name sent to the endpoint (default: its "
                                                                     "first /models entry) and written to preds."),
    api_key_env: str | None = typer.Option(None, "--api-key-env", help="Environment variable holding the API "
                                                                       "key (never written to the run dir)."),
    engine: str | None = typer.Option(None, "--engine", help="For a checkpoint: auto, embedded or vllm."),
    harness: str | None = typer.Option(None, "--harness", help="mini-swe-agent (tool calls), "
                                                               "mini-swe-agent-textbased, terminus-2 (harbor's "
                                                               "Terminus-2; --backend bwrap), or pkg.mod:Class."),
    agent_config: Path | None = typer.Option(None, "--agent-config", help="YAML merged over mini-swe-agent's "
                                                                          "swebench config (agent/model/environment)."),
    step_limit: int | None = typer.Option(None, "--step-limit", min=1, help="Agent steps (model calls) per instance."),
    temperature: float | None = typer.Option(None, "--temperature", min=0.0),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=1, help="Per model call."),
    command_timeout: float | None = typer.Option(None, "--command-timeout", help="Seconds per agent command."),
    rollout_timeout: float | None = typer.Option(None, "--instance-timeout", help="Seconds per agent run (wall clock)."),
    grade_timeout: float | None = typer.Option(None, "--grade-timeout", help="Seconds for the tests when grading."),
    infra_retries: int | None = typer.Option(None, "--infra-retries", min=0, help="Retries of an infrastructure failure."),
    docker_host: str | None = typer.Option(None, "--docker-host", envvar="DOCKER_HOST", help="Docker engine URL."),
    rootfs: str | None = typer.Option(None, "--rootfs", help="bwrap system tree: auto, host or a directory."),
    pull: bool | None = typer.Option(None, "--pull/--no-pull", help="docker: pull missing instance images."),
    gateway: str | None = typer.Option(None, "--gateway", help="Send model calls through this swerl gateway "
                                                               "(recorded per instance)."),
    gateway_token_file: Path | None = typer.Option(None, "--gateway-token-file", help="The gateway's admin token."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json instead of tables."),
) -> None:
    """Evaluate a model on SWE-bench (Verified by default): mini-swe-agent in hardened sandboxes, official grading.

    Offline first run: `swerl eval swebench --dataset taskpack --backend bwrap --model ENDPOINT --out DIR`
    (the bundled tasks, no hub, no Docker).
    """
    flags = dict(locals())  # every option by its parameter name (read by the checks and EvalOptions)
    _run_swebench(flags)


def _run_swebench(flags: dict[str, Any]) -> None:
    """`swerl eval swebench` with its options in `flags`: check them, run, print the report (or its JSON)."""
    from swerl.eval.report import render
    from swerl.eval.runner import run_eval

    _tame_third_party_logging()
    opts = _eval_options(flags)
    on_done = None if flags["as_json"] else _progress_printer(grade_only=opts.grade_only is not None)
    report = run_eval(opts, on_done=on_done)
    if not _show(report, render, flags["as_json"], exclude={"instances"}):
        console.print(f"report: {flags['out'] / 'report.json'}   predictions: {flags['out'] / 'preds.jsonl'}")


def _check_flags(flags: dict[str, Any]) -> None:
    """Refuse contradictory or unknown flag values before any work, naming the flags as typed."""
    if flags["grade_only"] is not None and flags["run_only"]:
        raise SwerlError("--grade-only and --run-only exclude each other")
    if flags["grade_only"] is not None and flags["attempts"] not in (None, 1):
        raise SwerlError("--attempts: a predictions file holds one attempt; grade each file into its own --out")
    if flags["grader"] not in (None, "auto", "official", "sandbox"):
        raise SwerlError(f"--grader {flags['grader']!r}: expected auto, official or sandbox")
    if flags["engine"] not in (None, "auto", "embedded", "vllm"):
        raise SwerlError(f"--engine {flags['engine']!r}: expected auto, embedded or vllm")
    if flags["backend"] not in ("auto", "docker", "kubernetes", "bwrap"):
        raise SwerlError(f"--backend {flags['backend']!r}: expected auto, docker, kubernetes or bwrap")


def _eval_options(flags: dict[str, Any]) -> EvalOptions:
    """The run's `EvalOptions` from checked flags (a flag left out sets nothing: the model's default applies): the
    backend resolved (auto picks docker or bwrap, with a note saying which) and the agent config loaded, so a bad
    flag fails here and not instances later."""
    from rich.markup import escape

    from swerl.eval.options import EvalOptions
    from swerl.eval.setup import pick_backend
    from swerl.rollout.agent import load_agent_yaml

    _check_flags(flags)
    check_out(flags["out"])
    agent_config = flags["agent_config"]
    # the sections start from EvalOptions' defaults (not their own models'); each given flag is set over them
    sections = ("data", "rollout", "sandbox", "gateway")
    data: dict[str, Any] = {key: model_default(EvalOptions, key).model_dump() for key in sections}
    data["agent_config"] = load_agent_yaml(agent_config)
    if agent_config:
        data["rollout"]["agent_config"] = str(agent_config)
    for name, value in flags.items():
        if value is None or name in ("as_json", "backend", "agent_config"):
            continue
        *parents, leaf = _FIELDS.get(name, name).split(".")
        node = data
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = str(value) if name == "gateway_token_file" else value
    opts = EvalOptions.model_validate(data)
    if opts.grade_only is None and opts.model_name is None and opts.model is not None and opts.model.startswith(
            ("http://", "https://")):
        check_endpoint(opts.model, opts.api_key_env)  # before asking it for its model list: say if it cannot be reached
    opts.sandbox.backend, note = pick_backend(flags["backend"], opts.sandbox.docker.base_url)
    if note:
        err_console.print(f"[yellow]note:[/yellow] {escape(note)}", highlight=False, soft_wrap=True)
    return opts


def _progress_printer(*, grade_only: bool) -> Callable[[str, int, str, str, int, int], None]:
    """A line on stderr per finished instance (stdout stays for the report)."""
    from rich.markup import escape

    def progress(iid: str, attempt: int, outcome: str, detail: str, n: int, total: int) -> None:
        style = {"resolved": "green", "infra_failure": "red", "error": "yellow"}.get(outcome, "")
        tag = f"[{style}]{outcome}[/{style}]" if style else outcome
        which = f"{iid} (attempt {attempt})" if attempt else iid
        if detail == "resumed":  # the prediction was already in --out: from --grade-only, or an earlier run
            detail = "prediction from --grade-only" if grade_only else "prediction from an earlier run"
        err_console.print(f"\\[{n}/{total}] {which}: {tag} - {escape(detail)}", highlight=False, soft_wrap=True)

    return progress


def _show(rep: Any, render: Callable[[Any], list[object]], as_json: bool, exclude: set[str] | None = None) -> bool:
    """Print a report as JSON (`--json`; True) or as its rich tables (False)."""
    if as_json:
        typer.echo(json.dumps(rep.model_dump(mode="json", exclude=exclude), indent=2))
        return True
    for table in render(rep):
        console.print(table)
    return False


def check_out(out: Path, flag: str = "--out") -> None:
    """The run dir must be a directory we can create and write: say so before any work, naming the flag
    (without creating it: a run that fails a later check leaves no empty run dir)."""
    if out.exists() and not out.is_dir():
        raise SwerlError(f"{flag} {str(out)!r}: exists and is not a directory")
    base = out.absolute()
    while not base.exists() and base != base.parent:
        base = base.parent
    if not base.is_dir():
        raise SwerlError(f"{flag} {str(out)!r}: cannot create it: {str(base)!r} is not a directory")
    if not os.access(base, os.W_OK | os.X_OK):
        raise SwerlError(f"{flag} {str(out)!r}: cannot write in {str(base)!r} (permission denied)")


def check_endpoint(url: str, api_key_env: str) -> None:
    """An endpoint that cannot be reached is named as such (refused, timed out, DNS), not as "lists no model"."""
    import httpx

    base = url.rstrip("/")
    key = os.environ.get(api_key_env, "") or "none"
    try:
        httpx.get(base + "/models", headers={"Authorization": f"Bearer {key}"}, timeout=10)
    except httpx.ConnectError as exc:
        raise SwerlError(f"--model {url!r}: cannot connect to {base}/models ({exc}); is the server running "
                         f"and listening there? (vLLM: `vllm serve MODEL --port 8000` serves "
                         f"http://127.0.0.1:8000/v1)") from None
    except httpx.TimeoutException:
        raise SwerlError(f"--model {url!r}: {base}/models did not answer within 10 s") from None
    except httpx.HTTPError as exc:
        raise SwerlError(f"--model {url!r}: request to {base}/models failed: {type(exc).__name__}: {exc}") from None


@app.command("report")
def report_cmd(
    run_dir: Path = typer.Argument(..., help="A run dir written by `swerl eval swebench`."),
    as_json: bool = typer.Option(False, "--json", help="Print report.json instead of tables."),
) -> None:
    """Rebuild report.json of a run dir from its records (e.g. after an interrupted run) and print it."""
    from swerl.eval.report import build_report, render
    from swerl.eval.store import RunStore, write_json_atomic

    store = RunStore(run_dir)
    manifest = store.manifest()
    if manifest is None:
        raise SwerlError(f"RUN_DIR {str(run_dir)!r}: no run.json (not a `swerl eval swebench` run dir)")
    rep = build_report(store, manifest)
    write_json_atomic(run_dir / "report.json", rep.model_dump(mode="json"))
    _show(rep, render, as_json, exclude={"instances"})


@app.command("compare")
def compare_cmd(
    run_a: Path = typer.Argument(..., help="Baseline run dir (e.g. before training)."),
    run_b: Path = typer.Argument(..., help="Run dir to compare against it (e.g. after training)."),
    out: Path | None = typer.Option(None, "--out", help="Where compare.json and compare.png go "
                                                       "(default RUN_B/compare-vs-<RUN_A name>)."),
    samples: int = typer.Option(10_000, "--samples", help="Bootstrap resamples."),
    seed: int = typer.Option(0, "--seed"),
    confidence: float = typer.Option(0.95, "--confidence"),
    as_json: bool = typer.Option(False, "--json", help="Print compare.json instead of tables."),
) -> None:
    """Per-instance flips, per-repo deltas, a paired bootstrap CI of B - A, and a PNG bar chart."""
    from swerl.eval.compare import compare, render
    from swerl.eval.store import write_json_atomic

    dest = out or (run_b / f"compare-vs-{run_a.resolve().name}")
    rep = compare(run_a, run_b, samples=samples, seed=seed, confidence=confidence, chart=dest / "compare.png")
    write_json_atomic(dest / "compare.json", rep.model_dump(mode="json"))
    if not _show(rep, render, as_json):
        console.print(f"chart: {rep.chart}   json: {dest / 'compare.json'}")


@app.command("taskpack")
def taskpack_cmd(
    out: Path = typer.Option(..., "--out", help="Directory for instances.jsonl and one git repo per instance."),
    force: bool = typer.Option(False, "--force", help="Rebuild even if --out has instances.jsonl."),
) -> None:
    """Write the bundled task pack as SWE-bench-schema rows (base_commit, test_patch, JSON-string test lists)."""
    from swerl.eval.taskpack import build

    path = build(out, force=force)
    n = sum(1 for line in path.read_text().splitlines() if line.strip())
    console.print(f"{n} SWE-bench-schema instances: {path}  (use: swerl eval swebench --dataset {path} ...)")
