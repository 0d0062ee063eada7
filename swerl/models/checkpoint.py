"""`swerl train export CKPT_OR_RUN --out DIR`: a training checkpoint as a `transformers` model directory.

A checkpoint holds what `--resume` needs, not a model anyone else can load: the policy is rebuilt
from the run's `recipe.yaml`, the checkpoint's weights loaded, and `save_pretrained` + tokenizer +
`swerl_export.json` written (docs/train.md). A LoRA run's adapter is merged into the base weights. verl runs keep sharded weights and are refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swerl.atomic import publish_dir
from swerl.errors import SwerlError
from swerl.log import get_logger

log = get_logger(__name__)


@dataclass
class TrainingCheckpoint:
    run_dir: Path
    state_path: Path
    step: int

    @property
    def name(self) -> str:
        return f"{self.run_dir.resolve().name}-step-{self.step:06d}"


def find_checkpoint(source: Path) -> TrainingCheckpoint | None:
    """The training checkpoint `source` names (run dir, step dir or state.pt), or None if it is none of them."""
    p = Path(source).expanduser()
    if p.is_file() and p.name == "state.pt":
        state, run = p, p.parent.parent.parent
    elif p.is_dir() and (p / "state.pt").is_file():
        state, run = p / "state.pt", p.parent.parent
    elif p.is_dir() and (p / "recipe.yaml").is_file() and (p / "checkpoints").is_dir():
        latest = p / "checkpoints" / "latest"
        if not latest.is_file():
            raise SwerlError(f"{p}: a run directory without a checkpoint (checkpoints/latest is missing)")
        state, run = p / "checkpoints" / latest.read_text().strip() / "state.pt", p
        if not state.is_file():
            raise SwerlError(f"{p}: checkpoints/latest points at {state.parent.name}, which has no state.pt")
    else:
        return None
    if not (run / "recipe.yaml").is_file():
        raise SwerlError(f"{source}: checkpoint found but its run directory {run} has no recipe.yaml")
    meta = state.parent / "meta.json"
    step = int(json.loads(meta.read_text()).get("step", 0)) if meta.is_file() else 0
    return TrainingCheckpoint(run, state, step)


def load_policy(ckpt: TrainingCheckpoint) -> tuple[Any, Any, Any]:
    """(model with the checkpoint's policy weights, tokenizer, recipe)."""
    import torch

    from swerl.config import load_recipe
    from swerl.models import build_tiny_model, load_tokenizer

    recipe = load_recipe(str(ckpt.run_dir / "recipe.yaml"))
    if recipe.train.backend != "torch":
        raise SwerlError(f"{ckpt.run_dir}: train.backend {recipe.train.backend!r} keeps its weights in its own "
                         "(sharded) checkpoint format; export supports torch-backend runs")
    m = recipe.model
    tok = load_tokenizer(m.tokenizer, vocab_size=m.vocab_size)
    if m.path == "tiny":
        model = build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                                 seed=recipe.train.seed, max_position_embeddings=max(m.max_context, 512))
    else:
        from transformers import AutoModelForCausalLM

        if not (Path(m.path) / "config.json").is_file():
            raise SwerlError(f"{ckpt.run_dir}: the run started from model.path {m.path!r}, which is gone; "
                             "export needs its config.json to rebuild the architecture")
        model = AutoModelForCausalLM.from_pretrained(m.path, local_files_only=True)
    if m.lora.rank:  # the checkpoint holds the peft state dict: wrap like training did, then merge (eq. 23)
        from swerl.models.lora import apply_lora

        model = apply_lora(model, m.lora)
    # Our own checkpoint file (numpy RNG state inside), so weights_only cannot load it.
    state = torch.load(ckpt.state_path, map_location="cpu", weights_only=False)
    policy = (state.get("backend") or {}).get("policy")
    if not isinstance(policy, dict):
        raise SwerlError(f"{ckpt.state_path}: no policy weights in backend state")
    missing, unexpected = model.load_state_dict(policy, strict=False)
    missing = [k for k in missing if not k.endswith("lm_head.weight") or not model.config.tie_word_embeddings]
    if missing or unexpected:
        raise SwerlError(f"{ckpt.state_path}: weights do not match the recipe's model "
                         f"(missing {missing[:3]}, unexpected {unexpected[:3]})")
    from swerl.models.lora import merge_into_plain

    model = merge_into_plain(model).eval()  # LoRA: a plain transformers model, adapter merged in
    return model, tok, recipe


def export_checkpoint(source: Path, out: Path, *, force: bool = False) -> Path:
    """Write the checkpoint's policy as a transformers dir at `out` (temporary dir, then rename)."""
    ckpt = find_checkpoint(source)
    if ckpt is None:
        raise SwerlError(f"{source}: not a swerl training run directory, checkpoint directory or state.pt")
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not force:
        raise SwerlError(f"--out {out} exists and is not empty (use --force to replace it)")
    model, tok, recipe = load_policy(ckpt)
    with publish_dir(out) as tmp:
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        (tmp / "swerl_export.json").write_text(json.dumps(
            {"source": str(ckpt.state_path.resolve()), "run_dir": str(ckpt.run_dir.resolve()), "step": ckpt.step,
             "recipe": recipe.name, "name": ckpt.name}, indent=2) + "\n")
    log.info("checkpoint exported", source=str(ckpt.state_path), out=str(out), step=ckpt.step)
    return out


__all__ = ["TrainingCheckpoint", "export_checkpoint", "find_checkpoint", "load_policy"]
