"""Test helpers over `swerl.tokens.TokenBatch`: a batch read back as event dicts, a batch from store rows,
the logical token count (what full-prompt records would hold), and a prompt's delta against one parent
(bench/token_traffic.py records with it; the gateway's recorder uses `swerl.tokens.encode_prompt`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from swerl.gateway.client import GatewayClient
from swerl.tokens import (
    _COLUMNS,
    F_ERROR,
    F_LOGPROBS,
    F_PROMPT,
    F_RESPONSE,
    KINDS,
    TokenBatch,
    _first_difference,
    _serialise,
    as_ids,
)


def to_bytes(batch: TokenBatch) -> bytes:
    """`batch` serialised (what `TokenBatch.rows_to_bytes` writes for its rows): header + aligned raw columns,
    each column copied once; `TokenBatch.from_bytes` reads it back."""
    buffers = [(name, [np.ascontiguousarray(getattr(batch, name), dtype=dt)]) for name, dt in _COLUMNS]
    return _serialise(len(batch), batch.rollouts, batch.errors, batch.data, batch.requests, buffers)


def common_prefix(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the longest common prefix of two int32 arrays; the usual case (one extends the other)
    is a memcmp of two copies, ~4x faster than an elementwise compare."""
    n = min(len(a), len(b))
    return n if a[:n].tobytes() == b[:n].tobytes() else _first_difference(a, b, n)


def delta(prompt: Any, parent_full: Any | None) -> tuple[int, np.ndarray]:
    """(shared, suffix) of `prompt` against its parent's `prompt ++ response` (None: a fresh prompt)."""
    p = as_ids(prompt)
    if parent_full is None:
        return 0, p
    shared = common_prefix(as_ids(parent_full), p)
    return shared, p[shared:]


def to_events(batch: TokenBatch) -> list[dict[str, Any]]:
    """Every row as a JSON-ready dict with full `prompt_ids` lists."""
    out = []
    for r in range(len(batch)):
        f = int(batch.flags[r])
        rid, gid = batch.rollouts[int(batch.rollout[r])]
        pv = int(batch.policy_version[r])
        rw = float(batch.reward[r])
        out.append({
            "id": int(batch.event_id[r]), "rollout_id": rid, "group_id": gid, "attempt": int(batch.attempt[r]),
            "seq": int(batch.seq[r]), "kind": KINDS[int(batch.kind[r])], "policy_version": None if pv < 0 else pv,
            "prompt_ids": batch.prompt(r).tolist() if f & F_PROMPT else None,
            "response_ids": batch.response(r).tolist() if f & F_RESPONSE else None,
            "response_logprobs": batch.logprobs(r).tolist() if f & F_LOGPROBS else None,
            "error": batch.errors.get(r, "error") if f & F_ERROR else None,
            "reward": None if rw != rw else rw, "data": batch.data.get(r), "request": batch.requests.get(r)})
    return out


def from_rows(rows: Sequence[Sequence[Any]], *, requests: dict[int, Any] | None = None) -> TokenBatch:
    """A batch from store rows (`ROW_FIELDS` order, float32 log-prob blobs), through the gateway's one-copy
    serialiser."""
    return TokenBatch.from_bytes(TokenBatch.rows_to_bytes(rows, requests=requests))


def row(*, event_id: int, rollout_id: str, group_id: str | None = None, attempt: int = 0, seq: int = 0,
        kind: str = "model_request", policy_version: int | None = None, parent: int | None = None, shared: int = 0,
        prompt: Any = None, response: Any = None, logprobs: Any = None, error: str | None = None,
        reward: float | None = None, data: Any = None, arrival: float | None = None,
        finish_reason: str | None = None) -> tuple[Any, ...]:
    """One store row (`ROW_FIELDS` order) as the gateway's store holds it: ids as int32 blobs, log-probs as
    float32 blobs; `prompt` is the suffix when `parent` is given."""
    def blob(x: Any, dt: str) -> bytes | None:
        return None if x is None else x if isinstance(x, bytes) else np.asarray(x, dt).tobytes()

    return (event_id, rollout_id, group_id, attempt, seq, kind, policy_version, parent, shared, blob(prompt, "<i4"),
            blob(response, "<i4"), blob(logprobs, "<f4"), error, reward, data, arrival, finish_reason)


def logical_tokens(batch: TokenBatch) -> int:
    """Prompt + response tokens of every event as if stored whole."""
    has_r = (batch.flags & F_RESPONSE) != 0
    has_p = (batch.flags & F_PROMPT) != 0
    return int(batch.prompt_len[has_p].sum() + np.diff(batch.resp_off)[has_r].sum())


class Rows(list):
    """Store rows appended one event at a time (`add` takes `row`'s keywords); `build` reads them as the trainer
    does, through the store's serialiser."""

    def add(self, **kw: Any) -> None:
        self.append(row(**kw))

    def build(self) -> TokenBatch:
        return from_rows(self)


def query_events(client: GatewayClient, rollout_ids: list[str], kinds: list[str] | None = None,
                 current_attempt: bool = False, include_json: str = "none", page_size: int = 200_000) -> list[dict]:
    """The JSON form of what `GatewayClient.token_batch` fetches: the events of many rollouts in commit order
    (`POST /events/query`, paged by `page_size`). `include_json`: "none", "last" (request/response on each
    rollout's last model call) or "all"."""
    out: list[dict] = []
    after = 0
    while True:
        body = {"rollout_ids": rollout_ids, "current_attempt": current_attempt, "include_json": include_json,
                "after": after, "limit": page_size, "kinds": kinds or None}
        page = client._call("POST", "/events/query", json={k: v for k, v in body.items() if v is not None},
                            timeout=600)
        out += page["items"]
        if page["next_cursor"] is None:
            return out
        after = page["next_cursor"]
