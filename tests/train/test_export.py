"""`swerl train export`: a training checkpoint becomes a transformers model dir with the checkpoint's weights.

The run directories are written by the trainer's own pieces (recipe.yaml as the trainer dumps it,
`TorchBackend.state_dict()` saved with `save_checkpoint`), with weights moved away from the
initialisation so an export that silently re-initialised would fail. The slow test runs the real
`swerl train --recipe toy` for one update and exports that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
import yaml
from typer.testing import CliRunner

from swerl.cli import app
from swerl.config import load_recipe
from swerl.errors import SwerlError
from swerl.models.checkpoint import export_checkpoint, find_checkpoint


def make_run(run_dir: Path, recipe: str = "tiny", step: int = 2, overrides: list[str] | None = None) -> dict[str, Any]:
    """A run dir as `swerl train` leaves it: recipe.yaml + checkpoints/step-N/state.pt + latest; returns the policy."""
    from swerl.models import build_tiny_model, load_tokenizer
    from swerl.train.backends.torch import TorchBackend
    from swerl.train.loop.checkpoint import rng_state, save_checkpoint

    r = load_recipe(recipe, overrides)
    run_dir.mkdir(parents=True)
    (run_dir / "recipe.yaml").write_text(yaml.safe_dump(r.model_dump(mode="json"), sort_keys=False))
    tok = load_tokenizer(r.model.tokenizer, vocab_size=r.model.vocab_size)
    model = build_tiny_model(tok, hidden_size=r.model.hidden_size, num_layers=r.model.num_layers,
                             num_heads=r.model.num_heads, seed=r.train.seed,
                             max_position_embeddings=max(r.model.max_context, 512))
    backend = TorchBackend.from_recipe(model, r, pad_token_id=tok.pad_token_id)
    gen = torch.Generator().manual_seed(7)
    with torch.no_grad():  # "training happened": every weight moved away from the seeded init
        for p in backend.policy.parameters():
            p.add_(0.05 * torch.randn(p.shape, generator=gen))
    save_checkpoint(run_dir, step, {"backend": backend.state_dict(), "rng": rng_state(), "loop": {"step": step}})
    return {k: v.clone() for k, v in backend.policy.state_dict().items()}


def test_export_run_dir_loads_with_transformers(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    policy = make_run(tmp_path / "run")
    out = export_checkpoint(tmp_path / "run", tmp_path / "hf")
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    tok = AutoTokenizer.from_pretrained(out, local_files_only=True)
    for k, v in model.state_dict().items():
        assert torch.equal(v, policy[k]), k
    assert tok.chat_template and "<|im_start|>" in tok.chat_template  # the rollouts' template travels along
    meta = json.loads((out / "swerl_export.json").read_text())
    assert meta["step"] == 2 and meta["recipe"] == "tiny" and meta["name"] == "run-step-000002"
    # the same weights give the same logits (not just the same tensors by name)
    ids = torch.tensor([tok.encode("def add(a, b):")])
    from swerl.models import build_tiny_model

    ref = build_tiny_model(tok, hidden_size=64, num_layers=2, num_heads=4, max_position_embeddings=4096)
    ref.load_state_dict(policy)
    assert torch.allclose(model(ids).logits, ref(ids).logits, atol=1e-5)


def test_export_accepts_checkpoint_dir_and_state_file(tmp_path: Path) -> None:
    make_run(tmp_path / "run", step=5)
    step_dir = tmp_path / "run" / "checkpoints" / "step-000005"
    a = find_checkpoint(step_dir)
    b = find_checkpoint(step_dir / "state.pt")
    assert a is not None and b is not None and a.state_path == b.state_path and a.step == b.step == 5
    assert find_checkpoint(tmp_path) is None  # not a run at all


def test_export_errors_name_the_problem(tmp_path: Path) -> None:
    (tmp_path / "norun").mkdir()
    with pytest.raises(SwerlError, match="not a swerl training run directory"):
        export_checkpoint(tmp_path / "norun", tmp_path / "o1")
    run = tmp_path / "half"
    (run / "checkpoints").mkdir(parents=True)
    (run / "recipe.yaml").write_text("name: tiny\n")
    with pytest.raises(SwerlError, match="without a checkpoint"):
        export_checkpoint(run, tmp_path / "o2")
    make_run(tmp_path / "run")
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("x")
    with pytest.raises(SwerlError, match="--force"):
        export_checkpoint(tmp_path / "run", tmp_path / "taken")


def test_export_cli(tmp_path: Path) -> None:
    make_run(tmp_path / "run")
    res = CliRunner().invoke(app, ["train", "export", str(tmp_path / "run"), "--out", str(tmp_path / "hf")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "hf" / "config.json").is_file() and (tmp_path / "hf" / "tokenizer.json").is_file()
    assert "swerl eval swebench --model" in res.output


@pytest.mark.slow
def test_export_after_a_real_toy_update(tmp_path: Path) -> None:
    """One real update of `swerl train --recipe toy`, exported: the exported weights are the trained ones."""
    from transformers import AutoModelForCausalLM

    run = tmp_path / "toy"
    res = CliRunner().invoke(app, ["train", "--recipe", "toy", "--out", str(run), "--set", "train.steps=1",
                                   "--set", "train.rollouts_per_step=8", "--set", "train.val_every=0",
                                   "--set", "train.checkpoint_every=1", "--set", "train.mini_batches=1"])
    assert res.exit_code == 0, res.output
    out = export_checkpoint(run, tmp_path / "hf")
    state = torch.load(run / "checkpoints" / "step-000001" / "state.pt", map_location="cpu", weights_only=False)
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    for k, v in model.state_dict().items():
        assert torch.equal(v, state["backend"]["policy"][k]), k
