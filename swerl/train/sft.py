"""`swerl train sft`: supervised warm-start from agent trajectories, so RL starts from a policy that acts.

A random model never emits a parsable mini-swe-agent action, so RL from it sees reward 0 and no
gradient (docs/train.md: inputs, output and settings). Tokenisation is the rollouts' own: each
assistant turn is encoded exactly as the engine produces it after
`apply_chat_template(messages[:k], add_generation_prompt=True)`, so SFT and RL see the same tokens.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from swerl.atomic import publish_dir
from swerl.errors import DataError, SwerlError
from swerl.log import get_logger
from swerl.tasks.schema import read_json_rows

log = get_logger(__name__)

END_OF_TURN = "<|im_end|>"


class SftParams(BaseModel):
    """`swerl train sft`'s own settings; the model, tokenizer, seed, threads and context length are the recipe's
    (`overrides` are `--set` items, as for `swerl train`). A bad value names its flag."""

    model_config = ConfigDict(extra="forbid")

    data: list[Path] = Field(min_length=1)
    out: Path
    recipe: str = "swe-tiny"
    overrides: list[str] = Field(default_factory=list, description="Recipe overrides (`train.seed=1`).")
    init: str = Field("tiny", description="`tiny` (random init, sized by the recipe's model section) or a model dir.")
    epochs: int = Field(3, ge=1)
    lr: float = Field(1e-3, gt=0)
    batch_tokens: int = Field(16384, gt=0)
    only_resolved: bool = True
    force: bool = False


@dataclass
class Example:
    source: str
    input_ids: list[int]
    loss_mask: list[int]


def _text(content: Any, where: str) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for p in content:
            if isinstance(p, dict) and p.get("type", "text") == "text" and isinstance(p.get("text"), str):
                parts.append(p["text"])
            elif isinstance(p, str):
                parts.append(p)
        return "".join(parts)
    if content is None:
        return ""
    raise DataError(f"{where}: message content must be a string or a list of text parts")


def normalise_messages(raw: Any, where: str) -> list[dict[str, str]]:
    """`[{role, content}]` with text content; mini-swe-agent's `extra` and tool-call fields dropped."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}: field messages is not a JSON list: {exc.msg}") from exc
    if hasattr(raw, "tolist"):
        raw = raw.tolist()
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{where}: field messages must be a non-empty list")
    out = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise DataError(f"{where}: messages[{i}] has no role")
        if m["role"] == "exit":  # mini-swe-agent's closing record (exit status, submission): never sent to a model
            continue
        role = "user" if m["role"] == "tool" else m["role"]  # text-based harness: observations are user turns
        if role not in ("system", "user", "assistant"):
            raise DataError(f"{where}: messages[{i}].role {m['role']!r} is not system/user/assistant/tool/exit")
        out.append({"role": role, "content": _text(m.get("content"), f"{where}: messages[{i}]")})
    return out


def _traj_resolved(data: dict[str, Any]) -> bool:
    info = data.get("info") or {}
    swerl = info.get("swerl") or {}
    if "resolved" in swerl:
        return bool(swerl["resolved"])
    return info.get("exit_status") == "Submitted"


def read_conversations(paths: list[Path], only_resolved: bool = True) -> tuple[list[tuple[str, list[dict]]], dict]:
    """(source, messages) pairs from trajectory files/dirs and SWE-smith trajectory rows; and counts."""
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir() and (p / "run.json").is_file() and (p / "agent.jsonl").is_file():
            files.append(p)  # an `swerl eval swebench` run dir: its graded attempts (rejection sampling)
        elif p.is_dir():
            found = sorted(p.rglob("*.traj.json"))
            if not found:
                raise DataError(f"--data {p}: a directory without *.traj.json files")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise DataError(f"--data {p}: no such file or directory")
    convs: list[tuple[str, list[dict]]] = []
    counts = {"files": len(files), "conversations": 0, "skipped_unresolved": 0, "skipped_no_answer": 0}
    for f in files:
        for where, raw, resolved in _records(f):
            if only_resolved and resolved is False:
                counts["skipped_unresolved"] += 1
                continue
            msgs = normalise_messages(raw, where)
            if not any(m["role"] == "assistant" for m in msgs):
                # a run that ended before the model's first reply (step limit 0, infra failure): nothing to learn
                # from, and with --no-only-resolved an eval run dir can hold such attempts, so skip and count
                counts["skipped_no_answer"] += 1
                continue
            convs.append((where, msgs))
    counts["conversations"] = len(convs)
    if not convs:
        raise DataError(f"--data: no usable conversations in {', '.join(str(p) for p in paths)} "
                        f"({counts['skipped_unresolved']} unresolved skipped, --all keeps them; "
                        f"{counts['skipped_no_answer']} without an assistant message)")
    return convs, counts


def _records(f: Path) -> Iterator[tuple[str, Any, bool | None]]:
    """(where, messages, resolved or None) per conversation of one `--data` file or eval run dir."""
    if f.is_dir():
        yield from _eval_run_records(f)
        return
    name = f.name.lower()
    if name.endswith(".jsonl"):
        rows = read_json_rows(f, f"--data {f}")
    elif name.endswith(".json"):
        try:
            data = json.loads(f.read_text())
        except json.JSONDecodeError as exc:
            raise DataError(f"--data {f}: not valid JSON: {exc.msg} (line {exc.lineno})") from exc
        if isinstance(data, dict) and "messages" in data:  # a mini-swe-agent trajectory
            yield str(f), data["messages"], _traj_resolved(data)
            return
        if not isinstance(data, list):
            raise DataError(f"--data {f}: expected a mini-swe-agent trajectory (a `messages` key) or a list of rows")
        rows = [(f"row {i}", r) for i, r in enumerate(data)]
    elif name.endswith(".parquet"):
        import pyarrow.parquet as pq

        rows = [(f"row {i}", r) for i, r in enumerate(pq.read_table(f).to_pylist())]
    else:
        raise DataError(f"--data {f}: unsupported file (use *.traj.json, a directory of them, .jsonl, .json or .parquet)")
    for label, r in rows:
        if not isinstance(r, dict) or "messages" not in r:
            raise DataError(f"{f} {label}: field messages is missing")
        resolved = r.get("resolved")
        yield (f"{f} {label} ({r.get('instance_id') or r.get('traj_id') or '?'})", r["messages"],
               None if resolved is None else bool(resolved))


def _eval_run_records(root: Path) -> Iterator[tuple[str, Any, bool]]:
    """Every attempt of an eval run dir, resolved as its report says: SWE-smith's rejection sampling, and the
    data of rejection-sampling fine-tuning (sample the policy on train tasks with `--attempts`, keep what passed)."""
    from swerl.eval.report import collect
    from swerl.eval.store import RunStore

    store = RunStore(root)
    manifest = store.manifest()
    if manifest is None:
        raise DataError(f"--data {root}: run.json disappeared while reading the eval run")
    agents = store.agent_records(manifest.run_id)
    for x in collect(store, manifest):  # the report's own outcome per attempt: prediction, then its grade
        rec = agents.get((x.instance_id, x.attempt))
        traj = root / rec.trajectory if rec is not None and rec.trajectory else None
        if traj is None or not traj.is_file():
            continue  # not run yet, or an infra failure: no trajectory
        yield str(traj), json.loads(traj.read_text())["messages"], x.outcome == "resolved"


def encode_conversation(tokenizer: Any, messages: list[dict[str, str]], max_tokens: int) -> tuple[list[int], list[int]]:
    """(input_ids, loss_mask) exactly as rollouts see them: prompt pieces as rendered, assistant turns as generated."""
    eot = tokenizer.convert_tokens_to_ids(END_OF_TURN)
    if eot is None or eot == tokenizer.unk_token_id:
        raise SwerlError(f"tokenizer has no {END_OF_TURN} token (a Qwen-style chat template is expected)")
    ids: list[int] = []
    mask: list[int] = []
    rendered = ""
    for k, m in enumerate(messages):
        if m["role"] != "assistant":
            continue
        prompt = tokenizer.apply_chat_template(messages[:k], tokenize=False, add_generation_prompt=True)
        if not prompt.startswith(rendered):
            raise SwerlError("the chat template does not render the history verbatim; cannot build SFT samples")
        piece = tokenizer.encode(prompt[len(rendered):], add_special_tokens=False)
        answer = [*tokenizer.encode(m["content"], add_special_tokens=False), eot]
        if len(ids) + len(piece) + len(answer) > max_tokens:
            break
        ids += piece + answer
        mask += [0] * len(piece) + [1] * len(answer)
        rendered = prompt + m["content"] + END_OF_TURN
    return ids, mask


def _batches(examples: list[Example], batch_tokens: int, rng: random.Random) -> list[list[Example]]:
    """Length-sorted buckets under a padded-token budget, in a seeded random order."""
    order = sorted(examples, key=lambda e: len(e.input_ids))
    batches: list[list[Example]] = []
    cur: list[Example] = []
    for e in order:
        longest = max([len(x.input_ids) for x in cur] + [len(e.input_ids)])
        if cur and longest * (len(cur) + 1) > batch_tokens:
            batches.append(cur)
            cur = []
        cur.append(e)
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def _step_loss(model: Any, batch: list[Example], pad_id: int) -> tuple[Any, int, int]:
    import torch

    n = max(len(e.input_ids) for e in batch)
    ids = torch.full((len(batch), n), pad_id, dtype=torch.long)
    att = torch.zeros((len(batch), n), dtype=torch.long)
    lab = torch.full((len(batch), n), -100, dtype=torch.long)
    for i, e in enumerate(batch):
        t = torch.tensor(e.input_ids, dtype=torch.long)
        ids[i, :len(t)] = t
        att[i, :len(t)] = 1
        m = torch.tensor(e.loss_mask, dtype=torch.bool)
        lab[i, :len(t)] = torch.where(m, t, torch.full_like(t, -100))
    out = model.model(input_ids=ids, attention_mask=att)
    hidden = out.last_hidden_state[:, :-1]
    target = lab[:, 1:]
    sel = target != -100
    logits = model.lm_head(hidden[sel]).float()  # only positions that predict an assistant token
    loss = torch.nn.functional.cross_entropy(logits, target[sel], reduction="sum")
    correct = int((logits.argmax(-1) == target[sel]).sum())
    return loss, int(sel.sum()), correct


def _build_model(params: SftParams, recipe: Any, tok: Any) -> Any:
    m = recipe.model
    if params.init == "tiny":
        from swerl.models import build_tiny_model

        return build_tiny_model(tok, hidden_size=m.hidden_size, num_layers=m.num_layers, num_heads=m.num_heads,
                                seed=recipe.train.seed, max_position_embeddings=max(m.max_context, 4096))
    from transformers import AutoModelForCausalLM

    path = Path(params.init).expanduser()
    if not (path / "config.json").is_file():
        raise SwerlError(f"--init {params.init!r}: not 'tiny' and not a model directory with config.json")
    return AutoModelForCausalLM.from_pretrained(str(path), local_files_only=True)


def _examples(tok: Any, convs: list[tuple[str, list[dict]]], max_tokens: int, counts: dict) -> list[Example]:
    """Encode each conversation; one cut before its first answer teaches nothing and is dropped (counted in
    `counts`, which the summary reports, so a too-small --max-tokens shows)."""
    examples = []
    for src, msgs in convs:
        ids, mask = encode_conversation(tok, msgs, max_tokens)
        if sum(mask):
            examples.append(Example(src, ids, mask))
    counts["examples"] = len(examples)
    counts["too_long"] = len(convs) - len(examples)
    if not examples:
        raise DataError(f"--data: every conversation is longer than --max-tokens {max_tokens} before its first answer")
    counts["tokens"] = sum(len(e.input_ids) for e in examples)
    counts["assistant_tokens"] = sum(sum(e.loss_mask) for e in examples)
    return examples


def _optimizer(model: Any, params: SftParams, examples: list[Example]) -> tuple[Any, Any]:
    """AdamW with a 10-step linear warm-up, then a cosine decay to 10% of the rate over the whole run (its step
    count taken from a dry batching pass, which uses its own random generator and leaves the run's untouched)."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=params.lr, weight_decay=0.0)
    n_steps = params.epochs * len(_batches(examples, params.batch_tokens, random.Random(0)))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 10) * max(0.1, 0.5 * (
        1 + math.cos(math.pi * min(s, n_steps) / max(1, n_steps)))))
    return opt, sched


def _summary(params: SftParams, counts: dict, epochs: list[dict[str, float]], steps: int, seconds: float,
             model: Any) -> dict[str, Any]:
    """What `sft.json` records: the data, the run's settings and the model's size, enough to reproduce it."""
    return {"data": [str(p) for p in params.data], "counts": counts, "epochs": epochs, "steps": steps,
            "seconds": seconds,
            "params": params.model_dump(mode="json", exclude={"data", "out", "force"}),
            "model": {"parameters": sum(p.numel() for p in model.parameters()),
                      "hidden_size": model.config.hidden_size, "layers": model.config.num_hidden_layers}}


def run_sft(params: SftParams) -> dict[str, Any]:
    """Fine-tune on the assistant turns of `params.data`; write the model dir to `params.out` (see module doc)."""
    import torch

    from swerl.config import load_recipe
    from swerl.models import load_tokenizer

    out = Path(params.out)
    if out.exists() and any(out.iterdir()) and not params.force:
        raise SwerlError(f"--out {out} exists and is not empty (use --force to replace it)")
    recipe = load_recipe(params.recipe, params.overrides)
    if recipe.train.threads:  # 1 on a shared box: torch's default oversubscribes
        torch.set_num_threads(recipe.train.threads)
    init_dir = Path(params.init).expanduser()
    tok = load_tokenizer(str(init_dir) if params.init != "tiny" else recipe.model.tokenizer,
                         vocab_size=recipe.model.vocab_size)
    max_tokens = recipe.model.max_context
    convs, counts = read_conversations(params.data, params.only_resolved)
    examples = _examples(tok, convs, max_tokens, counts)
    model = _build_model(params, recipe, tok)
    model.train()
    opt, sched = _optimizer(model, params, examples)
    rng = random.Random(f"sft-{recipe.train.seed}")
    torch.manual_seed(recipe.train.seed)
    pad_id = tok.pad_token_id if tok.pad_token_id is not None else 0
    with publish_dir(out) as tmp:
        epochs: list[dict[str, float]] = []
        step, t0 = 0, time.monotonic()
        with (tmp / "metrics.jsonl").open("w") as mf:
            for epoch in range(params.epochs):
                tot_loss, tot_tok, tot_ok = 0.0, 0, 0
                for batch in _batches(examples, params.batch_tokens, rng):
                    loss_sum, n_tok, ok = _step_loss(model, batch, pad_id)
                    opt.zero_grad(set_to_none=True)
                    (loss_sum / max(1, n_tok)).backward()
                    gnorm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
                    opt.step()
                    sched.step()
                    step += 1
                    tot_loss, tot_tok, tot_ok = tot_loss + float(loss_sum.detach()), tot_tok + n_tok, tot_ok + ok
                    mf.write(json.dumps({"step": step, "epoch": epoch, "loss": float(loss_sum.detach()) / max(1, n_tok),
                                         "token_acc": ok / max(1, n_tok), "grad_norm": gnorm,
                                         "lr": sched.get_last_lr()[0], "tokens": n_tok,
                                         "wall_s": round(time.monotonic() - t0, 2)}) + "\n")
                    mf.flush()
                ep = {"epoch": epoch, "loss": tot_loss / max(1, tot_tok), "token_acc": tot_ok / max(1, tot_tok)}
                epochs.append(ep)
                log.info("sft epoch", **ep, seconds=round(time.monotonic() - t0, 1))
        model.eval()
        model.save_pretrained(tmp)
        tok.save_pretrained(tmp)
        summary = _summary(params, counts, epochs, step, round(time.monotonic() - t0, 1), model)
        (tmp / "sft.json").write_text(json.dumps(summary, indent=2) + "\n")
    log.info("sft done", out=str(out), examples=counts["examples"], steps=step, loss=epochs[-1]["loss"])
    return summary


__all__ = ["SftParams", "encode_conversation", "normalise_messages", "read_conversations", "run_sft"]
