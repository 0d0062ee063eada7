"""Host-side handling of untrusted trees: never through the agent's symlinks, no FIFOs or devices, size- and
depth-capped, and never recursive.

Every walk here is iterative and goes through directory file descriptors (`openat` with O_NOFOLLOW at every
step): the agent's processes may keep running while the host reads, a directory swapped for a symlink must not
lead a walk out of the tree, and a tree thousands of directories deep must neither raise RecursionError (Python
3.11's os.walk/os.fwalk/shutil.rmtree/shutil.copytree recurse once per level) nor hit PATH_MAX. Walks that read
agent trees are bounded by a depth (`TreeTooDeep`), which also bounds the descriptors they hold; `rmtree`
handles any depth with a bounded number of descriptors by moving deep subtrees up before descending.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tarfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from swerl.log import get_logger

log = get_logger(__name__)

# Default bound on the depth of trees read from a sandbox (TreeLimits.max_depth overrides it per sandbox).
MAX_DEPTH = 100
# Directory descriptors `rmtree` holds at most; deeper subtrees are moved up to the top of the tree first.
RMTREE_FDS = 32
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class CopyLimitExceeded(RuntimeError):
    """The tree is larger than the configured copy limit."""


class TreeTooDeep(CopyLimitExceeded):
    """The tree is deeper than the configured depth bound (an agent-made tree: its fault, like the size limit)."""


# Every entry (file, dir, link) also costs this much of the copy budget: a tree of millions of empty files
# would otherwise copy for hours (or exhaust the host's inodes) while staying "under" a byte limit. One block:
# what each entry really takes of the host's disk, so the budget bounds the copy's disk use (512 MB: 125k entries).
ENTRY_COST = 4096


def _charge(budget: list[int], n: int) -> None:
    budget[0] -= n
    if budget[0] < 0:
        raise CopyLimitExceeded("copy limit exceeded")


def git_mode(raw: int) -> int:
    """Only the bits git tracks matter: executable or not. Readable by everyone whatever the host's umask (a
    grading tree built under umask 077 is otherwise one the tests' uid cannot read), writable by the owner only."""
    return 0o755 if raw & 0o111 else 0o644


def too_deep(depth: int, max_depth: int) -> TreeTooDeep:
    return TreeTooDeep(f"tree deeper than {max_depth} levels (an entry at depth {depth})")


@dataclass
class Item:
    """One entry of `iter_tree`. `dir_fd` (its parent directory) is valid until the iteration moves on."""

    rel: str
    name: str
    st: os.stat_result
    dir_fd: int
    depth: int

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)

    @property
    def is_link(self) -> bool:
        return stat.S_ISLNK(self.st.st_mode)

    @property
    def is_file(self) -> bool:
        return stat.S_ISREG(self.st.st_mode)


def iter_tree(root: Path | str, *, max_depth: int = MAX_DEPTH,
              prune: Callable[[Item], bool] | None = None) -> Iterator[Item]:
    """Every entry below `root` in pre-order (a directory before its contents), symlinks never followed.

    Iterative, through directory descriptors (at most `max_depth` + 1 open); an entry deeper than `max_depth`
    raises `TreeTooDeep`. `prune(item)` -> True: do not descend into that directory. Entries that vanish
    while walking are skipped; a directory that cannot be opened raises the OSError.
    """
    root_fd = os.open(root, _DIR_FLAGS)
    stack: list[tuple[int, str, list[str]]] = [(root_fd, "", sorted(os.listdir(root_fd), reverse=True))]
    try:
        while stack:
            fd, rel, names = stack[-1]
            if not names:
                stack.pop()
                os.close(fd)
                continue
            name = names.pop()
            depth = len(stack)
            try:
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            if depth > max_depth:
                raise too_deep(depth, max_depth)
            item = Item(f"{rel}/{name}" if rel else name, name, st, fd, depth)
            yield item
            if item.is_dir and not (prune is not None and prune(item)):
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except FileNotFoundError:
                    continue
                try:
                    listing = sorted(os.listdir(child), reverse=True)
                except BaseException:
                    os.close(child)
                    raise
                stack.append((child, item.rel, listing))
    finally:
        for fd, _, _ in stack:
            with contextlib.suppress(OSError):
                os.close(fd)


def crosses_symlink(root: Path, parts: tuple[str, ...]) -> bool:
    """Whether `root/parts[0]/.../parts[-1]` passes through (or is) a symlink below `root`."""
    return any(root.joinpath(*parts[: i + 1]).is_symlink() for i in range(len(parts)))


def _opath(name: str, dir_fd: int) -> int:
    return os.open(name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)


def _make_writable_dir(name: str, dir_fd: int) -> None:
    """Give the owner rwx on the directory `name` (never through a symlink: chmod via an O_PATH descriptor)."""
    fd = _opath(name, dir_fd)
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            os.chmod(f"/proc/self/fd/{fd}", 0o700)
    finally:
        os.close(fd)


def _open_dir_for_removal(name: str, dir_fd: int) -> int:
    try:
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:  # not root: the agent made it unreadable (mode 000)
        _make_writable_dir(name, dir_fd)
        fd = os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    st = os.fstat(fd)
    if st.st_mode & 0o700 != 0o700 and st.st_uid == os.geteuid():
        os.fchmod(fd, 0o700)  # so that its entries can be unlinked
    return fd


def rmtree(path: Path | str) -> None:
    """Delete the directory tree `path` (symlinks removed, never followed) of any depth, iteratively.

    At most RMTREE_FDS directory descriptors are held: a subdirectory met deeper than that is first renamed
    to the top of the tree being deleted and deleted from there. Raises the first OSError it cannot get past.
    """
    path = Path(path)
    parent_fd = os.open(path.parent, _DIR_FLAGS)
    try:
        top = _open_dir_for_removal(path.name, parent_fd)
        stack: list[tuple[int, str, list[str]]] = [(top, "", os.listdir(top))]
        try:
            while True:
                fd, name, names = stack[-1]
                if not names:
                    if len(stack) == 1:
                        break
                    stack.pop()
                    os.close(fd)
                    os.rmdir(name, dir_fd=stack[-1][0])
                    continue
                entry = names.pop()
                try:
                    st = os.stat(entry, dir_fd=fd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if not stat.S_ISDIR(st.st_mode):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(entry, dir_fd=fd)
                    continue
                if len(stack) >= RMTREE_FDS:  # flatten: continue with this subtree from the top level
                    moved = f".swerl-rm-{uuid.uuid4().hex}"
                    os.rename(entry, moved, src_dir_fd=fd, dst_dir_fd=top)
                    stack[0][2].append(moved)
                    continue
                try:
                    child = _open_dir_for_removal(entry, fd)
                except FileNotFoundError:
                    continue
                try:
                    listing = os.listdir(child)
                except BaseException:
                    os.close(child)
                    raise
                stack.append((child, entry, listing))
        finally:
            for fd, _, _ in stack:
                with contextlib.suppress(OSError):
                    os.close(fd)
        os.rmdir(path.name, dir_fd=parent_fd)
    finally:
        os.close(parent_fd)


def rmtree_quietly(path: Path | str) -> bool:
    """`remove_path` that never raises (cleanup of agent trees): False (and a warning) if something was left."""
    try:
        remove_path(Path(path))
        return True
    except Exception as exc:
        log.warning("could not remove a sandbox tree", path=str(path), error=f"{type(exc).__name__}: {exc}"[:300])
        return False


def remove_path(path: Path) -> None:
    """Delete a file, a symlink (never followed) or a directory tree of any depth; nothing if absent."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        rmtree(path)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _write_file(target: Path, src: IO[bytes], mode: int, budget: list[int]) -> None:
    remove_path(target)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(1 << 20):
            _charge(budget, len(chunk))
            out.write(chunk)
    os.chmod(target, mode)


def _mkdirs(dest: Path, parts: tuple[str, ...]) -> None:
    """`dest/parts...` as directories (iteratively; `Path.mkdir(parents=True)` recurses once per level)."""
    d = dest
    for part in parts:
        d = d / part
        with contextlib.suppress(FileExistsError):
            os.mkdir(d)


def extract_tar_safely(stream: IO[bytes], dest: Path, *, strip: int = 0, limit_bytes: int = 1 << 40,
                       max_depth: int = MAX_DEPTH) -> int:
    """Extract a (streamed) tar into `dest`; return the number of members skipped as unsafe: devices, FIFOs,
    absolute or `..` names, members whose path crosses a symlink (symlinks are recreated, never followed).
    A member deeper than `max_depth` raises `TreeTooDeep`, more than `limit_bytes` `CopyLimitExceeded`."""
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
            if len(parts) > max_depth:
                raise too_deep(len(parts), max_depth)
            if not parts or crosses_symlink(dest, parts[:-1]):
                skipped += 1
                continue
            target = dest.joinpath(*parts)
            _mkdirs(dest, parts[:-1])
            if m.isdir():
                if target.is_symlink():
                    skipped += 1
                    continue
                with contextlib.suppress(FileExistsError):
                    os.mkdir(target)
                os.chmod(target, 0o755)
            elif m.isreg():
                src = tar.extractfile(m)
                if src is None:
                    skipped += 1
                    continue
                _write_file(target, src, git_mode(m.mode), budget)
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
                    _write_file(target, src_f, git_mode(source.stat().st_mode), budget)
            else:
                skipped += 1
    if skipped:
        log.info("unsafe tar members skipped", dest=str(dest), skipped=skipped)
    return skipped


def copy_tree_safely(src: Path, dest: Path, *, limit_bytes: int = 1 << 40, max_depth: int = MAX_DEPTH) -> int:
    """Copy directory `src` into `dest` without following symlinks; return the number of special files skipped.

    The source is walked through directory file descriptors (`iter_tree`), not path strings: the agent's
    processes keep running while the host copies, and a directory swapped for a symlink between two steps must
    not lead the copy out of the tree (e.g. to the host's gold checkout). Deeper than `max_depth`: TreeTooDeep.
    """
    budget = [limit_bytes]
    skipped = 0
    dest.mkdir(parents=True, exist_ok=True)
    for item in iter_tree(src, max_depth=max_depth):
        _charge(budget, ENTRY_COST)
        target = dest / item.rel
        if item.is_link:
            os.symlink(os.readlink(item.name, dir_fd=item.dir_fd), target)
        elif item.is_dir:
            os.mkdir(target)
        elif item.is_file:
            try:
                fd = os.open(item.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                             dir_fd=item.dir_fd)
            except FileNotFoundError:
                continue
            with os.fdopen(fd, "rb") as f:
                if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # swapped for a FIFO/device
                    skipped += 1
                    continue
                _write_file(target, f, git_mode(item.st.st_mode), budget)
        else:
            skipped += 1
    return skipped


def copy_file_into(src: Path, target: Path, *, mode: int | None = None) -> None:
    """Copy the host file `src` to `target`, never writing through a symlink at `target`."""
    with open(src, "rb") as inp:
        remove_path(target)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as out:
            while chunk := inp.read(1 << 20):
                out.write(chunk)
    if mode is not None:
        os.chmod(target, mode)


@dataclass
class TreeStats:
    entries: int = 0
    files: int = 0
    bytes: int = 0
    depth: int = 0


def tree_stats(root: Path, *, max_depth: int = MAX_DEPTH, max_entries: int | None = None,
               max_bytes: int | None = None) -> TreeStats:
    """Entries, regular files, their apparent bytes and the deepest entry below `root`; stops (returning what
    it counted so far, already over the bound) as soon as `max_entries` or `max_bytes` is passed."""
    s = TreeStats()
    for item in iter_tree(root, max_depth=max_depth):
        s.entries += 1
        s.depth = max(s.depth, item.depth)
        if item.is_file:
            s.files += 1
            s.bytes += item.st.st_size
        if (max_entries is not None and s.entries > max_entries) or (max_bytes is not None and s.bytes > max_bytes):
            break
    return s


def tree_bytes(path: Path, stop_after: int | None = None, *, max_depth: int = 1 << 20) -> int:
    """Disk used under `path` (symlinks not followed), counting until `stop_after` is passed. An empty file
    still costs a block: inode exhaustion counts too. Unreadable parts are not counted."""
    total = 0
    try:
        for item in iter_tree(path, max_depth=max_depth):
            if item.is_dir:
                continue
            total += max(item.st.st_blocks * 512, 4096)
            if stop_after is not None and total > stop_after:
                return total
    except (OSError, TreeTooDeep):
        pass
    return total


def chown_tree(path: Path, uid: int, gid: int, *, max_depth: int = 1 << 20) -> None:
    """Give a tree to the sandbox's unprivileged uid, never following a symlink (walked by directory fds:
    the tree may be inside a live sandbox whose processes swap directories for symlinks)."""
    os.chown(path, uid, gid, follow_symlinks=False)
    for item in iter_tree(path, max_depth=max_depth):
        with contextlib.suppress(FileNotFoundError):
            os.chown(item.name, uid, gid, dir_fd=item.dir_fd, follow_symlinks=False)


def readable_member(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """A tar member with git's mode (`git_mode`; a link keeps its own), so the sandbox's command user can read what
    the host wrote under any umask."""
    info.mode = info.mode & 0o777 if info.issym() else git_mode(info.mode)
    return info


def make_dirs(path: Path, mode: int = 0o755) -> None:
    """`path` and its missing parents, each with `mode` whatever the process's umask (under umask 077 a directory
    made for a sandbox's files would be one its command user cannot enter)."""
    missing = []
    while not path.is_dir():
        missing.append(path)
        path = path.parent
    for d in reversed(missing):
        with contextlib.suppress(FileExistsError):
            d.mkdir()
        os.chmod(d, mode)


def read_only_tree(root: Path, *, max_depth: int = 1 << 20) -> None:
    """Owner root, no write bits for anyone else: a grading tree the tests' uid can read and import but not change
    (no new files either, so no planted `__pycache__`, conftest or test file mid-run), and can read whatever umask
    the grader runs under (`git_mode`)."""
    for item in iter_tree(root, max_depth=max_depth):
        os.chown(item.name, 0, 0, dir_fd=item.dir_fd, follow_symlinks=False)
        if not item.is_link:
            fd = _opath(item.name, item.dir_fd)
            try:
                os.chmod(f"/proc/self/fd/{fd}", git_mode(item.st.st_mode))
            finally:
                os.close(fd)
    os.lchown(root, 0, 0)
    os.chmod(root, 0o755)


def tar_stream(src: Path, arcname: str, *, filter: Callable[[tarfile.TarInfo], tarfile.TarInfo | None] | None = None,
               max_depth: int = MAX_DEPTH, chunk: int = 1 << 20) -> Iterator[bytes]:
    """A PAX tar of the host file or directory `src` (as `arcname`; "" = a directory's contents at the top),
    produced chunk by chunk: never built whole in
    memory (what `tarfile.add` into a BytesIO did), never recursive, symlinks kept as links, special files left
    out. `filter` may rewrite or drop (None) each member, like `TarFile.add(filter=...)`."""
    def member(name: str, st: os.stat_result, opener: Callable[[], int] | None,
               linkname: str = "") -> Iterator[bytes]:
        info = tarfile.TarInfo(name)
        info.mode, info.uid, info.gid, info.mtime = stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, int(st.st_mtime)
        if stat.S_ISDIR(st.st_mode):
            info.type = tarfile.DIRTYPE
        elif stat.S_ISLNK(st.st_mode):
            info.type, info.linkname = tarfile.SYMTYPE, linkname
        else:
            info.type, info.size = tarfile.REGTYPE, st.st_size
        if filter is not None:
            filtered = filter(info)
            if filtered is None:
                return
            info = filtered
        yield info.tobuf(tarfile.PAX_FORMAT, "utf-8", "surrogateescape")
        if info.type != tarfile.REGTYPE or opener is None:
            return
        left = info.size
        with os.fdopen(opener(), "rb") as fh:
            while left > 0:
                data = fh.read(min(chunk, left))
                if not data:  # shrank under us: pad to the size the header announced
                    data = b"\0" * min(chunk, left)
                left -= len(data)
                yield data
        if info.size % tarfile.BLOCKSIZE:
            yield b"\0" * (tarfile.BLOCKSIZE - info.size % tarfile.BLOCKSIZE)

    def open_at(name: str, dir_fd: int) -> Callable[[], int]:
        return lambda: os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)

    st = os.lstat(src)
    if stat.S_ISREG(st.st_mode):
        yield from member(arcname, st, lambda: os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC))
    elif stat.S_ISLNK(st.st_mode):
        yield from member(arcname, st, None, os.readlink(src))
    elif stat.S_ISDIR(st.st_mode):
        if arcname:  # "": the directory's contents only, at the top of the archive
            yield from member(arcname, st, None)
        for item in iter_tree(src, max_depth=max_depth):
            name = f"{arcname}/{item.rel}" if arcname else item.rel
            if item.is_file:
                yield from member(name, item.st, open_at(item.name, item.dir_fd))
            elif item.is_link:
                yield from member(name, item.st, None, os.readlink(item.name, dir_fd=item.dir_fd))
            elif item.is_dir:
                yield from member(name, item.st, None)
    yield b"\0" * (2 * tarfile.BLOCKSIZE)


def held_deleted_bytes(pids: list[int], devices: set[int]) -> int:
    """Disk held by files that processes `pids` keep open after deleting them (on filesystems `devices`): the
    space a name walk never sees. Processes that vanish or cannot be read are skipped."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                st = os.stat(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_nlink == 0 and st.st_dev in devices \
                    and (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
