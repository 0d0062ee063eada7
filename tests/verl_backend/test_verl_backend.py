"""`VerlBackend`'s driver logic with stand-in worker groups (the real workers run in test_verl_cpu_run.py).

The stand-ins receive exactly the TensorDicts the backend would send to verl's workers and
run them through verl's batching utilities and swerl's loss functions on a tiny CPU model,
so these tests cover the driver: layout, GAE, SAO warm-up, K critic epochs, metric names,
checkpoints and the collocated-engine hooks.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
import torch
from backend_helpers import torch_backend
from verl.utils import tensordict_utils as tu
from verl_helpers import engine_backward, random_batch

from swerl.config import load_recipe
from swerl.errors import ConfigError, DataError
from swerl.train.advantage import compute_advantages
from swerl.train.backends import TrainingBackend
from swerl.train.backends.verl.backend import VerlBackend
from swerl.train.backends.verl.loss_fns import swerl_actor_loss
from swerl.train.backends.verl.proto import rows_gae
from swerl.train.backends.verl.verl_config import actor_config, build_verl_config

pytestmark = pytest.mark.slow
VOCAB = 96


class _Done:
    def __init__(self, value: Any) -> None:
        self.value = value

    def get(self) -> Any:
        return self.value


def _out(metrics: dict[str, list[float]]) -> Any:
    return tu.get_tensordict(tensor_dict={}, non_tensor_dict={"metrics": metrics})


class FakeActor:
    """update_actor / checkpoints like verl's ActorRolloutRefWorker group, running the CPU re-enactment."""

    def __init__(self, model: torch.nn.Module, cfg: Any, dp_size: int) -> None:
        self.model, self.cfg, self.dp_size = model, cfg, dp_size
        self.batches: list[Any] = []
        self.saved: list[tuple[str, int]] = []
        self.loaded: list[str] = []

    def update_actor(self, td: Any) -> Any:
        self.batches.append(td)
        self.model.zero_grad(set_to_none=True)
        loss = engine_backward(self.model, td, self.dp_size, swerl_actor_loss, self.cfg)
        return _out({"actor/pg_loss": [loss], "actor/pg_clipfrac": [0.25], "actor/ppo_kl": [0.01],
                     "grad_norm": [2.0], "lr": [1e-6], "perf/max_memory_allocated_gb": [1.5]})

    def save_checkpoint(self, local_path: str, global_step: int = 0) -> None:
        self.saved.append((local_path, global_step))

    def load_checkpoint(self, local_path: str, del_local_after_load: bool = False) -> None:
        self.loaded.append(local_path)


class FakeCritic(FakeActor):
    """infer_batch returns fixed values V(t) = 0.01 * position; train_mini_batch records the K epochs."""

    def __init__(self) -> None:
        super().__init__(torch.nn.Linear(1, 1), None, 1)
        self.epochs: list[int] = []

    def infer_batch(self, td: Any) -> _Done:
        assert tu.get(td, "compute_loss") is False
        ids = td["input_ids"]
        vals = torch.cat([0.01 * torch.arange(int(n), dtype=torch.float32) for n in ids.offsets().diff()])
        return _Done(tu.get_tensordict({"values": torch.nested.nested_tensor_from_jagged(vals, ids.offsets())}))

    def train_mini_batch(self, td: Any) -> _Done:
        self.batches.append(td)
        self.epochs.append(tu.get(td, "epochs"))
        return _Done(_out({"critic/vf_loss": [0.5, 0.25], "grad_norm": [1.0, 0.5]}))


@pytest.fixture(scope="module")
def tiny_model() -> torch.nn.Module:
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    return Qwen2ForCausalLM(Qwen2Config(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                        num_attention_heads=4, num_key_value_heads=2, tie_word_embeddings=False,
                                        attn_implementation="sdpa"))


def _backend(name: str, model: torch.nn.Module, dp_size: int) -> tuple[VerlBackend, FakeActor]:
    recipe = load_recipe(name)
    b = VerlBackend(recipe, checkpoint_dir="/tmp/swerl-verl-ckpt")
    actor = FakeActor(copy.deepcopy(model), actor_config(build_verl_config(recipe, model_path="/x")), dp_size)
    b.actor_wg, b.dp_size, b.vocab_size = actor, dp_size, VOCAB
    return b, actor


def test_grpo_update_is_one_step_with_torch_backend_loss(tiny_model: torch.nn.Module) -> None:
    b, actor = _backend("qwen9b", tiny_model, dp_size=2)
    assert isinstance(b, TrainingBackend)
    samples = random_batch(3, groups=2, per_group=4, vocab=VOCAB)
    adv = compute_advantages(samples)
    metrics = b.update(samples, adv)
    (td,) = actor.batches
    assert tu.get(td, "mini_batch_size") == len(td) and tu.get(td, "epochs") == 1  # one optimizer step
    assert tu.get(td, "swerl_step")["mode"] == "rollout-mean"
    ref = torch_backend(copy.deepcopy(tiny_model), clip_low=0.2, clip_high=0.28, micro_batch_tokens=64)
    assert metrics["policy/loss"] == pytest.approx(ref.policy_loss(samples, adv), rel=1e-5, abs=1e-7)
    assert (metrics["policy/clip_frac"], metrics["policy/grad_norm"], metrics["policy/lr"]) == (0.25, 2.0, 1e-6)
    assert metrics["batch/samples"] == len(samples) and metrics["batch/rollouts"] == 8 and b.step == 1
    assert metrics["perf/tokens_per_s"] > 0 and metrics["perf/max_memory_allocated_gb"] == 1.5
    with pytest.raises(DataError, match="advantages"):
        b.update(samples, None)
    with pytest.raises(DataError, match="no samples"):
        b.update([], [])
    with pytest.raises(ConfigError, match="start"):
        VerlBackend(load_recipe("qwen9b")).update(samples, adv)


def test_sao_update_warms_up_the_critic_then_trains_both(tiny_model: torch.nn.Module) -> None:
    b, actor = _backend("qwen9b-sao", tiny_model, dp_size=1)
    critic = FakeCritic()
    b.critic_wg = critic
    samples = random_batch(5, groups=3, per_group=1, max_samples=3, vocab=VOCAB)
    with pytest.raises(DataError, match="critic"):
        b.update(samples, [0.0] * len(samples))
    for step in range(11):
        m = b.update(samples)
        assert m["policy/updated"] == float(step >= 10)  # 10 warm-up steps: critic only
    assert len(actor.batches) == 1 and critic.epochs == [2] * 11  # K=2 critic updates per policy update
    td = critic.batches[-1]
    assert "returns" in td and "values" in td
    # TorchBackend's definitions: the first epoch's loss, the last epoch's loss and grad norm
    assert (m["critic/value_loss"], m["critic/value_loss_last"], m["critic/grad_norm"]) == (0.5, 0.25, 0.5)
    assert "critic/explained_variance" in m
    # the advantages the policy trained on are the linked skip-observation GAE of the critic's values
    dp_td = actor.batches[0]
    from verl.workers.utils.padding import no_padding_2_padding

    from swerl.train.backends.verl.proto import rollout_layout, samples_to_dataproto

    dp = samples_to_dataproto(samples, rollout_layout(samples, 1))
    vals = critic.infer_batch(_as_infer(dp)).get()["values"]
    values = no_padding_2_padding(vals, _as_infer(dp)) * dp.batch["response_mask"]
    want, _ = rows_gae(values, dp, gamma=1.0, lam=1.0)
    torch.testing.assert_close(dp_td["advantages"], want)


def _as_infer(dp: Any) -> Any:
    from swerl.train.backends.verl.proto import to_worker_tensordict

    return to_worker_tensordict(dp, compute_loss=False)


def test_checkpoints_and_engine_hooks(tiny_model: torch.nn.Module, tmp_path: Any) -> None:
    b, actor = _backend("qwen9b-sao", tiny_model, dp_size=1)
    b.critic_wg = critic = FakeCritic()
    b.checkpoint_dir = str(tmp_path)
    b.step = 7
    state = b.state_dict()
    assert state == {"step": 7, "checkpoint": f"{tmp_path}/global_step_7", "recipe": "qwen9b-sao", "backend": "verl"}
    assert actor.saved == [(f"{tmp_path}/global_step_7/actor", 7)] and critic.saved[0][0].endswith("critic")
    (tmp_path / "global_step_7" / "critic").mkdir(parents=True)
    b.step = 0
    b.load_state_dict(state)
    assert b.step == 7 and actor.loaded == [f"{tmp_path}/global_step_7/actor"]
    with pytest.raises(ConfigError, match="no critic state"):
        b.load_checkpoint(str(tmp_path / "elsewhere"), 1)
    with pytest.raises(ConfigError, match="not a verl"):
        b.load_state_dict({"step": 1})
    with pytest.raises(ConfigError, match="sync_weights"):
        b.policy_weights()

    calls: list[Any] = []

    class Sync:
        def sleep_replicas(self) -> None:
            calls.append("sleep")

        def update_weights(self, version: int) -> None:
            calls.append(("sync", version))

    class Servers:
        def get_addresses(self) -> list[str]:
            return ["10.0.0.1:8000", "http://10.0.0.2:8001"]

    b.weight_sync, b.llm_servers, b.engine_awake = Sync(), Servers(), True
    b.canary_diff = lambda url: 0.0  # the fake replicas serve nothing (a real vLLM's canary: test_verl_vllm_*)
    b.release_engine()
    b.release_engine()  # idempotent
    assert b.sync_weights(3) >= 0 and b.engine_awake
    assert b.sync_weights(4) >= 0  # an awake engine is put to sleep before verl's collocated sync
    assert calls == ["sleep", ("sync", 3), "sleep", ("sync", 4)]
    assert b.engine_urls() == ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8001/v1"]  # OpenAI base URLs
    calls.clear()
    samples = random_batch(2, groups=4, per_group=1, vocab=VOCAB)
    warm = b.update(samples, None, update_index=0)  # SAO warm-up: the critic alone, the policy unchanged ...
    assert warm["policy/updated"] == 0.0 and actor.batches == []
    assert calls == ["sleep", ("sync", 4)] and b.engine_awake  # ... yet the replicas slept: same version back
    calls.clear()
    b.critic_wg = None
    b.recipe = load_recipe("qwen9b")
    b.use_critic = False
    samples = random_batch(2, groups=2, per_group=2, vocab=VOCAB)
    b.update(samples, compute_advantages(samples))  # the caller forgot release_engine(): update does it
    assert calls == ["sleep"] and not b.engine_awake


def test_checkpoints_beyond_max_ckpt_to_keep_are_deleted_also_those_of_an_earlier_process(tmp_path: Any) -> None:
    """verl's own `max_ckpt_to_keep` counts only the current process's saves; a resumed run must still bound
    the directory: the newest N `global_step_*` stay, the checkpoint just written always stays."""
    root = tmp_path / "ckpt"
    for step in (1, 2, 5, 10):  # written by an earlier process (10 sorts after 5 numerically, not as text)
        (root / f"global_step_{step}" / "actor").mkdir(parents=True)
    (root / "other").mkdir()
    b = VerlBackend(load_recipe("qwen9b", ["verl.max_ckpt_to_keep=2"]), checkpoint_dir=str(root))
    removed = b._prune_checkpoints(keep=str(root / "global_step_10"))
    assert sorted(p.name for p in root.iterdir()) == ["global_step_10", "global_step_5", "other"]
    assert sorted(removed) == [str(root / "global_step_1"), str(root / "global_step_2")]
    (root / "global_step_3").mkdir()  # a save at step 3 (e.g. resumed from an older checkpoint): never deleted
    b._prune_checkpoints(keep=str(root / "global_step_3"))
    assert {"global_step_3", "global_step_10"} <= {p.name for p in root.iterdir()}
    keep_all = VerlBackend(load_recipe("qwen9b", ["verl.max_ckpt_to_keep=null"]), checkpoint_dir=str(root))
    assert keep_all._prune_checkpoints(keep=str(root / "global_step_3")) == []


def test_zero_gradient_is_no_step_no_version_and_the_same_weights_go_back(tiny_model: torch.nn.Module) -> None:
    """The driver side of TorchBackend's rule: a worker that reports a zero gradient norm (it skipped the step)
    makes the update `policy/updated` 0, and the replicas, which slept for it, get the unchanged version back."""

    class ZeroActor(FakeActor):
        def update_actor(self, td: Any) -> Any:
            out = super().update_actor(td)
            tu.get(out, "metrics")["grad_norm"] = [0.0]
            return out

    b, _ = _backend("qwen9b", tiny_model, dp_size=1)
    b.actor_wg = ZeroActor(copy.deepcopy(tiny_model), b.actor_wg.cfg, 1)
    calls: list[Any] = []

    class Sync:
        def sleep_replicas(self) -> None:
            calls.append("sleep")

        def update_weights(self, version: int) -> None:
            calls.append(("sync", version))

    b.weight_sync, b.engine_awake, b.synced_version = Sync(), True, 5
    samples = random_batch(4, groups=2, per_group=2, vocab=VOCAB)
    m = b.update(samples, [0.0] * len(samples))
    assert (m["policy/steps_skipped"], m["policy/updated"], m["policy/grad_norm"]) == (1.0, 0.0, 0.0)
    assert calls == ["sleep", ("sync", 5)] and b.engine_awake


def test_the_worker_guard_skips_exactly_zero_gradients() -> None:
    """`skip_zero_gradient_steps` on an engine-like object (single process): a zero gradient takes neither an
    optimizer nor a scheduler step and reports norm 0; any non-zero element lets verl's own step run."""
    from swerl.train.backends.verl.critic import skip_zero_gradient_steps

    class Engine:
        def __init__(self) -> None:
            self.module = torch.nn.Linear(3, 2)
            self.optimizer = torch.optim.AdamW(self.module.parameters(), lr=0.1)
            self.lr_scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: 1.0 / (s + 1))
            self.steps = 0

        def optimizer_step(self) -> float:
            self.steps += 1
            self.optimizer.step()
            return 1.0

        def lr_scheduler_step(self) -> float:
            self.lr_scheduler.step()
            return float(self.lr_scheduler.get_last_lr()[0])

    e, counts = Engine(), {"taken": 0, "skipped": 0}
    skip_zero_gradient_steps(e, counts)
    before = [p.detach().clone() for p in e.module.parameters()]
    for p in e.module.parameters():
        p.grad = torch.zeros_like(p)
    assert e.optimizer_step() == 0.0 and e.lr_scheduler_step() == 0.1
    assert all(torch.equal(a, b) for a, b in zip(before, e.module.parameters(), strict=True)) and e.steps == 0
    e.module.bias.grad = torch.tensor([0.0, 1e-30])
    assert e.optimizer_step() == 1.0 and e.lr_scheduler_step() == 0.05 and e.steps == 1
    assert counts == {"taken": 1, "skipped": 1}
