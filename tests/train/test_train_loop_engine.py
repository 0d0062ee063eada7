"""The embedded engine's `allowed_token_ids` (vLLM's sampling option) and seeding, as the toy harness uses them."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import torch

from swerl.gateway.engines.embedded import EmbeddedEngine
from swerl.gateway.server import ServerThread
from swerl.rollout.toy import single_token_ids

MSGS = [{"role": "user", "content": "What is the secret?"}]


@pytest.fixture(scope="module")
def served(tiny_tok: Any) -> Any:
    from swerl.models import build_tiny_model

    model = build_tiny_model(tiny_tok, seed=3)
    engine = EmbeddedEngine(model, tiny_tok, seed=0)
    server = ServerThread(engine.app()).start()
    yield engine, httpx.Client(base_url=f"{server.url}/v1", timeout=60)
    server.stop()


def test_allowed_token_ids_restrict_sampling_but_logprobs_stay_raw(served: Any, tiny_tok: Any) -> None:
    engine, http = served
    allowed = single_token_ids(tiny_tok, ["cat", "0", "1", "2"])
    seen = set()
    for seed in range(24):
        r = http.post("/chat/completions", json={"model": "m", "messages": MSGS, "max_tokens": 1, "seed": seed,
                                                  "allowed_token_ids": allowed, "logprobs": True,
                                                  "return_token_ids": True})
        assert r.status_code == 200, r.text
        body = r.json()
        tok = body["choices"][0]["token_ids"][0]
        assert tok in allowed
        seen.add(tok)
        # the raw full-vocabulary log-prob (what the trainer recomputes), not the renormalised one
        ids = torch.tensor([body["prompt_token_ids"]])
        with torch.no_grad():
            full = torch.log_softmax(engine.model(ids).logits[0, -1].float(), -1)[tok]
        assert body["choices"][0]["logprobs"]["content"][0]["logprob"] == pytest.approx(float(full), abs=1e-4)
        assert float(full) < -5  # ~ -log(8192): clearly not a log-prob over 4 choices
    assert len(seen) >= 3  # a random policy over 4 allowed tokens


def test_unseeded_requests_do_not_repeat_and_bad_ids_are_rejected(served: Any, tiny_tok: Any) -> None:
    _, http = served
    outs = set()
    for _ in range(6):
        r = http.post("/chat/completions", json={"model": "m", "messages": MSGS, "max_tokens": 4,
                                                  "return_token_ids": True})
        outs.add(tuple(r.json()["choices"][0]["token_ids"]))
    assert len(outs) > 1  # before: every unseeded call replayed the same global RNG state
    for bad in ([], [-1], ["a"], [len(tiny_tok) + 5]):
        r = http.post("/chat/completions", json={"model": "m", "messages": MSGS, "allowed_token_ids": bad})
        assert r.status_code == 400 and "allowed_token_ids" in r.text
