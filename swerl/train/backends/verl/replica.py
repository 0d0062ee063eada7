"""swerl's embedded engine as a verl rollout replica (`rollout.name: swerl`; imports verl).

verl reaches inference engines only through `RolloutReplica` (driver side: launch, sleep, wake) and
`BaseRollout` (the server adapter in each trainer rank, fed the actor's weights), and ships only
GPU engines behind them. Registering the embedded engine lets verl's whole sleep / wake / weight-sync
path run on CPU, serving exactly the weights that came through it (docs/verl.md walks the calls).
verl 0.9 has a public registry for replicas but none for server adapters, so swerl adds its entry to
`verl.workers.rollout.base._ROLLOUT_REGISTRY`. Importing this module registers both.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Iterable
from typing import Any

import ray
import torch
from verl.workers.rollout import base as rollout_base
from verl.workers.rollout.base import BaseRollout
from verl.workers.rollout.replica import RolloutReplica, RolloutReplicaRegistry, TokenOutput

from swerl.log import get_logger

log = get_logger(__name__)

NAME = "swerl"
"""`actor_rollout_ref.rollout.name` (recipe: `verl.rollout_engine: swerl`)."""


def server_actor_name(replica_rank: int, node_rank: int = 0) -> str:
    """The Ray actor name of a replica's server, as vLLM's replicas name theirs (`<engine>_server_<r>_<n>`)."""
    return f"{NAME}_server_{replica_rank}_{node_rank}"


def _engine_kwargs(config: Any) -> dict[str, Any]:
    kwargs = getattr(config, "engine_kwargs", None) or {}
    return dict(kwargs.get(NAME, {}) or {})


def _model_dir(model_config: Any) -> str:
    """The local model directory of verl's model config (a DictConfig here, an `HFModelConfig` elsewhere)."""
    path = getattr(model_config, "local_path", None)  # DictConfig: None for a missing key
    return str(path or model_config.path)


class SwerlEngineServer:
    """One replica's server (a Ray actor): `EmbeddedEngine` over HTTP, with verl's sleep/wake/update calls.

    States: serving (weights valid, requests run), asleep (parameters freed, the engine's lock held so
    requests wait), weights allocated but not synced (after `wake_up(["weights"])`). `wake_up` with
    `kv_cache` (or no tags) serves again, and refuses while the weights are not a complete sync."""

    def __init__(self, model_path: str, *, served_model_name: str = "policy", max_model_len: int = 4096,
                 response_length: int = 256, seed: int = 0, dummy: bool = True, threads: int = 0,
                 host: str | None = None) -> None:
        from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

        from swerl.gateway.engines.embedded import EmbeddedEngine
        from swerl.gateway.server import ServerThread

        if threads:
            torch.set_num_threads(threads)
        tok = AutoTokenizer.from_pretrained(model_path)
        if dummy:  # verl's default `load_format: dummy`: the architecture only; the first sync brings the weights
            model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained(model_path))
        else:
            model = AutoModelForCausalLM.from_pretrained(model_path)
        model.eval()
        self.engine = EmbeddedEngine(model, tok, model_name=served_model_name, default_max_tokens=response_length,
                                     max_context=max_model_len, seed=seed)
        self.params = dict(model.named_parameters())  # tied weights appear once (lm_head = embed_tokens)
        self.aliases = {n: n for n in self.params}
        for name, t in model.state_dict(keep_vars=True).items():  # tied names -> the one parameter
            for pname, p in self.params.items():
                if t is p:
                    self.aliases.setdefault(name, pname)
        self.shapes = {n: (tuple(p.shape), p.dtype) for n, p in self.params.items()}
        self.asleep = False
        self.weights_allocated = True
        self.weights_valid = not dummy
        self.pending: set[str] = set()
        self.stats: dict[str, Any] = {"syncs": 0, "version": None, "tensors": 0, "bytes": 0, "seconds": 0.0,
                                      "sleeps": 0, "wakes": 0}
        self._sync_t0 = 0.0
        self._sync_bytes = 0
        self._sync_tensors = 0
        self.host = host or ray.util.get_node_ip_address().strip("[]")
        self.server = ServerThread(self.engine.app(), host=self.host).start()
        if dummy:  # nothing to serve yet: hold requests until verl's first sync
            self.sleep()
            self.stats["sleeps"] = 0

    # ---- what verl's replica calls --------------------------------------------------------------
    def get_server_address(self) -> tuple[str, int]:
        return self.host, self.server.port

    def sleep(self) -> None:
        """Finish in-flight generations, then free every parameter's storage (they are re-sent on wake)."""
        if self.asleep:
            return
        self.engine.lock.acquire()  # waits for the running generation; new ones wait until wake_up
        for p in self.params.values():
            p.data = torch.empty(0, dtype=p.dtype)
        self.asleep, self.weights_allocated, self.weights_valid = True, False, False
        self.stats["sleeps"] += 1
        log.info("swerl_replica_sleep", port=self.server.port)

    def wake_up(self, tags: list[str] | None = None) -> None:
        """`weights`: allocate the parameters (contents come from `update_weights`); `kv_cache` (or no tags):
        serve again, which needs a complete sync since the last sleep."""
        tags = list(tags or ["weights", "kv_cache"])
        if "weights" in tags and not self.weights_allocated:
            for n, p in self.params.items():
                shape, dtype = self.shapes[n]
                p.data = torch.empty(shape, dtype=dtype)
            self.weights_allocated = True
        if "kv_cache" in tags and self.asleep:
            if not self.weights_valid:
                raise RuntimeError("swerl replica: woken without a complete weight sync since it slept "
                                   f"({len(self.pending)} parameters not received)")
            self.asleep = False
            self.engine.lock.release()
            self.stats["wakes"] += 1
            log.info("swerl_replica_awake", port=self.server.port, version=self.engine.version)

    def update_weights(self, named: list[tuple[str, torch.Tensor]], version: int | None, first: bool,
                       last: bool) -> None:
        """One bucket of verl's weight stream; `last` closes the sync (all parameters must have come)."""
        if not self.weights_allocated:
            raise RuntimeError("swerl replica: update_weights before wake_up(['weights'])")
        if first:
            self.pending, self._sync_t0, self._sync_bytes, self._sync_tensors = set(self.params), time.perf_counter(), 0, 0
            self.weights_valid = False
        with torch.no_grad():
            for name, tensor in named:
                target = self.aliases.get(name)
                if target is None:
                    raise KeyError(f"swerl replica: the actor sent {name!r}, which the served model does not have")
                p = self.params[target]
                if tuple(tensor.shape) != tuple(p.shape):
                    raise ValueError(f"swerl replica: {name} has shape {tuple(tensor.shape)}, "
                                     f"the served model {tuple(p.shape)}")
                p.data.copy_(tensor.to(p.dtype))
                self.pending.discard(target)
                self._sync_bytes += tensor.numel() * tensor.element_size()
                self._sync_tensors += 1
        if last:
            if self.pending:
                raise RuntimeError(f"swerl replica: the weight sync missed {sorted(self.pending)[:5]} "
                                   f"({len(self.pending)} parameters)")
            self.weights_valid = True
            if version is not None:
                self.engine.version = int(version)
            dt = time.perf_counter() - self._sync_t0
            self.stats.update(syncs=self.stats["syncs"] + 1, version=self.engine.version, tensors=self._sync_tensors,
                              bytes=self._sync_bytes, seconds=dt)
            log.info("swerl_replica_weights_synced", version=self.engine.version, tensors=self._sync_tensors,
                     bytes=self._sync_bytes, seconds=round(dt, 3), port=self.server.port)

    def generate(self, prompt_ids: list[int], sampling_params: dict[str, Any], request_id: str = "",
                 **_kwargs: Any) -> TokenOutput:
        """verl's token-in/token-out call (`LLMServerClient.generate`), for verl's own agent loops."""
        from swerl.gateway.engines.openai_server import Sampling

        sp = dict(sampling_params or {})
        params = Sampling(max_tokens=int(sp.get("max_tokens") or sp.get("max_new_tokens") or
                                         self.engine.default_max_tokens),
                          temperature=float(sp.get("temperature", 1.0)), top_p=float(sp.get("top_p", 1.0)),
                          top_k=max(0, int(sp.get("top_k", 0) or 0)), seed=sp.get("seed"))
        gen = self.engine._run(list(prompt_ids), params)
        return TokenOutput(token_ids=gen.token_ids, log_probs=gen.logprobs,
                           stop_reason="completed" if gen.finish_reason in ("stop", "length") else None,
                           extra_fields={"global_steps": self.engine.version})

    def wait_for_requests_to_drain(self) -> None:
        """The engine runs one generation at a time under its lock: taking and dropping it is the drain."""
        if not self.asleep:
            with self.engine.lock:
                pass

    def abort_all_requests(self, reject_request: bool = False) -> dict[str, Any]:
        return {"aborted_count": 0, "request_ids": []}  # one generation at a time, none queued inside

    def resume_generation(self) -> None:
        return None

    def clear_kv_cache(self) -> None:
        return None  # transformers' generate keeps no cache between requests

    def release_kv_cache(self) -> None:
        return None

    def resume_kv_cache(self) -> None:
        return None

    def start_profile(self, **_kwargs: Any) -> None:
        return None

    def stop_profile(self) -> None:
        return None

    # ---- for checks ------------------------------------------------------------------------------
    def sync_stats(self) -> dict[str, Any]:
        """Syncs completed, the version served, the last sync's tensors/bytes/seconds, sleeps and wakes."""
        return {**self.stats, "asleep": self.asleep, "weights_valid": self.weights_valid}

    def state_dict(self) -> dict[str, torch.Tensor]:
        """The served parameters (copies; empty tensors while asleep)."""
        return {n: p.detach().clone() for n, p in self.params.items()}

    def shutdown(self) -> None:
        self.server.stop()


class SwerlReplica(RolloutReplica):
    """verl's `RolloutReplica` for `rollout.name: swerl`: one `SwerlEngineServer` per replica."""

    async def launch_servers(self) -> None:
        """Start the server actor on the node of the replica's first trainer rank (hybrid mode)."""
        if not self.workers:
            raise RuntimeError("swerl replica: launch_servers needs the hybrid trainer workers (init_hybrid)")
        node_id = await self.workers[0].__ray_call__.remote(lambda _self: ray.get_runtime_context().get_node_id())
        kw = _engine_kwargs(self.config)
        name = server_actor_name(self.replica_rank)
        server_cls = ray.remote(SwerlEngineServer)
        server = server_cls.options(
            name=name, num_cpus=0, max_concurrency=1,
            scheduling_strategy=ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(node_id=node_id,
                                                                                              soft=False),
        ).remote(_model_dir(self.model_config), served_model_name=kw.get("served_model_name", "policy"),
                 max_model_len=int(self.config.max_model_len or 4096),
                 response_length=int(self.config.response_length),
                 seed=int(kw.get("seed", self.config.seed)) + self.replica_rank,
                 dummy="dummy" in str(self.config.load_format), threads=int(kw.get("threads", 0)))
        self.servers = [server]
        host, port = await server.get_server_address.remote()
        self._server_handle = server
        self._server_address = f"{host}:{port}"
        log.info("swerl_replica_launched", replica=self.replica_rank, address=self._server_address, actor=name)

    async def sleep(self) -> None:
        await asyncio.gather(*[s.wait_for_requests_to_drain.remote() for s in self.servers])
        await asyncio.gather(*[s.sleep.remote() for s in self.servers])

    async def wake_up(self) -> None:
        await asyncio.gather(*[s.wake_up.remote() for s in self.servers])


class SwerlServerAdapter(BaseRollout):
    """verl's `BaseRollout` inside each hybrid trainer rank for `rollout.name: swerl`: a client of its replica's
    server, as vLLM's `ServerAdapter` is. The replica's rank 0 talks to the server; every rank walks the
    weight generator, since producing each full tensor is a collective over the FSDP ranks."""

    def __init__(self, config: Any, model_config: Any, device_mesh: Any, replica_rank: int = -1) -> None:
        super().__init__(config, model_config, device_mesh)
        c = self.config
        rank = int(os.environ.get("RANK", "0"))
        world = c.tensor_model_parallel_size * c.data_parallel_size * c.pipeline_model_parallel_size
        self.replica_rank = rank // world if replica_rank == -1 else replica_rank
        self.rollout_rank = rank % world
        self.is_leader_rank = self.rollout_rank == 0
        self.bucket_bytes = max(1, int(c.checkpoint_engine.update_weights_bucket_megabytes)) << 20
        self.server_handle: Any = None

    def _server(self) -> Any:
        if self.server_handle is None:  # launched after the trainer ranks: looked up on first use
            self.server_handle = ray.get_actor(server_actor_name(self.replica_rank))
        return self.server_handle

    async def resume(self, tags: list[str]) -> None:
        if self.config.free_cache_engine and self.is_leader_rank:
            await self._server().wake_up.remote(tags=tags)

    async def release(self) -> None:
        if self.config.free_cache_engine and self.is_leader_rank:
            await self._server().sleep.remote()

    @torch.no_grad()
    async def update_weights(self, weights: Iterable[tuple[str, torch.Tensor]] | AsyncIterator[Any],
                             global_steps: int | None = None, wire_format: str = "named_tensors",
                             **_kwargs: Any) -> None:
        """Stream `(name, full tensor)` pairs to the server in buckets of `update_weights_bucket_megabytes`."""
        if wire_format != "named_tensors":
            raise ValueError(f"swerl replica: wire_format {wire_format!r} is not supported (only named_tensors)")
        from verl.workers.rollout.utils import ensure_async_iterator

        bucket: list[tuple[str, torch.Tensor]] = []
        size, first = 0, True
        async for name, tensor in ensure_async_iterator(weights):
            if not self.is_leader_rank:
                continue  # this rank's part of the all-gather is done; the leader sends
            t = tensor.detach().to("cpu").contiguous()
            bucket.append((name, t))
            size += t.numel() * t.element_size()
            if size >= self.bucket_bytes:
                await self._server().update_weights.remote(bucket, global_steps, first, False)
                bucket, size, first = [], 0, False
        if self.is_leader_rank:
            await self._server().update_weights.remote(bucket, global_steps, first, True)


def register() -> None:
    """Make `rollout.name: swerl` known to verl in this process (idempotent)."""
    RolloutReplicaRegistry.register(NAME, lambda: SwerlReplica)
    rollout_base._ROLLOUT_REGISTRY[(NAME, "async")] = f"{__name__}.SwerlServerAdapter"


register()

__all__ = ["NAME", "SwerlEngineServer", "SwerlReplica", "SwerlServerAdapter", "register", "server_actor_name"]
