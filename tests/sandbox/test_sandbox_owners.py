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
from typing import Any

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
    seccomp = [p for p in tmp.iterdir() if p.name.startswith(owners.SECCOMP_PREFIX)]  # after gc: none left
    assert seccomp == [] and f"removed  {tmp}/{owners.SECCOMP_PREFIX}{proc.pid}-" in out.stdout
    assert "gc: 3 host path(s) removed" in out.stdout  # its two dirs and the killed process's seccomp program
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
            "    _launch = _exec = copy_in = copy_out = _teardown = put_tree_files = lambda *a, **k: None\n"
            "B()\n")
    subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), check=True, timeout=60)
    assert not (tmp_path / "swerl-bwrap-b-x").exists()


def test_run_label_is_stable_per_run_dir_and_a_valid_kubernetes_label(tmp_path: Path) -> None:
    """Every incarnation of a run gets the same label; two runs named alike in different places do not; Jobs carry
    it (a Kubernetes label value: <= 63 chars of [a-z0-9.-], alphanumeric at both ends)."""
    import re

    from swerl.sandbox import k8s_manifests as km
    from swerl.sandbox.schema import SandboxSettings, SandboxTask

    a, b = tmp_path / "x" / "My Run_2026!", tmp_path / "y" / "My Run_2026!"
    label = owners.run_label(a)
    assert label == owners.run_label(tmp_path / "x" / "." / "My Run_2026!") != owners.run_label(b)
    assert re.fullmatch(r"[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?", label) and label.startswith("my-run-2026-")
    assert re.fullmatch(r"[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?", owners.run_label(tmp_path / ("r" * 300)))
    task = SandboxTask(instance_id="local__x", repo="local/x", branch="main", image="img")
    job = km.job_manifest(task, SandboxSettings(run_label=label), "r1", pristine=False)
    assert job["metadata"]["labels"]["swerl.io/run"] == label
    assert job["spec"]["template"]["metadata"]["labels"]["swerl.io/run"] == label
    assert "swerl.io/run" not in km.job_manifest(task, SandboxSettings(), "r1", pristine=False)["metadata"]["labels"]


def test_a_sigkilled_process_seccomp_file_is_reaped_and_a_live_ones_is_not(tmp_path: Path) -> None:
    """The seccomp program file is per process (seccomp.py); one left by a SIGKILLed process is named after it."""
    code = "from swerl.sandbox import seccomp; import time; print(seccomp.program_file(), flush=True); time.sleep(300)"
    proc = subprocess.Popen([sys.executable, "-c", code], env=_env(tmp_path), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    dead = Path(proc.stdout.readline().strip())
    assert dead.parent == tmp_path and dead.is_file()
    proc.kill()
    proc.wait(timeout=30)
    live = tmp_path / f"{owners.seccomp_prefix()}abc.bpf"  # this process's name: alive
    live.write_bytes(b"x")
    unnamed = tmp_path / "swerl-seccomp-abcdef.bpf"  # an older name without an owner: not provably dead
    unnamed.write_bytes(b"x")
    assert owners.reap_host_dirs(tmp_path) == [dead]
    assert live.exists() and unnamed.exists()


def test_another_pid_namespaces_debris_is_never_judged_by_our_pids(tmp_path: Path) -> None:
    """R40i-F2: two graders sharing a temp dir and a host name but not their pids (containers on the host network
    with a shared /tmp) saw each other's pids as dead and removed each other's live grade trees and seccomp files.
    An owner names its pid namespace; another namespace's pid is never judged here."""
    host, _, ns = owners.where().partition("#")
    assert host and ns.isdigit()
    other = str(int(ns) + 1)
    dead_pid = 2**22 + 7  # above pid_max: never alive here
    for name, where in (("swerl-bwrap-ours-x", owners.where()), ("swerl-bwrap-theirs-x", f"{host}#{other}")):
        (tmp_path / name).mkdir()
        (tmp_path / name / owners.OWNER_FILE).write_text(json.dumps({"host": where, "pid": dead_pid, "start": "",
                                                                     "run": ""}))
    theirs = tmp_path / f"{owners.SECCOMP_PREFIX}{dead_pid}-0-{other}-abc.bpf"
    ours = tmp_path / f"{owners.SECCOMP_PREFIX}{dead_pid}-0-{ns}-abc.bpf"
    for f in (theirs, ours):
        f.write_bytes(b"x")
    assert sorted(owners.reap_host_dirs(tmp_path)) == sorted([tmp_path / "swerl-bwrap-ours-x", ours])
    assert (tmp_path / "swerl-bwrap-theirs-x").exists() and theirs.exists()


def test_a_grade_killed_mid_run_leaves_only_owned_scratch_that_gc_reaps(tmp_path: Path, rootfs: Path) -> None:
    """Grading copies the agent's whole tree to the host (`swerl-grade-*`); a grader killed with -9 while the tests
    run used to leave it with no owner record, so nothing ever removed it."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    patch = tmp_path / "slow.diff"  # the tests hang at import: the kill lands while they run
    patch.write_text("--- a/calc/stats.py\n+++ b/calc/stats.py\n@@ -1,3 +1,5 @@\n"
                     ' """Descriptive statistics over sequences of numbers."""\n+import time\n+time.sleep(300)\n \n \n')
    swerl = [sys.executable, "-m", "swerl.cli"]
    proc = subprocess.Popen([*swerl, "sandbox", "grade", "median_even", "--rootfs", str(rootfs), "--patch", str(patch)],
                            env=_env(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 180
    grading: list[Path] = []
    while not grading and time.monotonic() < deadline and proc.poll() is None:
        grading = [p for p in tmp.glob("swerl-grade-*") if (p / "tree").is_dir()]
        time.sleep(0.2)
    assert grading and proc.poll() is None, "grading never started"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    left = sorted(p for p in tmp.iterdir() if p.name.startswith("swerl-"))
    assert grading[0] in left
    assert all((p / owners.OWNER_FILE).is_file() for p in left if p.is_dir()), left  # each one says whose it is
    out = subprocess.run([*swerl, "sandbox", "gc"], env=_env(tmp), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"removed  {grading[0]}" in out.stdout
    assert [p for p in tmp.iterdir() if p.name.startswith("swerl-")] == []


def test_scratch_under_a_symlinked_temp_dir_is_removed(tmp_path: Path, monkeypatch: Any) -> None:
    """R40i-H1: trees are removed without following symlinks on their path, so a scratch dir made under a
    symlinked TMPDIR could never be removed (every grade leaked its trees). Scratch goes under the resolved dir."""
    import tempfile

    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "link"))
    with owners.scratch("swerl-grade-") as work:
        (work / "tree" / "deep").mkdir(parents=True)
        (work / "tree" / "deep" / "f.py").write_text("x = 1\n")
        assert work.parent == real
    assert list(real.iterdir()) == []
