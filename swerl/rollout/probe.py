"""The difficulty probe (`swerl data probe`): k rollouts per task through the rollout path, one JSONL line each.

Each line is one `write` on an `O_APPEND` descriptor plus `fsync`, so a crash loses at most the
attempts in flight (a torn last line is cut on the next start), and a rerun skips what is
recorded. Infra failures that persist past the retries are not recorded: a missing attempt
leaves the task `not_probed`, never falsely hard.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from pydantic import BaseModel, ConfigDict, Field

from swerl.atomic import append_line, repair_tail
from swerl.gateway.client import GatewayClient
from swerl.log import get_logger
from swerl.rollout.context import WorkerContext, WorkerOptions
from swerl.rollout.controller import declare, plan
from swerl.rollout.ledger import DirectLedger, Ledger
from swerl.rollout.runner import Runner
from swerl.rollout.schema import ProbeRecord, RolloutSettings
from swerl.rollout.tasks import TaskSource
from swerl.sandbox.base import Sandbox

log = get_logger(__name__)

Progress = Callable[[int, int, ProbeRecord | None], None]


class ProbeLog:
    """The append-only results file: what is recorded, and a durable `append`."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self.done: set[tuple[str, int]] = set()
        self._load()

    def _load(self) -> None:
        if cut := repair_tail(self.path):
            log.warning("dropping a torn last line of the probe results", path=str(self.path), bytes=cut)
        if not self.path.exists():
            return
        from swerl.tasks.probes import read_probe_results

        for iid, attempts in read_probe_results(self.path).items():
            self.done |= {(iid, int(a)) for a in attempts if isinstance(a, int) or str(a).isdigit()}

    def append(self, rec: ProbeRecord) -> None:
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            append_line(self.path, orjson.dumps(rec.model_dump()) + b"\n")
            self.done.add((rec.instance_id, rec.attempt))


@dataclass
class ProbeReport:
    total: int = 0
    skipped: int = 0
    recorded: int = 0
    resolved: int = 0
    infra_failed: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class ProbeTarget:
    """Where the agent's calls go: `gateway` (a client: an existing or a `LocalGateway`) or a direct `endpoint`."""

    gateway: GatewayClient | None = None
    endpoint: str | None = None
    api_key: str = "none"

    def ledger(self) -> Ledger:
        """The gateway, or (direct) a ledger kept in this process: one per run, shared by its threads."""
        if self.gateway is not None:
            return self.gateway
        if self.endpoint is None:
            raise ValueError("ProbeTarget needs a gateway or an endpoint")
        return DirectLedger(self.endpoint, self.api_key)


def run_probe(source: TaskSource, *, results: Path, k: int, sandbox: Sandbox, settings: RolloutSettings,
              target: ProbeTarget, concurrency: int = 1, progress: Progress | None = None) -> ProbeReport:
    """Probe every task of `source` `k` times (attempts 0..k-1), skipping attempts already in `results`."""
    plog = ProbeLog(results)
    jobs = [(iid, a) for iid in source.instance_ids for a in range(k)]
    todo = [j for j in jobs if j not in plog.done]
    rep = ProbeReport(total=len(jobs), skipped=len(jobs) - len(todo))
    run_id = secrets.token_hex(4)
    client = target.ledger()
    lock = threading.Lock()
    if progress:
        progress(rep.skipped, rep.total, None)

    def one(job: tuple[str, int]) -> None:
        iid, attempt = job
        resolved = _attempt(source, iid, attempt, sandbox=sandbox, settings=settings, client=client, run_id=run_id)
        rec = None
        with lock:
            if resolved is None:
                rep.infra_failed.append(job)
            else:
                rec = ProbeRecord(instance_id=iid, attempt=attempt, resolved=resolved)
                plog.append(rec)
                rep.recorded += 1
                rep.resolved += int(resolved)
            if progress:
                progress(rep.skipped + rep.recorded + len(rep.infra_failed), rep.total, rec)

    with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="probe") as pool:
        for f in [pool.submit(one, j) for j in todo]:
            f.result()
    log.info("probe done", recorded=rep.recorded, skipped=rep.skipped, resolved=rep.resolved,
             infra_failed=len(rep.infra_failed))
    return rep


def _attempt(source: TaskSource, iid: str, attempt: int, *, sandbox: Sandbox, settings: RolloutSettings,
             client: Ledger, run_id: str) -> bool | None:
    """resolved True/False, or None if infrastructure kept failing (not recorded). The same `Runner` as
    training, on the gateway's ledger or (direct) on one kept in this process."""
    # the trainer's id scheme: group `probe-<run>-<task>`, rollout `<group>:<attempt>`
    req = plan([iid], attempt + 1, prefix=f"probe-{run_id}-", max_attempts=settings.rollout.max_infra_retries + 1,
               metadata={"probe_attempt": attempt})[attempt]
    (rid,) = declare(client, [req])
    out = Runner(client, sandbox, source.task, settings).run(rid)
    return out.resolved if out.state in ("succeeded", "failed_agent") else None


class ProbeOptions(BaseModel):
    """`swerl data probe`'s own flags (see swerl/data/cli.py). Everything else is the recipe's (`worker.recipe` with
    `worker.overrides`, its `--set` items), each setting in its one field: what is probed is `data:` (dataset,
    split, `limit`: the first N tasks), the engine asked is `inference:` (`url`; `model`, the name it serves the
    policy under) and the gateway recording the calls is `gateway:` (`url` + `admin_token_file`: a running one;
    else one started here on `store`, a relative store beside the results: `PROBE_RESULTS.<store>`). The flags
    `--limit`, `--endpoint`, `--model`, `--gateway`, `--admin-token-file` and `--store` are shorthands that write
    those fields."""

    model_config = ConfigDict(extra="forbid")

    probe_results: Path
    # the k of `swerl data filter --attempts` (the two must agree), not `rollout.n_per_task`: training's group size
    # may differ from how many samples the difficulty estimate takes, and must not change the probe behind its back
    attempts: int = Field(4, ge=1)
    # the name of an environment variable, never the key: a secret stays out of the recipe (and out of `argv`)
    api_key_env: str | None = None
    # how this one command reaches the engine (no recipe knob: `swerl train` always records through a gateway)
    direct: bool = Field(False, description="Call inference.url directly (no gateway, nothing recorded).")
    worker: WorkerOptions = Field(default_factory=WorkerOptions)


def gateway_store(store: str, results: Path) -> Path:
    """`gateway.store` for the gateway a probe starts: absolute as is (`--store` writes one), relative beside the
    results and named after them (the default `gateway.sqlite`: `PROBE_RESULTS.gateway.sqlite`), as `swerl train`
    puts a relative store in its run dir."""
    path = Path(store).expanduser()
    return path if path.is_absolute() else results.parent / f"{results.name}.{store}"


def probe_main(opts: ProbeOptions, progress: Progress | None = None) -> ProbeReport:
    """Set up the target (a running gateway, one started here, or the engine directly) and probe."""
    from swerl.errors import SwerlError

    ctx = WorkerContext(opts.worker)
    recipe = ctx.recipe
    inference, gw_settings = recipe.inference, recipe.gateway
    if gw_settings.url is None and inference.url is None:
        raise SwerlError("--endpoint URL is required (inference.url; or --gateway URL with --admin-token-file: "
                         "gateway.url, gateway.admin_token_file)")
    if opts.direct and inference.url is None:
        raise SwerlError("--direct needs --endpoint URL (inference.url)")
    if not opts.direct and gw_settings.url is not None and gw_settings.admin_token_file is None:
        raise SwerlError("--gateway needs --admin-token-file (gateway.url needs gateway.admin_token_file)")
    if inference.model:  # the name the engine serves the policy under; unset, the agent asks for model.path
        ctx.settings = ctx.settings.model_copy(update={"model": inference.model})
    api_key = "none"
    if opts.api_key_env:
        api_key = os.environ.get(opts.api_key_env, "")
        if not api_key:
            raise SwerlError(f"--api-key-env {opts.api_key_env}: the variable is not set")
    source = ctx.tasks
    if recipe.data.limit:
        source.rows = source.rows[:recipe.data.limit]
    ctx.prepare_images()
    common = {"results": opts.probe_results, "k": opts.attempts, "sandbox": ctx.sandbox, "settings": ctx.settings,
              "concurrency": recipe.rollout.concurrency, "progress": progress}
    if opts.direct:
        url = (inference.url or "").rstrip("/")
        url = url if url.endswith("/v1") else url + "/v1"  # the gateway's convention for engine URLs
        return run_probe(source, target=ProbeTarget(endpoint=url, api_key=api_key), **common)
    if gw_settings.url is not None:
        from swerl.gateway.auth import load_admin_token

        with GatewayClient(gw_settings.url, load_admin_token(gw_settings.admin_token_file, create=False)) as client:
            return run_probe(source, target=ProbeTarget(gateway=client), **common)
    from swerl.rollout.localgw import LocalGateway

    # the recipe's gateway knobs, but: it listens where LocalGateway puts it (127.0.0.1, a free port), records no
    # continuous tokens (that needs the policy's tokenizer; probe records are never trained on), and, as in
    # `swerl train`, waits for an engine exactly inference.request_timeout_s
    config = gw_settings.model_dump(exclude={"store", "url", "admin_token_file", "host", "port", "continuous_tokens"})
    config["read_timeout_s"] = inference.request_timeout_s
    with LocalGateway(gateway_store(gw_settings.store, opts.probe_results), [inference.url or ""],
                      upstream_model=inference.model, **config) as gw:
        assert gw.client is not None
        return run_probe(source, target=ProbeTarget(gateway=gw.client), **common)
