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
    """`swerl data probe` flags (see swerl/data/cli.py)."""

    model_config = ConfigDict(extra="forbid")

    probe_results: Path
    attempts: int = Field(4, ge=1)
    endpoint: str | None = Field(None, description="OpenAI base URL of the engine (e.g. http://127.0.0.1:8000/v1).")
    model: str | None = None
    api_key_env: str | None = None
    direct: bool = Field(False, description="Call the endpoint directly (no gateway, nothing recorded).")
    gateway: str | None = Field(None, description="Use this running gateway (with --admin-token-file).")
    admin_token_file: Path | None = None
    store: Path | None = Field(None, description="Store of the gateway started here (default: next to the results).")
    limit: int | None = Field(None, ge=1)
    worker: WorkerOptions = Field(default_factory=WorkerOptions)


def probe_main(opts: ProbeOptions, progress: Progress | None = None) -> ProbeReport:
    """Set up the target (a running gateway, one started here, or the endpoint directly) and probe."""
    from swerl.errors import SwerlError

    if opts.gateway is None and opts.endpoint is None:
        raise SwerlError("--endpoint URL is required (or --gateway URL with --admin-token-file)")
    if opts.direct and opts.endpoint is None:
        raise SwerlError("--direct needs --endpoint URL")
    ctx = WorkerContext(opts.worker, **({"model": opts.model} if opts.model else {}))
    source = ctx.tasks
    if opts.limit:
        source.rows = source.rows[:opts.limit]
    ctx.prepare_images()
    concurrency = ctx.recipe.rollout.concurrency
    api_key = "none"
    if opts.api_key_env:
        api_key = os.environ.get(opts.api_key_env, "")
        if not api_key:
            raise SwerlError(f"--api-key-env {opts.api_key_env}: the variable is not set")
    common = {"results": opts.probe_results, "k": opts.attempts, "sandbox": ctx.sandbox, "settings": ctx.settings,
              "concurrency": concurrency, "progress": progress}
    if opts.direct:
        url = (opts.endpoint or "").rstrip("/")
        url = url if url.endswith("/v1") else url + "/v1"  # the gateway's convention for engine URLs
        return run_probe(source, target=ProbeTarget(endpoint=url, api_key=api_key), **common)
    if opts.gateway is not None:
        from swerl.gateway.auth import load_admin_token

        if opts.admin_token_file is None:
            raise SwerlError("--gateway needs --admin-token-file")
        with GatewayClient(opts.gateway, load_admin_token(opts.admin_token_file, create=False)) as client:
            return run_probe(source, target=ProbeTarget(gateway=client), **common)
    from swerl.rollout.localgw import LocalGateway

    store = opts.store or opts.probe_results.with_name(opts.probe_results.name + ".gateway.sqlite")
    with LocalGateway(store, [opts.endpoint or ""], upstream_model=opts.model) as gw:
        assert gw.client is not None
        return run_probe(source, target=ProbeTarget(gateway=gw.client), **common)
