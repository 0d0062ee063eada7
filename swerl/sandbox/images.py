"""Base root filesystem and images, built locally (no registry is reachable).

`ensure_rootfs`: a cached `debootstrap --variant=minbase` of Debian with python3, pytest,
git, curl, wget (the audit needs the real tools to prove they fail); `ensure_base_image`:
the same tree `docker import`ed; `ensure_repo_image`: one image per task repository (all
branches, as SWE-smith images), rebuilt only when its refs change.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from swerl.errors import SwerlError
from swerl.log import get_logger
from swerl.sandbox.base import SandboxError
from swerl.sandbox.hostfs import remove_path
from swerl.sandbox.patch import git_env, run_git
from swerl.sandbox.schema import BwrapSettings

log = get_logger(__name__)

SUITE = "bookworm"
PACKAGES = ("python3", "python-is-python3", "python3-pytest", "python3-pip", "git", "curl", "wget", "patch", "procps")
TRIM = ("var/cache/apt/archives", "usr/share/doc", "usr/share/man", "usr/share/locale", "usr/share/info")
LABEL = "swerl.image"


def cache_dir() -> Path:
    return Path(os.environ.get("SWERL_CACHE_DIR", "~/.cache/swerl")).expanduser()


def rootfs_key(suite: str = SUITE, packages: tuple[str, ...] = PACKAGES) -> str:
    return f"{suite}-" + hashlib.sha256(",".join([suite, *sorted(packages)]).encode()).hexdigest()[:10]


def _build_once(done: Path, lock: Path, build: Callable[[], None]) -> None:
    """Run `build` unless `done` exists, under a cross-process lock: parallel test sessions must not debootstrap
    the same tree twice."""
    if done.exists():
        return
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            if not done.exists():
                build()
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def ensure_rootfs(suite: str = SUITE, packages: tuple[str, ...] = PACKAGES, mirror: str | None = None) -> Path:
    """Return a cached debootstrap root filesystem directory, building it on first use."""
    key = rootfs_key(suite, packages)
    target = cache_dir() / "rootfs" / key

    def build() -> None:
        exe = shutil.which("debootstrap")
        if exe is None:
            raise SandboxError("debootstrap not found: apt-get install debootstrap (scripts/setup.sh)")
        url = mirror or os.environ.get("SWERL_DEBIAN_MIRROR", "http://deb.debian.org/debian")
        tmp = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=target.parent))
        log.info("debootstrap base rootfs (first run only, ~60 s)", suite=suite, target=str(target))
        proc = subprocess.run([exe, "--variant=minbase", f"--include={','.join(packages)}", suite, str(tmp), url],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise SandboxError(f"debootstrap failed (rc={proc.returncode}): {(proc.stdout + proc.stderr)[-2000:]}")
        for rel in TRIM:
            for child in (tmp / rel).glob("*"):
                remove_path(child)
        (tmp / "testbed").mkdir(exist_ok=True)  # mount point for bwrap (the rootfs is bound read-only)
        (tmp / ".swerl-complete").write_text(key + "\n")
        remove_path(target)
        tmp.rename(target)

    _build_once(target / ".swerl-complete", target.parent / f"{key}.lock", build)
    return target


def bwrap_settings(rootfs: str) -> BwrapSettings:
    """`--rootfs`: `auto` = the cached debootstrap tree, `host` = the host's own system, else a directory."""
    if rootfs == "host":
        return BwrapSettings()
    if rootfs != "auto" and not Path(rootfs).is_dir():
        raise SwerlError(f"--rootfs {rootfs!r}: not a directory (use auto, host or a root filesystem dir)")
    return BwrapSettings(rootfs=ensure_rootfs() if rootfs == "auto" else Path(rootfs))


def ensure_rootfs_tarball(suite: str = SUITE, packages: tuple[str, ...] = PACKAGES) -> Path:
    """The rootfs as a tarball (for `docker import`), cached next to the directory."""
    rootfs = ensure_rootfs(suite, packages)
    tar_path = rootfs.parent / f"{rootfs.name}.tar"

    def build() -> None:
        tmp = tar_path.with_suffix(".tar.part")
        proc = subprocess.run(["tar", "-C", str(rootfs), "--numeric-owner", "--exclude=./.swerl-complete",
                               "--exclude=./dev/*", "-cf", str(tmp), "."], capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            tmp.unlink(missing_ok=True)
            raise SandboxError(f"tar of rootfs failed: {proc.stderr[-1000:]}")
        tmp.rename(tar_path)

    _build_once(tar_path, rootfs.parent / f"{rootfs.name}.tar.lock", build)
    return tar_path


def base_image_tag(suite: str = SUITE, packages: tuple[str, ...] = PACKAGES) -> str:
    return f"swerl/base:{rootfs_key(suite, packages)}"


def _has_image(client: Any, tag: str) -> Any | None:
    import docker

    try:
        return client.images.get(tag)
    except docker.errors.ImageNotFound:
        return None


def ensure_base_image(client: Any, suite: str = SUITE, packages: tuple[str, ...] = PACKAGES) -> str:
    """Import the cached rootfs tarball as the base image (seconds once the tarball exists)."""
    tag = base_image_tag(suite, packages)
    if _has_image(client, tag) is not None:
        return tag
    tarball = ensure_rootfs_tarball(suite, packages)
    repo, _, version = tag.partition(":")
    client.api.import_image_from_file(str(tarball), repository=repo, tag=version,
                                      changes=['CMD ["/bin/bash"]', "ENV LANG=C.UTF-8"])
    if _has_image(client, tag) is None:
        raise SandboxError(f"docker import of {tarball} did not produce {tag}")
    log.info("base image imported", tag=tag)
    return tag


def repo_digest(repo_dir: Path) -> str:
    """A digest of every ref in the repository: the image is rebuilt when any branch moves."""
    out = subprocess.run(["git", "-C", str(repo_dir), "for-each-ref", "--format=%(refname) %(objectname)"],
                         capture_output=True, text=True, check=True).stdout
    return hashlib.sha256(out.encode()).hexdigest()[:16]


def _context_tar(repo_dir: Path, base: str, remote_url: str) -> io.BytesIO:
    with tempfile.TemporaryDirectory(prefix="swerl-ctx-") as tmp:
        testbed = Path(tmp) / "testbed"
        run_git(["clone", "-q", "--no-hardlinks", str(repo_dir), str(testbed)], git_env(tmp))
        run_git(["-C", str(testbed), "remote", "set-url", "origin", remote_url], git_env(tmp))
        dockerfile = f"FROM {base}\nCOPY testbed /testbed\nWORKDIR /testbed\n"
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            data = dockerfile.encode()
            info = tarfile.TarInfo("Dockerfile")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
            tar.add(str(testbed), arcname="testbed")
        buf.seek(0)
        return buf


def ensure_repo_image(client: Any, repo_dir: Path, tag: str, *, base: str | None = None, repo: str = "") -> str:
    """Build `tag` = base + the repository at /testbed (all branches), unless an identical one exists."""
    base = base or ensure_base_image(client)
    digest = repo_digest(repo_dir)
    existing = _has_image(client, tag)
    if existing is not None and (existing.labels or {}).get("swerl.repo_digest") == digest:
        return tag
    ctx = _context_tar(repo_dir, base, f"https://github.com/{repo or repo_dir.name}.git")
    try:
        client.images.build(fileobj=ctx, custom_context=True, tag=tag, rm=True, forcerm=True, pull=False,
                            network_mode="none", labels={LABEL: "repo", "swerl.repo_digest": digest})
    except Exception as exc:
        raise SandboxError(f"building image {tag} from {repo_dir} failed: {exc}") from exc
    log.info("repo image built", tag=tag, repo=str(repo_dir))
    return tag


def ensure_taskpack_images(client: Any, pack: Any) -> dict[str, str]:
    """One image per task-pack repository (`row.image_name`), shared by all its tasks."""
    built: dict[str, str] = {}
    for row in pack.rows:
        if row.image_name in built.values():
            continue
        built[row.repo] = ensure_repo_image(client, pack.repo_dir(row), row.image_name, repo=row.repo)
    return built
