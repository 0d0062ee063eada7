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
    """Copy directory `src` into `dest` without following symlinks; return the number of special files skipped."""
    budget = [limit_bytes]
    skipped = 0
    dest.mkdir(parents=True, exist_ok=True)
    stack = [(src, dest)]
    while stack:
        s_dir, d_dir = stack.pop()
        with os.scandir(s_dir) as it:
            for entry in it:
                target = d_dir / entry.name
                st = entry.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(entry.path), target)
                elif stat.S_ISDIR(st.st_mode):
                    target.mkdir()
                    stack.append((Path(entry.path), target))
                elif stat.S_ISREG(st.st_mode):
                    fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                    with os.fdopen(fd, "rb") as f:
                        _write_file(target, f, _mode(st.st_mode), budget)
                else:
                    skipped += 1
    return skipped
