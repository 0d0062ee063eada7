"""Torch-only device check for the Qwen3.5-9B verl recipes, in one call of at most 420 s on one H200.

    python scripts/gpu_check.py [--preflight | --cpu-smoke | --estimate] [--out DIR] [--seq 65536] [--layers N]

Why torch only: a lent accelerator machine has torch + transformers (+ triton) and nothing else: no verl, vLLM or
Ray, nothing downloadable, at most 64 MiB carried along. `scripts/gpu_check.sh` unpacks the carried wheels of
flash-linear-attention (and einops) from `.cache/gpu_check/wheels/` so that transformers runs Qwen3.5's Gated
DeltaNet layers on FLA's Triton kernels, as verl's GPU image does; on a GPU the check fails if they are not the
kernels in use (the plain-torch fallback would not finish at 64k tokens).

One run = a preflight pass (2 layers, 2k tokens: proves every code path and compiles the kernels) and the full
pass, each with these stages (the JSON report is rewritten after every stage, and on SIGTERM):

1. `model`    random-init model of Qwen3.5-9B's text tower (transformers' `Qwen3_5TextConfig`: 32 layers, 3 of 4
              Gated DeltaNet, hidden 4096, vocab 248,320) with fp32 master weights (verl trains fp32 parameters under
              bf16 autocast); all layers that fit, else the largest multiple of 4 (results scaled by FLOPs).
2. `update`   swerl's PPO-clip + rollout-mean loss on one 65,536-token sequence through a verl-like head: bf16
              logits of every position and a cross-entropy whose gradient goes into a second bf16 buffer (verl
              computes entropy, so flash-attn's in-place backward is off; the entropy is a chunked no-grad
              metric), per-layer checkpointing: peak memory, tokens/s, MFU.
3. `logprobs` the same random model scores the same tokens two ways: one forward (chunked kernel, as the trainer)
              and prefill + token-by-token decode with the cache (recurrent kernel, as vLLM's decode): the
              trainer/engine log-prob mismatch that docs/algorithms.md sec. 4 corrects, in numbers.
4. `adam`     AdamW (fused on a GPU) on one rank's shard of the 9B model under 8-way FSDP (fp32 weights, grads,
              m, v), then pinned host<->device copies of the Adam states, which verl moves to the GPU for each
              update and back (optimizer_offload): seconds and GB/s.

`--cpu-smoke` runs the stages on CPU with a tiny config (what `make test` runs). `--estimate` prints the time
the full run would take on an H200 by this script's own model of it, without running anything. Ends with
`BENCH` lines. Exit 0 only if every stage passed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # swerl from this checkout, not installed

from swerl.train.losses import (  # after the path fix-up above
    StepDenominators,
    aggregate_loss,
    ppo_clip_loss,
)

GIB = 2**30
BUDGET_S = 420.0
"""One prepared call on the lent machine: everything, preflight included, within this."""
PEAK_BF16_TFLOPS = {"H200": 989.0, "H100": 989.0, "H800": 989.0, "A100": 312.0, "A800": 312.0, "L40S": 362.0,
                    "B200": 2250.0, "GH200": 989.0}
"""Dense bf16 peak of the datasheet, per device-name keyword (MFU's denominator; `--peak-tflops` overrides)."""
QWEN35_9B = {"vocab_size": 248320, "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 32,
             "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 256}
"""Qwen3.5-9B's text tower as transformers' `Qwen3_5TextConfig` defaults describe it."""
TINY = {"vocab_size": 1024, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "linear_key_head_dim": 16,
        "linear_value_head_dim": 16, "linear_num_key_heads": 2, "linear_num_value_heads": 4}
FSDP_RANKS = 8
"""The qwen9b recipe shards over 8 GPUs: one rank's share of the parameters and Adam states."""


def emit(msg: str) -> None:
    """Progress on stderr (this is a script's terminal output, not library logging)."""
    sys.stderr.write(f"[gpu_check] {msg}\n")
    sys.stderr.flush()


class Report:
    """The JSON report, written atomically after every change so a kill still leaves what was measured."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.data: dict[str, Any] = {"stages": {}, "status": "running", "started": time.time()}

    def write(self) -> None:
        tmp = self.path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.data, indent=2, default=str))
        os.replace(tmp, self.path)

    def stage(self, name: str, fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        t0 = time.perf_counter()
        emit(f"stage {name} ...")
        try:
            out = fn()
        except Exception as exc:  # the report must say which stage broke and why
            self.data["stages"][name] = {"ok": False, "s": round(time.perf_counter() - t0, 2), "error": repr(exc),
                                         "traceback": traceback.format_exc()[-4000:]}
            self.write()
            emit(f"stage {name} FAILED: {exc!r}")
            raise
        self.data["stages"][name] = {"ok": True, "s": round(time.perf_counter() - t0, 2), **out}
        self.write()
        emit(f"stage {name} ok ({self.data['stages'][name]['s']} s)")
        return out


# ---- model ---------------------------------------------------------------------------------------------------

def model_config(sizes: dict[str, int], layers: int) -> Any:
    """Qwen3.5 text config (hybrid: every 4th layer full attention) if transformers has it, else Qwen3."""
    kw = {**sizes, "num_hidden_layers": layers, "max_position_embeddings": 131072, "tie_word_embeddings": False}
    try:
        from transformers import Qwen3_5TextConfig

        layer_types = ["full_attention" if (i + 1) % 4 == 0 else "linear_attention" for i in range(layers)]
        return Qwen3_5TextConfig(**kw, layer_types=layer_types)
    except ImportError:  # an older transformers: the same sizes, all layers full attention
        from transformers import Qwen3Config

        return Qwen3Config(**{k: v for k, v in kw.items() if not k.startswith("linear_")})


def build_model(cfg: Any, device: torch.device) -> Any:
    """fp32 parameters (verl's master weights); compute runs under bf16 autocast on a GPU."""
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(cfg, dtype=torch.float32, attn_implementation="sdpa")
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.config.use_cache = False
    return model


def count_params(cfg: Any) -> dict[str, int]:
    """Parameter counts from a meta-device build (no memory): total, embeddings + head, per layer."""
    from transformers import AutoModelForCausalLM

    with torch.device("meta"):
        m = AutoModelForCausalLM.from_config(cfg)
    total = sum(p.numel() for p in m.parameters())
    embed = m.get_input_embeddings().weight.numel() + m.get_output_embeddings().weight.numel()
    return {"total": total, "embed_and_head": embed, "per_layer": (total - embed) // max(cfg.num_hidden_layers, 1)}


def step_flops(cfg: Any, n_params: dict[str, int], tokens: int) -> float:
    """Model FLOPs of one forward+backward (the MFU convention: recomputation not counted).

    6 * (non-embedding params + head) * T for the matmuls, plus causal attention on the
    full-attention layers, 12 * L_full * heads * head_dim * T^2 / 2 (the linear-attention
    layers' recurrence is linear in T and small next to their projections)."""
    head = cfg.vocab_size * cfg.hidden_size
    dense = 6.0 * (n_params["total"] - n_params["embed_and_head"] + head) * tokens
    types = getattr(cfg, "layer_types", None) or ["full_attention"] * cfg.num_hidden_layers
    full = sum(t == "full_attention" for t in types)
    head_dim = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    return dense + 12.0 * full * cfg.num_attention_heads * head_dim * tokens * tokens / 2


def update_bytes(cfg_full: Any, n_full: dict[str, int], layers: int, seq: int) -> float:
    """Estimated peak of the `update` stage: fp32 weights + grads of `layers` layers and the root, one
    checkpointed fp32 residual per layer, one layer's recomputed bf16 activations, the bf16 logits and their
    separate gradient, an fp32 entropy chunk, 2 GiB of context and allocator slack."""
    h, v = cfg_full.hidden_size, cfg_full.vocab_size
    params = n_full["embed_and_head"] + layers * n_full["per_layer"]
    recompute = seq * (24 * h + 4 * cfg_full.intermediate_size) * 2
    return 8 * params + layers * seq * h * 4 + recompute + 2 * seq * v * 2 + 2 * 4096 * v * 4 + 2 * GIB


def layers_that_fit(cfg_full: Any, n_full: dict[str, int], seq: int, free_bytes: int) -> int:
    """Largest multiple of 4 layers (<= the full depth) whose estimated `update` peak fits 85% of free memory."""
    for layers in range(cfg_full.num_hidden_layers, 0, -4):
        if update_bytes(cfg_full, n_full, layers, seq) <= 0.85 * free_bytes:
            return layers
    return min(4, cfg_full.num_hidden_layers)


def linear_attention_kernels(model: Any) -> dict[str, Any]:
    """Which chunked (training) and recurrent (decode) kernels the first Gated DeltaNet layer calls: FLA's
    Triton kernels (`fast`) or transformers' plain-torch fallbacks."""
    layer = next((m for m in model.modules() if hasattr(m, "chunk_gated_delta_rule")), None)
    if layer is None:
        return {"fast": False, "chunk": None, "recurrent": None}
    chunk, rec = layer.chunk_gated_delta_rule, layer.recurrent_gated_delta_rule
    names = {k: f"{getattr(f, '__module__', '?')}.{getattr(f, '__name__', type(f).__name__)}"
             for k, f in (("chunk", chunk), ("recurrent", rec))}
    return {**names, "fast": all(n.startswith("fla.") for n in names.values())}


# ---- the verl-like head ----------------------------------------------------------------------------------------

class _CrossEntropyLogp(torch.autograd.Function):
    """log p(label) from bf16 logits (N, V) -> (N,) fp32, computed `chunk` rows at a time in fp32, the way
    flash-attn's Triton cross-entropy (verl/utils/torch_functional.py `logprobs_from_logits`) does: no fp32 copy of
    the logits. Backward writes d logits into the logits' own buffer when `inplace` (verl without entropy) or into a
    new bf16 buffer (verl with entropy: `inplace_backward=False`)."""

    @staticmethod
    def forward(ctx: Any, logits: torch.Tensor, labels: torch.Tensor, inplace: bool, chunk: int) -> torch.Tensor:
        lse = torch.empty(logits.shape[0], dtype=torch.float32, device=logits.device)
        for s in range(0, logits.shape[0], chunk):
            lse[s:s + chunk] = torch.logsumexp(logits[s:s + chunk].float(), dim=-1)
        logp = logits.gather(1, labels[:, None])[:, 0].float() - lse
        ctx.save_for_backward(logits, labels, lse)
        ctx.inplace, ctx.chunk = inplace, chunk
        return logp

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:
        logits, labels, lse = ctx.saved_tensors
        out = logits if ctx.inplace else torch.empty_like(logits)
        for s in range(0, logits.shape[0], ctx.chunk):
            e = s + ctx.chunk
            g = -torch.exp(logits[s:e].float() - lse[s:e, None])  # d logp / d x = onehot - softmax
            g.scatter_add_(1, labels[s:e, None], torch.ones_like(g[:, :1]))
            out[s:e] = (g * grad[s:e, None]).to(out.dtype)
        return out, None, None, None


@torch.no_grad()
def chunked_entropy(logits: torch.Tensor, chunk: int) -> torch.Tensor:
    """Entropy per row in fp32, `chunk` rows at a time (verl's `entropy_from_logits_with_chunking`; a metric)."""
    out = []
    for s in range(0, logits.shape[0], chunk):
        lsm = torch.log_softmax(logits[s:s + chunk].float(), dim=-1)
        out.append(-(lsm.exp() * lsm).sum(-1))
    return torch.cat(out)


def verl_head(hidden: torch.Tensor, weight: torch.Tensor, labels: torch.Tensor, *, entropy: bool,
              chunk: int) -> tuple[torch.Tensor, torch.Tensor | None]:
    """(N, h) hidden -> (N,) log-probs with gradient and (N,) entropy (or None), as verl's head: the LM head's
    logits of every position in the compute dtype, then the cross-entropy above."""
    logits = hidden @ weight.to(hidden.dtype).T
    logp = _CrossEntropyLogp.apply(logits, labels, not entropy, chunk)
    return logp, chunked_entropy(logits.detach(), chunk) if entropy else None


# ---- measurement helpers ---------------------------------------------------------------------------------------

def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def reset_peak(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(device)


def peak_gib(device: torch.device) -> float | None:
    return round(torch.cuda.max_memory_allocated(device) / GIB, 3) if device.type == "cuda" else None


def autocast(device: torch.device) -> Any:
    """bf16 compute over fp32 parameters on a GPU (verl's FSDP mixed precision); plain fp32 on CPU."""
    import contextlib

    return torch.autocast("cuda", dtype=torch.bfloat16) if device.type == "cuda" else contextlib.nullcontext()


def swerl_loss(logp: torch.Tensor, rollout_logp: torch.Tensor, adv: torch.Tensor, rollout_index: torch.Tensor,
               den: StepDenominators) -> torch.Tensor:
    """swerl's PPO-clip (0.2 / 0.28, dual-clip 3) with rollout-mean aggregation, as the qwen9b recipe trains."""
    tok_loss, _ = ppo_clip_loss(logp, rollout_logp, adv, 0.2, 0.28, 3.0)
    return aggregate_loss(tok_loss, torch.ones_like(tok_loss), rollout_index, "rollout-mean",
                          sample_index=torch.zeros_like(rollout_index), denominators=den)


# ---- stages ----------------------------------------------------------------------------------------------------

def update_stage(model: Any, seq: int, steps: int, chunk: int, device: torch.device) -> dict[str, Any]:
    """Forward + backward of one `seq`-token sample (3/4 of it response) under swerl's loss through the verl-like
    head; `steps` timed after one warm-up."""
    vocab = model.config.vocab_size
    g = torch.Generator(device="cpu").manual_seed(1)
    ids = torch.randint(0, vocab, (1, seq), generator=g).to(device)
    prompt = seq // 4
    targets = ids[0, prompt + 1:]
    n = targets.numel()
    rollout_logp = (-2.0 - torch.rand(n, generator=g)).to(device)
    adv = torch.where(torch.rand(n, generator=g) > 0.5, 1.0, -1.0).to(device)
    rollout_index = torch.zeros(n, dtype=torch.long, device=device)
    den = StepDenominators(n, 1, 1, torch.tensor([float(n)], dtype=torch.float64),
                           torch.tensor([float(n)], dtype=torch.float64))
    head = model.get_output_embeddings().weight
    model.train()
    times, loss_val, ent = [], 0.0, 0.0
    reset_peak(device)
    for i in range(steps + 1):  # step 0 compiles kernels and warms the allocator
        sync(device)
        t0 = time.perf_counter()
        with autocast(device):
            hidden = model.model(input_ids=ids, use_cache=False).last_hidden_state[0, prompt:-1]
            logp, entropy = verl_head(hidden, head, targets, entropy=True, chunk=chunk)
            loss = swerl_loss(logp, rollout_logp, adv, rollout_index, den)
        loss.backward()
        sync(device)
        if i:
            times.append(time.perf_counter() - t0)
        loss_val, ent = float(loss.detach()), float(entropy.mean()) if entropy is not None else 0.0
        model.zero_grad(set_to_none=True)
        del hidden, logp, entropy, loss
    step_s = sum(times) / len(times)
    return {"tokens": seq, "response_tokens": n, "steps": steps, "step_s": round(step_s, 4),
            "tokens_per_s": round(seq / step_s, 1), "loss": loss_val, "loss_finite": math.isfinite(loss_val),
            "entropy_mean": round(ent, 4), "peak_memory_gib": peak_gib(device),
            "head": "verl-like: bf16 logits of every position, fp32 cross-entropy per chunk, gradient in a second "
                    "bf16 buffer (entropy on); fp32 master weights under bf16 autocast; per-layer checkpointing"}


def adam_stage(n_params: int, device: torch.device, reps: int) -> dict[str, Any]:
    """AdamW on one rank's shard (`n_params` fp32), then pinned host<->device copies of its Adam states."""
    reset_peak(device)
    p = torch.zeros(n_params, dtype=torch.float32, device=device, requires_grad=True)
    p.grad = torch.randn(n_params, dtype=torch.float32, device=device) * 1e-3
    fused = device.type == "cuda"
    opt = torch.optim.AdamW([p], lr=1e-6, fused=fused)
    opt.step()  # creates m and v
    sync(device)
    t0 = time.perf_counter()
    for _ in range(reps):
        opt.step()
    sync(device)
    step_s = (time.perf_counter() - t0) / reps
    states = [v for v in opt.state[p].values() if torch.is_tensor(v) and v.numel() == n_params]
    nbytes = sum(s.numel() * s.element_size() for s in states)
    host = [torch.empty(s.shape, dtype=s.dtype, pin_memory=device.type == "cuda") for s in states]
    timings = {}
    for name, pairs in (("d2h", list(zip(host, states, strict=True))), ("h2d", list(zip(states, host, strict=True)))):
        sync(device)
        t0 = time.perf_counter()
        for dst, src in pairs:
            dst.copy_(src, non_blocking=True)
        sync(device)
        timings[name] = time.perf_counter() - t0
    out = {"shard_params": n_params, "fused": fused, "adam_step_s": round(step_s, 4),
           "adam_states_bytes": nbytes, "adam_states_gib": round(nbytes / GIB, 3), "peak_memory_gib": peak_gib(device),
           "offload_d2h_s": round(timings["d2h"], 3), "reload_h2d_s": round(timings["h2d"], 3),
           "d2h_gb_per_s": round(nbytes / 1e9 / max(timings["d2h"], 1e-9), 2),
           "h2d_gb_per_s": round(nbytes / 1e9 / max(timings["h2d"], 1e-9), 2)}
    del opt, p, states, host
    return out


@torch.no_grad()
def logprob_stage(model: Any, prefill: int, decode: int, device: torch.device) -> dict[str, Any]:
    """The trainer's log-probs (one forward: the chunked kernel) against an engine's (prefill, then one token at a
    time with the cache: the recurrent kernel) on the same `decode` tokens of the same random model."""
    model.eval()
    reset_peak(device)
    vocab = model.config.vocab_size
    ids = torch.randint(0, vocab, (1, prefill + decode + 1), generator=torch.Generator().manual_seed(2)).to(device)
    with autocast(device):
        full = torch.log_softmax(model(input_ids=ids, use_cache=False).logits[0].float(), -1)
        want = full[prefill:prefill + decode].gather(1, ids[0, prefill + 1:, None])[:, 0]
        out = model(input_ids=ids[:, :prefill + 1], use_cache=True)
        cache, got = out.past_key_values, []
        for t in range(decode):
            lp = torch.log_softmax(out.logits[0, -1].float(), -1)
            got.append(lp[ids[0, prefill + 1 + t]])
            out = model(input_ids=ids[:, prefill + 1 + t:prefill + 2 + t], past_key_values=cache, use_cache=True)
    diff = torch.stack(got) - want  # log rho: engine (recurrent) minus trainer (chunked)
    model.train()
    return {"prefill": prefill, "decode_tokens": decode, "max_abs_logprob_diff": float(diff.abs().max()),
            "mean_abs_logprob_diff": float(diff.abs().mean()), "kl_k1": float(diff.mean()),
            "frac_outside_tis_2": float((diff.abs() > math.log(2.0)).float().mean()),
            "peak_memory_gib": peak_gib(device), "kernels": linear_attention_kernels(model)}


# ---- the time budget -------------------------------------------------------------------------------------------

ASSUMED = {"startup_s": 20.0, "compile_s": 90.0, "mfu": 0.2, "build_s_per_b_params": 4.0, "copy_gb_per_s": 10.0,
           "decode_ms_per_layer": 1.0, "decode_ms_fixed": 8.0, "hbm_gb_per_s": 2000.0}
"""This script's own model of its run on an H200: process start-up (CUDA, imports, wheel unpacking), the first
compilation of FLA's Triton kernels (autotuning included), a low MFU for a 65k-token step, random init speed,
pinned-copy bandwidth (PCIe gen5 is ~50 GB/s; 10 leaves room), per-token decode cost with the cache."""


def pass_seconds(cfg: Any, n: dict[str, int], seq: int, steps: int, shard: int, decode: int, prefill: int,
                 peak_tflops: float) -> dict[str, float]:
    """Estimated seconds of one pass (model, update, adam, logprobs) at `ASSUMED` rates."""
    a = ASSUMED
    flops = step_flops(cfg, n, seq) * 4 / 3  # + the checkpointed forward recomputed in backward
    update = (steps + 1) * flops / (peak_tflops * 1e12 * a["mfu"])
    adam_bytes = 16 * shard
    adam = 4 * adam_bytes / (a["hbm_gb_per_s"] * 1e9) + 2 * (8 * shard) / (a["copy_gb_per_s"] * 1e9) + 3.0
    fwd = (step_flops(cfg, n, prefill + decode) / 3) * 2 / (peak_tflops * 1e12 * a["mfu"])
    logprobs = fwd + decode * (cfg.num_hidden_layers * a["decode_ms_per_layer"] + a["decode_ms_fixed"]) / 1e3
    return {"model_s": a["build_s_per_b_params"] * n["total"] / 1e9 + 2.0, "update_s": update, "adam_s": adam,
            "logprobs_s": logprobs}


def full_plan(layers: int | None = None, free_bytes: int = 139 * GIB) -> dict[str, Any]:
    """The default run on one H200: the layers that fit at 65,536 tokens, 2 timed steps, 8-way shard of Adam."""
    full_cfg = model_config(QWEN35_9B, 32)
    n_full = count_params(full_cfg)
    seq = 65536
    layers = layers or layers_that_fit(full_cfg, n_full, seq, free_bytes)
    return {"seq": seq, "layers": layers, "steps": 2, "shard": n_full["total"] // FSDP_RANKS, "prefill": 4096,
            "decode": 256, "chunk": 4096, "full_cfg": full_cfg, "n_full": n_full}


def estimate_total(peak_tflops: float = 989.0, layers: int | None = None) -> dict[str, float]:
    """Seconds of `scripts/gpu_check.sh` on one H200 by `ASSUMED`: start-up, kernel compilation, the preflight
    pass (2 layers, 2k tokens) and the full pass. The check is sized so that this stays within `BUDGET_S`."""
    fp = full_plan(layers)
    pre_cfg = model_config(QWEN35_9B, 2)
    pre = pass_seconds(pre_cfg, count_params(pre_cfg), 2048, 1, 1 << 24, 32, 512, peak_tflops)
    cfg = model_config(QWEN35_9B, fp["layers"])
    full = pass_seconds(cfg, count_params(cfg), fp["seq"], fp["steps"], fp["shard"], fp["decode"], fp["prefill"],
                        peak_tflops)
    out = {"startup_s": ASSUMED["startup_s"], "compile_s": ASSUMED["compile_s"], "preflight_s": sum(pre.values()),
           **{f"full_{k}": v for k, v in full.items()}}
    out["total_s"] = sum(out.values())
    out["layers"] = float(fp["layers"])
    return {k: round(v, 1) for k, v in out.items()}


# ---- the run ---------------------------------------------------------------------------------------------------

def run_pass(report: Report, name: str, spec: dict[str, Any], device: torch.device, peak: float | None,
             require_fast: bool) -> None:
    """The four stages of one pass (module doc) with the sizes in `spec`."""
    cfg = model_config(spec["sizes"], spec["layers"])
    n, full_cfg = count_params(cfg), spec["full_cfg"]
    state: dict[str, Any] = {}

    def model_stage() -> dict[str, Any]:
        state["model"] = build_model(cfg, device)
        kernels = linear_attention_kernels(state["model"])
        if require_fast and not kernels["fast"]:
            raise RuntimeError(f"Gated DeltaNet runs on {kernels}, not FLA's kernels: the carried wheels were not "
                               "used (scripts/gpu_check.sh unpacks .cache/gpu_check/wheels)")
        return {"architecture": type(state["model"]).__name__, "layers": spec["layers"],
                "full_layers": full_cfg.num_hidden_layers, "layer_types": list(getattr(cfg, "layer_types", [])),
                "params": n["total"], "full_depth_params": spec["n_full"]["total"], "linear_attention": kernels,
                "memory_after_build_gib": peak_gib(device)}

    def update() -> dict[str, Any]:
        out = update_stage(state["model"], spec["seq"], spec["steps"], spec["chunk"], device)
        flops = step_flops(cfg, n, spec["seq"])
        out["model_tflops_per_step"] = round(flops / 1e12, 3)
        out["mfu_pct"] = round(100 * flops / out["step_s"] / (peak * 1e12), 2) if peak else None
        out["full_depth_tokens_per_s"] = round(out["tokens_per_s"] * flops / step_flops(full_cfg, spec["n_full"],
                                                                                         spec["seq"]), 1)
        if not out["loss_finite"]:
            raise RuntimeError(f"loss is not finite: {out['loss']}")
        return out

    report.stage(f"{name}.model", model_stage)
    report.stage(f"{name}.update", update)
    report.stage(f"{name}.logprobs", lambda: logprob_stage(state["model"], spec["prefill"], spec["decode"], device))
    del state["model"]
    reset_peak(device)
    report.stage(f"{name}.adam", lambda: adam_stage(spec["shard"], device, spec["steps"]))


def install_carried_wheels() -> dict[str, Any]:
    """Report what `scripts/gpu_check.sh` put on the path (it unpacks the wheels before Python starts)."""
    out: dict[str, Any] = {"site": os.environ.get("GPU_CHECK_SITE")}
    try:
        import fla

        out["fla"] = getattr(fla, "__version__", "?")
    except Exception as exc:  # triton missing, or no wheels carried
        out["fla_error"] = repr(exc)[:300]
    return out


def env_stage(cpu: bool, peak_arg: float | None) -> dict[str, Any]:
    import transformers

    out: dict[str, Any] = {"torch": torch.__version__, "transformers": transformers.__version__,
                           "device": "cpu" if cpu else torch.cuda.get_device_name(0),
                           "threads": torch.get_num_threads(), **install_carried_wheels()}
    if not cpu:
        free, total = torch.cuda.mem_get_info()
        out.update(cuda=torch.version.cuda, total_gib=round(total / GIB, 1), free_gib=round(free / GIB, 1),
                   free_bytes=free)
        out["peak_bf16_tflops"] = peak_arg or next((v for k, v in PEAK_BF16_TFLOPS.items() if k in out["device"]),
                                                   None)
    else:
        out["peak_bf16_tflops"] = peak_arg
    return out


def pass_specs(args: argparse.Namespace, cpu: bool, free: int) -> list[tuple[str, dict[str, Any]]]:
    """smoke (CPU, tiny) | preflight (2 layers, 2k tokens) | preflight + full (65,536 tokens, what fits)."""
    if args.cpu_smoke:
        full_cfg = model_config(TINY, TINY["num_hidden_layers"])
        return [("smoke", {"sizes": TINY, "layers": args.layers or 4, "seq": args.seq or 128, "steps": 1,
                           "chunk": 32, "shard": 1 << 16, "prefill": 16, "decode": 8, "full_cfg": full_cfg,
                           "n_full": count_params(full_cfg)})]
    fp = full_plan(args.layers, free)
    pre = {"sizes": QWEN35_9B, "layers": 2, "seq": 2048, "steps": 1, "chunk": 1024, "shard": 1 << 24,
           "prefill": 512, "decode": 32, "full_cfg": fp["full_cfg"], "n_full": fp["n_full"]}
    full = {"sizes": QWEN35_9B, **{k: fp[k] for k in ("layers", "seq", "steps", "chunk", "shard", "prefill",
                                                      "decode", "full_cfg", "n_full")}}
    if args.seq:
        full["seq"] = args.seq
    return [("preflight", pre)] + ([] if args.preflight else [("full", full)])


def fit_to_budget(spec: dict[str, Any], elapsed: float, peak: float) -> dict[str, Any]:
    """Drop 4 layers at a time while the full pass would overrun `BUDGET_S` (less 30 s of margin) by `ASSUMED`."""
    while spec["layers"] > 4:
        cfg = model_config(spec["sizes"], spec["layers"])
        est = sum(pass_seconds(cfg, count_params(cfg), spec["seq"], spec["steps"], spec["shard"], spec["decode"],
                               spec["prefill"], peak).values())
        if elapsed + est <= BUDGET_S - 30:
            break
        spec = {**spec, "layers": spec["layers"] - 4, "layers_cut_for_time": True}
    return spec


def bench_lines(r: dict[str, Any]) -> list[str]:
    """`BENCH <name> <value> <unit> goal <op><target> met|missed` for what the last pass measured."""
    lines = []

    def line(name: str, value: float | None, unit: str, op: str, target: float) -> None:
        if value is None:
            return
        met = value >= target if op == ">=" else value <= target
        lines.append(f"BENCH {name} {value:.4g} {unit} goal {op}{target:g} {'met' if met else 'missed'}")

    st = r.get("stages", {})
    last = next((p for p in ("full", "preflight", "smoke") if f"{p}.update" in st), None)
    up, ad, lp = (st.get(f"{last}.{k}", {}) for k in ("update", "adam", "logprobs"))
    if up.get("ok"):
        line("gpu_check_update_mfu", up.get("mfu_pct"), "%", ">=", 30)
        line("gpu_check_update_tokens_per_s", up.get("tokens_per_s"), "tok/s", ">=", 4000)
        line("gpu_check_update_full_depth_tokens_per_s", up.get("full_depth_tokens_per_s"), "tok/s", ">=", 4000)
        line("gpu_check_update_peak_memory", up.get("peak_memory_gib"), "GiB", "<=", 139)
    if lp.get("ok"):
        line("gpu_check_logprobs_peak_memory", lp.get("peak_memory_gib"), "GiB", "<=", 139)
        line("gpu_check_logprob_max_abs_diff", lp.get("max_abs_logprob_diff"), "nat", "<=", math.log(2.0))
        line("gpu_check_logprob_frac_outside_tis_2", lp.get("frac_outside_tis_2"), "frac", "<=", 0.001)
    if ad.get("ok"):
        line("gpu_check_adam_peak_memory", ad.get("peak_memory_gib"), "GiB", "<=", 139)
        line("gpu_check_adam_step_s", ad.get("adam_step_s"), "s", "<=", 1.0)
        line("gpu_check_adam_reload_h2d", ad.get("h2d_gb_per_s"), "GB/s", ">=", 10)
        line("gpu_check_adam_offload_d2h", ad.get("d2h_gb_per_s"), "GB/s", ">=", 10)
    if "total_s" in r:
        line("gpu_check_total_s", r["total_s"], "s", "<=", BUDGET_S)
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or "gpu_check_out"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--preflight", action="store_true", help="only the 2-layer, 2k-token pass")
    mode.add_argument("--cpu-smoke", action="store_true", help="every stage on CPU with a tiny config")
    mode.add_argument("--estimate", action="store_true", help="print the H200 time estimate; run nothing")
    p.add_argument("--seq", type=int, default=None, help="tokens of the full pass (default 65536)")
    p.add_argument("--layers", type=int, default=None, help="layers of the full pass (default: all that fit)")
    p.add_argument("--peak-tflops", type=float, default=None, help="bf16 peak for MFU (default: by device name)")
    args = p.parse_args(argv)
    if args.estimate:
        est = estimate_total(args.peak_tflops or 989.0, args.layers)
        print(json.dumps(est), flush=True)
        ok = est["total_s"] <= BUDGET_S
        print(f"BENCH gpu_check_estimated_total_s {est['total_s']:.4g} s goal <={BUDGET_S:g} "
              f"{'met' if ok else 'missed'}", flush=True)
        return 0 if ok else 1
    args.out.mkdir(parents=True, exist_ok=True)
    report = Report(args.out / "gpu_check.json")

    def on_term(signum: int, _frame: Any) -> None:
        report.data["status"] = f"killed by signal {signum}"
        report.write()
        emit(f"signal {signum}: report written to {report.path}")
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    cpu = args.cpu_smoke or not torch.cuda.is_available()
    if not args.cpu_smoke and cpu:
        emit("no CUDA device visible: use --cpu-smoke for the CPU run")
        report.data.update(status="failed", error="no CUDA device (torch.cuda.is_available() is False)")
        report.write()
        return 2
    return run(args, report, torch.device("cpu" if cpu else "cuda"), cpu)


def run(args: argparse.Namespace, report: Report, device: torch.device, cpu: bool) -> int:
    report.data.update(mode="cpu-smoke" if args.cpu_smoke else "preflight" if args.preflight else "full",
                       budget_s=BUDGET_S, estimate=None if cpu else estimate_total(args.peak_tflops or 989.0))
    code = 0
    try:
        e = report.stage("env", lambda: env_stage(cpu, args.peak_tflops))
        if not cpu and "fla" not in e:
            raise RuntimeError(f"flash-linear-attention is not importable ({e.get('fla_error')}): carry "
                               ".cache/gpu_check/wheels (scripts/gpu_check.sh --help)")
        for name, spec in pass_specs(args, cpu, int(e.get("free_bytes") or 0) or 139 * GIB):
            if name == "full":
                spec = fit_to_budget(spec, time.time() - report.data["started"], e.get("peak_bf16_tflops") or 989.0)
                report.data["full_layers"] = spec["layers"]
            run_pass(report, name, spec, device, e.get("peak_bf16_tflops"), require_fast=not cpu)
        report.data["status"] = "ok"
    except Exception as exc:
        report.data.update(status="failed", error=repr(exc))
        code = 1
    finally:
        report.data["total_s"] = round(time.time() - report.data["started"], 1)
        report.data["bench"] = bench_lines(report.data)
        report.write()
    for line in report.data["bench"]:
        print(line, flush=True)
    emit(f"{report.data['status']}: report at {report.path}")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
