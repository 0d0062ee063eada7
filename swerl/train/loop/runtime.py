"""Everything the loop runs against: tokenizer, policy + backend, inference engine, gateway.

Built in the order that lets every bad input fail before any work starts: recipe checks,
tokenizer and model paths, the engine (must answer one request within
`inference.startup_timeout_s`), then the gateway. The trainer reaches the gateway only through
`GatewayClient` (HTTP), also when it runs in the same process.
"""

from __future__ import annotations

import contextlib
import copy
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from swerl.config import Recipe
from swerl.errors import ConfigError, SwerlError
from swerl.gateway.client import GatewayClient, GatewayError
from swerl.gateway.engines import InferenceEngine, RemoteEngine
from swerl.gateway.engines.embedded import ServedEngine
from swerl.log import get_logger
from swerl.train.backends import TrainingBackend

log = get_logger(__name__)


@dataclass
class Runtime:
    recipe: Recipe
    tokenizer: Any
    backend: TrainingBackend
    engine: InferenceEngine
    client: GatewayClient
    closers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        _close_all(self.closers)


def _close_all(closers: list[Any]) -> None:
    """Newest first; one failing closer does not keep the others from running."""
    for fn in reversed(closers):
        with contextlib.suppress(Exception):
            fn()


def check_recipe(recipe: Recipe) -> None:
    """Combinations that cannot work, refused before anything starts (verl brings its own vLLM replicas,
    so `inference.engine` only matters for the torch backend)."""
    a, t, i = recipe.algorithm, recipe.train, recipe.inference
    if t.backend == "torch" and i.engine != "embedded":
        raise ConfigError("inference.engine: the torch backend syncs weights only into the embedded engine "
                          "(use inference.engine=embedded, or train.backend=verl for vLLM)")
    if a.name == "sao" and recipe.rollout.n_per_task != 1:
        raise ConfigError(f"rollout.n_per_task={recipe.rollout.n_per_task}: SAO trains single rollouts (group size 1)")
    if a.name in ("grpo", "rloo") and recipe.rollout.n_per_task < 2:
        raise ConfigError(f"rollout.n_per_task={recipe.rollout.n_per_task}: {a.name} needs groups of >= 2 rollouts")
    if a.name == "sao" and a.policy_loss != "dis":
        log.warning("SAO without DIS", policy_loss=a.policy_loss)
    if recipe.rollout.controller == "external" and (recipe.rollout.harness == "toy" or not recipe.gateway.url):
        raise ConfigError("rollout.controller=external: rollouts are run by `swerl rollout controller` against "
                          "gateway.url (not for the in-process toy harness)")
    if recipe.gateway.url and not recipe.gateway.admin_token_file:
        raise ConfigError("gateway.url is set: gateway.admin_token_file must name the admin token file")


def load_model_and_tokenizer(recipe: Recipe) -> tuple[Any, Any]:
    """`model.tokenizer` / `model.path`: built-in names, or local directories (a missing one is a ConfigError)."""
    from swerl.models import build_tiny_model, load_tokenizer

    m = recipe.model
    tok = load_tokenizer(m.tokenizer, vocab_size=m.vocab_size, field="model.tokenizer")
    if recipe.train.backend == "verl" and recipe.inference.engine != "embedded":
        return None, tok  # verl's workers and replicas load the weights (VerlBackend.start resolves model.path)
    if m.path == "tiny":
        model = build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                                 seed=recipe.train.seed, max_position_embeddings=max(m.max_context, 512))
        return model, tok
    from swerl.models import is_hub_id, resolve_model_dir

    path = resolve_model_dir(m.path, field="model.path") if is_hub_id(m.path) else Path(m.path).expanduser()
    if not path.is_dir() or not (path / "config.json").is_file():
        raise ConfigError(f"model.path {m.path!r}: not 'tiny' and not a local model directory with config.json")
    import torch
    from transformers import AutoModelForCausalLM

    dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[m.dtype]
    try:
        model = AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True, torch_dtype=dtype)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"model.path {m.path!r}: cannot load a model: {exc}") from exc
    return model, tok


def _check_engine(url: str, timeout_s: float, model: str | None) -> None:
    """One one-token chat request straight to the engine; an engine that does not answer is a clear error."""
    body = {"model": model or "policy", "messages": [{"role": "user", "content": "ping"}], "max_tokens": 1}
    deadline = time.monotonic() + timeout_s
    problem = "no answer"
    while time.monotonic() < deadline:
        try:
            r = httpx.post(f"{url.rstrip('/')}/chat/completions", json=body,
                           timeout=max(0.5, deadline - time.monotonic()))
            if r.status_code == 200:
                return
            problem = f"HTTP {r.status_code}: {r.text[:200]}"
        except httpx.HTTPError as exc:
            problem = repr(exc)
        time.sleep(0.2)
    raise SwerlError(f"inference engine at {url} did not answer a one-token request within {timeout_s:.0f} s "
                     f"({problem}); check inference.url / inference.startup_timeout_s")


def start_engine(recipe: Recipe, model: Any, tok: Any, backend: Any) -> InferenceEngine:
    i = recipe.inference
    if i.engine == "embedded":  # torch backend, or verl without its replicas (CPU): weights via policy_weights
        from swerl.gateway.engines.embedded import EmbeddedEngine

        engine: InferenceEngine = ServedEngine(
            EmbeddedEngine((backend.serving_copy() if hasattr(backend, "serving_copy") else copy.deepcopy(model)).eval(), tok, model_name="policy",
                           default_max_tokens=recipe.rollout.max_tokens, max_context=recipe.model.max_context,
                           seed=recipe.train.seed), weights=backend.policy_weights)
        model_name = None
    else:
        urls = list(backend.engine_urls()) if hasattr(backend, "engine_urls") else [i.url or ""]
        if not all(urls):
            raise ConfigError("inference.engine=openai needs inference.url")
        verl_vllm = recipe.train.backend == "verl" and recipe.verl.rollout_engine == "vllm"  # /metrics on (settings)
        engine = RemoteEngine(urls, backend if hasattr(backend, "engine_urls") else None, vllm_metrics=verl_vllm)
        model_name = i.model
    try:
        for u in engine.urls():
            _check_engine(u, i.startup_timeout_s, model_name)
    except SwerlError:
        engine.close()
        raise
    return engine


def start_gateway(recipe: Recipe, run_dir: Path, engine_urls: list[str], tok: Any) -> tuple[GatewayClient, Any]:
    """The in-process gateway on the run dir's store, or a client of `gateway.url` with the engines registered."""
    g, i = recipe.gateway, recipe.inference
    if g.url:
        from swerl.gateway.auth import load_admin_token

        token = load_admin_token(g.admin_token_file, create=False)
        client = GatewayClient(g.url, token, retry_for_s=30)
        try:
            client.status()
            for u in engine_urls:
                client.add_engine(u, i.model)
        except GatewayError as exc:
            raise SwerlError(f"gateway.url {g.url}: {exc}") from exc
        return client, None
    from swerl.gateway.app import create_app
    from swerl.gateway.server import ServerThread
    from swerl.gateway.service import Gateway

    store = Path(g.store)
    store = store if store.is_absolute() else run_dir / store
    token = secrets.token_urlsafe(32)
    try:
        # the engine's answer is bounded by inference.request_timeout_s: the gateway waits exactly that long
        cfg = g.model_copy(update={"store": str(store), "read_timeout_s": i.request_timeout_s})
        gw = Gateway(cfg, admin_token=token, upstreams=engine_urls, upstream_model=i.model,
                     tokenizer=tok if g.continuous_tokens else None)
    except (OSError, ValueError) as exc:
        raise SwerlError(f"gateway.store {store}: {exc}") from exc
    server = ServerThread(create_app(gw), host=g.host, port=g.port).start()
    return GatewayClient(server.url, token, retry_for_s=300), server  # a loaded host: wait, state is safe


def build_backend(recipe: Recipe, model: Any, tok: Any, run_dir: Path) -> TrainingBackend:
    if recipe.train.backend == "torch":
        from swerl.train.backends.torch import TorchBackend

        if recipe.model.lora.rank:  # sec. 12: only the adapters train; the engine is served merged weights
            from swerl.models.lora import apply_lora, lora_state

            model = apply_lora(model, recipe.model.lora)
            log.info("LoRA", rank=recipe.model.lora.rank, **lora_state(model))
        return TorchBackend.from_recipe(model, recipe, pad_token_id=tok.pad_token_id or 0)
    try:
        from swerl.train.backends.verl.backend import VerlBackend
    except ImportError as exc:  # pragma: no cover - depends on the verl extra
        raise ConfigError(f"train.backend=verl: the verl backend is not importable ({exc})") from exc
    return VerlBackend(recipe, checkpoint_dir=str(run_dir / "checkpoints" / "verl"),
                       with_rollout=recipe.inference.engine != "embedded").start()


def start_runtime(recipe: Recipe, run_dir: Path) -> Runtime:
    """Start (or connect to) everything; on any failure, stop what was started and re-raise."""
    import torch

    check_recipe(recipe)
    if recipe.train.threads:
        torch.set_num_threads(recipe.train.threads)
    closers: list[Any] = []
    try:
        model, tok = load_model_and_tokenizer(recipe)
        backend = build_backend(recipe, model, tok, run_dir)
        engine = start_engine(recipe, model, tok, backend)
        closers.append(engine.close)
        client, gw_server = start_gateway(recipe, run_dir, engine.urls(), tok)
        closers.append(client.close)
        if gw_server is not None:
            closers.append(gw_server.stop)
    except BaseException:
        _close_all(closers)
        raise
    return Runtime(recipe, tok, backend, engine, client, closers)


__all__ = ["Runtime", "check_recipe", "load_model_and_tokenizer", "start_runtime"]
