"""Faults leave nothing behind (issue 35): the docker engine restarts under a training run.

`swerl train --recipe tiny` on the docker backend (the bundled task pack's images on the session's private
dockerd) runs as a real subprocess; while its first rollouts' agents run commands, the test stops dockerd
(SIGTERM: the engine stops every container, as `systemctl restart docker` does) and starts it again on the same
data root, so images survive and the stopped containers are still there. The rollouts the restart hit must be
infrastructure failures and be retried (a container the engine stopped is not the agent's doing: trained as
reward 0 it would teach the policy something false), nothing the gateway recorded is lost, no step is trained
twice, the run completes, and none of the run's containers, volumes or networks remain.

A random-init model never writes a command (its replies are format errors that end a rollout without touching
the container), so the trainer's engine answers from a script instead (tests/scripted_engine.py, swapped in by a
launcher around the real CLI): commands that take a few seconds, then a submission that is graded. Everything
else - gateway, controller, runner, docker backend, grader, loop - is the product's.

The daemon is the session's (`dockerd_daemon`, tests/conftest.py): it is running again when this test ends,
whatever happened, so later docker tests on this worker find it healthy. The run owns its dirs and TMPDIR; the
in-process gateway binds port 0.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox import owners
from swerl.train.loop.metrics import read_metrics

STEPS = 2
SCRIPT = ["THOUGHT: look\n\n```mswea_bash_command\nls\n```",
          "THOUGHT: look again\n\n```mswea_bash_command\ncat README* 2>/dev/null | head -n 3\n```",
          "THOUGHT: done\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"]
# The real CLI with the embedded engine replaced by the script (same constructor; weights ignored). The first two
# second-turn calls (one per rollout of the first group) wait at a gate: the test restarts the engine while both
# agents wait for the model, between two commands - where an agent spends most of its time.
LAUNCHER = """
import json, sys, threading, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from scripted_engine import ScriptedEngine
import swerl.gateway.engines.embedded as embedded

SCRIPT, GATE = json.loads(sys.argv[2]), Path(sys.argv[3])
LOCK, HELD = threading.Lock(), [0]

class Scripted(ScriptedEngine):
    busy_s = 0.0
    tokens = 0

    def __init__(self, model, tok, **kw):
        super().__init__(tok, SCRIPT)

    def load_weights(self, state, version=None):
        self.version = version or self.version + 1
        return self.version

    def _run(self, prompt, params):  # before the engine's lock: the other rollout's call gets through meanwhile
        if self.turn(prompt) == 1:
            with LOCK:
                HELD[0] += 1
                n = HELD[0]
            if n <= 2:
                (GATE / f"waiting-{n}").touch()
                deadline = time.monotonic() + 120
                while not (GATE / "go").exists() and time.monotonic() < deadline:
                    time.sleep(0.05)
        return super()._run(prompt, params)

embedded.EmbeddedEngine = Scripted
from swerl.cli import main
sys.argv = ["swerl", *sys.argv[4:]]
main()
"""
TINY = ["sandbox.backend=docker", "sandbox.command_timeout_s=30", "sandbox.memory_mb=512", "sandbox.pids_limit=128",
        "train.mode=sync", "rollout.n_per_task=2", "train.rollouts_per_step=2", "rollout.concurrency=2",
        "rollout.max_steps=6", "rollout.max_tokens=256", "train.val_every=0", "train.tensorboard=false",
        "train.checkpoint_every=1", f"train.steps={STEPS}"]
ENGINE_ERRORS = ("docker", "engine", "container", "sandbox")  # words of a sandbox failure's message


def _restart(daemon: Any) -> float:
    """Stop dockerd (SIGTERM: it stops the containers, then exits) and start it again on the same data root;
    returns the seconds the engine was away. `DockerDaemon.stop` would delete the data root: not used here."""
    t0 = time.monotonic()
    daemon.proc.send_signal(signal.SIGTERM)
    daemon.proc.wait(timeout=60)
    daemon.start()
    return time.monotonic() - t0


@pytest.fixture
def daemon(dockerd_daemon: Any, docker_client: Any) -> Iterator[Any]:
    """The session's dockerd, answering again after the test (restarted if the test left it down)."""
    yield dockerd_daemon
    try:
        docker_client.ping()
    except Exception:
        if dockerd_daemon.proc is not None and dockerd_daemon.proc.poll() is None:
            dockerd_daemon.proc.send_signal(signal.SIGTERM)
            dockerd_daemon.proc.wait(timeout=60)
        dockerd_daemon.start()
    docker_client.ping()


def _run_objects(client: Any, label: str) -> list[str]:
    """The run's containers, volumes and networks (by its run label), running or not."""
    flt = {"label": f"swerl.run={label}"}
    return [f"container {c.name} ({c.status})" for c in client.containers.list(all=True, filters=flt)] + \
        [f"volume {v.name}" for v in client.volumes.list(filters=flt)] + \
        [f"network {n.name}" for n in client.networks.list(filters=flt)]


def _events(run: Path) -> list[dict[str, Any]]:
    """The gateway's status and reward events, oldest first (the store is the run's own SQLite file)."""
    con = sqlite3.connect(f"file:{run / 'gateway.sqlite'}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT rollout_id, attempt, kind, state, reward, data FROM events "
                           "WHERE kind IN ('status', 'reward') ORDER BY id").fetchall()
        calls = dict(((r, a), n) for r, a, n in con.execute(
            "SELECT rollout_id, attempt, COUNT(*) FROM events WHERE kind = 'model_request' GROUP BY 1, 2"))
    finally:
        con.close()
    out = []
    for rid, attempt, kind, state, reward, data in rows:
        raw = data.decode() if isinstance(data, bytes) else data
        out.append({"rollout": rid, "attempt": attempt, "kind": kind, "state": state, "reward": reward,
                    "data": json.loads(raw) if raw else {}, "calls": calls.get((rid, attempt), 0)})
    return out


@pytest.mark.docker
def test_dockerd_restart_mid_run_retries_the_hit_rollouts_as_infra_and_leaves_nothing(
        tmp_path: Path, daemon: Any, docker_client: Any, taskpack_images: dict[str, str]) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    run = tmp_path / "run"
    label = owners.run_label(run)
    env = {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "100000", "DOCKER_HOST": daemon.base_url}
    tests, gate = str(Path(__file__).resolve().parents[1]), tmp_path / "gate"
    gate.mkdir()
    proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, tests, json.dumps(SCRIPT), str(gate), "train", "--out",
                             str(run), "--recipe", "tiny", *(a for o in TINY for a in ("--set", o))],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 240  # both agents ran a command and wait for the model's next reply
        while proc.poll() is None and time.monotonic() < deadline and len(list(gate.glob("waiting-*"))) < 2:
            time.sleep(0.05)
        assert proc.poll() is None and len(list(gate.glob("waiting-*"))) == 2, \
            f"the agents never reached the gate: {proc.communicate()[0][-3000:] if proc.poll() is not None else ''}"
        stopped = docker_client.containers.list(filters={"label": ["swerl.role=agent", f"swerl.run={label}"]})
        away = _restart(daemon)
        (gate / "go").touch()
        out = proc.communicate(timeout=300)[0]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
    assert proc.returncode == 0, out[-4000:]
    events = _events(run)
    final: dict[str, dict[str, Any]] = {}  # each rollout's last status
    for e in events:
        if e["kind"] == "status":
            final[e["rollout"]] = e
    infra = [e for e in events if e["kind"] == "status" and e["state"] == "failed_infra"]
    assert len(stopped) == 2 and len({e["rollout"] for e in infra}) == 2, \
        f"the restart ({away:.1f} s away) should have hit both waiting rollouts: {infra} {out[-3000:]}"
    assert all("engine" in e["data"]["reason"] for e in infra), infra
    for e in infra:  # retried: a later attempt of the same rollout ended trainable; none of it was scored
        assert final[e["rollout"]]["attempt"] > e["attempt"] and final[e["rollout"]]["state"] in (
            "succeeded", "failed_agent"), (e, final[e["rollout"]])
        assert not [r for r in events if r["kind"] == "reward" and (r["rollout"], r["attempt"]) ==
                    (e["rollout"], e["attempt"])], f"an attempt the restart broke was scored: {e}"
    agent_failures = [e for e in events if e["kind"] == "status" and e["state"] == "failed_agent"]
    blamed = [e for e in agent_failures if any(w in str(e["data"].get("reason", "")).lower() for w in ENGINE_ERRORS)]
    assert blamed == [], f"the engine's restart was blamed on the agent: {blamed}"
    # trained: every step once, every rollout once, each with the reward its final attempt recorded
    assert [ln["step"] for ln in read_metrics(run / "metrics.jsonl")] == list(range(1, STEPS + 1))
    updates = [json.loads(ln) for ln in (run / "updates.jsonl").read_text().splitlines()]
    assert [u["step"] for u in updates] == list(range(1, STEPS + 1))
    trained = {rid: r for u in updates for rid, r in u["rollouts"].items()}
    assert len(trained) == sum(len(u["rollouts"]) for u in updates) == STEPS * 2
    rewards = {(e["rollout"], e["attempt"]): e for e in events if e["kind"] == "reward"}
    for rid, r in trained.items():
        rec = rewards[(rid, final[rid]["attempt"])]
        assert rec["reward"] == r["reward"] and rec["calls"] == rec["data"]["n_calls"], (rid, rec)  # all calls kept
    assert {e["rollout"] for e in infra} <= set(trained)  # the hit rollouts were trained (on their retry)
    metrics = read_metrics(run / "metrics.jsonl")
    assert sum(ln["rollouts/infra_attempts"] for ln in metrics) == len(infra)  # counted, and none given up on
    assert sum(ln["rollouts/failed_infra"] for ln in metrics) == 0
    # nothing of the run remains, on the engine or on the host
    assert _run_objects(docker_client, label) == []
    assert sorted(p.name for p in tmp.glob(f"{owners.DIR_PREFIX}*")) == []


@pytest.mark.docker
def test_a_command_while_dockerd_shuts_down_is_infra_and_a_teardown_it_missed_happens_once_it_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, daemon: Any, docker_client: Any,
        docker_settings: Any, calc_task: tuple[Any, Any], taskpack_images: dict[str, str]) -> None:
    """The shutdown itself: dockerd stops every container first and answers the API for about a second more, so a
    command in that window finds its container stopped by an engine that may still answer (how long it does varies:
    the classification is pinned down by the fake-engine cases below). And a sandbox stopped while the engine is away cannot be removed then: its
    container and volume go at the backend's next launch, not at the next process's orphan sweep."""
    import tempfile

    from swerl.sandbox.base import AgentFault, EngineUnavailable
    from swerl.sandbox.docker import DockerSandbox

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this test's host dirs
    label = f"restart-{tmp_path.name}"[:63].lower()
    sb = DockerSandbox(docker_settings.model_copy(update={"run_label": label}))
    _, task = calc_task
    h = sb.start(task)
    assert sb.exec(h, "echo up").output.strip() == "up"
    container = h.state["container"]
    daemon.proc.send_signal(signal.SIGTERM)
    in_window = False  # the container seen stopped while the engine still answered
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            container.reload()
        except Exception:
            break  # the engine is gone already
        if container.status != "running":
            in_window = True
            break
        time.sleep(0.01)
    with pytest.raises(EngineUnavailable) as err:  # whether the engine still answered the exec or not
        sb.exec(h, "echo still")
    assert not isinstance(err.value, AgentFault) and in_window in (True, False)
    daemon.proc.wait(timeout=60)
    sb.stop(h)  # the engine is away: nothing can be removed now
    daemon.start()
    left = _run_objects(docker_client, label)
    assert any(o.startswith("container") for o in left) and any(o.startswith("volume") for o in left), left
    with sb.session(task) as h2:  # the next launch removes what the first teardown could not
        assert [o for o in _run_objects(docker_client, label) if h.id in o or container.name in o] == []
        assert sb.exec(h2, "echo again").output.strip() == "again"
    assert _run_objects(docker_client, label) == []
    assert list(tmp_path.glob(f"{owners.DIR_PREFIX}*")) == []


# ---- the classification itself, against a stand-in engine: which stopped container is whose ----------------------


class _Api:
    def __init__(self, execs: set[str]) -> None:
        self.execs = execs

    def exec_inspect(self, exec_id: str) -> dict[str, Any]:
        import docker

        if exec_id not in self.execs:
            raise docker.errors.NotFound(f"No such exec instance: {exec_id}")
        return {"Running": False, "ExitCode": 0}


class _Engine:
    """Answers `pings` pings (the backend's own at creation included), then is gone; knows the execs `execs`."""

    def __init__(self, pings: int, execs: set[str]) -> None:
        self.pings, self.api = pings, _Api(execs)

    def ping(self) -> bool:
        if self.pings <= 0:
            raise ConnectionError("the engine is gone")
        self.pings -= 1
        return True


class _Stopped:
    """A sandbox container that is not running (an engine restart and `kill -TERM 1` look the same here)."""

    status = "exited"

    def __init__(self, oom: bool = False) -> None:
        self.attrs = {"State": {"Status": "exited", "ExitCode": 143, "OOMKilled": oom}}

    def reload(self) -> None:
        pass


@pytest.mark.parametrize(("case", "pings", "known", "age_s", "oom", "blamed"), [
    ("engine shutting down: answers, then not", 3, True, 1.0, False, "engine"),
    ("engine restarted: the last command's exec is unknown", 10**6, False, 1.0, False, "engine"),
    ("stopped from inside: same engine, still answering", 10**6, True, 1.0, False, "agent"),
    ("memory exhausted (OOM-killed)", 10**6, False, 1.0, True, "agent"),
    ("last command too long ago for its exec to prove anything", 10**6, False, 600.0, False, "agent"),
])
def test_stopped_container_is_blamed_on_the_engine_only_with_evidence(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str, pings: int, known: bool, age_s: float,
        oom: bool, blamed: str) -> None:
    """A container found stopped while the engine answers is the agent's (`AgentFault`, reward 0) unless the engine
    is shown to have stopped it: it stops answering within the shutdown grace, or it no longer knows the exec of
    the sandbox's last command (finished execs outlive a stopped container on one daemon, not a restart). Nothing
    inside a container can produce either, so the agent cannot turn its failure into a retry."""
    import swerl.sandbox.docker as docker_backend
    from swerl.sandbox.base import AgentFault, EngineUnavailable, SandboxHandle
    from swerl.sandbox.schema import SandboxSettings, SandboxTask

    monkeypatch.setattr(docker_backend, "ENGINE_STOP_GRACE_S", 0.5)
    engine = _Engine(pings, {"e1"} if known else set())
    sb = docker_backend.DockerSandbox(SandboxSettings(backend="docker"), client=engine, reap=False)
    task = SandboxTask(instance_id="local__x", repo="local/x", branch="main", image="img")
    handle = SandboxHandle(id="docker-x", task=task, backend="docker", host_dir=tmp_path, deadline=time.monotonic() + 60,
                           state={"container": _Stopped(oom), "exec_marker": ("e1", time.monotonic() - age_s)})
    err = sb._classify(handle, "docker exec in docker-x failed: 409 container is not running")
    if blamed == "engine":
        assert isinstance(err, EngineUnavailable) and "the engine stopped the sandbox container" in str(err), case
    else:
        assert isinstance(err, AgentFault) and "stopped from inside" in str(err), case
