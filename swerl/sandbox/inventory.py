"""Docker branch inspection for `swerl data filter --inspect docker` (a `swerl.data.inventory.BranchInventory`).

SWE-smith images clone the mirror: task branches appear as `refs/remotes/origin/<instance_id>`;
branches pushed after the image was built are missing, and those rows cannot be set up.
"""

from __future__ import annotations

import threading
from typing import Any

from swerl.log import get_logger

log = get_logger(__name__)

REF_PREFIXES = ("refs/heads/", "refs/remotes/origin/")
LIST_REFS = "git -c safe.directory='*' -C {workdir} for-each-ref --format='%(refname)' refs/heads/ refs/remotes/origin/"


def parse_refs(output: str) -> set[str]:
    """`refs/heads/main`, `refs/remotes/origin/<id>` -> `main`, `<id>` (HEAD dropped)."""
    names: set[str] = set()
    for ref in output.split():
        for prefix in REF_PREFIXES:
            if ref.startswith(prefix) and ref[len(prefix):] != "HEAD":
                names.add(ref[len(prefix):])
    return names


class DockerInventory:
    """`branches(image_name)` by running `git for-each-ref` in a throw-away, network-less container."""

    def __init__(self, base_url: str | None = None, client: Any = None, workdir: str = "/testbed") -> None:
        self._base_url = base_url
        self._client = client
        self.workdir = workdir
        self._cache: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    @property
    def client(self) -> Any:
        if self._client is None:
            import docker

            from swerl.errors import ImageUnavailable

            try:
                self._client = (docker.DockerClient(base_url=self._base_url) if self._base_url
                                else docker.from_env())
                self._client.ping()
            except Exception as exc:
                raise ImageUnavailable(f"--inspect docker: no docker engine reachable: {exc}") from exc
        return self._client

    def branches(self, image_name: str) -> set[str]:
        import docker

        from swerl.errors import ImageUnavailable

        with self._lock:
            if image_name in self._cache:
                return set(self._cache[image_name])
        try:
            out = self.client.containers.run(
                image_name, ["sh", "-c", LIST_REFS.format(workdir=self.workdir)], entrypoint=[], remove=True,
                network_mode="none", cap_drop=["ALL"], security_opt=["no-new-privileges:true"], read_only=True,
                mem_limit="512m", pids_limit=128, stdout=True, stderr=True, labels={"swerl.sandbox": "inventory"},
            )
        except docker.errors.ImageNotFound as exc:
            raise ImageUnavailable(f"image {image_name!r} is not available on the docker engine") from exc
        except docker.errors.ContainerError as exc:
            raise ImageUnavailable(f"image {image_name!r}: listing {self.workdir} refs failed: {exc.stderr!r}") from exc
        except docker.errors.APIError as exc:
            raise ImageUnavailable(f"image {image_name!r}: docker error: {exc.explanation or exc}") from exc
        names = parse_refs(out.decode(errors="replace"))
        with self._lock:
            self._cache[image_name] = names
        log.info("image branches listed", image=image_name, branches=len(names))
        return set(names)
