"""Benchmark the torch backend's update step against a plain Hugging Face forward/backward (CPU).

Same model (random-init Qwen2, tiny BPE vocab), same samples, same packed micro-batches:

- plain HF:  for each micro-batch `model(input_ids, position_ids, labels).loss.backward()`
             (cross-entropy on the response tokens, logits for every position), then AdamW;
             its tensors are built before the clock starts.
- swerl:     `TorchBackend.update(samples, advantages)`: planning, collation, log-probs of
             the response tokens, PPO-clip against the logged log-probs, rollout-mean
             aggregation with whole-step denominators, entropy/clip/KL metrics, grad-norm
             clipping, AdamW.

Goal: swerl's loss path costs at most 10% more than the plain step. Also reported:
padding waste of the packed plan (rows of at most `--max-context` tokens, micro-batches of
at most `--micro-batch-tokens` padded tokens) against one-sample-per-row batching, on
samples assembled from generated mini-swe-agent-like traces (goal <= 5%).

Usage: .venv/bin/python bench/update_step.py [--repeat 5] [--threads 1]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from synthetic_traces import QWEN3_THINK_DROPPING_TEMPLATE, TraceConfig, make_rollout_events

from swerl.config import AlgorithmConfig, TrainConfig
from swerl.models import build_tiny_model, build_tiny_tokenizer
from swerl.train.advantage import compute_advantages
from swerl.train.assembly import assemble
from swerl.train.backends.torch import TorchBackend
from swerl.train.batching import collate, plan_batches
from swerl.train.losses import StepDenominators
from swerl.train.schema import Sample

GOAL_OVERHEAD = 0.10
GOAL_WASTE = 0.05


def naive_padding_waste(samples: list[Sample], micro_batch_tokens: int) -> float:
    """One sample per row, rows in arrival order, padded to the longest row within the token budget."""
    padded = real = 0
    rows: list[int] = []
    for s in [*samples, None]:
        n = s.num_tokens if s is not None else 0
        if s is None or (rows and (len(rows) + 1) * max(*rows, n) > micro_batch_tokens):
            padded += len(rows) * max(rows, default=0)
            real += sum(rows)
            rows = []
        if s is not None:
            rows.append(n)
    return 1 - real / padded


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1: steadier on a shared machine)")
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--micro-batch-tokens", type=int, default=8192)
    ap.add_argument("--max-context", type=int, default=4096)
    ap.add_argument("--update-rollouts", type=int, default=2, help="rollouts in the timed update")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    t_start = time.perf_counter()

    tok = build_tiny_tokenizer()
    cfg = TraceConfig(turns_min=3, turns_max=10, obs_lines_max=20, task_paragraphs=2, thinking=True)
    events: list[dict[str, Any]] = []
    for r in range(args.rollouts):
        # half the rollouts use a think-dropping template, so rollouts have 1..N samples of mixed lengths
        events += make_rollout_events(tok, rollout_id=f"r{r}", group_id=f"g{r // 4}", seed=r, config=cfg,
                                      chat_template=QWEN3_THINK_DROPPING_TEMPLATE if r % 2 else None,
                                      reward=float(r % 3 == 0))
    samples, stats = assemble(events, tokenizer=tok)
    samples = [s for s in samples if s.num_tokens <= args.max_context]
    lengths = [s.num_tokens for s in samples]
    print(f"{stats.num_rollouts} rollouts -> {len(samples)} samples <= {args.max_context} tokens "
          f"(lengths {min(lengths)}..{max(lengths)}, mean {np.mean(lengths):.0f}; mean {stats.mean_samples_per_rollout:.2f}"
          " samples/rollout)")

    # ---- padding waste over all samples, one step of 8 rollouts at a time ----------------------------------
    plans = plan_batches(samples, micro_batch_tokens=args.micro_batch_tokens, row_tokens=args.max_context,
                         rollouts_per_step=8)
    padded = sum(p.padded_tokens for p in plans)
    real = sum(p.num_tokens for p in plans)
    waste = 1 - real / padded
    by_step = [s for p in plans for s in [samples[i] for i in p.sample_ids]]
    naive = naive_padding_waste(by_step, args.micro_batch_tokens)
    print(f"padding waste: packed {waste:.2%} ({sum(len(r) for p in plans for r in p.ranks)} micro-batches) vs "
          f"one sample per row {naive:.2%}")

    # ---- update step overhead ------------------------------------------------------------------------------
    keep = {f"r{r}" for r in range(args.update_rollouts)}
    batch = [s for s in samples if s.rollout_id in keep]
    model = build_tiny_model(tok, hidden_size=args.hidden, num_layers=args.layers, num_heads=4, seed=0)
    backend = TorchBackend(model, AlgorithmConfig(clip_ratio_c=None),
                           TrainConfig(lr=1e-5, micro_batch_tokens=args.micro_batch_tokens),
                           row_tokens=args.max_context, pad_token_id=tok.pad_token_id)
    batch = [s.model_copy(update={"rollout_logprobs": lp}) for s, lp in
             zip(batch, backend.compute_logprobs(batch), strict=True)]
    adv = compute_advantages(batch)
    plan = plan_batches(batch, micro_batch_tokens=args.micro_batch_tokens, row_tokens=args.max_context)[0]
    _, ridx = StepDenominators.from_samples(batch)
    tensors = []
    for rank in plan.ranks:
        for mb in rank:
            b = collate(mb, batch, ridx, tok.pad_token_id)
            labels = torch.where(b.target_mask, b.target_ids, torch.full_like(b.target_ids, -100))
            # HF shifts labels itself: label[t] is predicted at t-1
            hf_labels = torch.cat([torch.full_like(labels[:, :1], -100), labels[:, :-1]], dim=1)
            tensors.append((b.input_ids, b.position_ids, hf_labels))
    n_tokens = plan.num_tokens
    print(f"update: {len(batch)} samples, {n_tokens} tokens, {sum(int(s.loss_mask.sum()) for s in batch)} response "
          f"tokens, {len(tensors)} micro-batches; model {sum(p.numel() for p in model.parameters()) / 1e6:.2f}M params")

    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)

    def plain_step() -> None:
        model.train()
        opt.zero_grad(set_to_none=True)
        for ids, pos, labels in tensors:
            model(input_ids=ids, position_ids=pos, labels=labels, use_cache=False).loss.backward()
        opt.step()

    def swerl_step() -> None:
        backend.update(batch, adv)

    def swerl_full_logits_step() -> None:  # the loss path alone: LM head on every position, like plain HF
        backend._selective = False
        try:
            backend.update(batch, adv)
        finally:
            backend._selective = True

    steps = {"plain": plain_step, "swerl": swerl_step, "swerl_full": swerl_full_logits_step}
    times: dict[str, list[float]] = {k: [] for k in steps}
    for fn in steps.values():
        fn()  # warm-up
    for _ in range(args.repeat):  # interleaved, so machine noise hits every variant alike
        for name, fn in steps.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    tp, ts, tf = (min(times[k]) for k in ("plain", "swerl", "swerl_full"))
    print("times (s): " + "; ".join(f"{k} " + " ".join(f"{t:.2f}" for t in v) for k, v in times.items()))
    overhead = ts / tp - 1
    print(f"plain HF step {tp:.2f}s ({n_tokens / tp:.0f} tok/s); swerl update {ts:.2f}s ({n_tokens / ts:.0f} tok/s); "
          f"overhead {overhead:+.1%}")
    print(f"swerl update with full-sequence logits {tf:.2f}s: overhead {tf / tp - 1:+.1%} "
          "(the loss path itself, response-only LM head disabled)")
    print(f"total bench time {time.perf_counter() - t_start:.0f}s")
    print(f"BENCH update_overhead {overhead * 100:.1f} % goal <={GOAL_OVERHEAD * 100:g} "
          f"{'met' if overhead <= GOAL_OVERHEAD else 'missed'}")
    print(f"BENCH packing_padding_waste {waste * 100:.2f} % goal <={GOAL_WASTE * 100:g} "
          f"{'met' if waste <= GOAL_WASTE else 'missed'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
