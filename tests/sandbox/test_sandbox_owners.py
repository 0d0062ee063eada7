"""What a killed process's sandboxes leave behind is reaped, and nothing of a live one (real bwrap, real SIGKILL).

Each test points TMPDIR at its own directory: sandbox host dirs land there, so no other test's (or worker's)
sandboxes are ever seen, let alone reaped.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from swerl.sandbox import owners


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "TMPDIR": str(tmp)}


def _owned_dirs(tmp: Path) -> list[Path]:
    return [p for p in tmp.iterdir() if p.name.startswith("swerl-") and (p / owners.OWNER_FILE).exists()]


def test_sigkilled_sandbox_run_is_reaped_by_gc_and_a_live_owner_is_not(tmp_path: Path, rootfs: Path) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    swerl = [sys.executable, "-m", "swerl.cli"]
    proc = subprocess.Popen([*swerl, "sandbox", "run", "median_even", "--rootfs", str(rootfs), "--cmd", "sleep 300"],
                            env=_env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while not _owned_dirs(tmp) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    dead = _owned_dirs(tmp)
    assert len(dead) == 1 and proc.poll() is None, "the sandbox never started"
    time.sleep(1.0)  # the command is running inside
    os.killpg(proc.pid, signal.SIGKILL)  # a trainer killed with -9: no finally block runs
    proc.wait(timeout=30)
    assert dead[0].exists()  # left behind, as the issue saw

    live = tmp / "swerl-bwrap-live0000-x"  # a sandbox dir of a live owner (this test process)
    live.mkdir()
    (live / owners.OWNER_FILE).write_text(json.dumps(owners.me("other-run")))
    reused = tmp / "swerl-bwrap-reused00-x"  # the owner's pid is alive but belongs to another process now
    reused.mkdir()
    (reused / owners.OWNER_FILE).write_text(json.dumps({**owners.me(), "start": "1"}))
    foreign = tmp / "swerl-not-ours"  # no owner record: never touched
    foreign.mkdir()

    out = subprocess.run([*swerl, "sandbox", "gc"], env=_env(tmp), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"removed  {dead[0]}" in out.stdout and f"removed  {reused}" in out.stdout
    assert "gc: 2 host dir(s) removed" in out.stdout
    assert not dead[0].exists() and not reused.exists() and live.exists() and foreign.exists()


def test_run_label_narrows_the_reap_and_a_new_sandbox_object_reaps_at_start(tmp_path: Path) -> None:
    """`--run` reaps only that run's debris; constructing a backend (what a resumed run does) reaps the rest."""
    gone = {"host": owners.me()["host"], "pid": 2**22 + 7, "start": "", "run": ""}  # above pid_max: never alive
    for name, run in (("swerl-bwrap-a-x", "run-a"), ("swerl-bwrap-b-x", "run-b")):
        d = tmp_path / name
        d.mkdir()
        (d / owners.OWNER_FILE).write_text(json.dumps({**gone, "run": run}))
    assert owners.reap_host_dirs(tmp_path, run_label="run-a") == [tmp_path / "swerl-bwrap-a-x"]
    assert (tmp_path / "swerl-bwrap-b-x").exists()
    code = ("from swerl.sandbox.base import BackendBase\n"
            "class B(BackendBase):\n    name = 'b'\n"
            "    _launch = _exec = copy_in = copy_out = _teardown = lambda *a, **k: None\n"
            "B()\n")
    subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), check=True, timeout=60)
    assert not (tmp_path / "swerl-bwrap-b-x").exists()
