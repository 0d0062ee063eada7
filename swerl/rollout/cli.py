"""`swerl rollout ...`: run one rollout (what launchers start), declare rollouts, serve the controller loop."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from swerl.errors import SwerlError

app = typer.Typer(help="Rollouts: mini-swe-agent in hardened sandboxes through the gateway; the controller.",
                  no_args_is_help=True)

RECIPE = typer.Option("tiny", "--recipe", help="Recipe name or YAML path (rollout/sandbox/model sections).")
SET = typer.Option([], "--set", help="Recipe override, e.g. --set rollout.harness=mini-swe-agent-textbased.")
DATASET = typer.Option(None, "--dataset", help="Tasks: taskpack or a rows file/dir/hub name (default: recipe).")
SPLIT = typer.Option(None, "--split", help="Split of --dataset (default: recipe data.split).")
REPOS = typer.Option(None, "--repos", help="bwrap: DIR/<name> is the git mirror of repo owner/<name>.")
ROOTFS = typer.Option("auto", "--rootfs", help="bwrap system tree: auto (cached debootstrap), host, or a dir.")
TRAJ = typer.Option(None, "--trajectories", help="Directory for trajectories (mini-swe-agent format, redacted).")
GATEWAY = typer.Option(None, "--gateway", help="Gateway URL, e.g. http://127.0.0.1:8900; shorthand for --set "
                                               "gateway.url=URL.")
TOKEN = typer.Option(None, "--admin-token-file", help="File holding the gateway's admin token; shorthand for --set "
                                                      "gateway.admin_token_file=FILE.")


def worker_options(recipe: str, set_: list[str], dataset: str | None, split: str | None, repos: Path | None,
                   rootfs: str, trajectories: Path | None, gateway: str | None = None,
                   admin_token_file: Path | None = None) -> Any:
    """The worker flags shared by `swerl rollout` and `swerl data probe`; `--dataset`/`--split`, `--gateway` and
    `--admin-token-file` are shorthands for the recipe's one field (`data.*`, `gateway.*`). The gateway flags go
    after `--set` (the flag wins) and the token file is written absolute, so a launched worker reads the same."""
    from swerl.config import shorthand_overrides
    from swerl.rollout.context import WorkerOptions

    data = shorthand_overrides(("data.dataset", dataset), ("data.split", split))
    gw = shorthand_overrides(("gateway.url", gateway), ("gateway.admin_token_file",
                                                        None if admin_token_file is None
                                                        else str(admin_token_file.expanduser().absolute())))
    return WorkerOptions(recipe=recipe, overrides=[*data, *set_, *gw], repos=repos, rootfs=rootfs,
                         trajectories=trajectories)


def _client(recipe: Any) -> Any:
    """A client of the recipe's running gateway (`gateway.url`, its token in `gateway.admin_token_file`)."""
    from swerl.gateway.auth import load_admin_token
    from swerl.gateway.client import GatewayClient

    if recipe.gateway.url is None:
        raise SwerlError("--gateway URL is required (the recipe's gateway.url is unset)")
    return GatewayClient(recipe.gateway.url, load_admin_token(recipe.gateway.admin_token_file, create=False))


@app.command("run-one")
def run_one(
    rollout_id: str = typer.Argument(..., help="The rollout to run (declared in the gateway)."),
    attempt: int | None = typer.Option(None, "--attempt", min=1,
                                       help="Run exactly this attempt once (launchers); without it, claim a queued "
                                            "rollout and retry infra failures here."),
    gateway: str | None = GATEWAY, admin_token_file: Path | None = TOKEN, recipe: str = RECIPE, set_: list[str] = SET,
    dataset: str | None = DATASET, split: str | None = SPLIT, repos: Path | None = REPOS, rootfs: str = ROOTFS,
    trajectories: Path | None = TRAJ,
) -> None:
    """Run one rollout: agent against the gateway proxy, grade in a fresh sandbox, record reward and state.
    Prints the outcome as one JSON line; exit 0 whenever an outcome was recorded (infra included), else non-zero."""
    from swerl.rollout.context import WorkerContext
    from swerl.rollout.runner import Runner

    ctx = WorkerContext(worker_options(recipe, set_, dataset, split, repos, rootfs, trajectories, gateway,
                                       admin_token_file))
    ctx.prepare_images()
    with _client(ctx.recipe) as client:
        runner = Runner(client, ctx.sandbox, ctx.tasks.task, ctx.settings)
        out = runner.run_attempt(rollout_id, attempt=attempt) if attempt else runner.run(rollout_id)
    typer.echo(out.model_dump_json(exclude={"agent", "grade"}))


@app.command("declare")
def declare_cmd(
    n: int = typer.Option(None, "--n", min=1, help="Rollouts per task (default: recipe rollout.n_per_task)."),
    prefix: str = typer.Option("", "--prefix", help="Group-id prefix, e.g. step3/ (ids must stay unique)."),
    instance: list[str] = typer.Option([], "--instance", help="Only these instance ids (repeatable)."),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N tasks."),
    gateway: str | None = GATEWAY, admin_token_file: Path | None = TOKEN, recipe: str = RECIPE, set_: list[str] = SET,
    dataset: str | None = DATASET, split: str | None = SPLIT,
) -> None:
    """Declare n rollouts per task (queued; idempotent). The controller runs them."""
    from swerl.rollout.context import WorkerContext
    from swerl.rollout.controller import declare, plan

    ctx = WorkerContext(worker_options(recipe, set_, dataset, split, None, "host", None, gateway, admin_token_file))
    ids = instance or ctx.tasks.instance_ids
    unknown = sorted(set(ids) - set(ctx.tasks.instance_ids))
    if unknown:
        raise SwerlError(f"--instance: not in the dataset: {', '.join(unknown)}")
    ids = ids[:limit] if limit else ids
    reqs = plan(ids, n or ctx.recipe.rollout.n_per_task, prefix=prefix,
                max_attempts=ctx.recipe.rollout.max_infra_retries + 1)
    with _client(ctx.recipe) as client:
        declared = declare(client, reqs)
    typer.echo(f"declared {len(declared)} rollouts ({len(ids)} tasks)")


@app.command("controller")
def controller_cmd(
    launcher: str = typer.Option("process", "--launcher", help="process (one worker process per attempt), "
                                                               "thread (in this process) or kubernetes (Jobs)."),
    concurrency: int | None = typer.Option(None, "--concurrency", min=1, help="Default: recipe rollout.concurrency."),
    rate: float = typer.Option(0.0, "--rate", min=0, help="Max launches per second (0 = unlimited)."),
    grace: float = typer.Option(300.0, "--grace", min=0, help="Seconds past sandbox.rollout_timeout_s before a "
                                                              "running rollout is declared dead (grading, start-up)."),
    poll: float = typer.Option(1.0, "--poll", min=0.05, help="Seconds between reconcile passes."),
    until_done: bool = typer.Option(False, "--until-done", help="Exit once nothing is queued, running or retryable."),
    logs: Path | None = typer.Option(None, "--logs", help="process launcher: one log file per worker here."),
    image: str | None = typer.Option(None, "--image", help="kubernetes: the worker image (has swerl installed)."),
    token_secret: str = typer.Option("swerl-admin-token", "--token-secret",
                                     help="kubernetes: Secret (key 'token') with the admin token."),
    gateway: str | None = GATEWAY, admin_token_file: Path | None = TOKEN, recipe: str = RECIPE, set_: list[str] = SET,
    dataset: str | None = DATASET, split: str | None = SPLIT, repos: Path | None = REPOS, rootfs: str = ROOTFS,
    trajectories: Path | None = TRAJ,
) -> None:
    """Serve the reconciliation loop against a gateway (Ctrl-C stops it; state stays in the gateway)."""
    from swerl.rollout.context import WorkerContext
    from swerl.rollout.controller import Controller

    ctx = WorkerContext(worker_options(recipe, set_, dataset, split, repos, rootfs, trajectories, gateway,
                                       admin_token_file))
    client = _client(ctx.recipe)
    lnch = _launcher(launcher, ctx, client, logs, image, token_secret)
    ctl = Controller(client, lnch, concurrency=concurrency or ctx.recipe.rollout.concurrency, rate=rate,
                     deadline_s=ctx.recipe.sandbox.rollout_timeout_s, grace_s=grace, poll_s=poll)
    try:
        rep = ctl.serve(until_idle=until_done)
        typer.echo(f"controller stopped: queued={rep.queued} running={rep.running} active={rep.active}")
    except KeyboardInterrupt:
        typer.echo("controller interrupted; state is in the gateway, a restart carries on", err=True)
    finally:
        lnch.close()
        client.close()


def _launcher(kind: str, ctx: Any, client: Any, logs: Path | None, image: str | None, token_secret: str) -> Any:
    """How the controller starts an attempt; a launched worker gets the controller's own flags (`argv()`, the
    gateway's `--set` items included), so it runs with exactly this setup; Kubernetes Jobs run in the namespace of
    the sandbox pods they create (`sandbox.kubernetes.namespace`)."""
    from swerl.rollout.launchers import ProcessLauncher, ThreadLauncher

    if kind == "thread":
        from swerl.rollout.runner import Runner

        ctx.prepare_images()
        runner = Runner(client, ctx.sandbox, ctx.tasks.task, ctx.settings)
        return ThreadLauncher(lambda rid, att: runner.run_attempt(rid, attempt=att))
    if kind == "process":
        ctx.prepare_images()
        base = [sys.executable, "-m", "swerl.rollout", "run-one"]
        return ProcessLauncher(lambda rid, att: [*base, rid, "--attempt", str(att), *ctx.opts.argv()], log_dir=logs)
    if kind == "kubernetes":
        from swerl.rollout.k8s import JobLauncher, JobTemplate

        if not image:
            raise SwerlError("--launcher kubernetes needs --image (a worker image with swerl installed)")
        tpl = JobTemplate(image=image, cluster=ctx.recipe.sandbox.kubernetes, gateway_url=ctx.recipe.gateway.url,
                          token_secret=token_secret,
                          worker_args=ctx.opts.argv(), deadline_s=ctx.recipe.sandbox.rollout_timeout_s)
        return JobLauncher(tpl)
    raise SwerlError(f"--launcher {kind!r}: expected process, thread or kubernetes")
