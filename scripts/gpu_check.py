"""Torch-only device check for the Qwen3.5-9B recipes: memory and speed of swerl's loss at 32k tokens.

    python scripts/gpu_check.py [--preflight | --cpu-smoke] [--out DIR] [--seq 32768] [--layers N]

Why torch only: a lent accelerator machine has torch + transformers and nothing else (no verl,
vLLM or Ray, nothing installable), so this measures what decides whether a real verl run fits
and how fast it goes — the policy's forward+backward under swerl's loss — with the same model
architecture, and nothing that needs a cluster stack.

Stages (the JSON report is rewritten atomically after every stage, and on SIGTERM):

1. `env`      torch / transformers / device, memory, the bf16 peak used for MFU.
2. `model`    a random-init model of Qwen3.5-9B's text architecture (transformers'
              `Qwen3_5TextConfig` defaults: 32 layers, 3 of 4 Gated DeltaNet, hidden 4096,
              vocab 248,320), all layers if the memory estimate fits, else the largest multiple
              of 4 layers that does (results are then also scaled to the full depth by FLOPs).
3. `loss_step` swerl's PPO-clip loss with rollout-mean aggregation (`swerl.train.losses`) on one
              sample of `--seq` tokens, forward + backward with gradient checkpointing and a
              chunked log-prob head: peak memory, tokens/s, MFU (6 N T + attention FLOPs).
4. `logits`   the head alone at `--seq` x vocabulary: log-probs (with gradient) and entropy,
              chunked (checkpointed per chunk) vs un-chunked; peak memory of each (an OOM of the
              un-chunked path is recorded, not fatal), and their numbers must agree.

`--preflight` runs every stage at 2 layers and 2k tokens (well under a minute on a GPU): it
proves the code paths on the device before the long run spends the budget. `--cpu-smoke` runs
them on CPU with a tiny config (what `make test` runs). Ends with `BENCH` lines. Exit 0 only if
every stage passed.
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
from torch.utils.checkpoint import checkpoint

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # swerl from this checkout, not installed

from swerl.train.losses import (  # after the path fix-up above
    StepDenominators,
    aggregate_loss,
    ppo_clip_loss,
)

GIB = 2**30
PEAK_BF16_TFLOPS = {"H200": 989.0, "H100": 989.0, "H800": 989.0, "A100": 312.0, "A800": 312.0, "L40S": 362.0,
                    "B200": 2250.0, "GH200": 989.0}
"""Dense bf16 peak of the datasheet, per device-name keyword (MFU's denominator; `--peak-tflops` overrides)."""

QWEN35_9B = {"vocab_size": 248320, "hidden_size": 4096, "intermediate_size": 12288, "num_hidden_layers": 32,
             "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 256}
"""Qwen3.5-9B's text tower as transformers' `Qwen3_5TextConfig` defaults describe it."""

TINY = {"vocab_size": 1024, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "linear_key_head_dim": 16,
        "linear_value_head_dim": 16, "linear_num_key_heads": 2, "linear_num_value_heads": 4}


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

        kw = {k: v for k, v in kw.items() if not k.startswith("linear_")}
        return Qwen3Config(**kw)


def build_model(cfg: Any, device: torch.device, dtype: torch.dtype) -> Any:
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    with torch.device(device):
        model = AutoModelForCausalLM.from_config(cfg, dtype=dtype, attn_implementation="sdpa")
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.config.use_cache = False
    model.train()
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
    attn = 12.0 * full * cfg.num_attention_heads * head_dim * tokens * tokens / 2
    return dense + attn


def layers_that_fit(cfg_full: Any, n_full: dict[str, int], seq: int, free_bytes: int, dtype_bytes: int) -> int:
    """Largest multiple of 4 layers (<= the full depth) whose estimated peak fits 85% of free memory.

    Estimate: weights + gradients in the compute dtype, one checkpointed hidden state per layer,
    one layer's recomputed activations (~24 hidden-sized tensors plus the MLP's), the chunked head."""
    h, v = cfg_full.hidden_size, cfg_full.vocab_size
    act_layer = seq * h * dtype_bytes
    recompute = seq * (24 * h + 4 * cfg_full.intermediate_size) * dtype_bytes
    head = 3 * 4096 * v * 4
    for layers in range(cfg_full.num_hidden_layers, 0, -4):
        params = n_full["embed_and_head"] + layers * n_full["per_layer"]
        need = 2 * params * dtype_bytes + layers * act_layer + recompute + head + 2 * GIB
        if need <= 0.85 * free_bytes:
            return layers
    return min(4, cfg_full.num_hidden_layers)


# ---- the head: log-probs and entropy, chunked or not ----------------------------------------------------------

def head_unchunked(hidden: torch.Tensor, weight: torch.Tensor, labels: torch.Tensor) -> tuple[torch.Tensor,
                                                                                              torch.Tensor]:
    """All T x V logits at once (what an un-chunked update does): log p(label) with gradient, entropy without."""
    logits = (hidden @ weight.T).float()
    logp = -torch.nn.functional.cross_entropy(logits, labels, reduction="none")
    with torch.no_grad():
        lsm = torch.log_softmax(logits, dim=-1)
        entropy = -(lsm.exp() * lsm).sum(-1)
    return logp, entropy


def _chunk_logp(hidden: torch.Tensor, weight: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    logits = (hidden @ weight.T).float()
    return -torch.nn.functional.cross_entropy(logits, labels, reduction="none")


@torch.no_grad()
def _chunk_entropy(hidden: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    lsm = torch.log_softmax((hidden @ weight.T).float(), dim=-1)
    return -(lsm.exp() * lsm).sum(-1)


def head_chunked(hidden: torch.Tensor, weight: torch.Tensor, labels: torch.Tensor,
                 chunk: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The same numbers, `chunk` positions at a time, each chunk's logits recomputed in backward
    (checkpoint): at most one chunk's logits (and their gradient) exist at once."""
    logps, ents = [], []
    for s in range(0, hidden.shape[0], chunk):
        h, y = hidden[s:s + chunk], labels[s:s + chunk]
        logps.append(checkpoint(_chunk_logp, h, weight, y, use_reentrant=False))
        ents.append(_chunk_entropy(h.detach(), weight.detach()))
    return torch.cat(logps), torch.cat(ents)


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


def is_oom(exc: BaseException) -> bool:
    return isinstance(exc, torch.cuda.OutOfMemoryError) or "out of memory" in str(exc).lower()


def swerl_loss(logp: torch.Tensor, rollout_logp: torch.Tensor, adv: torch.Tensor, rollout_index: torch.Tensor,
               den: StepDenominators) -> torch.Tensor:
    """swerl's PPO-clip (0.2 / 0.28, dual-clip 3) with rollout-mean aggregation, as the qwen9b recipe trains."""
    tok_loss, _ = ppo_clip_loss(logp, rollout_logp, adv, 0.2, 0.28, 3.0)
    return aggregate_loss(tok_loss, torch.ones_like(tok_loss), rollout_index, "rollout-mean",
                          sample_index=torch.zeros_like(rollout_index), denominators=den)


# ---- stages ----------------------------------------------------------------------------------------------------

def loss_step(model: Any, seq: int, steps: int, chunk: int, device: torch.device) -> dict[str, Any]:
    """Forward + backward of one `seq`-token sample (3/4 of it response) under swerl's loss; `steps` timed."""
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
    times, loss_val = [], 0.0
    reset_peak(device)
    for i in range(steps + 1):  # step 0 warms up kernels and the allocator
        sync(device)
        t0 = time.perf_counter()
        hidden = model.model(input_ids=ids, use_cache=False).last_hidden_state[0, prompt:-1]
        logp, entropy = head_chunked(hidden, head, targets, chunk)
        loss = swerl_loss(logp, rollout_logp, adv, rollout_index, den)
        loss.backward()
        sync(device)
        if i:
            times.append(time.perf_counter() - t0)
        loss_val = float(loss.detach())
        model.zero_grad(set_to_none=True)
        del hidden, logp, loss
    dt = sum(times) / len(times)
    return {"tokens": seq, "response_tokens": n, "step_s": round(dt, 4), "tokens_per_s": round(seq / dt, 1),
            "peak_memory_gib": peak_gib(device), "loss": loss_val, "entropy_mean": float(entropy.mean()),
            "loss_finite": math.isfinite(loss_val)}


def logits_stage(vocab: int, hidden_size: int, seq: int, chunk: int, device: torch.device,
                 dtype: torch.dtype) -> dict[str, Any]:
    """Peak memory of log-probs + entropy over `seq` x `vocab` logits, chunked vs un-chunked, and agreement."""
    g = torch.Generator(device="cpu").manual_seed(2)
    weight = (torch.randn(vocab, hidden_size, generator=g) * 0.02).to(device, dtype).requires_grad_(True)
    hidden = torch.randn(seq, hidden_size, generator=g).to(device, dtype).requires_grad_(True)
    labels = torch.randint(0, vocab, (seq,), generator=g).to(device)
    out: dict[str, Any] = {"tokens": seq, "vocab": vocab, "chunk": chunk,
                           "full_logits_fp32_gib": round(seq * vocab * 4 / GIB, 3)}
    results: dict[str, Any] = {}
    for name in ("chunked", "unchunked"):  # chunked first: an OOM of the other must not hide its number
        weight.grad = hidden.grad = None
        reset_peak(device)
        base = torch.cuda.memory_allocated(device) if device.type == "cuda" else 0
        try:
            sync(device)
            t0 = time.perf_counter()
            logp, ent = head_chunked(hidden, weight, labels, chunk) if name == "chunked" else \
                head_unchunked(hidden, weight, labels)
            logp.sum().backward()
            sync(device)
            results[name] = (logp.detach().float().cpu(), ent.float().cpu(), weight.grad.float().cpu())
            pk = peak_gib(device)
            out[name] = {"ok": True, "s": round(time.perf_counter() - t0, 3),
                         "peak_gib": pk, "peak_over_inputs_gib": None if pk is None else round(pk - base / GIB, 3)}
            del logp, ent
        except Exception as exc:
            if not is_oom(exc):
                raise
            out[name] = {"ok": False, "oom": True, "error": str(exc).splitlines()[0][:300]}
            emit(f"logits {name}: out of memory at {seq} x {vocab} (recorded)")
        weight.grad = hidden.grad = None
        reset_peak(device)
    if "chunked" not in results:
        raise RuntimeError("the chunked head did not run")
    if "unchunked" in results:
        (a, ea, ga), (b, eb, gb) = results["chunked"], results["unchunked"]
        out["max_abs_diff_logp"] = float((a - b).abs().max())
        out["max_abs_diff_entropy"] = float((ea - eb).abs().max())
        out["max_rel_diff_grad"] = float((ga - gb).norm() / gb.norm().clamp(min=1e-30))
        tol = 1e-4 if dtype == torch.float32 else 2e-2
        out["agree"] = out["max_abs_diff_logp"] < tol and out["max_rel_diff_grad"] < tol
        if not out["agree"]:
            raise RuntimeError(f"chunked and un-chunked heads disagree: {out}")
        c, u = out["chunked"].get("peak_over_inputs_gib"), out["unchunked"].get("peak_over_inputs_gib")
        if c and u:
            out["unchunked_over_chunked_memory"] = round(u / c, 2)
    return out


def bench_lines(r: dict[str, Any]) -> list[str]:
    """`BENCH <name> <value> <unit> goal <op><target> met|missed` for what was measured."""
    lines = []

    def line(name: str, value: float | None, unit: str, op: str, target: float) -> None:
        if value is None:
            return
        met = value >= target if op == ">=" else value <= target
        lines.append(f"BENCH {name} {value:.4g} {unit} goal {op}{target:g} {'met' if met else 'missed'}")

    st = r.get("stages", {})
    ls, lg = st.get("loss_step", {}), st.get("logits", {})
    if ls.get("ok"):
        line("gpu_check_loss_tokens_per_s", ls.get("tokens_per_s"), "tok/s", ">=", 4000)
        line("gpu_check_loss_full_depth_tokens_per_s", ls.get("full_depth_tokens_per_s"), "tok/s", ">=", 4000)
        line("gpu_check_loss_mfu", ls.get("mfu_pct"), "%", ">=", 30)
        line("gpu_check_loss_peak_memory", ls.get("peak_memory_gib"), "GiB", "<=", 120)
    if lg.get("ok"):
        line("gpu_check_logits_chunked_peak", (lg.get("chunked") or {}).get("peak_over_inputs_gib"), "GiB", "<=", 16)
        line("gpu_check_logits_unchunked_over_chunked", lg.get("unchunked_over_chunked_memory"), "x", ">=", 4)
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=Path(os.environ.get("OUT") or "gpu_check_out"))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--preflight", action="store_true", help="every stage at 2 layers and 2k tokens (< 1 min)")
    mode.add_argument("--cpu-smoke", action="store_true", help="every stage on CPU with a tiny config")
    p.add_argument("--seq", type=int, default=None, help="tokens per sample (default 32768)")
    p.add_argument("--layers", type=int, default=None, help="layers to build (default: all that fit)")
    p.add_argument("--logits-seq", type=int, default=None, help="tokens of the head-only stage (default --seq)")
    p.add_argument("--chunk", type=int, default=None, help="positions per head chunk (default 4096)")
    p.add_argument("--steps", type=int, default=None, help="timed steps after one warm-up (default 2; 1 on CPU)")
    p.add_argument("--peak-tflops", type=float, default=None, help="bf16 peak for MFU (default: by device name)")
    args = p.parse_args(argv)
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
    device = torch.device("cpu" if cpu else "cuda")
    dtype = torch.float32 if cpu else torch.bfloat16
    sizes = TINY if args.cpu_smoke else QWEN35_9B
    seq = args.seq or (128 if args.cpu_smoke else 2048 if args.preflight else 32768)
    chunk = args.chunk or (32 if args.cpu_smoke else 4096)
    report.data.update(mode="cpu-smoke" if args.cpu_smoke else "preflight" if args.preflight else "full",
                       seq=seq, chunk=chunk, dtype=str(dtype).removeprefix("torch."))
    code = 0
    try:
        def env() -> dict[str, Any]:
            import transformers

            out: dict[str, Any] = {"torch": torch.__version__, "transformers": transformers.__version__,
                                   "device": "cpu" if cpu else torch.cuda.get_device_name(0),
                                   "threads": torch.get_num_threads()}
            if not cpu:
                free, total = torch.cuda.mem_get_info()
                out.update(cuda=torch.version.cuda, total_gib=round(total / GIB, 1), free_gib=round(free / GIB, 1))
                name = out["device"]
                out["peak_bf16_tflops"] = args.peak_tflops or next(
                    (v for k, v in PEAK_BF16_TFLOPS.items() if k in name), None)
            else:
                out["peak_bf16_tflops"] = args.peak_tflops
            return out

        e = report.stage("env", env)
        full_cfg = model_config(sizes, sizes["num_hidden_layers"])
        n_full = count_params(full_cfg)
        if args.layers:
            layers = args.layers
        elif args.preflight:
            layers = 2
        elif cpu:
            layers = sizes["num_hidden_layers"]
        else:
            layers = layers_that_fit(full_cfg, n_full, seq, torch.cuda.mem_get_info()[0], 2)
        cfg = model_config(sizes, layers)

        state: dict[str, Any] = {}

        def model_stage() -> dict[str, Any]:
            state["model"] = build_model(cfg, device, dtype)
            n = count_params(cfg)
            return {"architecture": type(state["model"]).__name__, "layers": layers,
                    "full_layers": full_cfg.num_hidden_layers, "layer_types": list(getattr(cfg, "layer_types", [])),
                    "params": n["total"], "full_depth_params": n_full["total"], "vocab": cfg.vocab_size,
                    "hidden": cfg.hidden_size,
                    "linear_attention_kernels": _fast_linear_attention(),
                    "memory_after_build_gib": None if cpu else round(torch.cuda.memory_allocated() / GIB, 3)}

        report.stage("model", model_stage)

        def loss_stage() -> dict[str, Any]:
            out = loss_step(state["model"], seq, args.steps or (1 if cpu else 2), chunk, device)
            flops = step_flops(cfg, count_params(cfg), seq)
            full_flops = step_flops(full_cfg, n_full, seq)
            out["model_tflops_per_step"] = round(flops / 1e12, 3)
            peak = e.get("peak_bf16_tflops")
            out["mfu_pct"] = round(100 * flops / out["step_s"] / (peak * 1e12), 2) if peak else None
            out["full_depth_tokens_per_s"] = round(out["tokens_per_s"] * flops / full_flops, 1)
            out["note"] = ("gradient checkpointing per layer, chunked head; no optimizer step (the qwen9b recipe "
                           "offloads Adam); full-depth tokens/s scales the measured step by model FLOPs")
            if not out["loss_finite"]:
                raise RuntimeError(f"loss is not finite: {out['loss']}")
            return out

        report.stage("loss_step", loss_stage)
        del state["model"]
        reset_peak(device)
        report.stage("logits", lambda: logits_stage(cfg.vocab_size, cfg.hidden_size, args.logits_seq or seq, chunk,
                                                     device, dtype))
        report.data["status"] = "ok"
    except Exception as exc:
        report.data.update(status="failed", error=repr(exc))
        code = 1
    finally:
        report.data["bench"] = bench_lines(report.data)
        report.data["total_s"] = round(time.time() - report.data["started"], 1)
        report.write()
    for line in report.data["bench"]:
        print(line, flush=True)
    emit(f"{report.data['status']}: report at {report.path}")
    return code


def _fast_linear_attention() -> bool:
    """Whether flash-linear-attention's kernels are installed (else transformers' torch fallback runs)."""
    import importlib.util

    return importlib.util.find_spec("fla") is not None and importlib.util.find_spec("causal_conv1d") is not None


if __name__ == "__main__":
    raise SystemExit(main())
