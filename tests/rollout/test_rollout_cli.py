"""`swerl rollout` commands: declare, and the controller with the process launcher (real worker processes
running `python -m swerl.rollout run-one`), and a controller killed with SIGKILL and restarted."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import MEDIAN
from rollout_helpers import ADMIN, ROOT, SOLVE_MEDIAN, SlowScriptedEngine, events, swerl_argv, textbased_flags
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import SwerlError

cli = CliRunner()


def _token_file(tmp_path: Path) -> Path:
    f = tmp_path / "admin.token"
    f.write_text(ADMIN + "\n")
    return f


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT": "1"}


def test_help_and_flag_errors() -> None:
    res = cli.invoke(app, ["rollout", "--help"])
    assert res.exit_code == 0 and all(c in res.output for c in ("run-one", "controller", "declare"))
    # --gateway is the recipe's gateway.url: left out of both, the command says which flag it needs
    res = cli.invoke(app, ["rollout", "run-one", "r1"])
    assert res.exit_code == 1 and isinstance(res.exception, SwerlError) and "--gateway URL" in str(res.exception)


def test_declare_then_controller_with_worker_processes(engines: Any, gateways: Any, tmp_path: Path) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN)
    gw = gateways.start([url])
    tok = _token_file(tmp_path)
    res = cli.invoke(app, ["rollout", "declare", "--gateway", gw.url, "--admin-token-file", str(tok),
                           "--instance", MEDIAN, "--n", "2", "--prefix", "it0."])
    assert res.exit_code == 0, res.output
    assert "declared 2 rollouts" in res.output
    ids = [r.id for r in gw.client.rollouts(["queued"])]
    assert ids == [f"it0.{MEDIAN}:0", f"it0.{MEDIAN}:1"]
    proc = subprocess.run(
        swerl_argv("controller", "--launcher", "process", "--until-done", "--poll", "0.2", "--concurrency", "2",
                   "--gateway", gw.url, "--admin-token-file", str(tok), "--logs", str(tmp_path / "logs"),
                   "--trajectories", str(tmp_path / "traj"), *textbased_flags()),
        env=_env(), capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for rid in ids:
        r = gw.client.rollout(rid)
        assert (r.state, r.attempt) == ("succeeded", 1)
        assert [e["reward"] for e in events(gw, rid, "reward")] == [1.0]
        log = (tmp_path / "logs" / f"{rid}.attempt1.log").read_text()
        assert '"state":"succeeded"' in log  # run-one's outcome line
        assert ADMIN not in log
    trajs = sorted(p.name for p in (tmp_path / "traj").iterdir())
    assert trajs == [f"{rid}.attempt1.traj.json" for rid in ids]


@pytest.mark.slow
def test_controller_killed_with_sigkill_and_restarted_finishes_the_work(engines: Any, gateways: Any,
                                                                        tmp_path: Path) -> None:
    _, url = engines.scripted(SOLVE_MEDIAN, cls=SlowScriptedEngine)
    gw = gateways.start([url])
    tok = _token_file(tmp_path)
    assert cli.invoke(app, ["rollout", "declare", "--gateway", gw.url, "--admin-token-file", str(tok),
                            "--instance", MEDIAN, "--n", "2"]).exit_code == 0
    argv = swerl_argv("controller", "--launcher", "thread", "--poll", "0.2", "--concurrency", "2", "--grace", "0",
                      "--gateway", gw.url, "--admin-token-file", str(tok), *textbased_flags(timeout_s=30))
    first = subprocess.Popen(argv, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait until both rollouts are mid-run (model calls recorded)
            running = gw.client.rollouts(["running"])
            if len(running) == 2 and all(events(gw, r.id, "model_request") for r in running):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the first controller never got both rollouts running")
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
    assert {r.state for r in gw.client.rollouts()} == {"running"}  # claimed, and nobody is left to finish them
    done = subprocess.run([*argv, "--until-done"], env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for r in gw.client.rollouts():
        assert r.state == "succeeded" and r.attempt >= 2  # 2, or more if a loaded machine hit the deadline
        assert [(e["reward"], e["attempt"]) for e in events(gw, r.id, "reward")] == [(1.0, r.attempt)]
        assert any("lease expired" in (e["data"] or {}).get("reason", "") for e in events(gw, r.id, "status"))
