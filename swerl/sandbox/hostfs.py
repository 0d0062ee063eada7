"""Host-side copies of untrusted trees: tar extraction and directory copies that never follow the agent's symlinks.

The agent controls everything in the work tree, so a copy to the host must not write
through a symlink (`evil -> /root`, then `evil/.bashrc`), must not block on a FIFO,
must not create device nodes, and must stop at a size cap (a tree filled with junk is
a denial of service, not a patch).
"""

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


def _passes_through_symlink(dest: Path, parts: tuple[str, ...]) -> bool:
    cur = dest
    for part in parts:
        cur = cur / part
        if cur.is_symlink():
            return True
    return False


def _write_file(target: Path, src: IO[bytes], mode: int, budget: list[int]) -> None:
    if target.is_symlink() or target.exists():
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            target.unlink()
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(1 << 20):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise CopyLimitExceeded("copy limit exceeded")
            out.write(chunk)
    os.chmod(target, mode)


def extract_tar_safely(stream: IO[bytes], dest: Path, *, strip: int = 0, limit_bytes: int = 1 << 40) -> int:
    """Extract a (streamed) tar into `dest`; return the number of members skipped as unsafe.

    Regular files, directories, symlinks (recreated verbatim, never followed) and hard links
    to earlier members are kept; devices/FIFOs, absolute or `..` names, and any member
    whose path crosses a symlink are skipped.
    """
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
            if not parts or _passes_through_symlink(dest, parts[:-1]):
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
                if source is None or ".." in link_parts or _passes_through_symlink(dest, link_parts) or not source.is_file():
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
