"""Branch inventories: which branches an image's `/testbed` repository has (stage 2 of the filter).

SWE-smith's problem branch is named exactly `instance_id`; branches pushed after an image was
built are missing from it and those tasks cannot be set up. Every inventory answers
`branches(image_name)` or raises `ImageUnavailable` (-> `image_unavailable`, never a guess):
a `--branches` JSON file, a local git repo per image (`--inspect local`), or docker
(`swerl.sandbox.inventory`), with a disk cache so each image is inspected once.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from swerl.atomic import write_text_atomic
from swerl.errors import DataError, ImageUnavailable
from swerl.log import get_logger

log = get_logger(__name__)

_REF_PREFIXES = ("refs/heads/", "refs/remotes/origin/")


@runtime_checkable
class BranchInventory(Protocol):
    """Lists the branches of an image's task repository."""

    def branches(self, image_name: str) -> set[str]:
        """All branch names (local heads and `origin/*` without prefixes); raises `ImageUnavailable`."""
        ...


class FileInventory:
    """`--branches FILE`: a JSON object `{image_name: [branch, ...]}`, e.g. exported from a registry scan."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            data = json.loads(self.path.read_text())
        except OSError as exc:
            raise DataError(f"--branches {str(path)!r}: cannot read: {exc.strerror or exc}") from exc
        except json.JSONDecodeError as exc:
            raise DataError(f"--branches {str(path)!r}: not JSON: {exc.msg} at line {exc.lineno}") from exc
        if not isinstance(data, dict):
            raise DataError(f"--branches {str(path)!r}: must be a JSON object {{image_name: [branch, ...]}}")
        self._images: dict[str, set[str]] = {}
        for image, branches in data.items():
            if not isinstance(branches, list) or not all(isinstance(b, str) for b in branches):
                raise DataError(f"--branches {str(path)!r}: image {image!r} must map to a list of branch names")
            self._images[image] = set(branches)

    def branches(self, image_name: str) -> set[str]:
        if image_name not in self._images:
            raise ImageUnavailable(f"image {image_name!r} is not listed in --branches {str(self.path)!r}")
        return set(self._images[image_name])


def repo_dir_name(image_name: str) -> str:
    """The directory name for an image: digest and tag stripped, last path component kept."""
    name = image_name.split("@", 1)[0]
    last = name.rsplit("/", 1)[-1]
    return last.split(":", 1)[0]


def list_git_branches(repo: Path) -> set[str]:
    """Branch names of a git repository: `refs/heads/*` and `refs/remotes/origin/*`, prefixes removed."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    proc = subprocess.run(
        ["git", "-c", "core.fsmonitor=false", "-C", str(repo), "for-each-ref", "--format=%(refname)",
         *_REF_PREFIXES],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )
    if proc.returncode != 0:
        raise ImageUnavailable(f"git for-each-ref failed in {str(repo)!r}: {proc.stderr.strip()}")
    names = {ref.removeprefix(p) for ref in proc.stdout.splitlines() for p in _REF_PREFIXES if ref.startswith(p)}
    return names - {"HEAD"}


class LocalGitInventory:
    """`--inspect local --repos DIR`: the repo for an image is `DIR/<repo_dir_name(image)>`
    (`swerl-taskpack/calc:latest` -> `DIR/calc`)."""

    def __init__(self, repos: Path) -> None:
        self.repos = Path(repos)
        if not self.repos.is_dir():
            raise DataError(f"--repos {str(repos)!r}: not a directory")

    def repo_for(self, image_name: str) -> Path:
        return self.repos / repo_dir_name(image_name)

    def branches(self, image_name: str) -> set[str]:
        repo = self.repo_for(image_name)
        if not repo.is_dir():
            raise ImageUnavailable(f"image {image_name!r}: no repository at {str(repo)!r}")
        return list_git_branches(repo)

    def cache_namespace(self) -> str:
        return f"local:{self.repos.resolve()}"


class ChainInventory:
    """Ask each inventory in turn; the first that can answer does (e.g. the file, then inspection)."""

    def __init__(self, inventories: Sequence[BranchInventory]) -> None:
        self.inventories = list(inventories)

    def branches(self, image_name: str) -> set[str]:
        reasons: list[str] = []
        for inv in self.inventories:
            try:
                return inv.branches(image_name)
            except ImageUnavailable as exc:
                reasons.append(str(exc))
        raise ImageUnavailable("; ".join(reasons) or f"image {image_name!r}: no inventory")


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "swerl" / "inventory"


class CachedInventory:
    """Disk cache around an inspecting inventory: one JSON file per (namespace, image), written atomically.
    Inspecting an image (a container start) is slow and images are immutable; failures are not cached."""

    def __init__(self, inner: BranchInventory, cache_dir: Path, namespace: str) -> None:
        self.inner = inner
        self.cache_dir = Path(cache_dir)
        self.namespace = namespace

    def _path(self, image_name: str) -> Path:
        key = hashlib.sha256(f"{self.namespace}\0{image_name}".encode()).hexdigest()[:32]
        return self.cache_dir / f"{key}.json"

    def branches(self, image_name: str) -> set[str]:
        path = self._path(image_name)
        try:
            entry = json.loads(path.read_text())
            if entry.get("image_name") == image_name and entry.get("namespace") == self.namespace:
                return set(entry["branches"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        found = self.inner.branches(image_name)
        write_text_atomic(path, json.dumps({"namespace": self.namespace, "image_name": image_name,
                                            "branches": sorted(found)}))
        log.info("inventory cached", image=image_name, branches=len(found))
        return found


def make_inventory(
    *, branches: Path | None, inspect: str | None, repos: Path | None, cache_dir: Path | None
) -> BranchInventory | None:
    """The inventory the flags ask for; None means stage 2 is skipped (`--inspect none`, no `--branches`)."""
    chain: list[BranchInventory] = []
    if branches is not None:
        chain.append(FileInventory(branches))
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    if inspect == "local":
        if repos is None:
            raise DataError("--inspect local needs --repos DIR (one git repository per image)")
        local = LocalGitInventory(repos)
        chain.append(CachedInventory(local, cache, local.cache_namespace()))
    elif inspect == "docker":
        chain.append(CachedInventory(_docker_inventory(), cache, "docker"))
    elif inspect is None and branches is None:
        raise DataError(
            "stage 2 (missing_branch) needs a branch inventory: pass --branches FILE, "
            "--inspect local --repos DIR, --inspect docker, or --inspect none to skip stage 2"
        )
    elif inspect not in (None, "none"):
        raise DataError(f"--inspect {inspect!r}: use docker, local or none")
    if repos is not None and inspect != "local":
        raise DataError(f"--repos is only used with --inspect local (got --inspect {inspect})")
    if not chain:
        log.warning("stage 2 skipped", reason="--inspect none and no --branches")
        return None
    return chain[0] if len(chain) == 1 else ChainInventory(chain)


def _docker_inventory() -> BranchInventory:
    """`swerl.sandbox.inventory.DockerInventory()` when the sandbox room provides it."""
    try:
        from swerl.sandbox.inventory import DockerInventory  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise DataError(
            "--inspect docker: Docker inspection is not available yet "
            "(swerl.sandbox.inventory.DockerInventory is missing); use --branches FILE or --inspect local"
        ) from exc
    return DockerInventory()  # type: ignore[no-any-return, unused-ignore]
