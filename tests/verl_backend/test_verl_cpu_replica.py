"""verl's rollout-replica interface on CPU: swerl's embedded engine registered as `rollout.name: swerl`.

`VerlBackend.start()` launches the replicas through verl's `LLMServerManager` (one `SwerlReplica` per
trainer rank, TP 1), and every sleep, wake and weight sync goes through verl's `CheckpointEngineManager`
and verl's `ActorRolloutRefWorker.update_weights` into swerl's server adapter. The replicas start with
no weights (`load_format: dummy`): what they serve is only ever what verl's sync delivered, which is
checked against the actor's own weights, gathered from the FSDP2 shards.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
from verl_helpers import random_batch, replica_weights

pytestmark = pytest.mark.slow


def _chat(url: str) -> dict[str, Any]:
    body = {"model": "policy", "messages": [{"role": "user", "content": "hello"}], "max_tokens": 4, "seed": 1,
            "logprobs": True}
    r = httpx.post(f"{url}/chat/completions", json=body, timeout=120)
    assert r.status_code == 200, r.text
    return r.json()


def test_weights_reach_the_replicas_through_verls_sync(tmp_path: Path) -> None:
    from swerl.config import load_recipe
    from swerl.train.advantage import compute_advantages
    from swerl.train.backends.verl.backend import VerlBackend

    recipe = load_recipe("tiny-verl", ["verl.max_token_len_per_gpu=96"])
    assert recipe.verl.rollout_engine == "swerl" and recipe.inference.engine == "openai"
    samples = random_batch(0, groups=2, per_group=4, max_samples=3, vocab=8000)
    backend = VerlBackend(recipe, checkpoint_dir=str(tmp_path / "ckpt")).start()
    try:
        urls = backend.engine_urls()
        assert len(urls) == 2  # 2 trainer ranks, TP 1: verl makes 2 replicas
        stats = backend.replica_stats()
        assert [s["syncs"] for s in stats] == [1, 1] and all(s["version"] == 0 and not s["asleep"] for s in stats)
        actor0 = backend.actor_wg.full_state_dict()[0]
        served0 = replica_weights(backend)
        for served in served0:  # the dummy-initialised replicas now hold exactly the actor's weights
            assert set(served) <= set(actor0) and len(served) > 10
            for name, w in served.items():
                assert torch.equal(w, actor0[name].to(w.dtype)), name
        for u in urls:
            assert _chat(u)["choices"][0]["message"] is not None

        backend.update(samples, compute_advantages(samples))  # releases the replicas first (verl's sleep)
        asleep = backend.replica_stats()
        assert all(s["asleep"] and s["sleeps"] >= 1 and not s["weights_valid"] for s in asleep)
        assert all(w.numel() == 0 for w in replica_weights(backend)[0].values())  # storage freed while asleep

        backend.sync_weights(1)
        actor1 = backend.actor_wg.full_state_dict()[0]
        stats = backend.replica_stats()
        assert [s["syncs"] for s in stats] == [2, 2] and all(s["version"] == 1 and not s["asleep"] for s in stats)
        assert all(s["tensors"] >= len(served0[0]) and s["bytes"] > 0 for s in stats)
        moved = 0
        for served in replica_weights(backend):
            for name, w in served.items():
                assert torch.equal(w, actor1[name].to(w.dtype)), name
                moved += int(not torch.equal(w, served0[0][name]))
        assert moved > 10  # the update changed the weights, and the replicas serve the new ones
        models = httpx.get(f"{urls[0]}/models", timeout=30).json()
        assert models["data"][0]["version"] == 1
        assert _chat(urls[1])["choices"][0]["message"] is not None
        # verl's own token-in/token-out path (its agent loops): LLMServerClient -> load balancer -> replica
        client = backend.llm_servers.get_client()
        out = asyncio.run(client.generate("req-1", prompt_ids=[5, 6, 7, 8],
                                          sampling_params={"max_tokens": 3, "temperature": 1.0, "seed": 3}))
        assert 1 <= len(out.token_ids) <= 3 and len(out.log_probs) == len(out.token_ids)
        assert all(lp <= 0 for lp in out.log_probs) and out.extra_fields["global_steps"] == 1

        metrics = backend.update(samples, compute_advantages(samples))
        assert metrics["engine/weights_version"] == 1.0 and metrics["engine/weight_syncs"] == 2.0
    finally:
        backend.shutdown()
