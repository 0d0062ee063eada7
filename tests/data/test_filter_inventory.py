"""Branch inventories: JSON file, real local git repos, the disk cache, and the flag rules."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from swerl.data.inventory import (
    BranchInventory,
    CachedInventory,
    ChainInventory,
    FileInventory,
    ImageUnavailable,
    LocalGitInventory,
    make_inventory,
    repo_dir_name,
)
from swerl.errors import DataError


@pytest.mark.parametrize(
    ("image", "name"),
    [
        ("swerl-taskpack/calc:latest", "calc"),
        ("jyangballin/swesmith.x86_64.owner_1776_repo.abc1234", "swesmith.x86_64.owner_1776_repo.abc1234"),
        ("registry.local:5000/org/repo:v1", "repo"),
        ("repo@sha256:0123abcd", "repo"),
        ("ghcr.io/org/repo:tag@sha256:0123abcd", "repo"),
        ("plain", "plain"),
    ],
)
def test_repo_dir_name_strips_registry_tag_and_digest(image: str, name: str) -> None:
    assert repo_dir_name(image) == name


def test_local_git_lists_heads_and_origin_branches(tmp_path: Path, make_image_repo: Callable[..., Path]) -> None:
    make_image_repo("calc", remote=["swerl-taskpack__calc.bug1", "feature/x"], local=["only-local"])
    inv = LocalGitInventory(tmp_path / "repos")
    assert isinstance(inv, BranchInventory)
    got = inv.branches("swerl-taskpack/calc:latest")
    assert {"swerl-taskpack__calc.bug1", "feature/x", "only-local", "main"} <= got
    assert "HEAD" not in got and not any(b.startswith(("refs/", "origin/")) for b in got)


def test_local_git_missing_or_broken_repo_is_unavailable(tmp_path: Path) -> None:
    (tmp_path / "repos" / "notgit").mkdir(parents=True)
    inv = LocalGitInventory(tmp_path / "repos")
    with pytest.raises(ImageUnavailable, match="no repository"):
        inv.branches("org/absent:latest")
    with pytest.raises(ImageUnavailable, match="git for-each-ref failed"):
        inv.branches("org/notgit")


def test_repos_must_be_a_directory(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="--repos"):
        LocalGitInventory(tmp_path / "nope")


def test_file_inventory(tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"img:1": ["a", "b"]}))
    inv = FileInventory(path)
    assert inv.branches("img:1") == {"a", "b"}
    with pytest.raises(ImageUnavailable, match="not listed in --branches"):
        inv.branches("img:2")


@pytest.mark.parametrize(
    ("content", "needle"),
    [("{", "not JSON"), ("[1]", "JSON object"), ('{"img": "a"}', "image 'img' must map to a list"), (None, "cannot read")],
)
def test_bad_branches_file_names_the_flag(tmp_path: Path, content: str | None, needle: str) -> None:
    path = tmp_path / "b.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(DataError, match=f"--branches .*{needle}"):
        FileInventory(path)


class Counting:
    def __init__(self, answer: set[str] | None) -> None:
        self.answer, self.calls = answer, 0

    def branches(self, image_name: str) -> set[str]:
        self.calls += 1
        if self.answer is None:
            raise ImageUnavailable("down")
        return set(self.answer)


def test_cache_inspects_each_image_once_across_runs_and_namespaces(tmp_path: Path) -> None:
    inner = Counting({"a", "b"})
    assert CachedInventory(inner, tmp_path, "local:/x").branches("img") == {"a", "b"}
    inner.answer = {"changed"}
    assert CachedInventory(inner, tmp_path, "local:/x").branches("img") == {"a", "b"}  # a new run, same cache
    assert inner.calls == 1
    assert CachedInventory(inner, tmp_path, "local:/y").branches("img") == {"changed"}  # other namespace
    assert inner.calls == 2


def test_cache_does_not_remember_failures_and_survives_corruption(tmp_path: Path) -> None:
    inner = Counting(None)
    cached = CachedInventory(inner, tmp_path, "ns")
    for _ in range(2):
        with pytest.raises(ImageUnavailable):
            cached.branches("img")
    assert inner.calls == 2
    inner.answer = {"x"}
    assert cached.branches("img") == {"x"}
    for f in tmp_path.glob("*.json"):
        f.write_text("{garbage")
    inner.answer = {"y"}
    assert cached.branches("img") == {"y"}


def test_chain_falls_through_and_joins_reasons() -> None:
    first, second = Counting(None), Counting({"b"})
    assert ChainInventory([first, second]).branches("img") == {"b"}
    with pytest.raises(ImageUnavailable, match="down; down"):
        ChainInventory([Counting(None), Counting(None)]).branches("img")


def test_make_inventory_flag_rules(tmp_path: Path, make_image_repo: Callable[..., Path]) -> None:
    make_image_repo("calc", remote=["bug"])
    repos = tmp_path / "repos"
    with pytest.raises(DataError, match="--branches FILE, --inspect local --repos DIR"):
        make_inventory(branches=None, inspect=None, repos=None, cache_dir=None)
    with pytest.raises(DataError, match="--inspect local needs --repos"):
        make_inventory(branches=None, inspect="local", repos=None, cache_dir=None)
    with pytest.raises(DataError, match="--repos is only used with --inspect local"):
        make_inventory(branches=None, inspect="none", repos=repos, cache_dir=None)
    assert make_inventory(branches=None, inspect="none", repos=None, cache_dir=None) is None

    inv = make_inventory(branches=None, inspect="local", repos=repos, cache_dir=None)
    assert inv is not None and "bug" in inv.branches("swerl-taskpack/calc:latest")
    default_cache = Path(__import__("os").environ["XDG_CACHE_HOME"]) / "swerl" / "inventory"
    assert len(list(default_cache.glob("*.json"))) == 1

    listed = tmp_path / "b.json"
    listed.write_text(json.dumps({"org/other:1": ["z"]}))
    chain = make_inventory(branches=listed, inspect="local", repos=repos, cache_dir=tmp_path / "c")
    assert chain is not None
    assert chain.branches("org/other:1") == {"z"}  # from the file
    assert "bug" in chain.branches("x/calc")  # not in the file: inspected


def test_docker_inspection_without_the_sandbox_backend_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "swerl.sandbox.inventory", None)  # as before the sandbox room provides it
    with pytest.raises(DataError, match="--inspect docker: Docker inspection is not available yet"):
        make_inventory(branches=None, inspect="docker", repos=None, cache_dir=None)


def test_docker_inspection_uses_the_sandbox_inventory_through_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = types.ModuleType("swerl.sandbox.inventory")
    calls: list[str] = []

    class DockerInventory:
        def branches(self, image_name: str) -> set[str]:
            calls.append(image_name)
            return {"b1"}

    fake.DockerInventory = DockerInventory  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "swerl.sandbox.inventory", fake)
    for _ in range(2):
        inv = make_inventory(branches=None, inspect="docker", repos=None, cache_dir=tmp_path)
        assert inv is not None and inv.branches("img:1") == {"b1"}
    assert calls == ["img:1"]
