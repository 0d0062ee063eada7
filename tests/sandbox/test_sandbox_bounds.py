"""Bounds on what agent-produced data can make the host do, and who is blamed when handling it fails.

- a work tree 1,100 directories deep: no RecursionError anywhere on the host (copy-out, patch extraction, the
  grader's tree diff, cleanup); it is the agent's fault;
- patches: binary literals/deltas and copies are measured from the text *before* applying (a 0.7 MB patch
  that inflates to 520 MiB writes nothing big), the patched tree is bounded in depth, entries and bytes;
- any failure while the host handles agent data is `AgentFault` unless it is a named `InfraError`;
  cleanup never raises.
"""

from __future__ import annotations

import base64
import errno
import hashlib
import os
import shutil
import subprocess
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from swerl.sandbox import gradetree, hostfs
from swerl.sandbox.base import AgentFault, HostDiskFull, InfraError
from swerl.sandbox.bwrap import BwrapSandbox
from swerl.sandbox.schema import BwrapSettings, SandboxSettings, SandboxTask, TreeLimits

DEPTH = 1100


@pytest.fixture(autouse=True)
def _remove_deep_trees(tmp_path: Path) -> Any:
    """pytest's own clean-up of old temp dirs recurses (RecursionError on these trees): remove them here."""
    yield
    hostfs.rmtree_quietly(tmp_path)


def _deep_dir(root: Path, depth: int = DEPTH, name: str = "d") -> Path:
    """root/d/d/.../d (depth levels) built through descriptors (any name length), a file at the bottom."""
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        with open(os.open("f.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as fh:
            fh.write("bottom\n")
    finally:
        os.close(fd)
    return root


# ------------------------------------------------------------------------------------------ deep trees (host)


def test_deep_tree_walks_are_iterative_and_bounded(tmp_path: Path) -> None:
    """1,100 levels of 200-character names (a path of 220 KB: past PATH_MAX too): every walk is bounded or
    iterative, nothing raises RecursionError, cleanup removes it."""
    src = _deep_dir(tmp_path / "src", name="n" * 200)
    with pytest.raises(hostfs.TreeTooDeep):
        list(hostfs.iter_tree(src))
    assert sum(1 for _ in hostfs.iter_tree(src, max_depth=DEPTH + 1)) == DEPTH + 1
    short = _deep_dir(tmp_path / "short")
    with pytest.raises(hostfs.TreeTooDeep):
        hostfs.copy_tree_safely(short, tmp_path / "copy")
    with pytest.raises(hostfs.TreeTooDeep):
        b"".join(hostfs.tar_stream(short, "t"))
    assert hostfs.tree_bytes(src) >= 0  # bounded count, never raises
    with pytest.raises(gradetree.PatchRejected, match="too deep"):
        gradetree.snapshot(src)
    snap = gradetree.snapshot(src, limits=TreeLimits(max_depth=DEPTH + 1))  # iterative when allowed that deep
    assert len(snap) == DEPTH + 1
    assert hostfs.rmtree_quietly(src) and not src.exists()
    for leftover in ("copy", "short"):
        assert hostfs.rmtree_quietly(tmp_path / leftover) and not (tmp_path / leftover).exists()


def test_rmtree_of_any_depth_holds_few_descriptors(tmp_path: Path) -> None:
    """Deeper than the descriptors it may hold: deep subtrees are moved up first; a low RLIMIT_NOFILE suffices."""
    import resource

    tree = _deep_dir(tmp_path / "t", depth=3000)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # The limit counts the highest descriptor number, not how many this call holds: an xdist worker may already
    # hold many (sockets, logs of earlier tests), so the budget is what is open now plus 64 for the walk.
    in_use = max(int(fd) for fd in os.listdir("/proc/self/fd")) + 1
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(in_use + 64, hard), hard))
    try:
        hostfs.rmtree(tree)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert not tree.exists()
    assert hostfs.rmtree_quietly(tmp_path / "absent")  # nothing to do is success


def test_compute_patch_on_a_deep_tree_raises_tree_too_deep(tmp_path: Path) -> None:
    from swerl.sandbox.patch import compute_patch

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
                   check=True)
    tree = tmp_path / "tree"
    shutil.copytree(repo, tree, ignore=shutil.ignore_patterns(".git"))
    _deep_dir(tree / "deep")
    with pytest.raises(hostfs.TreeTooDeep):
        compute_patch(repo / ".git", tree)


# ------------------------------------------------------------------------------------------ deep trees (bwrap)


@pytest.fixture(scope="module")
def deep_bwrap(rootfs: Path) -> BwrapSandbox:
    return BwrapSandbox(SandboxSettings(command_timeout_s=60, bwrap=BwrapSettings(rootfs=rootfs)))


MKDEEP = (f"p=$(python3 -c \"print('/'.join(['d'] * {DEPTH}))\") && mkdir -p \"$p\" && echo x > \"$p/f.txt\" "
          "&& echo made")


def test_deep_work_tree_through_extract_patch_is_an_agent_fault(deep_bwrap: BwrapSandbox,
                                                                calc_task: tuple[Any, SandboxTask]) -> None:
    """The red-team's tree: 1,100 directories deep in the agent's sandbox. Extraction is AgentFault (never a
    RecursionError, never infra); stop() cleans it up without raising."""
    _, task = calc_task
    h = deep_bwrap.start(task)
    try:
        assert deep_bwrap.exec(h, MKDEEP).output.strip() == "made"
        with pytest.raises(AgentFault, match="deeper than 100 levels"):
            deep_bwrap.extract_patch(h)
    finally:
        deep_bwrap.stop(h)
    assert not h.host_dir.exists()


def test_deep_tree_patch_through_grade_is_the_agents(rootfs: Path, deep_bwrap: BwrapSandbox,
                                                     calc_task: tuple[Any, SandboxTask]) -> None:
    """Allowed to extract that deep, the patch carries the 1,100-deep file; the grader's tree check rejects it
    as the agent's (error_kind='agent'), before any tree diff or grading sandbox."""
    _, task = calc_task
    deep_ok = BwrapSandbox(SandboxSettings(command_timeout_s=60, limits=TreeLimits(max_depth=DEPTH + 10),
                                           bwrap=BwrapSettings(rootfs=rootfs)))
    with deep_ok.session(task) as h:
        assert deep_ok.exec(h, MKDEEP).output.strip() == "made"
        patch = deep_ok.extract_patch(h).patch
    assert patch.count("/d/d/d/") and "f.txt" in patch
    result = deep_bwrap.grade(task, patch)
    assert result.error_kind == "agent" and not result.resolved, result
    assert "deeper than 100 levels" in (result.error or "")
    assert "RecursionError" not in (result.error or "")


# ------------------------------------------------------------------------------------------ binary patches


def _b85_lines(data: bytes) -> list[str]:
    """git's base85 lines: a length character (A-Z: 1-26, a-z: 27-52), then 5 characters per 4 bytes."""
    lines = []
    for i in range(0, len(data), 52):
        chunk = data[i:i + 52]
        n = len(chunk)
        lines.append((chr(ord("A") + n - 1) if n <= 26 else chr(ord("a") + n - 27))
                     + base64.b85encode(chunk, pad=True).decode())
    return lines


def literal_patch(name: str, size: int, fill: bytes = b"\0") -> str:
    """A `GIT binary patch` creating `name` with `size` bytes of `fill`, built without ever holding the content
    (streamed through zlib and sha1), exactly as `git diff --binary` writes it."""
    comp = zlib.compressobj(9)
    sha = hashlib.sha1(b"blob %d\0" % size)
    parts: list[bytes] = []
    block = fill * (1 << 20)
    left = size
    while left:
        piece = block[: min(left, len(block))]
        parts.append(comp.compress(piece))
        sha.update(piece)
        left -= len(piece)
    parts.append(comp.flush())
    body = "\n".join(_b85_lines(b"".join(parts)))
    return (f"diff --git a/{name} b/{name}\nnew file mode 100644\nindex 0000000000000000000000000000000000000000.."
            f"{sha.hexdigest()}\nGIT binary patch\nliteral {size}\n{body}\n\nliteral 0\nHcmV?d00001\n\n")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _used(path: Path) -> int:
    st = os.statvfs(path)
    return (st.f_blocks - st.f_bfree) * st.f_frsize


def test_small_binary_patch_that_expands_to_520_mib_is_rejected_before_applying(tmp_path: Path) -> None:
    """The red-team's patch: ~0.7 MB of text, a 520 MiB literal. Rejected from the text alone, in well under a
    second of work on the host, with nothing big written."""
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    (pristine / "a.txt").write_text("a\n")
    patch = literal_patch("big.bin", 520 << 20)
    assert len(patch) < 1 << 20  # under 1 MB of text
    before = _used(tmp_path)
    t0 = time.monotonic()
    with pytest.raises(gradetree.PatchRejected, match=r"expand to 545259520 bytes.*max_expanded_bytes.*nothing was applied"):
        gradetree.apply_patch(pristine, tmp_path / "dest", patch)
    assert time.monotonic() - t0 < 5
    assert not (tmp_path / "dest").exists()
    assert _used(tmp_path) - before < 16 << 20  # the host wrote nothing big
    # the same construction, small, is a valid binary patch that applies (the measure reads real git syntax)
    small = literal_patch("small.bin", 4096, b"\x01")
    assert gradetree.expanded_bytes(small) == 4096
    assert gradetree.apply_patch(pristine, tmp_path / "ok", small) == "git apply"
    assert (tmp_path / "ok" / "small.bin").read_bytes() == b"\x01" * 4096


def test_binary_delta_target_size_is_read_from_the_header(tmp_path: Path) -> None:
    """`delta N`: N is the delta's size, not the result's; the target size in the delta header counts."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    data = bytearray(os.urandom(300_000))
    (repo / "blob.bin").write_bytes(bytes(data))
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    data[1000:1010] = b"0123456789"
    (repo / "blob.bin").write_bytes(bytes(data))
    patch = subprocess.run([*git, "diff", "--binary"], check=True, capture_output=True, text=True).stdout
    assert "\ndelta " in patch
    assert gradetree.expanded_bytes(patch) >= 300_000
    # a forged delta header announcing 8 GiB from a few bytes of patch
    header = _varint(300_000) + _varint(8 << 30) + b"\x90\x00"
    body = "\n".join(_b85_lines(zlib.compress(header)))
    forged = (f"diff --git a/blob.bin b/blob.bin\nindex {'1' * 40}..{'2' * 40} 100644\nGIT binary patch\n"
              f"delta {len(header)}\n{body}\n\nliteral 0\nHcmV?d00001\n\n")
    assert gradetree.expanded_bytes(forged) >= 8 << 30
    with pytest.raises(gradetree.PatchRejected, match="expand"):
        gradetree.apply_patch(repo, tmp_path / "dest", forged)
    with pytest.raises(gradetree.PatchRejected, match="malformed binary delta"):
        gradetree.expanded_bytes(forged.replace(body, "zzzz"))


def test_copies_of_a_big_file_are_counted_before_applying(tmp_path: Path) -> None:
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    (pristine / "data.bin").write_bytes(b"x" * (1 << 20))
    copies = "".join(f"diff --git a/data.bin b/c{i}\nsimilarity index 100%\ncopy from data.bin\ncopy to c{i}\n"
                     for i in range(100))
    assert gradetree.expanded_bytes(copies, pristine) == 100 << 20
    with pytest.raises(gradetree.PatchRejected, match="expand"):
        gradetree.apply_patch(pristine, tmp_path / "dest", copies)
    few = "".join(copies.splitlines(keepends=True)[:8])  # two copies: applied (git's syntax, really)
    assert gradetree.apply_patch(pristine, tmp_path / "ok", few) == "git apply"
    assert (tmp_path / "ok" / "c1").stat().st_size == 1 << 20


def _new_file(name: str, lines: list[str]) -> str:
    body = "".join(f"+{line}\n" for line in lines)
    return f"diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n+++ b/{name}\n@@ -0,0 +1,{len(lines)} @@\n{body}"


def test_patched_tree_bounds_depth_entries_bytes(tmp_path: Path) -> None:
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    (pristine / "a.txt").write_text("a\n")
    many = "".join(_new_file(f"pkg/m{i}.py", ["x = 1"]) for i in range(40))
    with pytest.raises(gradetree.PatchRejected, match=r"more than 20 entries \(grading limit limits.max_files\)"):
        gradetree.apply_patch(pristine, tmp_path / "d1", many, limits=TreeLimits(max_files=20))
    big = _new_file("big.txt", ["y" * 1000] * 300)
    two = _new_file("big1.txt", ["y" * 1000] * 150) + _new_file("big2.txt", ["y" * 1000] * 150)
    with pytest.raises(gradetree.PatchRejected, match=r"more than 200000 bytes \(grading limit limits.max_bytes\)"):
        gradetree.apply_patch(pristine, tmp_path / "d2", two, limits=TreeLimits(max_bytes=200_000))
    # no single file the tools write may pass it either (RLIMIT_FSIZE): they are stopped while writing
    with pytest.raises(gradetree.PatchRejected, match=r"a file grew past limits.max_bytes \(100000 bytes\)"):
        gradetree.apply_patch(pristine, tmp_path / "d2b", big, limits=TreeLimits(max_bytes=100_000))
    deep = _new_file("/".join(["d"] * DEPTH) + "/f.py", ["z = 3"])
    with pytest.raises(gradetree.PatchRejected, match="deeper than 100 levels"):
        gradetree.apply_patch(pristine, tmp_path / "d3", deep)
    assert not (tmp_path / "d3").exists()  # removed (iteratively): no caller meets the deep tree
    with pytest.raises(gradetree.PatchRejected, match=r"names 40 files \(limit 30, limits.max_patch_files\)"):
        gradetree.apply_patch(pristine, tmp_path / "d3b", many, limits=TreeLimits(max_patch_files=30))
    assert not (tmp_path / "d3b").exists()  # counted from the text: nothing was written
    with pytest.raises(gradetree.PatchRejected, match="max_patch_bytes"):
        gradetree.apply_patch(pristine, tmp_path / "d4", big, limits=TreeLimits(max_patch_bytes=1000))
    # within bounds: applied as before
    assert gradetree.apply_patch(pristine, tmp_path / "d5", many) == "git apply"
    # the sandbox's limits reach apply_patch through the grading context
    with gradetree.use_limits(TreeLimits(max_files=20)), pytest.raises(gradetree.PatchRejected, match="entries"):
        gradetree.apply_patch(pristine, tmp_path / "d6", many)


def test_fuzz_search_is_bounded_by_cpu_time(tmp_path: Path) -> None:
    """2,000 hunks whose context nearly matches everywhere in a 100,000-line file: GNU `patch --fuzz=5` searches
    for ~16 CPU seconds here; at `max_apply_cpu_s=1` it is stopped and the patch is the agent's rejected one."""
    pristine = tmp_path / "pristine"
    pristine.mkdir()
    (pristine / "big.txt").write_text("x\n" * 100_000)
    hunks = "".join(f"@@ -{1 + 47 * h},7 +{1 + 47 * h},7 @@\n x\n x\n nomatch {h}\n-x\n+new {h}\n x\n x\n x\n"
                    for h in range(2000))
    patch = "--- a/big.txt\n+++ b/big.txt\n" + hunks
    with pytest.raises(gradetree.PatchRejected, match=r"patch --fuzz=5: searched longer than "
                                                      r"limits.max_apply_cpu_s \(1 CPU seconds\)"):
        gradetree.apply_patch(pristine, tmp_path / "d", patch, limits=TreeLimits(max_apply_cpu_s=1))


def test_binary_patch_through_grade_is_rejected_as_the_agents(bwrap_sandbox: Any,
                                                               calc_task: tuple[Any, SandboxTask]) -> None:
    _, task = calc_task
    result = bwrap_sandbox.grade(task, literal_patch("calc/big.bin", 520 << 20))
    assert result.error_kind == "agent" and not result.resolved and not result.patch_applied
    assert "max_expanded_bytes" in (result.error or "")


# ------------------------------------------------------------------------------------------ attribution


class _Boom(BwrapSandbox):
    """copy_out / compute_patch fail in a chosen way (what an agent's tree might trigger on the host)."""

    failure: BaseException | None = None

    def copy_out(self, handle: Any, src: str, dest: Path) -> None:
        super().copy_out(handle, src, dest)
        if self.failure is not None:
            raise self.failure


@pytest.mark.parametrize("failure", [RecursionError("maximum recursion depth exceeded"), KeyError("x"),
                                     UnicodeDecodeError("utf-8", b"\xff", 0, 1, "bad"),
                                     OSError(errno.ENAMETOOLONG, "File name too long"),
                                     RuntimeError("git add failed")])
def test_any_failure_handling_the_agents_tree_is_an_agent_fault(rootfs: Path, calc_task: tuple[Any, SandboxTask],
                                                                 failure: BaseException) -> None:
    _, task = calc_task
    sb = _Boom(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    sb.failure = failure
    with sb.session(task) as h:
        with pytest.raises(AgentFault, match=type(failure).__name__):
            sb.extract_patch(h)
        # named infrastructure errors stay infrastructure
        sb.failure = OSError(errno.ENOSPC, "No space left on device")
        with pytest.raises(HostDiskFull) as info:
            sb.extract_patch(h)
        assert isinstance(info.value, InfraError) and not isinstance(info.value, AgentFault)
        sb.failure = HostDiskFull("named")
        with pytest.raises(HostDiskFull):
            sb.extract_patch(h)


def test_stop_never_raises(rootfs: Path, calc_task: tuple[Any, SandboxTask]) -> None:
    """A teardown that fails and a tree the host cannot walk recursively: stop() logs and returns."""
    _, task = calc_task

    class BadTeardown(BwrapSandbox):
        def _teardown(self, handle: Any) -> None:
            super()._teardown(handle)
            raise RecursionError("teardown blew up")

    sb = BadTeardown(SandboxSettings(command_timeout_s=30, bwrap=BwrapSettings(rootfs=rootfs)))
    h = sb.start(task)
    assert sb.exec(h, MKDEEP).output.strip() == "made"
    sb.stop(h)
    sb.stop(h)
    assert h.stopped and not h.host_dir.exists()
