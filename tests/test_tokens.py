"""Delta records and the binary token batch (swerl.tokens): exact round trips, linear size, clear errors."""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from token_helpers import common_prefix, delta, from_rows, logical_tokens, row, to_bytes, to_events

from swerl.tokens import (
    F_CUT,
    F_ERROR,
    F_LOGPROBS,
    TokenBatch,
    TokenFormatError,
    from_events,
)


def call(rid: str, seq: int, prompt: list[int], response: list[int], **kw: Any) -> dict[str, Any]:
    return {"kind": "model_request", "rollout_id": rid, "group_id": "g", "seq": seq, "attempt": kw.pop("attempt", 0),
            "prompt_ids": prompt, "response_ids": response,
            "response_logprobs": [-0.5 - k / 8 for k in range(len(response))], "policy_version": 2, **kw}


def test_common_prefix_and_delta() -> None:
    a = np.array([1, 2, 3, 4], np.int32)
    assert common_prefix(a, np.array([1, 2, 3, 4, 5, 6], np.int32)) == 4
    assert common_prefix(a, np.array([1, 2, 9, 4, 5], np.int32)) == 2
    assert common_prefix(a, np.array([1, 2], np.int32)) == 2
    assert common_prefix(a, np.zeros(0, np.int32)) == 0
    assert common_prefix(a, np.array([7], np.int32)) == 0
    shared, suffix = delta(array("i", [1, 2, 3, 4, 8, 9]), a)  # array('i') as the recorder holds ids
    assert shared == 4 and suffix.tolist() == [8, 9]
    shared, suffix = delta([5, 6], None)
    assert shared == 0 and suffix.tolist() == [5, 6]


def test_extending_calls_store_only_new_tokens_and_decode_exactly() -> None:
    p1, a1 = [1, 2, 3], [10, 11]
    p2 = [*p1, *a1, 4, 5]
    a2 = [12]
    p3 = [1, 2, 3, 10, 99, 4]  # a retokenisation break at position 4
    events = [call("r", 1, p1, a1), call("r", 2, p2, a2), call("r", 3, p3, [13]),
              {"kind": "reward", "rollout_id": "r", "group_id": "g", "seq": 4, "reward": 1.0}]
    b = from_events(events)
    assert b.parent.tolist() == [-1, 0, 1, -1]
    assert b.shared.tolist() == [0, 5, 4, 0]
    assert b.suffix(1).tolist() == [4, 5] and b.suffix(2).tolist() == [99, 4]
    assert b.prompt_pool.size == 3 + 2 + 2  # unique prompt tokens only
    assert [b.prompt(i).tolist() for i in range(3)] == [p1, p2, p3]
    assert b.full(1).tolist() == [*p2, *a2]
    assert logical_tokens(b) == sum(len(e["prompt_ids"]) + len(e["response_ids"]) for e in events[:3])
    back = to_events(TokenBatch.from_bytes(to_bytes(b)))
    for e, d in zip(events[:3], back[:3], strict=True):
        assert d["prompt_ids"] == e["prompt_ids"] and d["response_ids"] == e["response_ids"]
        np.testing.assert_allclose(d["response_logprobs"], e["response_logprobs"], rtol=1e-6)
    assert back[3]["kind"] == "reward" and back[3]["reward"] == 1.0 and back[3]["prompt_ids"] is None


def test_store_rows_keep_blobs_errors_and_data() -> None:
    batch = from_rows([
        row(event_id=7, rollout_id="r", attempt=1, seq=1, policy_version=0, prompt=[1, 2], response=[3],
            logprobs=[-0.25]),
        row(event_id=9, rollout_id="r", attempt=1, seq=2, parent=7, shared=3, prompt=[4],
            error="client disconnected mid-stream", data={"why": "499"})],
        requests={1: {"messages": [{"role": "user", "content": "hi"}]}})
    assert batch.rollouts == [("r", "r")]
    assert batch.prompt(1).tolist() == [1, 2, 3, 4] and batch.logprobs(0).tolist() == [-0.25]
    assert batch.flags[1] & F_ERROR and batch.errors == {1: "client disconnected mid-stream"}
    assert batch.data == {1: {"why": "499"}} and batch.requests == {1: {"messages": [{"role": "user", "content": "hi"}]}}
    ev = to_events(batch)[1]
    assert ev["error"] == "client disconnected mid-stream" and ev["response_ids"] is None and ev["policy_version"] is None


def test_size_is_linear_in_unique_tokens() -> None:
    """50 calls growing to ~20k tokens: stored ids ~ unique tokens, while full prompts are ~25x more."""
    rng = np.random.default_rng(0)
    seq: list[int] = rng.integers(0, 150_000, 2000).tolist()
    events = []
    for i in range(50):
        resp = rng.integers(0, 150_000, 40).tolist()
        events.append(call("r", i, list(seq), resp))
        seq += resp + rng.integers(0, 150_000, 360).tolist()
    b = from_events(events)
    unique = len(events[-1]["prompt_ids"]) + len(events[-1]["response_ids"])
    assert b.prompt_pool.size + b.resp_pool.size == unique
    assert logical_tokens(b) > 20 * unique
    assert len(to_bytes(b)) < unique * 4 + 40 * 50 * 4 + 50 * 80 + 4096  # ids + float32 log-probs + columns


def test_from_bytes_rejects_damage_with_a_clear_error() -> None:
    b = from_events([call("r", 1, [1, 2], [3]), call("r", 2, [1, 2, 3, 4], [5])])
    raw = to_bytes(b)
    with pytest.raises(TokenFormatError, match="bad magic"):
        TokenBatch.from_bytes(b"XXXX" + raw[4:])
    with pytest.raises(TokenFormatError, match="too short"):
        TokenBatch.from_bytes(raw[:5])
    with pytest.raises(TokenFormatError, match=r"runs past the end|trailing"):
        TokenBatch.from_bytes(raw[:-8])
    with pytest.raises(TokenFormatError, match="trailing"):
        TokenBatch.from_bytes(raw + b"\0" * 8)
    cols = {k: getattr(b, k).copy() for k in ("event_id", "rollout", "attempt", "seq", "kind", "flags",
                                              "policy_version", "parent", "shared", "reward", "arrival", "prompt_off",
                                              "resp_off", "prompt_pool", "resp_pool", "logp_pool")}

    def broken(**kw: Any) -> TokenBatch:
        return TokenBatch(rollouts=b.rollouts, **{**cols, **kw})

    with pytest.raises(TokenFormatError, match=r"row 1 \(event_id=1, rollout_id='r'\).*longer than the parent"):
        broken(shared=np.array([0, 4], np.int64))
    with pytest.raises(TokenFormatError, match="parent event is not in this batch"):
        broken(parent=np.array([-1, 5], np.int64))
    with pytest.raises(TokenFormatError, match="must be an earlier event"):
        broken(parent=np.array([1, -1], np.int64), shared=np.array([1, 0], np.int64))
    with pytest.raises(TokenFormatError, match="duplicate id"):
        broken(event_id=np.array([1, 1], np.int64), parent=np.array([-1, -1], np.int64),
               shared=np.array([0, 0], np.int64))
    with pytest.raises(TokenFormatError, match="field kind"):
        broken(kind=np.array([0, 7], np.int8))
    with pytest.raises(TokenFormatError, match="field resp_off"):
        broken(resp_off=np.array([0, 2, 1], np.int64))
    with pytest.raises(TokenFormatError, match="field rollout"):
        broken(rollout=np.array([0, 3], np.int32))
    with pytest.raises(TokenFormatError, match="log-probs for"):
        broken(logp_pool=cols["logp_pool"][:1])
    with pytest.raises(TokenFormatError, match=r"event 3 .*response_logprobs: 1 values for 2"):
        from_rows([row(event_id=3, rollout_id="r", seq=1, prompt=[1], response=[2, 3], logprobs=[0.0])])


def test_another_rollouts_parent_is_refused() -> None:
    with pytest.raises(TokenFormatError, match="another rollout"):
        from_rows([row(event_id=1, rollout_id="a", seq=1, prompt=[1], response=[2], logprobs=[0.0]),
                   row(event_id=2, rollout_id="b", seq=1, parent=1, shared=2, prompt=[3], response=[4],
                       logprobs=[0.0])])


@st.composite
def chains(draw: st.DrawFn) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for r in range(draw(st.integers(1, 3))):
        prev: list[int] = []
        for seq in range(draw(st.integers(1, 7))):
            how = draw(st.sampled_from(["extend", "extend", "break", "fresh", "retry", "failed"])) if prev else "fresh"
            if how == "extend":
                prompt = prev + draw(st.lists(st.integers(0, 9), max_size=4))
            elif how == "break":
                cut = draw(st.integers(0, len(prev)))
                prompt = prev[:cut] + draw(st.lists(st.integers(0, 9), max_size=5))
            elif how == "retry" and events:
                prompt = list(events[-1]["prompt_ids"])
            else:
                prompt = draw(st.lists(st.integers(0, 9), max_size=6))
            resp = draw(st.lists(st.integers(0, 9), max_size=4))
            ev = call(f"r{r}", seq, prompt, resp, attempt=draw(st.integers(0, 1)))
            if how == "failed":
                ev |= {"error": "upstream 502", "response_ids": None, "response_logprobs": None}
            events.append(ev)
            if how != "failed":
                prev = prompt + resp
    return events


@settings(max_examples=80, deadline=None)
@given(chains())
def test_any_event_stream_round_trips_exactly(events: list[dict[str, Any]]) -> None:
    b = TokenBatch.from_bytes(to_bytes(from_events(events)))
    for e, d in zip(events, to_events(b), strict=True):
        assert d["prompt_ids"] == e["prompt_ids"]
        assert d["response_ids"] == e["response_ids"]
        assert (d["error"] is None) == (e.get("error") is None)
    assert b.prompt_pool.size <= sum(len(e["prompt_ids"]) for e in events)


def test_encode_prompt_as_the_recorder_does() -> None:
    from swerl.tokens import Parent, encode_prompt

    full = np.array([1, 2, 3, 10, 11], "<i4").tobytes()
    last = Parent(event_id=41, attempt=2, full=full)
    assert encode_prompt(array("i", [1, 2, 3, 10, 11, 4, 5]), last, 2) == (41, 5, np.array([4, 5], "<i4").tobytes())
    assert encode_prompt([1, 2, 3, 10, 99, 4], last, 2) == (41, 4, np.array([99, 4], "<i4").tobytes())
    assert encode_prompt([7, 8], last, 2) == (None, 0, np.array([7, 8], "<i4").tobytes())  # a true branch
    assert encode_prompt([1, 2, 3, 10, 11, 4], last, 3)[0] is None  # another attempt's call is never a parent
    assert encode_prompt([1, 2], None, 1) == (None, 0, np.array([1, 2], "<i4").tobytes())


def test_heads_pick_the_branch_sharing_the_most_and_stay_bounded() -> None:
    """Interleaved conversations: each call is stored against its own conversation's tip, not the last call."""
    from swerl.tokens import Heads, Parent, encode_prompt

    i4 = lambda xs: np.array(xs, "<i4").tobytes()  # noqa: E731
    heads = Heads(k=3)
    heads.add(Parent(1, 1, i4([1, 2, 3, 4])), None, False)          # conversation A
    heads.add(Parent(2, 1, i4([9, 9, 9])), None, False)             # conversation B (most recent)
    assert encode_prompt([1, 2, 3, 4, 5], heads, 1) == (1, 4, i4([5]))  # extends A: two calls back
    assert encode_prompt([9, 9, 9, 6], heads, 1) == (2, 3, i4([6]))
    assert encode_prompt([1, 2, 7], heads, 1) == (1, 2, i4([7]))     # an edit of A shares A's prefix
    assert encode_prompt([5], heads, 1) == (None, 0, i4([5]))        # nothing in common with any head
    heads.add(Parent(3, 1, i4([1, 2, 3, 4, 5, 6])), 1, True)        # extends A: replaces A's old tip
    assert [h.event_id for h in heads] == [3, 2]
    for eid in range(4, 8):
        heads.add(Parent(eid, 1, i4([100 + eid])), None, False)
    assert [h.event_id for h in heads] == [7, 6, 5]                   # at most k, least recent dropped
    heads.add(Parent(8, 2, i4([1])), None, False)                     # a new attempt starts afresh
    assert [h.event_id for h in heads] == [8]


def test_resolve_prompts_for_the_json_api() -> None:
    from swerl.tokens import resolve_prompts

    stored = {1: {"id": 1, "prompt_parent": None, "prompt_shared": None, "prompt_ids": [1, 2], "response_ids": [3]},
              2: {"id": 2, "prompt_parent": 1, "prompt_shared": 3, "prompt_ids": [4], "response_ids": [5]},
              3: {"id": 3, "prompt_parent": 2, "prompt_shared": 4, "prompt_ids": [9], "response_ids": [6]},
              4: {"id": 4, "prompt_parent": None, "prompt_shared": None, "prompt_ids": None, "response_ids": None}}
    page = [dict(stored[3]), dict(stored[4])]  # a page that starts after the ancestors
    asked: list[list[int]] = []

    def fetch(ids: list[int]) -> list[dict[str, Any]]:
        asked.append(ids)
        return [dict(stored[i]) for i in ids]

    resolve_prompts(page, fetch)
    assert page[0]["prompt_ids"] == [1, 2, 3, 4, 9] and page[1]["prompt_ids"] is None
    assert asked == [[2], [1]]
    with pytest.raises(TokenFormatError, match="parent of a stored prompt not found"):
        resolve_prompts([dict(stored[2])], lambda ids: [])


def test_store_rows_round_trip() -> None:
    """The store's one-copy path (rows of blobs straight to bytes) reads back to a batch that serialises to the
    same bytes, with what each row said."""
    f4 = lambda xs: np.asarray(xs, "<f4").tobytes()  # noqa: E731  (the store's log-probs)
    i4 = lambda xs: np.asarray(xs, "<i4").tobytes()  # noqa: E731
    rows = [
        (5, "a", "g", 1, 1, "model_request", 0, None, None, i4([1, 2]), i4([3]), f4([-0.5]), None, None, None, 10.0,
         "stop"),
        (6, "b", None, 1, 1, "model_request", 0, None, None, i4([9]), i4([8, 7]), f4([-1.0]), "1 logprobs for 2",
         None, None, None, None),
        (7, "a", "g", 1, 2, "model_request", 1, 5, 3, i4([4]), i4([5]), f4([-0.25]), None, None, None, 11.0, "length"),
        (8, "a", "g", 1, 3, "reward", None, None, None, None, None, None, None, 1.0, b'{"why": "ok"}', None, None),
    ]
    fast = from_rows(rows, requests={2: {"messages": []}})
    wire = TokenBatch.rows_to_bytes(rows, requests={2: {"messages": []}})
    assert to_bytes(fast) == wire
    assert [bool(f & F_CUT) for f in fast.flags.tolist()] == [False, False, True, False]  # the call cut at max_tokens
    assert not fast.flags[1] & F_LOGPROBS and fast.errors == {1: "1 logprobs for 2"}  # a failed call keeps none
    assert fast.data == {3: {"why": "ok"}} and fast.requests == {2: {"messages": []}}
    assert fast.arrival[0] == 10.0 and np.isnan(fast.arrival[1])
    assert fast.rollouts == [("a", "g"), ("b", "b")] and fast.prompt(2).tolist() == [1, 2, 3, 4]
    with pytest.raises(TokenFormatError, match=r"event 5 .*response_logprobs: 2 values for 1"):
        from_rows([(5, "a", "g", 1, 1, "model_request", 0, None, None, i4([1]), i4([3]), f4([0, 0]),
                               None, None, None, None, None)])
    assert len(from_rows([])) == 0
