"""`--model ENDPOINT_OR_CHECKPOINT`: an OpenAI-compatible endpoint used as is, or a checkpoint we serve.

A checkpoint (a `transformers` dir, or a `swerl train` run exported on the fly) is served for the
run by vLLM on a GPU, else by the embedded engine on CPU (text-based harness: it returns no tool
calls). Why start the engine here: `swerl eval swebench --model runs/ckpt-100` is the
before/after-training comparison the project exists for. API keys stay in the environment.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from swerl.errors import SwerlError
from swerl.eval.schema import ModelSpec
from swerl.log import get_logger
from swerl.rollout.schema import HARNESS_TEXT, HARNESS_TOOLCALL

log = get_logger(__name__)

@dataclass
class ServedModel:
    spec: ModelSpec
    base_url: str
    api_key: str
    default_harness: str
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self.closers:
            with contextlib.suppress(Exception):
                self.closers.pop()()


def _first_model(base_url: str, api_key: str) -> str | None:
    import httpx

    try:
        r = httpx.get(base_url.rstrip("/") + "/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=5)
        data = r.json().get("data") or []
        return str(data[0]["id"]) if r.status_code == 200 and data else None
    except Exception:
        return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve_embedded(ckpt: Path, name: str, max_tokens: int) -> tuple[str, Callable[[], None]]:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from swerl.gateway.engines.embedded import EmbeddedEngine, ServedEngine

    try:
        tok = AutoTokenizer.from_pretrained(str(ckpt), local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(str(ckpt), local_files_only=True)
    except Exception as exc:
        raise SwerlError(f"--model {str(ckpt)!r}: cannot load the checkpoint with transformers: {exc}") from exc
    model.eval()
    engine = ServedEngine(EmbeddedEngine(model, tok, model_name=name, default_max_tokens=max_tokens))
    log.info("embedded engine serving", checkpoint=str(ckpt), url=engine.urls()[0])
    return engine.urls()[0], engine.close


def _serve_vllm(ckpt: Path, name: str, timeout_s: float = 1800.0) -> tuple[str, Callable[[], None]]:
    import httpx

    port = _free_port()
    argv = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", str(ckpt),
            "--served-model-name", name, "--host", "127.0.0.1", "--port", str(port),
            "--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
    logf = open(ckpt.parent / f".vllm-{port}.log", "ab")  # noqa: SIM115 - lives with the server
    proc = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT, start_new_session=True)
    logf.close()

    def stop() -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SwerlError(f"--model {str(ckpt)!r}: vLLM exited with {proc.returncode} (log {logf.name})")
        with contextlib.suppress(Exception):
            if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=2).status_code == 200:
                log.info("vLLM serving", checkpoint=str(ckpt), port=port)
                return f"http://127.0.0.1:{port}/v1", stop
        time.sleep(2)
    stop()
    raise SwerlError(f"--model {str(ckpt)!r}: vLLM did not come up within {timeout_s:.0f}s (log {logf.name})")


def _gpu_vllm() -> bool:
    import importlib.util

    if importlib.util.find_spec("vllm") is None:
        return False
    try:
        import torch

        return bool(torch.cuda.is_available())
    except ImportError:
        return False


def resolve_model(source: str, *, name: str | None = None, api_key_env: str = "OPENAI_API_KEY",
                  engine: str = "auto", max_tokens: int = 512) -> ServedModel:
    """Turn `--model` into a base URL (starting an engine for a checkpoint); `close()` stops what was started."""
    api_key = os.environ.get(api_key_env, "") or "none"
    if source.startswith(("http://", "https://")):
        base = source.rstrip("/")
        resolved = name or _first_model(base, api_key)
        if not resolved:
            raise SwerlError(f"--model {source!r}: the endpoint lists no model at {base}/models; pass --model-name")
        spec = ModelSpec(kind="endpoint", source=source, name=resolved)
        return ServedModel(spec, base, api_key, HARNESS_TOOLCALL)
    ckpt = Path(source).expanduser()
    if engine not in ("auto", "embedded", "vllm"):
        raise SwerlError(f"--engine {engine!r}: expected auto, embedded or vllm")
    closers: list[Callable[[], None]] = []
    served, resolved = ckpt, name or ckpt.resolve().name
    if not (ckpt.is_dir() and (ckpt / "config.json").exists()):
        served, training_name = _export_training_checkpoint(source, ckpt, closers)
        resolved = name or training_name
    use = engine if engine != "auto" else ("vllm" if _gpu_vllm() else "embedded")
    if use == "vllm":
        if shutil.which(sys.executable) is None or not _gpu_vllm():
            raise SwerlError("--engine vllm: needs a GPU and the vllm package in this environment")
        url, stop = _serve_vllm(served.resolve(), resolved)
        harness = HARNESS_TOOLCALL
    else:
        url, stop = _serve_embedded(served.resolve(), resolved, max_tokens)
        harness = HARNESS_TEXT
    spec = ModelSpec(kind="checkpoint", source=str(ckpt.resolve()), name=resolved, engine=use)  # type: ignore[arg-type]
    return ServedModel(spec, url, "none", harness, [*closers, stop])


def _export_training_checkpoint(source: str, ckpt: Path, closers: list[Callable[[], None]]) -> tuple[Path, str]:
    """A `swerl train` run dir / checkpoint, exported (as `swerl train export` does) to a temporary model dir
    that is removed when the run ends."""
    try:
        from swerl.models.checkpoint import export_checkpoint, find_checkpoint
    except ImportError as exc:  # torch/transformers missing: the train extra is not installed
        raise SwerlError(f"--model {source!r}: serving a training checkpoint needs swerl's train extra ({exc})") from exc
    found = find_checkpoint(ckpt)
    if found is None:
        raise SwerlError(f"--model {source!r}: neither an http(s):// endpoint, a model directory (config.json) nor "
                         "a `swerl train` run / checkpoint directory (checkpoints/latest, state.pt)")
    tmp = Path(tempfile.mkdtemp(prefix="swerl-eval-model-"))
    closers.append(lambda: shutil.rmtree(tmp, ignore_errors=True))
    try:
        out = export_checkpoint(found.state_path, tmp / found.name)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log.info("training checkpoint exported for the run", source=str(found.state_path), step=found.step, dir=str(out))
    return out, found.name
