"""Fixtures for `swerl data`: rows in the real SWE-smith schema, files in each input format, real git repos."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from filter_helpers import git


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The inventory cache defaults to ~/.cache/swerl: keep tests out of the real home."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))


@pytest.fixture
def make_image_repo(tmp_path: Path) -> Callable[..., Path]:
    """Build `repos/<name>` like an image's /testbed: a clone whose problem branches are `origin/<id>`.

    `remote` branches exist only as `refs/remotes/origin/*` (as SWE-smith images have them);
    `local` ones also as `refs/heads/*`.
    """

    def build(name: str, *, remote: Iterable[str] = (), local: Iterable[str] = ()) -> Path:
        mirror = tmp_path / "mirrors" / name
        mirror.mkdir(parents=True)
        git(mirror, "init", "-q")
        (mirror / "m.py").write_text("x = 1\n")
        git(mirror, "add", "m.py")
        git(mirror, "commit", "-q", "-m", "init")
        for b in remote:
            git(mirror, "branch", b)
        dest = tmp_path / "repos" / name
        dest.parent.mkdir(exist_ok=True)
        git(tmp_path, "clone", "-q", str(mirror), str(dest))
        for b in local:
            git(dest, "branch", b)
        return dest

    return build
