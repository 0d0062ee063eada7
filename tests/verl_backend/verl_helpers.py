"""Sample builders shared by the verl backend tests (a uniquely named module, importable from each test)."""

from __future__ import annotations

from typing import Any

import numpy as np


def make_sample(rollout_id: str, sample_index: int, n_tokens: int, response: list[tuple[int, int]], *,
                group_id: str = "g", reward: float | None = 1.0, seed: int = 0, vocab: int = 8000) -> Any:
    """A Sample with random ids, mask-1 spans `response` ([start, end) pairs) and logged log-probs on them."""
    from swerl.train.schema import Sample

    rng = np.random.default_rng(seed)
    mask = np.zeros(n_tokens, dtype=np.int8)
    for s, e in response:
        mask[s:e] = 1
    return Sample(input_ids=rng.integers(0, vocab, n_tokens), loss_mask=mask,
                  rollout_logprobs=np.where(mask > 0, -3.0 * rng.random(n_tokens), 0.0), rollout_id=rollout_id,
                  group_id=group_id, sample_index=sample_index, reward=reward, policy_versions=[0])


def random_batch(seed: int, *, groups: int = 3, per_group: int = 3, max_samples: int = 3, vocab: int = 8000,
                 min_len: int = 6, max_len: int = 40) -> list[Any]:
    """Whole rollouts of random multi-turn samples: each rollout has 1..max_samples samples (split rollouts),
    each sample a prompt then alternating action / observation spans; rewards 0/1 per rollout."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(groups):
        for r in range(per_group):
            reward = float(rng.integers(0, 2))
            for j in range(int(rng.integers(1, max_samples + 1))):
                n = int(rng.integers(min_len, max_len + 1))
                start, spans = int(rng.integers(1, max(2, n // 3))), []
                while start < n:
                    end = min(n, start + int(rng.integers(1, 6)))
                    spans.append((start, end))
                    start = end + int(rng.integers(1, 6))
                out.append(make_sample(f"r{g}.{r}", j, n, spans, group_id=f"g{g}", reward=reward,
                                       seed=int(rng.integers(1 << 30)), vocab=vocab))
    return out


def engine_backward(model: Any, td: Any, dp_size: int, loss_fn: Any, cfg: Any, budget: int = 48,
                    metrics: list[dict[str, Any]] | None = None) -> float:
    """Re-enact verl's worker update on CPU: per rank `train_mini_batch` (one mini-batch) ->
    `forward_backward_batch` (token-budget micro-batches) -> `forward_step` (packed no-padding forward,
    log-probs of the rolled ids) -> `loss_fn`. FSDP's averaging over ranks is a division by dp_size.
    Gradients accumulate in `model`; returns the step loss; each micro-batch's metrics go to `metrics`."""
    import torch
    from verl.utils import tensordict_utils as tu
    from verl.workers.engine.utils import prepare_micro_batches

    from swerl.train.losses import token_logprobs

    total = 0.0
    batch_num_tokens = int(td["loss_mask"].sum())  # verl all-reduces this over the dp group
    for rank_td in tu.chunk_tensordict(td, dp_size):
        (mb,) = list(tu.make_iterator(rank_td, mini_batch_size=len(rank_td), epochs=1,
                                      dataloader_kwargs={"shuffle": False}))
        tu.assign_non_tensor(mb, use_dynamic_bsz=True, max_token_len_per_gpu=budget, dp_size=dp_size,
                             batch_num_tokens=batch_num_tokens)
        micro, _ = prepare_micro_batches(mb)
        for m in micro:
            ids, pos = m["input_ids"], m["position_ids"]
            logits = model(input_ids=ids.values()[None], position_ids=pos.values()[None], use_cache=False).logits[0]
            lp = token_logprobs(logits, torch.roll(ids.values(), -1))
            out = torch.nested.nested_tensor_from_jagged(lp, ids.offsets())
            loss, mb_metrics = loss_fn(cfg, {"log_probs": out}, m)
            if metrics is not None:
                metrics.append(mb_metrics)
            (loss / dp_size).backward()
            total += float(loss) / dp_size
    return total


def with_policy_logprobs(samples: list[Any], model: Any, *, noise: float = 0.3, seed: int = 5) -> list[Any]:
    """Set each sample's logged rollout log-probs to `model`'s own (plus Gaussian `noise`), as if `model` had
    generated them: ratios near 1, so PPO's clip and DIS's mask bite on some tokens, not on all of them."""
    import torch

    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for s in samples:
            ids = torch.as_tensor(np.asarray(s.input_ids), dtype=torch.long)[None]
            lp = torch.log_softmax(model(input_ids=ids).logits[0].float(), -1)
            tok = np.zeros(len(s.input_ids))
            tok[1:] = lp[:-1].gather(-1, ids[0, 1:, None])[:, 0].numpy()
            s.rollout_logprobs[:] = np.where(np.asarray(s.loss_mask) > 0, tok + rng.normal(0, noise, len(tok)), 0.0)
    return samples


TOOL_CALL_TARGETS = (
    ('<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>', 2),
    ('<tool_call>\n{"name": "bash", "arguments": {"command": "cat README.md"}}\n</tool_call>', 1),
    ('<tool_call>\n{"name": "bash", "arguments": {"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}}\n'
     '</tool_call>', 1),
)
"""Assistant turns in Qwen's JSON tool-call format (which vLLM's `hermes` parser reads), with sampling weights."""


def warm_start_tool_caller(out: Any, *, hidden: int = 128, layers: int = 2, heads: int = 2, max_context: int = 4096,
                           steps: int = 1000, max_ctx: int = 100, seed: int = 0) -> Any:
    """A random-init tiny model (the recipe's architecture and tokenizer) fitted in 1000 Adam steps to answer a short
    random context ending in an assistant header with one of `TOOL_CALL_TARGETS` (at random position offsets).

    Why: a random model writes 96-token turns without an end token, so every trajectory has the same length and
    every advantage is 0. This one ends its turns after `<tool_call>`-shaped text of varying length, which
    vLLM's `hermes` parser attempts and the overlong penalty turns into different rewards. It does NOT write
    valid JSON calls on the harness's ~2k-token prompts (seen in runs: fitted on short contexts, its attention
    spreads over a long prompt; fits on 3k-token contexts did not converge in the time tried either), so
    vLLM returns no parsed `tool_calls` for it."""
    from pathlib import Path

    import torch

    from swerl.models import build_tiny_model, load_tokenizer

    out = Path(out)
    tok = load_tokenizer("tiny-bpe", vocab_size=8192, field="model.tokenizer")
    model = build_tiny_model(tok, hidden_size=hidden, num_layers=layers, num_heads=heads, seed=seed,
                             max_position_embeddings=max_context)
    end = tok.convert_tokens_to_ids("<|im_end|>")
    head = tok("<|im_end|>\n<|im_start|>assistant\n", add_special_tokens=False)["input_ids"]
    targets = [tok(t, add_special_tokens=False)["input_ids"] + [end] for t, _ in TOOL_CALL_TARGETS]
    weights = np.array([w for _, w in TOOL_CALL_TARGETS], dtype=np.float64)
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: threads only contend with the other processes on the machine
    model.train()
    for _ in range(steps):
        loss = torch.zeros(())
        for _ in range(2):
            ctx = list(rng.integers(300, len(tok) - 64, int(rng.integers(8, max_ctx)))) + head
            target = targets[int(rng.choice(len(targets), p=weights / weights.sum()))]
            ids = torch.tensor([ctx + target])
            labels = ids.clone()
            labels[0, :len(ctx)] = -100
            start = int(rng.integers(0, max_context - ids.shape[1]))
            pos = torch.arange(start, start + ids.shape[1])[None]
            loss = loss + model(input_ids=ids, position_ids=pos, labels=labels).loss / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.set_num_threads(threads)
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out
