"""`VerlBackend`: the `TrainingBackend` interface on verl's Ray workers (FSDP actor, SAO critic, vLLM replicas).

swerl keeps its own loop (gateway, controller, assembly, advantages); verl supplies the distributed
engine: its worker groups (swerl's loss functions installed with `set_loss_fn`), `LLMServerManager`
replicas and `CheckpointEngineManager` sleep / weight sync, never its fit loop (docs/verl.md).
On `train.device: cpu` the same workers run on CPU (`cpu_platform`) and `verl.rollout_engine: swerl`
serves from swerl's embedded engine behind verl's replica interface (`replica`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from swerl.errors import ConfigError, DataError
from swerl.log import get_logger
from swerl.train.schema import Sample

if TYPE_CHECKING:
    from swerl.config import Recipe

log = get_logger(__name__)

CANARY_PROMPT = "def median(values):\n    \"\"\"The middle value of a sorted copy.\"\"\"\n    ordered = sorted(values)\n"
"""The canary's fixed prompt: vLLM samples `CANARY_TOKENS` after it and reports each token's log-prob."""
CANARY_TOKENS = 16
CANARY_TOLERANCE = 1e-3
"""Largest |vLLM log-prob - actor log-prob| a sync may leave on the canary (fp32 on both sides on CPU)."""

_RENAME = {
    "actor/pg_loss": "policy/loss", "actor/pg_clipfrac": "policy/clip_frac",
    "actor/dis_masked_frac": "policy/dis_masked_frac", "actor/ppo_kl": "policy/approx_kl",
    "actor/entropy": "policy/entropy", "actor/grad_norm": "policy/grad_norm", "actor/lr": "policy/lr",
    "critic/vf_loss": "critic/value_loss", "critic/grad_norm": "critic/grad_norm",
}


def _reduce(metrics: dict[str, Any], prefix: str, flag_key: str = "policy/clip_frac") -> dict[str, float]:
    """verl's per-mini-batch metric lists -> floats under swerl's names (`prefix` for unprefixed keys).

    The policy's token sums (`algos.SUM_PREFIX`) become whole-step token means with `TorchBackend`'s
    definitions: `flag_key` (clip or DIS-masked fraction), `policy/approx_kl`, `policy/ratio_mean`,
    `policy/entropy`; they replace verl's per-micro-batch means of the same quantities."""
    from verl.utils.metric import reduce_metrics

    from swerl.train.backends.verl.algos import SUM_PREFIX
    from swerl.train.backends.verl.loss_fns import MISMATCH_PREFIX
    from swerl.train.losses import mismatch_metrics

    out: dict[str, float] = {}
    sums: dict[str, float] = {}
    mismatch: dict[str, float] = {}
    for k, v in reduce_metrics(dict(metrics)).items():
        key = k if "/" in k else f"{prefix}/{k}"
        try:
            value = float(v)
        except (TypeError, ValueError):
            continue
        if key.startswith(MISMATCH_PREFIX):
            mismatch[key.removeprefix(MISMATCH_PREFIX)] = value
        elif key.startswith(SUM_PREFIX):
            sums[key.removeprefix(SUM_PREFIX)] = value
        else:
            out[_RENAME.get(key, key)] = value
    n = sums.get("tokens")
    if n is not None:
        n = max(n, 1e-12)
        out[flag_key] = sums.get("flagged", 0.0) / n
        out["policy/approx_kl"] = sums.get("kl", 0.0) / n
        out["policy/ratio_mean"] = sums.get("ratio", 0.0) / n
        if "entropy" in sums:
            out["policy/entropy"] = sums["entropy"] / n
    if mismatch:  # docs/algorithms.md sec. 4, the definitions of `TorchBackend`
        out.update(mismatch_metrics(mismatch))
    return out


def _reduce_critic(metrics: dict[str, Any]) -> dict[str, float]:
    """The critic's K epochs (one list entry each) under `TorchBackend`'s definitions: `critic/value_loss`
    of the first epoch, `critic/value_loss_last` of the last, `critic/grad_norm` of the last step;
    `critic/value_mean` stays the pre-update mean that `_gae` reports (not verl's in-training `vpred_mean`)."""
    raw = dict(metrics)
    out: dict[str, float] = {}
    loss, norm = raw.pop("critic/vf_loss", None), raw.pop("grad_norm", None)
    raw.pop("critic/vpred_mean", None)
    if isinstance(loss, list) and loss:
        out["critic/value_loss"], out["critic/value_loss_last"] = float(loss[0]), float(loss[-1])
    if isinstance(norm, list) and norm:
        out["critic/grad_norm"] = float(norm[-1])
    out.update(_reduce(raw, "critic"))
    return out


class VerlBackend:
    """Policy (and SAO critic) updates on verl's workers; see the module doc for the lifecycle."""

    def __init__(self, recipe: Recipe, *, model_path: str | None = None, checkpoint_dir: str = "checkpoints",
                 with_rollout: bool = True, ray_address: str | None = None) -> None:
        try:  # fail before any work starts, with the fix, when verl is not installed here
            import verl.trainer.ppo.core_algos  # noqa: F401
        except ImportError as exc:
            raise ConfigError(f"train.backend=verl needs verl 0.9.x in this environment ({exc}); "
                              "see docs/verl.md (scripts/setup-verl.sh, or verl's GPU image)") from exc
        self.recipe = recipe
        self.model_path = model_path or recipe.model.path
        self.checkpoint_dir = os.path.abspath(checkpoint_dir)
        self.with_rollout = with_rollout
        self.ray_address = ray_address
        self.use_critic = recipe.algorithm.name == "sao"
        self.on_cpu = recipe.train.device == "cpu"
        self.step = 0
        self.dp_size = 1
        self.pad_token_id = 0
        self.vocab_size: int | None = None
        self.cfg: Any = None
        self.actor_wg: Any = None
        self.critic_wg: Any = None
        self.llm_servers: Any = None
        self.weight_sync: Any = None
        self.engine_awake = False
        self.synced_version = 0
        self.canary_ids: list[int] = []
        self.canary_diffs: list[float] = []

    def start(self) -> VerlBackend:
        """Start Ray (or join `ray_address`), the worker group, the vLLM replicas and the weight sync."""
        import ray
        from verl.single_controller.ray import RayResourcePool

        # the workers' module (verl's engines, swerl's loss functions; `_spawn_workers` uses it) loads before
        # `_configure` may activate the CPU platform, in the order it always has
        import swerl.train.backends.verl.critic  # noqa: F401
        from swerl.train.backends.verl.verl_config import ray_runtime_env

        t0 = time.perf_counter()
        v = self.recipe.verl
        cfg, env = self._configure()
        self._read_tokenizer()
        if not ray.is_initialized():
            world = v.nnodes * v.gpus_per_node  # CPU: logical GPUs (one per rank) and enough logical CPUs for
            logical = {"num_gpus": world, "num_cpus": 4 * world + 4}  # verl's bundles (3 CPUs per GPU)
            ray.init(address=self.ray_address, runtime_env=ray_runtime_env(cfg, env),
                     **(logical if self.on_cpu and self.ray_address is None else {}))
        pool = RayResourcePool(process_on_nodes=[v.gpus_per_node] * v.nnodes, use_gpu=True, max_colocate_count=3,
                               name_prefix="swerl")
        self._spawn_workers(cfg, pool)
        if self.with_rollout:
            self._start_replicas(cfg, pool)
        log.info("verl_backend_started", gpus=v.nnodes * v.gpus_per_node, dp=self.dp_size, sao=self.use_critic,
                 replicas=len(self.engine_urls()), start_s=round(time.perf_counter() - t0, 1))
        return self

    def _configure(self) -> tuple[Any, dict[str, str]]:
        """verl's config for this run and the environment of its processes: the model directory resolved (tiny
        materialized), and on CPU the platform plugin activated in this process too."""
        from swerl.models import resolve_model_dir
        from swerl.train.backends.verl.verl_config import build_verl_config

        if self.model_path == "tiny":  # the same seeded random-init model the loop's embedded engine builds
            self.model_path = self._materialize_tiny_model()
        self.model_path = str(resolve_model_dir(self.model_path, field="model.path"))
        env = {"TOKENIZERS_PARALLELISM": "false"}
        extra: list[str] = []
        if self.on_cpu:  # verl's real workers on CPU: swerl's platform plugin, gloo, logical GPUs (cpu_platform)
            from swerl.train.backends.verl.cpu_platform import activate, cpu_env, cpu_overrides

            activate()
            env.update(cpu_env())
            extra = cpu_overrides(self.use_critic)
        cfg = self.cfg = build_verl_config(self.recipe, model_path=self.model_path, checkpoint_dir=self.checkpoint_dir,
                                           extra=extra)
        return cfg, env

    def _read_tokenizer(self) -> None:
        """What the backend needs of the tokenizer and model config: padding id, canary ids, vocabulary size."""
        from transformers import AutoConfig, AutoTokenizer

        tok = AutoTokenizer.from_pretrained(self.model_path)
        self.pad_token_id = tok.pad_token_id if tok.pad_token_id is not None else (tok.eos_token_id or 0)
        self.canary_ids = list(tok(CANARY_PROMPT, add_special_tokens=False)["input_ids"])
        self.vocab_size = getattr(AutoConfig.from_pretrained(self.model_path), "vocab_size", None)

    def _spawn_workers(self, cfg: Any, pool: Any) -> None:
        """The colocated actor (and SAO critic) workers on `pool`, swerl's loss functions installed."""
        import ray
        from verl.single_controller.ray import (
            RayClassWithInitArgs,
            RayWorkerGroup,
            create_colocated_worker_cls,
        )

        from swerl.train.backends.verl.critic import ActorWorker, CriticWorker
        from swerl.train.backends.verl.loss_fns import swerl_actor_loss, swerl_value_loss
        from swerl.train.backends.verl.verl_config import actor_config, critic_worker_config

        role = "actor_rollout" if self.with_rollout else "actor"  # "actor" builds no vLLM engine
        classes = {"actor_rollout": RayClassWithInitArgs(cls=ray.remote(ActorWorker), config=cfg.actor_rollout_ref,
                                                         role=role)}
        if self.use_critic:
            c_cfg, worker_cfg = critic_worker_config(cfg)
            classes["critic"] = RayClassWithInitArgs(cls=ray.remote(CriticWorker), config=worker_cfg)
        group = RayWorkerGroup(resource_pool=pool, ray_cls_with_init=create_colocated_worker_cls(classes),
                               device_name="cpu" if self.on_cpu else "cuda")
        wgs = group.spawn(prefix_set=classes.keys())
        if self.use_critic:
            self.critic_wg = wgs["critic"]
            self.critic_wg.reset()
            self.critic_wg.set_loss_fn(partial(swerl_value_loss, config=c_cfg))
        self.actor_wg = wgs["actor_rollout"]
        self.actor_wg.init_model()
        self.actor_wg.skip_zero_gradient_steps()  # TorchBackend's rule: no step on an exactly zero gradient
        self.actor_wg.set_loss_fn(partial(swerl_actor_loss, config=actor_config(cfg)))
        self.dp_size = self._dp_size(self.actor_wg.parallel_info())

    def _start_replicas(self, cfg: Any, pool: Any) -> None:
        """verl's rollout replicas and the weight sync into them, serving the policy's weights (version 0)."""
        from verl.checkpoint_engine import CheckpointEngineManager
        from verl.utils.config import omega_conf_to_dataclass
        from verl.workers.rollout.llm_server import LLMServerManager

        import swerl.train.backends.verl.replica  # noqa: F401  (`rollout.name: swerl` known to this process)

        self.llm_servers = LLMServerManager.create(config=cfg, worker_group=self.actor_wg,
                                                   rollout_resource_pool=pool)
        ce_cfg = omega_conf_to_dataclass(cfg.actor_rollout_ref.rollout.checkpoint_engine)
        self.weight_sync = CheckpointEngineManager(config=ce_cfg, actor_wg=self.actor_wg,
                                                   replicas=self.llm_servers.get_replicas())
        self.engine_awake = True
        self.release_engine()  # replicas start with dummy weights: sync before serving
        self.sync_weights(0)

    def _materialize_tiny_model(self) -> str:
        """`model.path: tiny` as a Hugging Face directory (verl's workers load from a path): the recipe's
        tiny model and tokenizer, built exactly as `loop.runtime.load_model_and_tokenizer` builds them."""
        from swerl.models import build_tiny_model, load_tokenizer

        m = self.recipe.model
        path = os.path.join(self.checkpoint_dir, "base-model")
        tok = load_tokenizer(m.tokenizer, vocab_size=m.vocab_size, field="model.tokenizer")
        model = build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                                 seed=self.recipe.train.seed, max_position_embeddings=max(m.max_context, 512))
        os.makedirs(path, exist_ok=True)
        model.save_pretrained(path)
        tok.save_pretrained(path)
        return path

    @staticmethod
    def _dp_size(infos: list[dict[str, int]]) -> int:
        """The data-parallel size every rank reports (`ActorWorker.parallel_info`); ranks must agree."""
        sizes = {int(i["dp_size"]) for i in infos}
        if len(sizes) != 1:
            raise ConfigError(f"verl workers disagree on the data-parallel size: {sorted(sizes)}")
        return sizes.pop()

    def _require_started(self) -> None:
        if self.actor_wg is None:
            raise ConfigError("VerlBackend: call start() first")

    def shutdown(self) -> None:
        """Release Ray (workers and replicas die with it)."""
        import ray

        if ray.is_initialized():
            ray.shutdown()
        self.actor_wg = self.critic_wg = self.llm_servers = self.weight_sync = None

    def engine_urls(self) -> list[str]:
        """OpenAI base URLs (`http://host:port/v1`) of the vLLM replicas: the gateway's upstreams.

        They serve the policy under `settings.served_model_name(recipe)` ("policy" unless
        `inference.model` says otherwise)."""
        if self.llm_servers is None:
            return []
        urls = [a if a.startswith("http") else f"http://{a}" for a in self.llm_servers.get_addresses()]
        return [u.rstrip("/") if u.rstrip("/").endswith("/v1") else f"{u.rstrip('/')}/v1" for u in urls]

    def release_engine(self) -> None:
        """Put the replicas to sleep (their weights and KV cache leave the GPUs). Gateway already drained.

        Idempotent; `update` calls it if the caller did not, since FSDP and an awake vLLM do not
        fit one GPU pool together at scale."""
        if self.weight_sync is not None and self.engine_awake:
            self.weight_sync.sleep_replicas()
        self.engine_awake = False

    def sync_weights(self, version: int) -> float:
        """Copy the actor's weights into the (sleeping) replicas and wake them; returns seconds taken.

        verl's collocated sync resumes the replicas' weight memory itself, so it needs them
        asleep: an awake engine is put to sleep first."""
        t0 = time.perf_counter()
        if self.weight_sync is not None:
            self.release_engine()
            self.weight_sync.update_weights(version)
            self.engine_awake = True
            self.synced_version = version
            stats = self.replica_stats()
            log.info("verl_weight_sync", version=version, seconds=round(time.perf_counter() - t0, 3),
                     path=f"CheckpointEngineManager.update_weights ({getattr(self.weight_sync, 'backend', '?')})",
                     replicas=[{k: s.get(k) for k in ("version", "syncs", "tensors", "bytes")} for s in stats])
            if stats and any(s.get("version") != version or not s.get("weights_valid") for s in stats):
                raise RuntimeError(f"weight sync to version {version} did not reach every replica: {stats}")
            if self.recipe.verl.rollout_engine == "vllm":
                self._check_canary(version)
        return time.perf_counter() - t0

    def _check_canary(self, version: int) -> float:
        """After a sync into vLLM replicas: the canary (`canary_diff`) on every replica; a difference above
        `CANARY_TOLERANCE` means the weights vLLM serves are not the actor's, and the run stops here rather than
        train on rollouts of another policy."""
        diff = max((self.canary_diff(url) for url in self.engine_urls()), default=0.0)  # no replica: none to check
        self.canary_diffs.append(diff)
        log.info("verl_weight_sync_canary", version=version, max_abs_logprob_diff=diff, tolerance=CANARY_TOLERANCE,
                 replicas=len(self.engine_urls()))
        if not diff <= CANARY_TOLERANCE:
            raise RuntimeError(f"weight sync to version {version}: vLLM's log-probs differ from the actor's by "
                               f"{diff:.3g} on the canary (tolerance {CANARY_TOLERANCE})")
        return diff

    def canary_diff(self, url: str) -> float:
        """max |log p_vLLM - log p_actor| over `CANARY_TOKENS` tokens that the replica at `url` samples after the
        fixed `CANARY_PROMPT` (OpenAI completions on token ids, `logprobs: 0`: the sampled token's log-prob, raw
        since `logprobs_mode: raw_logprobs`); the actor scores the same tokens with verl's `compute_log_prob`. Why:
        a sync that moved bytes is not proof that vLLM computes the actor's distribution (names, layouts, dtypes)."""
        import httpx
        import numpy as np

        from swerl.train.backends.verl.settings import served_model_name

        body = {"model": served_model_name(self.recipe), "prompt": self.canary_ids, "max_tokens": CANARY_TOKENS,
                "temperature": 1.0, "seed": 0, "logprobs": 0, "ignore_eos": True, "return_tokens_as_token_ids": True}
        r = httpx.post(f"{url.rstrip('/')}/completions", json=body, timeout=300)
        r.raise_for_status()
        lp = r.json()["choices"][0]["logprobs"]
        tokens = [int(str(t).rsplit(":", 1)[1]) for t in lp["tokens"]]
        engine = np.asarray(lp["token_logprobs"], dtype=np.float64)
        n = len(self.canary_ids)
        ids = np.asarray(self.canary_ids + tokens, dtype=np.int64)
        mask = np.r_[np.zeros(n), np.ones(len(tokens))].astype(np.float32)
        sample = Sample(input_ids=ids, loss_mask=mask, rollout_logprobs=np.zeros(len(ids), dtype=np.float32),
                        rollout_id="canary", group_id="canary", sample_index=0)
        actor = self._actor_logprobs([sample])[0][n:].astype(np.float64)
        return float(np.abs(actor - engine).max())

    def _swerl_servers(self) -> list[Any]:
        """The server actors of swerl replicas ([] without replicas, or for vLLM's)."""
        if self.llm_servers is None or self.recipe.verl.rollout_engine != "swerl":
            return []
        return [s for r in self.llm_servers.get_replicas() for s in r.servers]

    def replica_stats(self) -> list[dict[str, Any]]:
        """Per swerl replica, what its server counted (`replica.SwerlEngineServer.sync_stats`: syncs, version
        served, last sync's tensors/bytes/seconds, sleeps, wakes)."""
        import ray

        servers = self._swerl_servers()  # none: no Ray call (Ray may not be running)
        return list(ray.get([s.sync_stats.remote() for s in servers])) if servers else []

    def update(self, samples: Sequence[Sample], advantages: Sequence[float] | None = None, *,
               update_index: int | None = None) -> dict[str, float]:
        """One optimizer step over `samples` (whole rollouts); see `TrainingBackend.update`
        (`update_index`: the loop's updates so far, which SAO's critic warm-up counts)."""
        from verl.utils import tensordict_utils as tu

        from swerl.train.backends.verl.proto import rollout_layout, samples_to_dataproto, to_worker_tensordict

        self._require_started()
        t0 = time.perf_counter()
        if not samples:
            raise DataError("update: no samples")
        a = self.recipe.algorithm
        if self.use_critic and advantages is not None:
            raise DataError("advantages: the SAO backend computes them with its critic; pass None")
        if not self.use_critic and advantages is None:
            raise DataError("advantages: required without a critic (use compute_advantages)")
        if self.engine_awake:
            log.info("engine_released_by_update", step=self.step)
            self.release_engine()
        layout = rollout_layout(samples, self.dp_size)
        dp = samples_to_dataproto(samples, layout, advantages=advantages, loss_agg=a.loss_agg,
                                  pad_token_id=self.pad_token_id, vocab_size=self.vocab_size,
                                  correction=a.rollout_correction, threshold=a.rollout_correction_threshold)
        mask = dp.batch["response_mask"]
        metrics: dict[str, float] = {
            "batch/samples": float(len(samples)), "batch/rollouts": float(len({s.rollout_id for s in samples})),
            "batch/rows": float(len(dp)), "batch/padding_rows": float(layout.rows.count(-1)),
            "batch/response_tokens": float(mask.sum()), "batch/tokens": float(sum(s.num_tokens for s in samples)),
        }
        metrics.update(self._engine_metrics())
        if self.use_critic:
            metrics.update(self._gae(dp))
        adv = dp.batch["advantages"][mask.bool()]
        metrics["policy/advantage_mean"] = float(adv.mean()) if adv.numel() else 0.0
        done = self.step if update_index is None else update_index
        train_policy = not self.use_critic or done >= a.critic_warmup_steps
        metrics["policy/updated"] = float(train_policy)
        if train_policy:
            metrics.update(self._policy_update(dp))
        if self.use_critic:
            out = self.critic_wg.train_mini_batch(to_worker_tensordict(dp, epochs=a.critic_updates)).get()
            metrics.update(_reduce_critic(tu.get(out, "metrics")))
        if not metrics["policy/updated"] and self.weight_sync is not None:
            # SAO warm-up or a skipped step: the policy did not change, so the caller publishes no new version and
            # pushes nothing; but the replicas slept for this update (verl frees their weights): the same go back
            log.info("engine_resynced_after_unchanged_policy", step=self.step + 1, version=self.synced_version)
            self.sync_weights(self.synced_version)
        self.step += 1
        dt = time.perf_counter() - t0
        metrics["time/update_s"] = dt
        metrics["perf/tokens_per_s"] = metrics["batch/tokens"] / dt if dt > 0 else 0.0
        log.info("update", step=self.step, **{k: round(v, 6) for k, v in metrics.items()})
        return metrics

    def _engine_metrics(self) -> dict[str, float]:
        """Which weights the replicas served this batch with, so a stale engine shows in the metrics."""
        metrics: dict[str, float] = {}
        stats = self.replica_stats()
        if stats:  # what the replicas served this batch with: the version verl's last sync delivered
            metrics["engine/weights_version"] = float(min(int(st["version"] or 0) for st in stats))
            metrics["engine/weight_syncs"] = float(min(int(st["syncs"]) for st in stats))
        if self.canary_diffs:  # vLLM replicas: the canary of the sync whose weights served this batch, and the count
            metrics["engine/canary_max_abs_logprob_diff"] = self.canary_diffs[-1]
            metrics["engine/weights_version"] = float(self.synced_version)
            metrics["engine/weight_syncs"] = float(len(self.canary_diffs))
        return metrics

    def _policy_update(self, dp: Any) -> dict[str, float]:
        """verl's actor update on `dp`; the worker skips the step exactly when the gradient is zero
        (`critic.skip_zero_gradient_steps`) and then reports a norm of exactly 0: `policy/updated` 0, and the loop
        publishes no new version (TorchBackend's rule)."""
        from verl.utils import tensordict_utils as tu

        from swerl.train.backends.verl.proto import to_worker_tensordict

        out = self.actor_wg.update_actor(to_worker_tensordict(dp, calculate_entropy=True))
        flag_key = "policy/clip_frac" if self.recipe.algorithm.policy_loss == "ppo" else "policy/dis_masked_frac"
        metrics = _reduce(tu.get(out, "metrics"), "actor", flag_key)
        metrics["policy/steps_skipped"] = float(metrics.get("policy/grad_norm", 1.0) == 0.0)
        metrics["policy/updated"] = 1.0 - metrics["policy/steps_skipped"]
        return metrics

    def compute_logprobs(self, samples: Sequence[Sample]) -> list[Any]:
        """pi_old per sample from the actor's current weights (verl's `compute_log_prob`, forward only), aligned
        like `rollout_logprobs`, 0 off the loss mask (docs/algorithms.md sec. 4)."""
        self._require_started()
        if self.engine_awake:
            self.release_engine()
        return self._actor_logprobs(samples)

    def _actor_logprobs(self, samples: Sequence[Sample]) -> list[Any]:
        """`compute_logprobs` without releasing the engine (the canary runs while the replicas serve)."""
        import numpy as np
        from verl.utils import tensordict_utils as tu
        from verl.workers.utils.padding import no_padding_2_padding

        from swerl.train.backends.verl.proto import (
            response_start,
            rollout_layout,
            samples_to_dataproto,
            to_worker_tensordict,
        )

        layout = rollout_layout(samples, self.dp_size)
        dp = samples_to_dataproto(samples, layout, loss_agg=self.recipe.algorithm.loss_agg,
                                  pad_token_id=self.pad_token_id, vocab_size=self.vocab_size)
        td = to_worker_tensordict(dp, compute_loss=False)
        out = self.actor_wg.compute_log_prob(td)
        rows = no_padding_2_padding(tu.get(out, "log_probs"), td).float().cpu().numpy()
        result = [np.zeros(s.num_tokens, dtype=np.float32) for s in samples]
        for k, i in enumerate(layout.rows):
            if i >= 0:
                b = response_start(samples[i])
                result[i][b:] = rows[k, :samples[i].num_tokens - b]
                result[i] *= samples[i].loss_mask > 0
        return result

    def _gae(self, dp: Any) -> dict[str, float]:
        """Critic values (forward only) -> linked skip-observation GAE; writes advantages/returns/values into `dp`."""
        from verl.utils import tensordict_utils as tu
        from verl.workers.utils.padding import no_padding_2_padding

        from swerl.train.backends.verl.proto import rows_gae, to_worker_tensordict

        td = to_worker_tensordict(dp, compute_loss=False)
        out = self.critic_wg.infer_batch(td).get()
        values = no_padding_2_padding(tu.get(out, "values"), td).float().cpu()
        values = values * dp.batch["response_mask"]
        a = self.recipe.algorithm
        adv, ret = rows_gae(values, dp, a.gamma, a.lam)
        dp.batch["advantages"], dp.batch["returns"], dp.batch["values"] = adv, ret, values
        m = dp.batch["response_mask"].bool()
        var = ret[m].var(unbiased=False) if m.any() else ret.new_zeros(())
        ev = float(1 - (ret[m] - values[m]).var(unbiased=False) / var) if var > 0 else 0.0
        return {"critic/explained_variance": ev, "critic/value_mean": float(values[m].mean()) if m.any() else 0.0}

    def save_checkpoint(self, path: str | None = None) -> str:
        """verl sharded checkpoint (model, optimizer, extra) of actor and critic under `path`; returns it."""
        self._require_started()
        path = os.path.abspath(path or os.path.join(self.checkpoint_dir, f"global_step_{self.step}"))
        self.actor_wg.save_checkpoint(os.path.join(path, "actor"), global_step=self.step)
        if self.critic_wg is not None:
            self.critic_wg.save_checkpoint(os.path.join(path, "critic"), global_step=self.step)
        self._prune_checkpoints(keep=path)
        return path

    def _prune_checkpoints(self, keep: str) -> list[str]:
        """Delete all but the newest `verl.max_ckpt_to_keep` `global_step_N` directories of `checkpoint_dir`.

        Done here rather than by verl's own `max_ckpt_to_keep`, which only counts saves of the
        current process (a resumed run would never delete what an earlier one wrote) and leaves
        the emptied `global_step_N` directories behind. The checkpoint just written is never deleted."""
        import re
        import shutil

        n = self.recipe.verl.max_ckpt_to_keep
        root = self.checkpoint_dir
        if not n or not os.path.isdir(root):
            return []
        steps = sorted((int(m.group(1)), d) for d in os.listdir(root)
                       if (m := re.fullmatch(r"global_step_(\d+)", d)) and os.path.isdir(os.path.join(root, d)))
        doomed = [os.path.join(root, d) for _, d in steps[:-n] if os.path.join(root, d) != keep]
        for d in doomed:
            shutil.rmtree(d, ignore_errors=True)
        if doomed:
            log.info("verl_checkpoints_pruned", removed=[os.path.basename(d) for d in doomed], kept=n)
        return doomed

    def load_checkpoint(self, path: str, step: int) -> None:
        self._require_started()
        self.actor_wg.load_checkpoint(os.path.join(path, "actor"), del_local_after_load=False)
        if self.critic_wg is not None:
            if not os.path.isdir(os.path.join(path, "critic")):
                raise ConfigError(f"checkpoint {path} has no critic state but this backend uses a critic (SAO)")
            self.critic_wg.load_checkpoint(os.path.join(path, "critic"), del_local_after_load=False)
        self.step = int(step)

    def state_dict(self) -> dict[str, Any]:
        """Saves a verl checkpoint and returns where it is (weights stay sharded on disk, not in this dict)."""
        return {"step": self.step, "checkpoint": self.save_checkpoint(), "recipe": self.recipe.name,
                "backend": "verl"}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if state.get("backend") != "verl":
            raise ConfigError("load_state_dict: not a verl backend state (expected backend='verl')")
        self.load_checkpoint(state["checkpoint"], state["step"])

    def policy_weights(self) -> dict[str, Any]:
        """The policy's full state dict on the driver, for an engine that is not verl's (the loop's embedded one).

        Only without verl's replicas (`with_rollout=False`): with them, weights go to vLLM through
        `sync_weights` and a 9B policy stays sharded. Gathers every parameter from the FSDP shards,
        so it is meant for models that fit the driver's memory (CPU runs, small models). For a
        Hugging Face export use verl's model merger on a checkpoint (docs/verl.md)."""
        if self.with_rollout or self.actor_wg is None:
            raise ConfigError("VerlBackend keeps weights sharded on its workers: use sync_weights(version) "
                              "for the inference engine, or save_checkpoint() + `python -m verl.model_merger`")
        return self.actor_wg.full_state_dict()[0]


__all__ = ["VerlBackend"]
