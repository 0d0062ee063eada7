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


def test_recipe_base_composes_instead_of_copying(tmp_path) -> None:
    """A variant states only what differs: `base:` loads the other file first and merges mappings key by key."""
    sao, tiny = load_recipe("sao-tiny"), load_recipe("tiny")
    assert sao.name == "sao-tiny" and sao.algorithm.name == "sao" and sao.rollout.n_per_task == 1
    assert sao.model == tiny.model and sao.sandbox == tiny.sandbox  # inherited whole
    assert sao.rollout.max_tokens == tiny.rollout.max_tokens  # a sibling key of an overridden one survives
    assert not sao.gateway.continuous_tokens and tiny.gateway.continuous_tokens  # overridden
    (tmp_path / "parent.yaml").write_text("base: tiny.yaml\ntrain:\n  lr: 3.0e-5\n")
    (tmp_path / "tiny.yaml").write_text((load_recipe.__globals__["RECIPES_DIR"] / "tiny.yaml").read_text())
    (tmp_path / "child.yaml").write_text("base: parent\nrollout:\n  n_per_task: 2\n")
    child = load_recipe(str(tmp_path / "child.yaml"), ["train.steps=7"])
    assert (child.train.lr, child.rollout.n_per_task, child.train.steps) == (3.0e-5, 2, 7)
    assert child.rollout.max_steps == tiny.rollout.max_steps and child.name == "child"


@pytest.mark.parametrize(("text", "needle"), [
    ("base: nowhere\n", "base 'nowhere': no such file beside"),
    ("base: [a, b]\n", "`base` must be the name or path of another file"),
    ("base: loop\n", "base 'loop.yaml' includes itself"),
])
def test_bad_base_names_the_file(tmp_path, text: str, needle: str) -> None:
    (tmp_path / "loop.yaml").write_text("base: again\n")
    (tmp_path / "again.yaml").write_text("base: loop.yaml\n")
    (tmp_path / "r.yaml").write_text(text)
    with pytest.raises(ConfigError, match=r"r\.yaml") as err:
        load_recipe(str(tmp_path / "r.yaml"))
    assert needle in str(err.value)


def test_shorthand_flags_write_the_one_recipe_field_as_given() -> None:
    """`--dataset 2024` stays the string "2024" (JSON-quoted, read back by the YAML override parser); unset flags
    write nothing; the result loads like any `--set`."""
    from swerl.config import load_recipe, shorthand_overrides

    items = shorthand_overrides(("data.dataset", "2024"), ("data.split", None), ("train.seed", 3))
    assert items == ['data.dataset="2024"', "train.seed=3"]
    recipe = load_recipe("tiny", items)
    assert (recipe.data.dataset, recipe.train.seed) == ("2024", 3)
