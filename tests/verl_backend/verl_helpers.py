"""Sample builders shared by the verl backend tests (a uniquely named module, importable from each test)."""

from __future__ import annotations

from typing import Any

import numpy as np


def make_sample(rollout_id: str, sample_index: int, n_tokens: int, response: list[tuple[int, int]], *,
                group_id: str = "g", reward: float | None = 1.0, seed: int = 0, vocab: int = 8000) -> Any:
    """A Sample with random ids, mask-1 spans `response` ([start, end) pairs) and logged log-probs on them."""
    from swerl.train.schema import Sample

    rng = np.random.default_rng(seed)
    mask = np.zeros(n_tokens, dtype=np.int8)
    for s, e in response:
        mask[s:e] = 1
    return Sample(input_ids=rng.integers(0, vocab, n_tokens), loss_mask=mask,
                  rollout_logprobs=np.where(mask > 0, -3.0 * rng.random(n_tokens), 0.0), rollout_id=rollout_id,
                  group_id=group_id, sample_index=sample_index, reward=reward, policy_versions=[0])


def random_batch(seed: int, *, groups: int = 3, per_group: int = 3, max_samples: int = 3, vocab: int = 8000,
                 min_len: int = 6, max_len: int = 40) -> list[Any]:
    """Whole rollouts of random multi-turn samples: each rollout has 1..max_samples samples (split rollouts),
    each sample a prompt then alternating action / observation spans; rewards 0/1 per rollout."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(groups):
        for r in range(per_group):
            reward = float(rng.integers(0, 2))
            for j in range(int(rng.integers(1, max_samples + 1))):
                n = int(rng.integers(min_len, max_len + 1))
                start, spans = int(rng.integers(1, max(2, n // 3))), []
                while start < n:
                    end = min(n, start + int(rng.integers(1, 6)))
                    spans.append((start, end))
                    start = end + int(rng.integers(1, 6))
                out.append(make_sample(f"r{g}.{r}", j, n, spans, group_id=f"g{g}", reward=reward,
                                       seed=int(rng.integers(1 << 30)), vocab=vocab))
    return out


def engine_backward(model: Any, td: Any, dp_size: int, loss_fn: Any, cfg: Any, budget: int = 48,
                    metrics: list[dict[str, Any]] | None = None) -> float:
    """Re-enact verl's worker update on CPU: per rank `train_mini_batch` (one mini-batch) ->
    `forward_backward_batch` (token-budget micro-batches) -> `forward_step` (packed no-padding forward,
    log-probs of the rolled ids) -> `loss_fn`. FSDP's averaging over ranks is a division by dp_size.
    Gradients accumulate in `model`; returns the step loss; each micro-batch's metrics go to `metrics`."""
    import torch
    from verl.utils import tensordict_utils as tu
    from verl.workers.engine.utils import prepare_micro_batches

    from swerl.train.losses import token_logprobs

    total = 0.0
    batch_num_tokens = int(td["loss_mask"].sum())  # verl all-reduces this over the dp group
    for rank_td in tu.chunk_tensordict(td, dp_size):
        (mb,) = list(tu.make_iterator(rank_td, mini_batch_size=len(rank_td), epochs=1,
                                      dataloader_kwargs={"shuffle": False}))
        tu.assign_non_tensor(mb, use_dynamic_bsz=True, max_token_len_per_gpu=budget, dp_size=dp_size,
                             batch_num_tokens=batch_num_tokens)
        micro, _ = prepare_micro_batches(mb)
        for m in micro:
            ids, pos = m["input_ids"], m["position_ids"]
            logits = model(input_ids=ids.values()[None], position_ids=pos.values()[None], use_cache=False).logits[0]
            lp = token_logprobs(logits, torch.roll(ids.values(), -1))
            out = torch.nested.nested_tensor_from_jagged(lp, ids.offsets())
            loss, mb_metrics = loss_fn(cfg, {"log_probs": out}, m)
            if metrics is not None:
                metrics.append(mb_metrics)
            (loss / dp_size).backward()
            total += float(loss) / dp_size
    return total


def with_policy_logprobs(samples: list[Any], model: Any, *, noise: float = 0.3, seed: int = 5) -> list[Any]:
    """Set each sample's logged rollout log-probs to `model`'s own (plus Gaussian `noise`), as if `model` had
    generated them: ratios near 1, so PPO's clip and DIS's mask bite on some tokens, not on all of them."""
    import torch

    rng = np.random.default_rng(seed)
    with torch.no_grad():
        for s in samples:
            ids = torch.as_tensor(np.asarray(s.input_ids), dtype=torch.long)[None]
            lp = torch.log_softmax(model(input_ids=ids).logits[0].float(), -1)
            tok = np.zeros(len(s.input_ids))
            tok[1:] = lp[:-1].gather(-1, ids[0, 1:, None])[:, 0].numpy()
            s.rollout_logprobs[:] = np.where(np.asarray(s.loss_mask) > 0, tok + rng.normal(0, noise, len(tok)), 0.0)
    return samples


HARNESS_COMMANDS: tuple[tuple[str, float], ...] = (
    ("ls", 3.0), ("ls tests", 1.0), ("ls -la", 1.0), ("python -m pytest -x -q", 2.0),
    ("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", 1.0),
)
"""Commands the warm-started model calls bash with, and their sampling weights. Different lengths, and the submit
command (swerl's mini-swe-agent template: `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` ends the run) ends some
trajectories early, so rollouts of one task differ in length and hence in the overlong penalty. `-x`: the full
failure report of a buggy task is ~1.6k tokens, two of them overflow the recipe's 4k context. Lower case apart
from the submit command: the tiny tokenizer spells upper case letter by letter, which the tiny model garbles
(`cat README.md` came out as `cat READMETE_...` in a fit)."""


def tool_call_text(command: str) -> str:
    """An assistant turn as the tiny tokenizer's (Qwen2.5) template renders a bash call in history, and as vLLM's
    `hermes` parser reads it: JSON inside `<tool_call>` tags."""
    import json

    return f'<tool_call>\n{{"name": "bash", "arguments": {json.dumps({"command": command})}}}\n</tool_call>'


class _LocalSandbox:
    """Just enough of swerl's `Sandbox` for `SwerlEnvironment`: commands run with bash in a copy of the task's
    repository with its bug (no isolation: the only commands are `HARNESS_COMMANDS`), so observations look like the
    ones the sandbox returns in the run."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.seen: dict[str, Any] = {}  # command -> result: no command changes the repository, so each runs once

    def exec(self, handle: Any, command: str, timeout: int = 30, cwd: str | None = None) -> Any:
        import subprocess

        from swerl.sandbox.schema import ExecResult

        if command not in self.seen:
            res = subprocess.run(["bash", "-c", command], cwd=self.root, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, timeout=timeout, check=False)
            self.seen[command] = ExecResult(output=res.stdout, returncode=res.returncode)
        return self.seen[command]

    def extract_patch(self, handle: Any) -> Any:
        from swerl.sandbox.schema import PatchResult

        return PatchResult(patch="")


def harness_conversations(tok: Any, work: Any, *, per_task: int = 4, step_limit: int = 4,
                          seed: int = 0) -> list[tuple[list[int], list[tuple[int, int]]]]:
    """Tool-calling mini-swe-agent (swerl's harness settings, mini-swe-agent's `DefaultAgent` and model class,
    `SwerlEnvironment`) on every bundled task, `per_task` times, with the model's replies scripted from
    `HARNESS_COMMANDS` and the commands really run in a copy of the task's repository. Each request's messages are
    rendered as vLLM renders them (the tokenizer's chat template, `tools=[bash]`, generation prompt), which is what
    the harness sends in the run. Returns one token sequence per conversation (the last prompt plus the last reply:
    the template keeps the history verbatim, so every earlier prompt+reply is a prefix, checked) with the [start,
    end) spans of the assistant replies, `<|im_end|>` included."""
    import json
    import shutil
    from pathlib import Path
    from types import SimpleNamespace

    import yaml

    from swerl.rollout.harness import agent_settings, harness_env, load_class, resolve
    from swerl.rollout.schema import HARNESS_TOOLCALL
    from swerl.sandbox.minisweagent_env import SwerlEnvironment
    from swerl.sandbox.schema import WORKDIR
    from swerl.tasks.taskpack import PACK_DIR, REPOS_DIR, instance_id

    harness_env()
    import litellm
    from minisweagent.agents.default import DefaultAgent
    from minisweagent.models.utils.actions_toolcall import BASH_TOOL

    spec = resolve(HARNESS_TOOLCALL)
    settings = agent_settings(spec, step_limit=step_limit)
    rng = np.random.default_rng(seed)
    commands = [c for c, _ in HARNESS_COMMANDS]
    weights = np.array([w for _, w in HARNESS_COMMANDS])
    end = [tok.convert_tokens_to_ids("<|im_end|>")]

    class Scripted(load_class(spec.model_class)):  # type: ignore[misc]
        """The harness's model class with `_query` (the litellm call) replaced by a scripted bash call."""

        def _query(self, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
            command = commands[int(rng.choice(len(commands), p=weights / weights.sum()))]
            self.turns.append((messages, command))
            call = {"id": f"call_{len(self.turns)}", "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps({"command": command})}}
            return litellm.ModelResponse(choices=[{"message": {"role": "assistant", "content": None,
                                                               "tool_calls": [call]}, "finish_reason": "tool_calls"}])

    out = []
    for task in yaml.safe_load((PACK_DIR / "tasks.yaml").read_text()):
        iid = instance_id(task["repo"], task["id"])
        repo = Path(work) / iid
        shutil.copytree(REPOS_DIR / task["repo"], repo, dirs_exist_ok=True)
        for edit in task["edits"]:  # the task's bug, and its hidden tests gone, as on the task's branch
            f = repo / edit["file"]
            f.write_text(f.read_text().replace(edit["old"], edit["new"]))
        if task.get("hidden_tests"):
            for test in {t.split("::", 1)[0] for t in task["FAIL_TO_PASS"]}:
                (repo / test).unlink(missing_ok=True)
        sandbox = _LocalSandbox(repo)
        for _ in range(per_task):
            model = Scripted(model_name="openai/policy", model_kwargs={}, cost_tracking="ignore_errors",
                             **{k: v for k, v in settings["model"].items() if k != "model_kwargs"})
            model.turns = []
            handle = SimpleNamespace(id="local", backend="local",
                                     task=SimpleNamespace(workdir=WORKDIR, instance_id=iid))
            env = SwerlEnvironment(sandbox=sandbox, handle=handle, timeout=30)
            DefaultAgent(model, env, **{"wall_time_limit_seconds": 0, **settings["agent"]}).run(
                task["problem_statement"])
            ids: list[int] = []
            spans = []
            for messages, command in model.turns:
                text = tok.apply_chat_template(messages, tools=[BASH_TOOL], tokenize=False, add_generation_prompt=True)
                prompt = tok(text, add_special_tokens=False)["input_ids"]
                if prompt[:len(ids)] != ids:
                    raise AssertionError("a later prompt does not extend the earlier prompt + reply")
                reply = tok(tool_call_text(command), add_special_tokens=False)["input_ids"] + end
                spans.append((len(prompt), len(prompt) + len(reply)))
                ids = prompt + reply
            out.append((ids, spans))
    return out


def warm_start_tool_caller(out: Any, *, hidden: int = 128, layers: int = 2, heads: int = 2, max_context: int = 4096,
                           steps: int = 800, per_task: int = 4, lr: float = 3e-3, seed: int = 0,
                           log: list[float] | None = None) -> Any:
    """A random-init tiny model (the recipe's architecture and tokenizer) fitted to write valid bash tool calls on
    the prompts the harness really sends: `steps` Adam steps over `harness_conversations` (every bundled task, later
    turns included: earlier calls and their observations in the prompt), the loss on the assistant replies only.

    Why: a random model writes 96-token turns without an end token, so every trajectory has the same length and
    every advantage is 0, and it never writes a call vLLM's `hermes` parser can read. This one ends each turn after
    a call from `HARNESS_COMMANDS` (sampled at temperature 1.0 the replies must be sharp: the fit runs until each
    reply token is near-certain except the command's choice), so vLLM returns parsed `tool_calls`, mini-swe-agent
    runs them, and the varying commands and turn counts give trajectories of different lengths, which the overlong
    penalty turns into different rewards. Fitting on short random contexts instead (an earlier version) gave
    `<tool_call>`-shaped text that was not valid JSON on the harness's ~2k-token prompts. The mean reply loss of
    each step goes to `log`."""
    import tempfile
    from pathlib import Path

    import torch

    from swerl.models import build_tiny_model, load_tokenizer

    out = Path(out)
    tok = load_tokenizer("tiny-bpe", vocab_size=8192, field="model.tokenizer")
    model = build_tiny_model(tok, hidden_size=hidden, num_layers=layers, num_heads=heads, seed=seed,
                             max_position_embeddings=max_context)
    data = []
    with tempfile.TemporaryDirectory() as work:  # the task repositories the scripted commands run in
        for ids, spans in harness_conversations(tok, work, per_task=per_task, seed=seed):
            spans = [(s, e) for s, e in spans if e <= max_context]  # a longer one overflows in the run too
            if spans:
                data.append((ids, spans))
    rng = np.random.default_rng(seed)
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    warmup = max(1, steps // 20)  # then cosine to lr/30: the last steps sharpen each reply token
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: min(1.0, (i + 1) / warmup) * (
        1 / 30 + (1 - 1 / 30) * 0.5 * (1 + np.cos(np.pi * min(1.0, i / steps)))))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: threads only contend with the other processes on the machine
    model.train()
    for _ in range(steps):
        ids, spans = data[int(rng.integers(len(data)))]
        ids_t = torch.tensor([ids[:spans[-1][1]]])
        pos = torch.tensor([p - 1 for s, e in spans for p in range(s, e)])  # positions predicting reply tokens
        hidden_states = model.model(input_ids=ids_t).last_hidden_state[0, pos]
        loss = torch.nn.functional.cross_entropy(model.lm_head(hidden_states).float(), ids_t[0, pos + 1])
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        if log is not None:
            log.append(float(loss.detach()))
    torch.set_num_threads(threads)
    model.eval()
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


def replica_weights(backend: Any) -> list[dict[str, Any]]:
    """The parameters each swerl replica of a started `VerlBackend` serves (copies, empty tensors while asleep;
    for checks against the actor's weights)."""
    import ray

    servers = backend._swerl_servers()  # none: no Ray call
    return list(ray.get([s.state_dict.remote() for s in servers])) if servers else []


def node_check() -> Any:
    """`scripts/verl_node_check.py` as a module (a script, not part of the package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "verl_node_check.py"
    spec = importlib.util.spec_from_file_location("swerl_verl_node_check", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
