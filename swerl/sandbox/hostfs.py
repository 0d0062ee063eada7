"""Host-side copies of untrusted trees: never through the agent's symlinks, no FIFOs or devices, size-capped."""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
from pathlib import Path, PurePosixPath
from typing import IO

from swerl.log import get_logger

log = get_logger(__name__)


class CopyLimitExceeded(RuntimeError):
    """The tree is larger than the configured copy limit."""


# Every entry (file, dir, link) also costs this much of the copy budget: a tree of millions of empty files
# would otherwise copy for hours (or exhaust the host's inodes) while staying "under" a byte limit.
ENTRY_COST = 512


def _charge(budget: list[int], n: int) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise CopyLimitExceeded("copy limit exceeded")


def _mode(raw: int) -> int:
    """Only the bits git tracks matter: executable or not."""
    return 0o755 if raw & 0o111 else 0o644


def crosses_symlink(root: Path, parts: tuple[str, ...]) -> bool:
    """Whether `root/parts[0]/.../parts[-1]` passes through (or is) a symlink below `root`."""
    return any(root.joinpath(*parts[: i + 1]).is_symlink() for i in range(len(parts)))


def remove_path(path: Path) -> None:
    """Delete a file, a symlink (never followed) or a directory tree; nothing if absent."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.is_symlink() or path.exists():
        path.unlink()


def _write_file(target: Path, src: IO[bytes], mode: int, budget: list[int]) -> None:
    remove_path(target)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(1 << 20):
            _charge(budget, len(chunk))
            out.write(chunk)
    os.chmod(target, mode)


def extract_tar_safely(stream: IO[bytes], dest: Path, *, strip: int = 0, limit_bytes: int = 1 << 40) -> int:
    """Extract a (streamed) tar into `dest`; return the number of members skipped as unsafe: devices, FIFOs,
    absolute or `..` names, members whose path crosses a symlink (symlinks are recreated, never followed)."""
    dest.mkdir(parents=True, exist_ok=True)
    budget = [limit_bytes]
    skipped = 0
    with tarfile.open(fileobj=stream, mode="r|*") as tar:
        for m in tar:
            _charge(budget, ENTRY_COST)
            raw = PurePosixPath(m.name)
            parts = raw.parts[strip:]
            if raw.is_absolute() or not parts or any(p in ("..", "") for p in parts):
                skipped += 1
                continue
            parts = tuple(p for p in parts if p != ".")
            if not parts or crosses_symlink(dest, parts[:-1]):
                skipped += 1
                continue
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            if m.isdir():
                if target.is_symlink():
                    skipped += 1
                    continue
                target.mkdir(exist_ok=True)
                os.chmod(target, 0o755)
            elif m.isreg():
                src = tar.extractfile(m)
                if src is None:
                    skipped += 1
                    continue
                _write_file(target, src, _mode(m.mode), budget)
            elif m.issym():
                if target.is_symlink() or target.is_file():
                    target.unlink()
                os.symlink(m.linkname, target)
            elif m.islnk():
                link_parts = PurePosixPath(m.linkname).parts[strip:]
                source = dest.joinpath(*link_parts) if link_parts else None
                if source is None or ".." in link_parts or crosses_symlink(dest, link_parts) or not source.is_file():
                    skipped += 1
                    continue
                with open(source, "rb") as src_f:
                    _write_file(target, src_f, _mode(source.stat().st_mode), budget)
            else:
                skipped += 1
    if skipped:
        log.info("unsafe tar members skipped", dest=str(dest), skipped=skipped)
    return skipped


def copy_tree_safely(src: Path, dest: Path, *, limit_bytes: int = 1 << 40) -> int:
    """Copy directory `src` into `dest` without following symlinks; return the number of special files skipped.

    The source is walked through directory file descriptors (`openat` with O_NOFOLLOW at every step), not
    path strings: the agent's processes keep running while the host copies, and a directory swapped for a
    symlink between two steps must not lead the copy out of the tree (e.g. to the host's gold checkout).
    """
    budget = [limit_bytes]
    skipped = 0
    dest.mkdir(parents=True, exist_ok=True)
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    root_fd = os.open(src, flags)
    stack: list[tuple[int, Path]] = [(root_fd, dest)]
    try:
        while stack:
            dir_fd, d_dir = stack.pop()
            try:
                with os.scandir(dir_fd) as it:
                    entries = [(e.name, e.stat(follow_symlinks=False)) for e in it]
                for name, st in entries:
                    _charge(budget, ENTRY_COST)
                    target = d_dir / name
                    if stat.S_ISLNK(st.st_mode):
                        os.symlink(os.readlink(name, dir_fd=dir_fd), target)
                    elif stat.S_ISDIR(st.st_mode):
                        child = os.open(name, flags, dir_fd=dir_fd)
                        target.mkdir()
                        stack.append((child, target))
                    elif stat.S_ISREG(st.st_mode):
                        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
                        with os.fdopen(fd, "rb") as f:
                            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped for a FIFO/device
                                skipped += 1
                                continue
                            _write_file(target, f, _mode(st.st_mode), budget)
                    else:
                        skipped += 1
            finally:
                os.close(dir_fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return skipped


def tree_bytes(path: Path, stop_after: int | None = None) -> int:
    """Disk used under `path` (symlinks not followed), counting until `stop_after` is passed. An empty file
    still costs a block: inode exhaustion counts too."""
    total = 0
    for _root, _dirs, files, root_fd in os.fwalk(path, follow_symlinks=False):
        for name in files:
            try:
                total += max(os.stat(name, dir_fd=root_fd, follow_symlinks=False).st_blocks * 512, 4096)
            except OSError:
                continue
            if stop_after is not None and total > stop_after:
                return total
    return total


def chown_tree(path: Path, uid: int, gid: int) -> None:
    """Give a tree to the sandbox's unprivileged uid, never following a symlink (walked by directory fds:
    the tree may be inside a live sandbox whose processes swap directories for symlinks)."""
    os.chown(path, uid, gid, follow_symlinks=False)
    for _root, dirs, files, root_fd in os.fwalk(path, follow_symlinks=False):
        for name in dirs + files:
            os.chown(name, uid, gid, dir_fd=root_fd, follow_symlinks=False)


def read_only_tree(root: Path) -> None:
    """Owner root, no write bits for anyone else: a grading tree the tests' uid can read and import but not change
    (no new files either, so no planted `__pycache__`, conftest or test file mid-run)."""
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = os.path.join(dirpath, name)
            os.lchown(path, 0, 0)
            if not os.path.islink(path):
                os.chmod(path, os.lstat(path).st_mode & 0o755)
    os.lchown(root, 0, 0)
    os.chmod(root, 0o755)
