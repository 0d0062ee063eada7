"""`--model CHECKPOINT` on CPU: the embedded engine serves a (tiny, random) checkpoint for the run, and the
calls go through a real swerl gateway that records them per instance."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eval_helpers import RESOLVES

from swerl.config import GatewaySettings
from swerl.errors import SwerlError
from swerl.eval.options import EvalOptions, eval_data, eval_rollout
from swerl.eval.runner import run_eval

# two steps of 16 tokens, sampled (a tiny random model): enough to run the agent, never to solve the task
_ROLLOUT = eval_rollout().model_copy(update={"max_steps": 2, "max_tokens": 16, "temperature": 1.0,
                                             "max_infra_retries": 0})

ADMIN = "eval-test-admin-token-0123456789"


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from swerl.models import build_tiny_model, build_tiny_tokenizer

    tok = build_tiny_tokenizer()
    d = tmp_path_factory.mktemp("ckpt") / "tiny-step0"
    build_tiny_model(tok, max_position_embeddings=4096).save_pretrained(d)
    tok.save_pretrained(d)
    return d


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[str]:
    from swerl.config import GatewaySettings
    from swerl.gateway.app import create_app
    from swerl.gateway.server import ServerThread
    from swerl.gateway.service import Gateway

    server = ServerThread(create_app(Gateway(GatewaySettings(store=str(tmp_path / "gw.sqlite")), admin_token=ADMIN)))
    server.start()
    yield server.url
    server.stop()


def test_checkpoint_served_on_cpu_through_the_gateway(checkpoint: Path, gateway: str, sb_pack: Path,
                                                      bwrap_settings: Any, tmp_path: Path) -> None:
    import httpx

    token_file = tmp_path / "admin.token"
    token_file.write_text(ADMIN)
    out = tmp_path / "run"
    rep = run_eval(EvalOptions(out=out, model=str(checkpoint), data=eval_data().model_copy(update={"dataset": str(sb_pack)}), instances=RESOLVES,
                               sandbox=bwrap_settings.model_copy(update={"rollout_timeout_s": 120}), rollout=_ROLLOUT,
                               gateway=GatewaySettings(url=gateway, admin_token_file=str(token_file))))
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["model"] == {"kind": "checkpoint", "source": str(checkpoint.resolve()), "name": "tiny-step0",
                                 "engine": "embedded", "gateway": gateway}
    # a random model never submits: two model calls, then the step limit; real tokens were counted
    (inst,) = rep.instances
    assert (inst.outcome, inst.exit_status, inst.n_calls) == ("empty_patch", "LimitsExceeded", 2)
    assert inst.tokens > 0 and rep.mean_tokens == inst.tokens
    assert json.loads((out / "preds.jsonl").read_text())["model_name_or_path"] == "tiny-step0"

    # the gateway recorded the run: one rollout for the instance, both model calls with token ids, reward 0
    admin = httpx.Client(base_url=gateway, headers={"Authorization": f"Bearer {ADMIN}"})
    (ro,) = [r for r in admin.get("/rollouts").json()["items"] if r["metadata"].get("eval_run_id") == rep.run_id]
    assert ro["metadata"]["instance_id"] == RESOLVES and ro["state"] == "failed_agent"
    events = admin.get(f"/rollouts/{ro['id']}/events", params={"limit": 100}).json()["items"]
    calls = [e for e in events if e["kind"] == "model_request"]
    assert len(calls) == 2 and all(e["prompt_ids"] and e["response_ids"] for e in calls)
    assert [e["reward"] for e in events if e["kind"] == "reward"] == [0.0]
    # the engine this run started is gone with it
    with pytest.raises(httpx.HTTPError):
        httpx.get(admin.get("/admin/engines").json()[0]["url"] + "/models", timeout=2)
    admin.close()


@pytest.fixture(scope="module")
def train_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A `swerl train` run dir as the trainer leaves it (recipe.yaml, checkpoints/step-000002/state.pt, latest)."""
    import yaml

    from swerl.config import load_recipe
    from swerl.models import build_tiny_model, load_tokenizer
    from swerl.train.backends.torch import TorchBackend
    from swerl.train.loop.checkpoint import rng_state, save_checkpoint

    run = tmp_path_factory.mktemp("train") / "tinyrun"
    run.mkdir()
    r = load_recipe("tiny")
    (run / "recipe.yaml").write_text(yaml.safe_dump(r.model_dump(mode="json"), sort_keys=False))
    tok = load_tokenizer(r.model.tokenizer, vocab_size=r.model.vocab_size)
    backend = TorchBackend.from_recipe(build_tiny_model(tok, max_position_embeddings=r.model.max_context), r,
                                       pad_token_id=tok.pad_token_id)
    save_checkpoint(run, 2, {"backend": backend.state_dict(), "rng": rng_state(), "loop": {"step": 2}})
    return run


def test_training_run_dir_is_exported_and_served(train_run: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`--model RUN_DIR`: the latest checkpoint is exported to a temporary model dir, served, and cleaned up.
    The test owns the temporary directory (another worker's export must never be the one it looks at)."""
    import httpx

    from swerl.eval.model import resolve_model

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    served = resolve_model(str(train_run), engine="embedded", max_tokens=8)
    try:
        assert (served.spec.kind, served.spec.name, served.spec.engine) == ("checkpoint", "tinyrun-step-000002",
                                                                            "embedded")
        assert served.spec.source == str(train_run.resolve())
        models = httpx.get(served.base_url + "/models", timeout=10).json()["data"]
        assert models[0]["id"] == "tinyrun-step-000002"
        exported = list(tmp_path.glob("swerl-eval-model-*/tinyrun-step-000002"))
        assert exported and (exported[0] / "config.json").is_file()
    finally:
        served.close()
    assert not any(p.exists() for p in exported)  # the temporary export is gone with the run


def test_eval_swebench_accepts_a_training_checkpoint_dir(train_run: Path, sb_pack: Path, bwrap_settings: Any,
                                                         tmp_path: Path) -> None:
    out = tmp_path / "run"
    step_dir = train_run / "checkpoints" / "step-000002"
    rep = run_eval(EvalOptions(out=out, model=str(step_dir), data=eval_data().model_copy(update={"dataset": str(sb_pack)}), instances=RESOLVES,
                               sandbox=bwrap_settings.model_copy(update={"rollout_timeout_s": 120}), rollout=_ROLLOUT))
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["model"]["kind"] == "checkpoint" and manifest["model"]["name"] == "tinyrun-step-000002"
    (inst,) = rep.instances
    assert (inst.outcome, inst.exit_status, inst.n_calls) == ("empty_patch", "LimitsExceeded", 2)
    with pytest.raises(SwerlError, match="neither an http"):
        from swerl.eval.model import resolve_model

        resolve_model(str(tmp_path))
