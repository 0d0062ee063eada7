"""Isolation limits of the bwrap backend, measured for real: a pids limit (cgroup v1 here; v2 logic on a fake
tree; RLIMIT_NPROC as the fallback, also for a real non-root caller), a per-sandbox disk quota (a size-limited
tmpfs mounted by root) with ENOSPC blamed by what the sandbox's own filesystem reports - deleted-but-open
files included - and a sandbox uid that is no host account (bwrap and docker)."""

from __future__ import annotations

import contextlib
import errno
import grp
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox import hostfs, limits, seccomp
from swerl.sandbox.base import AgentFault, HostDiskFull, InfraError, SandboxConfigError
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.schema import SANDBOX_UID, BwrapSettings, DockerSettings, SandboxSettings, SandboxTask

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="root-caller limits (mounts, cgroups); CI runs as root")

PIDS = 64
BOMB = textwrap.dedent("""
    import os, time
    n = 0
    try:
        while n < 100000:
            if os.fork() == 0:
                time.sleep(120)
                os._exit(0)
            n += 1
    except OSError as exc:
        print("FORKS", n, "ERRNO", exc.errno, flush=True)
""")
# a file written until the disk is full, deleted while open, kept open: no name anywhere shows its size
HOLD = textwrap.dedent("""
    import os, sys, time
    path = sys.argv[1]
    f = open(path, "wb")
    os.unlink(path)
    try:
        for _ in range(int(sys.argv[2])):
            f.write(b"\\0" * (1 << 20))
            f.flush()
    except OSError as exc:
        print("HOLD-ERRNO", exc.errno, flush=True)
    print("HOLDING", flush=True)
    time.sleep(300)
""")


def _sandbox(rootfs: Path, **kw: Any) -> BwrapSandbox:
    bw = kw.pop("bwrap", {})
    return BwrapSandbox(SandboxSettings(command_timeout_s=30, **kw, bwrap=BwrapSettings(rootfs=rootfs, **bw)))


def _put(sb: BwrapSandbox, h: Any, name: str, text: str) -> str:
    src = h.host_dir / name
    src.write_text(text)
    sb.copy_in(h, src, f"/tmp/{name}")
    return f"/tmp/{name}"


def _mounted(source_part: str) -> bool:
    return source_part in Path("/proc/self/mountinfo").read_text()


def _host_used(path: Path) -> int:
    st = os.statvfs(path)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


# ------------------------------------------------------------------------------------------------ pids


@pytest.mark.parametrize("limiter,persistent", [("cgroup", True), ("cgroup", False), ("rlimit", True)])
def test_fork_bomb_is_stopped_by_the_pids_limit(rootfs: Path, calc_task: tuple[Any, SandboxTask], limiter: str,
                                                persistent: bool) -> None:
    _, task = calc_task
    bw: dict[str, Any] = {"pids_limiter": limiter, "persistent": persistent}
    if limiter == "rlimit":  # RLIMIT_NPROC counts every process of the uid: other workers' sandboxes share
        bw["uid"] = _private_uid()  # SANDBOX_UID, so the bomb gets its own uid (no count moves under it)
    sb = _sandbox(rootfs, pids_limit=PIDS, bwrap=bw)
    assert sb.pids.kind == ("cgroup-v1" if limiter == "cgroup" else "rlimit")
    h = sb.start(task)
    try:
        group: limits.SandboxGroup = h.state["pids"]
        bomb = _put(sb, h, "bomb.py", BOMB)
        res = sb.exec(h, f"python3 {bomb}", timeout=20)
        words = res.output.split()
        assert "FORKS" in words, res.output
        forks, err = int(words[words.index("FORKS") + 1]), int(words[words.index("ERRNO") + 1])
        assert err == errno.EAGAIN and 0 < forks < PIDS, res.output
        if group.path is not None:  # the kernel's own count: never past the limit
            assert (group.path / "pids.max").read_text().strip() == str(PIDS)
            assert 0 < (group.current() or 0) <= PIDS
            assert "max" in (group.path / "pids.events").read_text()
        if limiter == "rlimit":  # per uid: bounded, but the exec server cannot see the limit to reclaim
            return
        if persistent:  # its sleeping children hold the pids: the next command reclaims them, then all is well
            res = sb.exec(h, "echo alive")
            assert res.returncode == 126 and "every process in the sandbox was killed" in res.output, res.output
        assert sb.exec(h, "echo alive").output.strip() == "alive"
        # the classic shell bomb: the host never sees more than the limit
        res = sb.exec(h, ":(){ :|:& };:; sleep 3", timeout=8)
        assert "Resource temporarily unavailable" in res.output or res.timed_out, res.output[-300:]
        if group.path is not None:
            assert (group.current() or 0) <= PIDS
        for _ in range(2):  # reclaimed (persistent), or gone with its bwrap (per command)
            res = sb.exec(h, "echo alive")
        assert res.output.strip() == "alive", res.output
    finally:
        sb.stop(h)
    if group.path is not None:
        assert not group.path.exists()  # whatever was left in it was killed, the cgroup removed


SPIN = textwrap.dedent("""
    import os, time
    t0 = time.monotonic()
    kids = []
    for _ in range({n}):
        pid = os.fork()
        if pid == 0:
            while time.monotonic() - t0 < 2.0:
                pass
            os._exit(0)
        kids.append(pid)
    for pid in kids:
        os.waitpid(pid, 0)
    t = os.times()
    print("CORES", round((t.children_user + t.children_system) / (time.monotonic() - t0), 2))
    print("SET", len(os.sched_getaffinity(0)))
    try:
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
        print("WIDEN ok")
    except OSError as e:
        print("WIDEN", e.errno)
""")


@pytest.mark.parametrize("limiter", ["cgroup", "affinity"])
def test_a_sandbox_uses_at_most_its_cpus(rootfs: Path, calc_task: tuple[Any, SandboxTask], limiter: str) -> None:
    """R40i-H2: `cpus` was enforced by docker and Kubernetes only; one bwrap command could use every host core.
    Now a cpu cgroup's quota (this host: v1), or where none is writable a core set the sandbox cannot widen
    (seccomp denies `sched_setaffinity` there, and only there). Busy processes, one more than the host has cores, get at most `cpus`
    cores' worth of time."""
    _, task = calc_task
    cores = len(os.sched_getaffinity(0))
    sb = _sandbox(rootfs, cpus=1)
    if limiter == "affinity":  # as a host with no writable cpu cgroup has it, seccomp included
        sb.cpu = limits.CgroupLimiter("affinity", controller="cpu")
        sb.seccomp_program = seccomp.program_file(affinity=True)
    assert sb.cpu.kind == ("cgroup-v1" if limiter == "cgroup" else "affinity")
    h = sb.start(task)
    try:
        group: limits.SandboxGroup = h.state["cpu"]
        res = sb.exec(h, f"python3 {_put(sb, h, 'spin.py', SPIN.format(n=cores + 1))}", timeout=30)
        words = res.output.split()
        assert "CORES" in words, res.output
        used = float(words[words.index("CORES") + 1])
        assert 0 < used <= 1.2, res.output  # the kernel's accounting: 1 core's worth, whatever the load outside
        if limiter == "cgroup":  # the quota holds whatever cores the tests pin themselves to (R43i-FP3)
            assert group.path is not None and (group.path / "cpu.cfs_quota_us").read_text().strip() == "100000"
            assert words[words.index("WIDEN") + 1] == "ok", res.output
        elif cores > 1:  # pinned to one core, and that cannot be undone from inside
            assert group.cpu_list is not None and int(words[words.index("SET") + 1]) == 1, res.output
            assert words[words.index("WIDEN") + 1] == str(errno.EPERM), res.output
    finally:
        sb.stop(h)
    if limiter == "cgroup":
        assert group.path is not None and not group.path.exists()


def test_posix_semaphores_work_in_a_bwrap_sandbox(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    """R43i-FP4: /dev/shm was root's 0755 directory, so the sandbox uid could make no semaphore: every
    `multiprocessing` lock, queue and pool failed with EACCES. It is now a 1777 directory inside the quota."""
    _, task = calc_task
    sb = _sandbox(rootfs)
    h = sb.start(task)
    try:
        res = sb.exec(h, "python3 -c 'import multiprocessing as m; q = m.Queue(); q.put(7); print(\"got\", q.get())'",
                      timeout=60)
    finally:
        sb.stop(h)
    assert "got 7" in res.output, res.output


def test_cgroup_v2_is_used_when_that_is_what_is_writable(tmp_path: Path) -> None:
    """The v2 branch on a stand-in tree (this host's pids controller is v1): base `swerl` under the mount, pids
    enabled for its children, one leaf per sandbox with pids.max, the sh wrapper joining it, dead owners reaped."""
    import threading

    root = tmp_path / "cg"
    root.mkdir()
    (root / "cgroup.controllers").write_text("cpu memory pids\n")
    (root / "cgroup.subtree_control").write_text("")
    probe = root / "swerl" / f"probe-{os.getpid()}-{threading.get_ident()}"
    probe.mkdir(parents=True)
    (probe / "cgroup.procs").write_text("")
    ns = limits._pid_namespace()
    (root / "swerl" / f"999999999.{ns}-bwrap-old").mkdir()  # a crashed owner's leaf
    (root / "swerl" / "999999999.1-bwrap-elsewhere").mkdir()  # R43i-H1: another pid namespace's, never judged
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(f"30 25 0:26 / {root} rw,nosuid - cgroup2 cgroup2 rw\n")
    limiter = limits.CgroupLimiter("auto", cgroup_root=root, mountinfo=mountinfo, own_cgroup={None: "/user.slice/a"})
    assert limiter.kind == "cgroup-v2" and limiter.base == root / "swerl"
    assert "+pids" in (root / "cgroup.subtree_control").read_text()
    assert "+pids" in (root / "swerl" / "cgroup.subtree_control").read_text()
    assert not (root / "swerl" / f"999999999.{ns}-bwrap-old").exists()
    assert (root / "swerl" / "999999999.1-bwrap-elsewhere").is_dir()
    group = limiter.create("bwrap-x", 77, uid=SANDBOX_UID)
    assert group.kind == "cgroup-v2" and (group.path / "pids.max").read_text() == "77"
    assert group.wrap(["bwrap", "--"])[:5] == ["/bin/sh", "-c", limits._ENTER, str(group.path / "cgroup.procs"),
                                              "bwrap"]
    (group.path / "pids.max").unlink()  # a real cgroup directory is removable with its control files
    group.release()
    assert not group.path.exists()
    # a v2 hierarchy without the pids controller (a hybrid host): RLIMIT_NPROC, and the reason says why
    (root / "cgroup.controllers").write_text("cpu memory\n")
    fallback = limits.CgroupLimiter("auto", cgroup_root=root, mountinfo=mountinfo)
    assert fallback.kind == "rlimit" and "no pids controller" in fallback.reason
    nproc = fallback.create("bwrap-y", 50, uid=os.geteuid())
    assert nproc.nproc is not None and nproc.nproc >= 50 + 1
    with pytest.raises(RuntimeError, match="no pids cgroup is writable"):
        limits.CgroupLimiter("cgroup", cgroup_root=root, mountinfo=mountinfo)


# ------------------------------------------------------------------------------------------------ disk


def test_write_past_the_disk_quota_is_enospc_inside_and_the_agents(rootfs: Path,
                                                                    calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    sb = _sandbox(rootfs, disk_mb=32)
    h = sb.start(task)
    try:
        quota: limits.DiskQuota = h.state["quota"]
        assert quota.size == 32 << 20 and _mounted(f"swerl-quota-{os.getpid()}-{h.id}")
        host_before = _host_used(h.host_dir)
        res = sb.exec(h, "dd if=/dev/zero of=/testbed/big bs=1M count=200 2>&1; echo rc=$?; "
                         "echo more > /tmp/more 2>&1; echo tmp=$?; echo home > ~/x 2>&1; echo home=$?")
        assert "No space left on device" in res.output and "rc=1" in res.output, res.output
        assert "tmp=1" in res.output and "home=1" in res.output  # one quota for the tree, /tmp and $HOME
        assert _host_used(h.host_dir) - host_before < 16 << 20  # the host's disk is untouched
        assert quota.full()
        # a write into the full quota on the sandbox's behalf: the agent's, named by the setting
        with pytest.raises(AgentFault, match=r"filled its disk quota .*sandbox.disk_mb=32"):
            sb.copy_in(h, Path(__file__), "/tmp/runner.py")
        # extraction still works or is the agent's - never infrastructure
        with contextlib.suppress(AgentFault):
            sb.extract_patch(h)
        # a full *host* disk is not blamed on a sandbox whose files are all on its own quota
        err = sb.disk_full_error(h, OSError(errno.ENOSPC, "No space left on device"))
        assert isinstance(err, HostDiskFull) and isinstance(err, InfraError)
    finally:
        sb.stop(h)
    assert not _mounted(f"swerl-quota-{os.getpid()}-{h.id}") and not h.host_dir.exists()


def test_deleted_but_open_file_filling_the_quota_is_the_agents(rootfs: Path,
                                                               calc_task: tuple[Any, SandboxTask]) -> None:
    """No name shows the space (the old attribution walked names: 'infra'); the quota's statvfs does."""
    _, task = calc_task
    sb = _sandbox(rootfs, disk_mb=32)
    with sb.session(task) as h:
        hold = _put(sb, h, "hold.py", HOLD)
        sb.exec(h, f"nohup python3 {hold} /testbed/.hidden 200 > /dev/null 2>&1 &")  # no log: the disk is full
        quota: limits.DiskQuota = h.state["quota"]
        deadline = time.monotonic() + 20
        while not quota.full() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert quota.full(), quota.describe()
        names = sum(hostfs.tree_bytes(h.state[d]) for d in ("work", "tmp", "home"))
        assert names < 4 << 20  # by names, the sandbox looks nearly empty
        assert sb.disk_usage(h) >= 30 << 20  # by its filesystem, it is full
        with pytest.raises(AgentFault, match="filled its disk quota"):
            sb.copy_in(h, Path(__file__), "/tmp/runner.py")
        assert isinstance(sb.disk_full_error(h, OSError(errno.ENOSPC, "full"), into_sandbox=True), AgentFault)


def test_without_a_quota_deleted_but_open_files_still_count(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    """No quota filesystem (a non-root caller, or disk_quota off): the sandbox's usage is its trees plus the
    files its processes hold open after deleting them; past `disk_mb` a full disk is the agent's."""
    _, task = calc_task
    sb = _sandbox(rootfs, disk_mb=16, bwrap={"disk_quota": False})
    with sb.session(task) as h:
        assert h.state.get("quota") is None
        hold = _put(sb, h, "hold.py", HOLD)
        sb.exec(h, f"nohup python3 {hold} /testbed/.hidden 24 > /dev/null 2>&1 &")
        deadline = time.monotonic() + 20
        while sb.disk_usage(h) < 24 << 20 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert sum(hostfs.tree_bytes(h.state[d]) for d in ("work", "tmp", "home")) < 4 << 20
        assert sb.disk_usage(h) >= 24 << 20
        full = OSError(errno.ENOSPC, "No space left on device")
        err = sb.disk_full_error(h, full)
        assert isinstance(err, AgentFault) and "sandbox.disk_mb=16" in str(err), err
        sb.settings.disk_mb = 64  # within its allowance: the host's disk is full for another reason
        assert isinstance(sb.disk_full_error(h, full), HostDiskFull)


# ------------------------------------------------------------------------------------------------ uid


def test_sandbox_uid_is_not_a_host_account(rootfs: Path, calc_task: tuple[Any, SandboxTask], tmp_path: Path) -> None:
    _, task = calc_task
    assert BwrapSettings().uid == SANDBOX_UID and DockerSettings().user == f"{SANDBOX_UID}:{SANDBOX_UID}"
    for lookup in (pwd.getpwuid, grp.getgrgid):
        with pytest.raises(KeyError):
            lookup(SANDBOX_UID)
    sb = _sandbox(rootfs)
    with sb.session(task) as h:
        assert sb.exec(h, "id -u; id -g").output.split() == [str(SANDBOX_UID)] * 2
        assert os.stat(h.state["work"]).st_uid == SANDBOX_UID
        # an account inside the sandbox only (R68-FP: `getpass.getuser()` raised KeyError for a tool naming its user)
        who = sb.exec(h, "python3 -c 'import getpass, grp, os, pwd; print(getpass.getuser(), pwd.getpwuid(os.getuid())"
                         ".pw_dir, grp.getgrgid(os.getgid()).gr_name)'")
        assert who.output.split() == ["sandbox", "/root", "sandbox"], who.output
    with pytest.raises(KeyError):  # and none on the host
        pwd.getpwuid(SANDBOX_UID)
    account = next(p for p in pwd.getpwall() if p.pw_uid > 0)
    with pytest.raises(SandboxConfigError, match=rf"sandbox.bwrap.uid={account.pw_uid}: uid {account.pw_uid} is "
                                                  rf"the host account '{account.pw_name}'"):
        _sandbox(rootfs, bwrap={"uid": account.pw_uid})
    from swerl.sandbox.docker import DockerSandbox

    with pytest.raises(SandboxConfigError, match=rf"sandbox.docker.user='{account.pw_uid}:{account.pw_uid}'"):
        DockerSandbox(SandboxSettings(docker=DockerSettings(user=f"{account.pw_uid}:{account.pw_uid}")))
    group = next((g for g in grp.getgrall() if g.gr_gid > 0 and not _has_account(g.gr_gid)), None)
    if group is not None:  # a gid that is only a group: refused too (commands run with gid = uid)
        with pytest.raises(SandboxConfigError, match="is the host group"):
            _sandbox(rootfs, bwrap={"uid": group.gr_gid})


def _private_uid() -> int:
    """A sandbox uid no other test process uses now: RLIMIT_NPROC is per uid, and the default SANDBOX_UID is
    shared by every xdist worker's (and any concurrent session's) sandboxes. Derived from this worker's pid,
    which no other live process has; never a host account or group."""
    uid = SANDBOX_UID + 1000 + os.getpid()
    assert not _has_account(uid)
    with pytest.raises(KeyError):
        grp.getgrgid(uid)
    return uid


def _has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        return False


# ------------------------------------------------------------------------------------------------ non-root


NONROOT = textwrap.dedent("""
    import json, os, shlex, sys
    from pathlib import Path
    from swerl.log import configure
    configure("INFO")
    from swerl.sandbox.bwrap import BwrapSandbox
    from swerl.sandbox.schema import BwrapSettings, SandboxSettings, SandboxTask
    repo, bomb = Path(sys.argv[1]), sys.argv[2]
    sb = BwrapSandbox(SandboxSettings(command_timeout_s=30, pids_limit=32, bwrap=BwrapSettings()))
    task = SandboxTask(instance_id="local__x", repo="local/x", branch="main", repo_dir=repo)
    out = {"kind": sb.pids.kind}
    with sb.session(task) as h:
        out["id"] = sb.exec(h, "id -u").output.strip()
        out["quota"] = h.state.get("quota") is not None
        sb.exec(h, "echo changed >> a.txt")
        out["bomb"] = sb.exec(h, "python3 -c " + shlex.quote(bomb), timeout=20).output
        out["after"] = [sb.exec(h, "echo alive").output.strip() for _ in range(2)]
        out["patch"] = sb.extract_patch(h).patch
    print("RESULT " + json.dumps(out))
""")


def test_non_root_caller_keeps_working_with_what_it_can_apply(tmp_path: Path) -> None:
    """A non-root caller: bwrap with a user namespace, commands as the caller's uid, RLIMIT_NPROC instead of a
    cgroup (not writable), no disk quota (cannot mount) - both logged - and the sandbox works."""
    uid = SANDBOX_UID + 17
    assert not _has_account(uid)
    base = Path(tempfile.mkdtemp(prefix="swerl-nonroot-"))
    try:
        repo = base / "repo"
        repo.mkdir()
        git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
        (repo / "a.txt").write_text("a\n")
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "init"], check=True)
        os.chmod(base, 0o755)
        hostfs.chown_tree(base, uid, uid)
        env = {"PATH": os.environ["PATH"], "HOME": str(base), "TMPDIR": str(base), "LANG": "C.UTF-8",
               "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        proc = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable,
                               "-c", NONROOT, str(repo), BOMB.replace("100000", "1000")],
                              capture_output=True, text=True, env=env, timeout=180, cwd=str(base))
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
        assert line is not None, proc.stdout + proc.stderr
        out = json.loads(line[len("RESULT "):])
        assert out["kind"] == "rlimit" and "RLIMIT_NPROC" in proc.stderr
        assert "no disk quota" in proc.stderr and not out["quota"]
        assert out["id"] == str(uid)
        words = out["bomb"].split()
        assert "FORKS" in words and int(words[words.index("FORKS") + 1]) < 32, out["bomb"]
        assert out["after"][-1] == "alive"  # reclaimed: the sandbox stays usable
        assert "+changed" in out["patch"]
    finally:
        hostfs.rmtree_quietly(base)


# ------------------------------------------------------------------------------------------------ docker


ACCOUNT = ("python3 -c 'import getpass, grp, os, pwd; print(getpass.getuser(), pwd.getpwuid(os.getuid()).pw_dir, "
           "grp.getgrgid(os.getgid()).gr_name)'")


@pytest.mark.docker
def test_docker_sandbox_uid_has_an_account_inside_only(docker_settings: SandboxSettings,
                                                       taskpack_images: dict[str, str],
                                                       calc_task: tuple[Any, SandboxTask]) -> None:
    """As on bwrap (R68-FP): the image's passwd and group files with a `sandbox` entry for the command uid,
    mounted read-only over the image's own; the image's entries stay, the host has none."""
    from swerl.sandbox.docker import DockerSandbox

    _, task = calc_task
    sb = DockerSandbox(docker_settings, reap=False)
    with sb.session(task) as h:
        assert sb.exec(h, "id -u").output.strip() == str(SANDBOX_UID)
        who = sb.exec(h, ACCOUNT).output
        assert who.split() == ["sandbox", "/root", "sandbox"], who
        passwd = sb.exec(h, "cat /etc/passwd; (echo x >> /etc/passwd) 2>/dev/null || echo refused").output
        assert passwd.startswith("root:") and "\nsandbox:x:" in passwd and passwd.rstrip().endswith("refused"), passwd
    with pytest.raises(KeyError):
        pwd.getpwuid(SANDBOX_UID)


@pytest.mark.docker
def test_docker_deleted_but_open_file_counts_against_the_sandbox(docker_settings: SandboxSettings,
                                                                 taskpack_images: dict[str, str],
                                                                 calc_task: tuple[Any, SandboxTask]) -> None:
    from swerl.sandbox.docker import DockerSandbox

    _, task = calc_task
    sb = DockerSandbox(docker_settings.model_copy(update={"disk_mb": 16}), reap=False)
    with sb.session(task) as h:
        assert sb.exec(h, "id -u").output.strip() == str(SANDBOX_UID)
        src = Path(tempfile.mkdtemp()) / "hold.py"
        src.write_text(HOLD)
        sb.copy_in(h, src, "/tmp/hold.py")
        shutil.rmtree(src.parent)
        sb.exec(h, "nohup python3 /tmp/hold.py /testbed/.hidden 24 > /tmp/hold.log 2>&1 &")
        deadline = time.monotonic() + 20
        while "HOLDING" not in sb.exec(h, "cat /tmp/hold.log").output and time.monotonic() < deadline:
            time.sleep(0.3)
        assert sb.exec(h, "du -sxB1 /testbed | cut -f1").output.strip().isdigit()
        assert sb.disk_usage(h) >= 24 << 20
        full = OSError(errno.ENOSPC, "No space left on device")
        assert isinstance(sb.disk_full_error(h, full), AgentFault)
        sb.settings = sb.settings.model_copy(update={"disk_mb": 64})
        assert isinstance(sb.disk_full_error(h, full), HostDiskFull)
