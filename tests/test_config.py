from __future__ import annotations

import pytest
from typer.testing import CliRunner

from swerl.cli import app
from swerl.config import available_recipes, load_recipe
from swerl.errors import ConfigError


def test_tiny_recipe_loads_with_defaults() -> None:
    r = load_recipe("tiny")
    assert r.name == "tiny"
    assert r.sandbox.backend == "bwrap"
    assert r.algorithm.loss_agg == "rollout-mean"
    assert "tiny" in available_recipes()


def test_override_parses_yaml_values() -> None:
    r = load_recipe("tiny", ["train.lr=2e-5", "sandbox.network_allow=[gateway]", "gateway.continuous_tokens=true"])
    assert r.train.lr == pytest.approx(2e-5)
    assert r.sandbox.network_allow == ["gateway"]
    assert r.gateway.continuous_tokens is True


@pytest.mark.parametrize(
    ("override", "needle"),
    [
        ("train.lrx=1", "'train.lrx'"),
        ("nosuch=1", "'nosuch'"),
        ("train.lr=abc", "'train.lr'"),
        ("sandbox.backend=qemu", "'sandbox.backend'"),
        ("train.lr.x=1", "'train.lr' is not a section"),
        ("novalue", "key.path=value"),
    ],
)
def test_bad_override_names_the_key(override: str, needle: str) -> None:
    with pytest.raises(ConfigError) as exc:
        load_recipe("tiny", [override])
    assert needle in str(exc.value)


def test_unknown_recipe_lists_available() -> None:
    with pytest.raises(ConfigError, match=r"unknown recipe .nope.*tiny"):
        load_recipe("nope")


def test_unknown_key_in_recipe_file(tmp_path) -> None:
    f = tmp_path / "r.yaml"
    f.write_text("train:\n  lr: 1e-5\n  epochs: 3\n")
    with pytest.raises(ConfigError, match=r"'train\.epochs'"):
        load_recipe(str(f))


def test_cli_recipe_show_applies_override() -> None:
    res = CliRunner().invoke(app, ["recipe", "show", "tiny", "--set", "train.steps=7"])
    assert res.exit_code == 0, res.output
    assert "steps: 7" in res.output
