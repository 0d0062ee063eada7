"""LoRA on the torch backend (docs/algorithms.md sec. 12, eq. 23): only the adapters train, the engine gets the
merged weights, and export writes a plain transformers model with the adapter merged in."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import yaml
from train_helpers import make_sample

from swerl.config import load_recipe
from swerl.errors import ConfigError
from swerl.models import build_tiny_model, load_tokenizer
from swerl.models.checkpoint import export_checkpoint
from swerl.models.lora import apply_lora, plain_copy
from swerl.train.advantage import compute_advantages
from swerl.train.backends.torch import TorchBackend
from swerl.train.loop.checkpoint import rng_state, save_checkpoint


def _backend(overrides: list[str]) -> tuple[TorchBackend, object, object]:
    r = load_recipe("tiny", ["train.lr=1e-2", *overrides])
    tok = load_tokenizer(r.model.tokenizer, vocab_size=r.model.vocab_size)
    model = build_tiny_model(tok, hidden_size=r.model.hidden_size, num_layers=r.model.num_layers,
                             num_heads=r.model.num_heads, seed=r.train.seed, max_position_embeddings=512)
    if r.model.lora.rank:
        model = apply_lora(model, r.model.lora)
    return TorchBackend.from_recipe(model, r, pad_token_id=tok.pad_token_id or 0), r, tok


def _update(backend: TorchBackend) -> None:
    samples = [make_sample(f"r{i}", 0, 24, [(12, 24)], reward=float(i % 2), seed=i, vocab=8000) for i in range(4)]
    backend.update(samples, compute_advantages(samples))


def test_lora_trains_only_adapters_and_serves_merged_weights() -> None:
    backend, _, _ = _backend(["model.lora.rank=4", "model.lora.alpha=8"])
    base0 = {k: v.clone() for k, v in backend.policy_weights().items()}
    engine = plain_copy(backend.policy)  # what an in-process engine holds: no adapters
    assert set(engine.state_dict()) == set(base0)
    frozen = {k: v.clone() for k, v in backend.policy.named_parameters() if not v.requires_grad}
    _update(backend)
    for k, v in backend.policy.named_parameters():
        if k in frozen:
            assert torch.equal(v, frozen[k]), f"base weight {k} moved"
    merged = backend.policy_weights()
    moved = [k for k in merged if not torch.equal(merged[k], base0[k])]
    assert any("q_proj.weight" in k for k in moved), "the update did not reach the served weights"
    engine.load_state_dict(merged)
    ids = torch.tensor([[5, 17, 99, 1024, 7, 3]])
    with torch.no_grad():
        assert torch.allclose(engine(ids).logits, backend.policy(input_ids=ids).logits, atol=1e-5)


def test_full_fine_tuning_moves_base_weights_lora_does_not() -> None:
    """The contrast: with model.lora.rank=0 (off) the base weights move; the LoRA test above would fail."""
    backend, _, _ = _backend([])
    before = {k: v.clone() for k, v in backend.policy.named_parameters()}
    _update(backend)
    assert any(not torch.equal(v, before[k]) for k, v in backend.policy.named_parameters())


def test_bad_target_modules_name_the_field() -> None:
    with pytest.raises(ConfigError, match=r"model\.lora\.target_modules"):
        _backend(["model.lora.rank=4", "model.lora.target_modules=[nope_proj]"])


def test_export_merges_the_adapter(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM

    backend, r, _ = _backend(["model.lora.rank=4"])
    _update(backend)
    run = tmp_path / "run"
    run.mkdir()
    (run / "recipe.yaml").write_text(yaml.safe_dump(r.model_dump(mode="json"), sort_keys=False))
    save_checkpoint(run, 1, {"backend": backend.state_dict(), "rng": rng_state(), "loop": {"step": 1}})
    out = export_checkpoint(run, tmp_path / "hf")
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    assert not any("lora" in k for k in model.state_dict())
    ids = torch.tensor([[5, 17, 99, 1024, 7, 3]])
    with torch.no_grad():
        assert torch.allclose(model(ids).logits, backend.policy(input_ids=ids).logits, atol=1e-5)


@pytest.fixture()
def _tok(tok_cache: Path, tiny_tok: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWERL_CACHE_DIR", str(tok_cache.parent))


@pytest.mark.usefixtures("_tok")
def test_loop_serves_the_trained_adapter_and_exports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One real toy update with LoRA: the engine's plain model ends with the merged trained weights."""
    import swerl.train.loop.trainer as trainer_mod
    from swerl.train.loop import train

    seen: dict[str, object] = {}
    real_start = trainer_mod.start_runtime

    def start_runtime(recipe: object, run_dir: Path) -> object:
        seen["rt"] = rt = real_start(recipe, run_dir)
        return rt

    monkeypatch.setattr(trainer_mod, "start_runtime", start_runtime)
    recipe = load_recipe("toy", ["train.rollouts_per_step=8", "rollout.concurrency=8", "train.mini_batches=1",
                                 "train.val_every=0", "train.tensorboard=false", "train.steps=1",
                                 "train.checkpoint_every=1", "model.lora.rank=4"])
    assert train(recipe, tmp_path / "run").steps == 1
    rt = seen["rt"]
    merged = rt.backend.policy_weights()  # type: ignore[attr-defined]
    assert any(k.endswith("lora_B.default.weight") and v.abs().sum() > 0
               for k, v in rt.backend.policy.state_dict().items()), "the adapter did not train"  # type: ignore[attr-defined]
    served = rt.engine.engine.model.state_dict()  # type: ignore[attr-defined]  # the embedded engine's plain model
    assert set(served) == set(merged)
    for k, v in merged.items():
        assert torch.equal(served[k], v), f"the engine does not serve the merged {k}"
    out = export_checkpoint(tmp_path / "run", tmp_path / "hf")
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    for k, v in model.state_dict().items():
        assert torch.allclose(v, merged[k], atol=1e-6), k
