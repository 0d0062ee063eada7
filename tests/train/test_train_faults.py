"""Faults leave nothing behind (issue 35): `swerl train --recipe toy` as a real subprocess, SIGKILLed at seeded
random points and resumed, and run on a filesystem that fills up.

Sync mode is deterministic (seeded sampling per rollout, docs/train.md), so an interrupted run must end exactly
where an uninterrupted one does: the same metrics line for every step, no step missing or written twice, the
same weights (a step trained twice or skipped would change them). Each test owns its run dirs, its TMPDIR (where
sandbox host dirs and owner records would land) and its ports (the in-process gateway binds port 0).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch

from swerl.sandbox import owners
from swerl.train.loop.checkpoint import latest_checkpoint, load_checkpoint
from swerl.train.loop.metrics import read_metrics

STEPS = 5
TOY = ["train.mode=sync", "train.rollouts_per_step=8", "rollout.concurrency=8", "train.mini_batches=1",
       "train.val_every=0", "train.tensorboard=false", "train.checkpoint_every=1", f"train.steps={STEPS}"]
COMPARED = ("train/reward_mean", "policy/loss", "policy/entropy", "adv/std", "policy_version")


@pytest.fixture
def env(tmp_path: Path, tok_cache: Path, tiny_tok: Any) -> dict[str, str]:
    """The trainer's environment: this test's own TMPDIR and the session's tokenizer cache."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return {**os.environ, "TMPDIR": str(tmp), "SWERL_CACHE_DIR": str(tok_cache.parent), "COLUMNS": "100000"}  # log lines unwrapped


def _train(run: Path, env: dict[str, str], *extra: str) -> subprocess.Popen[str]:
    args = ["--resume"] if (run / "recipe.yaml").exists() else ["--recipe", "toy", *(a for o in TOY for a in ("--set", o))]
    return subprocess.Popen([sys.executable, "-m", "swerl.cli", "train", "--out", str(run), *args, *extra],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    out, _ = proc.communicate(timeout=300)
    return proc.returncode, out


def _checkpointed(run: Path) -> int:
    ckpt = latest_checkpoint(run)
    return int(json.loads((ckpt / "meta.json").read_text())["step"]) if ckpt else 0


def _resumes(run: Path) -> int:
    path = run / "events.jsonl"
    return len(path.read_text().splitlines()) if path.exists() else 0


def _kill_after_checkpoint(proc: subprocess.Popen[str], run: Path, step: int, delay: float, resumes: int) -> None:
    """SIGKILL the trainer's whole process group `delay` seconds after checkpoint `step` exists and this
    incarnation recorded its resume (`resumes` events), so the kill lands mid-rollout, mid-update or mid-save of
    a later step, depending on the draw. Fails if the trainer finished first."""
    deadline = time.monotonic() + 240
    while (_checkpointed(run) < step or _resumes(run) < resumes) and proc.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(delay)
    assert proc.poll() is None, f"the trainer ended before the kill point (step {step}): {proc.communicate()[0][-2000:]}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


# Sandboxes of the run (its label) and of another run, started by one process that is then SIGKILLed: what a
# killed incarnation's rollouts leave (host dirs with owner records, bwrap's quota mounts). One process, because a
# backend reaps dead owners' debris when created: a second process would take the first one's. Host /usr as the
# system tree.
DEBRIS = """
import sys, time
from pathlib import Path
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.schema import SandboxSettings, SandboxTask
task = SandboxTask(instance_id="local__x", repo="local/x", branch="main", repo_dir=Path(sys.argv[1]))
for label in sys.argv[2:]:
    sb = BwrapSandbox(SandboxSettings(run_label=label))
    h = sb.start(task)
    sb.exec(h, "sleep 300 &")
    print(h.host_dir, flush=True)
print("STARTED", flush=True)
time.sleep(300)
"""


def _dead_sandboxes(tmp_path: Path, env: dict[str, str], *labels: str) -> list[Path]:
    """The host dirs of real bwrap sandboxes labelled `labels` whose owner process was SIGKILLed."""
    repo = tmp_path / "repo"
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    (repo / "a.txt").write_text("a\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    proc = subprocess.Popen([sys.executable, "-c", DEBRIS, str(repo), *labels], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stdout is not None
    lines = [proc.stdout.readline().strip() for _ in range(len(labels) + 1)]
    assert lines[-1] == "STARTED", f"the sandboxes never started: {lines!r}"
    os.killpg(proc.pid, signal.SIGKILL)  # no finally block runs: the host dirs and their owner records stay
    proc.wait(timeout=60)
    dirs = [Path(line) for line in lines[:-1]]
    assert all(owners.read(d) is not None for d in dirs)
    return dirs


def _leftovers(env: dict[str, str]) -> list[str]:
    """Sandbox host dirs and owner records in the test's TMPDIR (none may survive a resumed run)."""
    tmp = Path(env["TMPDIR"])
    top = sorted(tmp.glob(f"{owners.DIR_PREFIX}*"))  # host dirs, seccomp program files
    return [str(p) for p in top] + [str(p / owners.OWNER_FILE) for p in top if (p / owners.OWNER_FILE).exists()]


def _assert_same_run(ref: Path, run: Path) -> None:
    a, b = read_metrics(ref / "metrics.jsonl"), read_metrics(run / "metrics.jsonl")
    assert [ln["step"] for ln in b] == list(range(1, STEPS + 1))  # none missing, none twice
    for la, lb in zip(a, b, strict=True):
        for k in COMPARED:
            assert la[k] == pytest.approx(lb[k], abs=1e-6), (la["step"], k)
    updates = [json.loads(ln) for ln in (run / "updates.jsonl").read_text().splitlines()]
    assert [u["step"] for u in updates] == list(range(1, STEPS + 1))  # what each step trained on, once
    trained = [rid for u in updates for rid in u["rollouts"]]
    assert len(trained) == len(set(trained)) == STEPS * 8  # no rollout trained twice (ids differ per incarnation)
    wa, wb = load_checkpoint(ref)["backend"]["policy"], load_checkpoint(run)["backend"]["policy"]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


@pytest.mark.parametrize("seed", [35])
def test_kill_9_at_random_points_then_resume_trains_every_step_once(tmp_path: Path, env: dict[str, str],
                                                                   seed: int) -> None:
    rng = random.Random(seed)
    first, second = sorted(rng.sample(range(1, STEPS - 1), 2))  # after these checkpoints (2+ steps remain)
    ref, run = tmp_path / "ref", tmp_path / "run"
    reference = _train(ref, env)
    proc = _train(run, env)
    _kill_after_checkpoint(proc, run, first, rng.uniform(0.0, 1.0), resumes=0)
    proc = _train(run, env)  # resumes, then dies again
    _kill_after_checkpoint(proc, run, second, rng.uniform(0.0, 1.0), resumes=1)
    ours, other = _dead_sandboxes(tmp_path, env, owners.run_label(run), "other-run")
    code, out = _finish(_train(run, env))
    assert code == 0, out[-3000:]
    assert "reaped the debris of the run's dead incarnation" in out and str(ours) in out  # the structured log
    code, out = _finish(reference)
    assert code == 0, out[-3000:]
    _assert_same_run(ref, run)
    events = [json.loads(ln) for ln in (run / "events.jsonl").read_text().splitlines()]
    assert [e["event"] for e in events] == ["resume", "resume"]
    assert [e["incarnation"] for e in events] == [1, 2]
    assert all(e["run_label"] == owners.run_label(run) for e in events)
    reaped = events[1]["reaped"]  # this run's sandbox dir, and the dead process's seccomp program (serves nobody)
    assert events[0]["reaped"] == [] and str(ours) in reaped and str(other) not in reaped
    assert [p for p in reaped if p != str(ours) and not Path(p).name.startswith(owners.SECCOMP_PREFIX)] == []
    assert not list((run / "checkpoints").glob(".tmp-*"))  # a save cut short by the kill is cleaned up
    assert _leftovers(env) == [str(other), str(other / owners.OWNER_FILE)]  # another run's: not this run's to reap
    assert owners.reap_host_dirs(Path(env["TMPDIR"])) == [other]  # `swerl sandbox gc` takes it
    assert _leftovers(env) == []


@contextlib.contextmanager
def _small_disk(path: Path, mb: int) -> Iterator[None]:
    """`path` on a filesystem of `mb` MiB: a tmpfs as root (what CI runs as); otherwise the trainer runs under
    RLIMIT_FSIZE (see `_limit_files`), which the kernel enforces the same way for one large file."""
    path.mkdir()
    if os.geteuid() != 0:
        yield
        return
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={mb}m,mode=0755", "swerl-test-disk", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def _fill(path: Path, leave: int) -> Path:
    """A file that leaves `leave` bytes free on `path`'s filesystem."""
    filler = path / "filler"
    with filler.open("wb") as f:
        f.write(b"\0" * max(0, shutil.disk_usage(path).free - leave))
    return filler


def _limit_files() -> None:  # preexec for a non-root caller: no file may grow past 4 MiB (EFBIG, no signal)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4 << 20, 4 << 20))


def test_full_disk_fails_clearly_keeps_the_last_checkpoint_and_resumes(tmp_path: Path, env: dict[str, str]) -> None:
    """The run dir's filesystem fills up between checkpoints: the next checkpoint (~8 MB; everything else a run
    writes per step is kilobytes) cannot be written. The trainer stops with an error naming the checkpoint path,
    leaves no partial checkpoint, and resumes from the last one once there is space."""
    disk = tmp_path / "disk"
    run = disk / "run"
    with _small_disk(disk, 48):
        code, out = _finish(_train(run, env, "--set", "train.steps=1"))
        assert code == 0, out[-3000:]
        filler = _fill(disk, leave=2 << 20) if os.geteuid() == 0 else None  # never fill a real disk: FSIZE instead
        proc = subprocess.Popen(
            [sys.executable, "-m", "swerl.cli", "train", "--out", str(run), "--resume", "--set", "train.steps=3"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            preexec_fn=None if os.geteuid() == 0 else _limit_files)
        code, out = _finish(proc)
        assert code == 2, out[-3000:]
        one_line = " ".join(out.split())
        assert f"could not write the checkpoint of step 2 to {run / 'checkpoints'}" in one_line, out[-3000:]
        assert "disk full?" in one_line and f"The last checkpoint {run / 'checkpoints' / 'step-000001'} is intact" \
            in one_line, out[-3000:]
        assert _checkpointed(run) == 1 and load_checkpoint(run)["loop"]["step"] == 1
        assert not list((run / "checkpoints").glob(".tmp-*"))  # no partial checkpoint left behind
        if filler is not None:
            filler.unlink()
        code, out = _finish(_train(run, env, "--set", "train.steps=3"))
        assert code == 0, out[-3000:]
        assert [ln["step"] for ln in read_metrics(run / "metrics.jsonl")] == [1, 2, 3]  # step 2 once, not lost
        assert [json.loads(ln)["step"] for ln in (run / "updates.jsonl").read_text().splitlines()] == [1, 2, 3]
        assert _checkpointed(run) == 3


# ---- the bwrap recipe: `swerl train --recipe tiny`, killed while its sandboxes run -----------------------------

TINY_STEPS = 3
TINY = ["train.mode=sync", "rollout.n_per_task=2", "train.rollouts_per_step=2", "rollout.concurrency=2",
        "rollout.max_steps=2", "rollout.max_tokens=16", "train.val_every=0", "train.tensorboard=false",
        "train.checkpoint_every=1", f"train.steps={TINY_STEPS}"]


@pytest.fixture
def tiny_env(tmp_path: Path) -> dict[str, str]:
    """This test's own TMPDIR (where bwrap host dirs, owner records and seccomp programs land). The default cache
    (~/.cache/swerl, or the caller's $SWERL_CACHE_DIR) stays: it holds the debootstrap rootfs and the materialised
    task pack the sandbox tests share; a fresh one would debootstrap again."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return {**os.environ, "TMPDIR": str(tmp), "COLUMNS": "100000"}


def _train_tiny(run: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    args = ["--resume"] if (run / "recipe.yaml").exists() else ["--recipe", "tiny", *(a for o in TINY for a in ("--set", o))]
    return subprocess.Popen([sys.executable, "-m", "swerl.cli", "train", "--out", str(run), *args],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)


def _sandboxes_of(pid: int, env: dict[str, str]) -> list[Path]:
    """Host dirs in the test's TMPDIR whose owner record names `pid` (a live incarnation's running sandboxes)."""
    tmp = Path(env["TMPDIR"])
    return [p for p in tmp.glob(f"{owners.DIR_PREFIX}*") if (o := owners.read(p)) is not None and o.get("pid") == pid]


def _processes_in(tmp: Path) -> list[str]:
    """Processes whose command line names a path under `tmp` (bwrap binds each sandbox's host dir): what a
    killed trainer's sandboxes would leave running. Only this test's own TMPDIR is looked for."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            if any(str(tmp).encode() in a for a in argv) and Path(f"/proc/{entry}/stat").read_text().split()[2] != "Z":
                found.append(f"{entry}: {b' '.join(argv)[:200]!r}")
    return found


def _mounts_in(tmp: Path) -> list[str]:
    """Mounts at or below `tmp` (bwrap's per-sandbox quota tmpfs lives in the host dir)."""
    prefix = str(tmp).rstrip("/") + "/"
    points = [ln.split()[4] for ln in Path("/proc/self/mountinfo").read_text().splitlines()]
    return [p for p in points if p.startswith(prefix)]


def _kill_tiny(proc: subprocess.Popen[str], run: Path, env: dict[str, str], step: int, resumes: int, delay: float,
               *, in_rollout: bool) -> list[str]:
    """SIGKILL the trainer's process group `delay` seconds after checkpoint `step` exists, this incarnation
    recorded its resume and (`in_rollout`) its first sandbox of the next step runs. Returns the debris the kill
    left in TMPDIR (host dirs, seccomp programs) once the sandbox processes died with their parent."""
    deadline = time.monotonic() + 240
    while proc.poll() is None and time.monotonic() < deadline and (
            _checkpointed(run) < step or _resumes(run) < resumes or (in_rollout and not _sandboxes_of(proc.pid, env))):
        time.sleep(0.02)
    time.sleep(delay)
    assert proc.poll() is None, f"the trainer ended before the kill point (step {step}): {proc.communicate()[0][-2000:]}"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    tmp = Path(env["TMPDIR"])
    deadline = time.monotonic() + 30  # bwrap --die-with-parent: the sandboxes follow their trainer
    while _processes_in(tmp) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_in(tmp) == [], "sandbox processes outlived the killed trainer"
    return sorted(str(p) for p in tmp.glob(f"{owners.DIR_PREFIX}*"))


@pytest.mark.parametrize("seed", [35])
def test_kill_9_tiny_mid_rollout_then_resume_trains_every_step_once_and_reaps_the_sandboxes(
        tmp_path: Path, tiny_env: dict[str, str], seed: int) -> None:
    """The bwrap recipe, killed twice: first while step 2's sandboxes run (their host dirs, owner records, quota
    mounts and seccomp program are left behind), then at a seeded random delay after the resumed incarnation's
    first sandbox started (mid-rollout, mid-update or mid-save of step 2, or in step 3). The resumed run trains every step exactly once, reaps what each dead incarnation
    left (and says so in events.jsonl and its log), and when it finishes nothing of any incarnation remains.

    A random-init model solves nothing (reward 0, advantage 0: no optimizer step), so the weights never move and
    the policy version stays 0; what is compared is the step bookkeeping, not learning."""
    rng = random.Random(seed)
    run, tmp = tmp_path / "run", Path(tiny_env["TMPDIR"])
    proc = _train_tiny(run, tiny_env)
    first = _kill_tiny(proc, run, tiny_env, 1, 0, rng.uniform(0.0, 0.5), in_rollout=True)
    assert [p for p in first if not Path(p).name.startswith(owners.SECCOMP_PREFIX)], "no sandbox was running"
    assert all(owners.read(Path(p)) is not None for p in first if Path(p).is_dir())  # each dir: an owner record
    proc = _train_tiny(run, tiny_env)  # resumes from step 1, dies again in step 2 or 3 (rollout, update or save)
    second = _kill_tiny(proc, run, tiny_env, 1, 1, rng.uniform(0.0, 2.0), in_rollout=True)
    code, out = _finish(_train_tiny(run, tiny_env))
    assert code == 0, out[-3000:]
    events = [json.loads(ln) for ln in (run / "events.jsonl").read_text().splitlines()]
    assert [(e["event"], e["incarnation"]) for e in events] == [("resume", 1), ("resume", 2)]
    assert events[0]["step"] == 1 and events[1]["step"] in (1, 2)  # the second kill came before or after a save
    assert sorted(events[0]["reaped"]) == first and sorted(events[1]["reaped"]) == second  # exactly what was left
    assert "reaped the debris of the run's dead incarnation" in out and all(p in out for p in second)
    metrics = read_metrics(run / "metrics.jsonl")
    assert [ln["step"] for ln in metrics] == list(range(1, TINY_STEPS + 1))  # each step's line once, none missing
    assert [ln["policy_version"] for ln in metrics] == [0] * TINY_STEPS  # nothing learnt: the version never moves
    assert all(ln["train/rollouts"] == 2 for ln in metrics)
    updates = [json.loads(ln) for ln in (run / "updates.jsonl").read_text().splitlines()]
    assert [u["step"] for u in updates] == list(range(1, TINY_STEPS + 1))
    trained = [rid for u in updates for rid in u["rollouts"]]
    assert len(trained) == len(set(trained)) == TINY_STEPS * 2  # no rollout trained twice
    assert _checkpointed(run) == TINY_STEPS and not list((run / "checkpoints").glob(".tmp-*"))
    assert _leftovers(tiny_env) == [] and _mounts_in(tmp) == [] and _processes_in(tmp) == []
