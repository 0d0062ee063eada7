"""Training samples of recorded rollouts, rebuilt exactly as the trainer built them, with why each split.

`assemble` on the store's binary batch is the trainer's own path (`swerl.train.loop.update.build_batch`).
Assembly reports split causes only as counts, so the viewer attributes them: each recorded call is
matched to the sample holding its prompt ++ response on the loss mask (a call in no sample is a
client retry assembly dropped), and the cause between samples j and j+1 is `classify_merge_failure`
on exactly what assembly compared: sample j's sequence, its calls' response spans, and the prompt of
the first call of sample j+1. `tests/view` checks the attributed causes add up to assembly's counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from swerl.tokens import F_ERROR, KIND_CODE, USABLE, TokenBatch
from swerl.train import assembly
from swerl.train.assembly import assemble, classify_merge_failure
from swerl.train.schema import AssemblyStats, Sample


@dataclass
class RolloutSamples:
    """One rollout's samples; `chains[j]`: the batch rows (calls) in sample j; `causes[j]`: why sample j
    closed (None for the last); `dropped`: rows of usable calls in no sample (retries assembly dropped)."""

    samples: list[Sample]
    chains: list[list[int]] = field(default_factory=list)
    causes: list[str | None] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)


def rebuild(batch: TokenBatch, rollout_ids: list[str], mode: str, tokenizer: Callable[[], Any]
            ) -> tuple[dict[str, RolloutSamples], AssemblyStats]:
    """Assemble these rollouts (current attempts) as the trainer did; per rollout, its samples and split causes.

    Samples do not depend on the tokenizer (only the causes of splits do), so `tokenizer()` is called only
    when a rollout split: a page of single-sample rollouts never waits for a tokenizer to load. The stats'
    merge-failure counts are therefore tokenizer-less; the attributed causes are the trainer's."""
    samples, stats = assemble(batch, mode=mode, tokenizer=None, rollouts=rollout_ids)  # type: ignore[arg-type]
    per: dict[str, list[Sample]] = {}
    for s in samples:
        per.setdefault(s.rollout_id, []).append(s)
    rows = batch.rows_by_rollout()
    out = {}
    for rid, smp in per.items():
        rs = _attribute(batch, rows.get(rid, []), smp)
        if len(smp) > 1:
            tok = tokenizer()
            think = assembly._think_ids_of(tok)  # the ids assemble itself uses for this tokenizer
            rs.causes = [_cause(batch, rs, j, mode, tok, think) for j in range(len(smp) - 1)]
        rs.causes.append(None)
        out[rid] = rs
    return out, stats


def usable_calls(batch: TokenBatch, rows: list[int]) -> list[int]:
    """Rows of model calls with prompt, response and log-probs and no error, in seq order."""
    kind, flags, seq = batch.kind, batch.flags, batch.seq
    calls = [r for r in rows if kind[r] == KIND_CODE["model_request"] and int(flags[r]) & (USABLE | F_ERROR) == USABLE]
    return sorted(calls, key=lambda r: int(seq[r]))


def _attribute(batch: TokenBatch, rows: list[int], samples: list[Sample]) -> RolloutSamples:
    """Match each call to the first sample (from the current one on) whose sequence starts with the call's
    prompt ++ response and trains on its response tokens."""
    out = RolloutSamples(samples, [[] for _ in samples])
    j = 0
    for r in usable_calls(batch, rows):
        full = batch.full(r)
        plen, flen = int(batch.prompt_len[r]), int(batch.full_len[r])
        k = next((k for k in range(j, len(samples)) if _holds(samples[k], full, plen, flen)), None)
        if k is None:
            out.dropped.append(r)
            continue
        j = k
        out.chains[k].append(r)
    return out


def _holds(s: Sample, full: np.ndarray, plen: int, flen: int) -> bool:
    ids = s.input_ids
    return len(full) <= len(ids) and ids[:len(full)].tobytes() == np.ascontiguousarray(full, np.int32).tobytes() \
        and bool(s.loss_mask[plen:flen].all())


def _cause(batch: TokenBatch, rs: RolloutSamples, j: int, mode: str, tokenizer: Any,
           think: tuple[int, int] | None) -> str:
    if mode == "per_call":
        return "per_call"
    chain, nxt = rs.chains[j], rs.chains[j + 1]
    if not chain or not nxt:
        return "unknown"
    spans = [(int(batch.prompt_len[c]), int(batch.full_len[c])) for c in chain]
    return classify_merge_failure(rs.samples[j].input_ids, spans, batch.prompt(nxt[0]), tokenizer=tokenizer,
                                  think_token_ids=think)


class TokenText:
    """Token id -> its text, cached (a vocabulary is small; a rollout repeats its tokens)."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self._cache: dict[int, str] = {}

    def __call__(self, ids: np.ndarray) -> list[str]:
        cache, tok = self._cache, self.tokenizer
        out = []
        for i in ids.tolist():
            t = cache.get(i)
            if t is None:
                t = cache[i] = f"<{i}>" if tok is None else tok.decode([i], skip_special_tokens=False)
            out.append(t)
        return out


__all__ = ["RolloutSamples", "TokenText", "rebuild", "usable_calls"]
