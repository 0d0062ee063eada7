"""`swerl train sft`: the rollouts' tokenisation, loss on assistant turns only, and a model that learned them.

Inputs are real formats: a mini-swe-agent trajectory file as `swerl.rollout.agent.save_trajectory`
writes it (mini-swe-agent 1.1 format, `extra` fields, `info.swerl`) and SWE-smith trajectory rows
(`messages` as a JSON string, content as text parts).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from typer.testing import CliRunner

from swerl.cli import app
from swerl.errors import DataError
from swerl.train.sft import SftParams, encode_conversation, read_conversations, run_sft

SYSTEM = "You are a helpful assistant that can interact with a computer shell."
TASKS = {
    "add": ("`add(2, 3)` returns -1.", "THOUGHT: fix add.\n\n```mswea_bash_command\nsed -i '6s/a - b/a + b/' calc/ops.py\n```"),
    "wrap": ("wrap() breaks lines too early.", "THOUGHT: fix wrap.\n\n```mswea_bash_command\nsed -i '14s/ < / <= /' "
                                               "textkit/wrap.py\n```"),
}
SUBMIT = "THOUGHT: done.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"


def conversation(name: str) -> list[dict[str, Any]]:
    stmt, fix = TASKS[name]
    return [{"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"<pr_description>\n{stmt}\n</pr_description>"},
            {"role": "assistant", "content": fix, "extra": {"actions": [{"command": "sed ..."}], "cost": 0.0}},
            {"role": "user", "content": "<returncode>0</returncode>\n<output>\n</output>"},
            {"role": "assistant", "content": SUBMIT},
            {"role": "exit", "content": "diff --git ...", "extra": {"exit_status": "Submitted"}}]


def write_traj(path: Path, name: str, resolved: bool) -> Path:
    msgs = conversation(name)  # with mini-swe-agent's closing "exit" record, which is not a model turn
    path.write_text(json.dumps({"trajectory_format": "mini-swe-agent-1.1", "messages": msgs,
                                "info": {"exit_status": "Submitted", "swerl": {"resolved": resolved}}}))
    return path


def test_encoding_matches_the_chat_template_and_masks_only_answers(tiny_tok: Any) -> None:
    msgs = [m for m in conversation("add") if m["role"] != "exit"]
    msgs = [{"role": m["role"], "content": m["content"]} for m in msgs]
    ids, mask = encode_conversation(tiny_tok, msgs, 4096)
    assert len(ids) == len(mask)
    full = tiny_tok.apply_chat_template(msgs, tokenize=False)
    assert full.startswith(tiny_tok.decode(ids))  # the rollouts' rendering, token for token in text
    learned = tiny_tok.decode([t for t, m in zip(ids, mask, strict=True) if m])
    assert learned == TASKS["add"][1] + "<|im_end|>" + SUBMIT + "<|im_end|>"
    # each answer is tokenised as the engine generates it: content tokens, then end-of-turn
    eot = tiny_tok.convert_tokens_to_ids("<|im_end|>")
    first = [t for t, m in zip(ids, mask, strict=True) if m][: len(tiny_tok.encode(TASKS["add"][1])) + 1]
    assert first == [*tiny_tok.encode(TASKS["add"][1], add_special_tokens=False), eot]
    # too long: cut at the last whole answer that fits
    short_ids, short_mask = encode_conversation(tiny_tok, msgs, len(ids) - 1)
    assert tiny_tok.decode([t for t, m in zip(short_ids, short_mask, strict=True) if m]) == TASKS["add"][1] + "<|im_end|>"


def test_reads_traj_files_and_swesmith_rows(tmp_path: Path) -> None:
    d = tmp_path / "trajs"
    d.mkdir()
    write_traj(d / "a.traj.json", "add", resolved=True)
    write_traj(d / "b.traj.json", "wrap", resolved=False)
    rows = tmp_path / "rows.jsonl"
    msgs = [{"role": m["role"], "content": [{"type": "text", "text": m["content"]}]}
            for m in conversation("wrap") if m["role"] != "exit"]
    rows.write_text(json.dumps({"instance_id": "x", "resolved": True, "messages": json.dumps(msgs)}) + "\n"
                    + json.dumps({"instance_id": "y", "resolved": False, "messages": msgs}) + "\n")
    convs, counts = read_conversations([d, rows])
    assert counts == {"files": 3, "conversations": 2, "skipped_unresolved": 2, "skipped_no_answer": 0}
    assert [c[1][2]["content"] for c in convs] == [TASKS["add"][1], TASKS["wrap"][1]]
    assert all(set(m) == {"role", "content"} for _, msgs in convs for m in msgs)  # extra fields dropped
    convs, counts = read_conversations([d, rows], only_resolved=False)
    assert counts["conversations"] == 4


def test_a_trajectory_without_an_answer_is_skipped_and_counted(tmp_path: Path) -> None:
    """A run that stopped before the model's first reply (infra failure, step limit) leaves a trajectory with no
    assistant turn: `--all` over a run's trajectories skips it and says how many, instead of stopping at it."""
    d = tmp_path / "trajs"
    d.mkdir()
    write_traj(d / "a.traj.json", "add", resolved=True)
    msgs = [m for m in conversation("wrap") if m["role"] != "assistant"]
    (d / "b.traj.json").write_text(json.dumps({"messages": msgs, "info": {"exit_status": "LimitsExceeded"}}))
    for only_resolved in (True, False):
        convs, counts = read_conversations([d], only_resolved=only_resolved)
        assert [c[1][2]["content"] for c in convs] == [TASKS["add"][1]]
        assert counts["skipped_no_answer"] == (0 if only_resolved else 1)  # unresolved is checked first
    with pytest.raises(DataError, match="1 without an assistant message"):
        read_conversations([d / "b.traj.json"], only_resolved=False)


def test_reads_an_eval_run_dir_by_its_grades(tmp_path: Path) -> None:
    """Rejection sampling from `swerl eval swebench --attempts`: an attempt counts as resolved by its grade (every
    attempt here submitted), matched on instance, attempt and the predicted patch; other runs' lines are ignored."""
    from swerl.eval.schema import AgentRecord, GradeRecord, ModelSpec, PredRow, RunManifest
    from swerl.eval.store import RunStore, patch_sha

    store = RunStore(tmp_path / "samples")
    store.write_manifest(RunManifest(run_id="r1", created_at=0.0, swerl_version="0", model=ModelSpec(kind="checkpoint", source="m", name="m"),
                                     dataset="d.jsonl", split="test", backend="bwrap", grader="sandbox", attempts=2,
                                     instance_ids=["add", "wrap"]))
    store.open()
    graded = {("add", 0): True, ("add", 1): False, ("wrap", 0): True, ("wrap", 1): True}
    for (iid, k), ok in graded.items():
        traj = f"trajs/{iid}/attempt{k}.traj.json"
        (store.root / traj).parent.mkdir(parents=True, exist_ok=True)
        write_traj(store.root / traj, iid, resolved=False)  # the file's own flag is not what counts
        patch = f"diff --git a/{iid}.py b/{iid}.py\n# attempt {k}\n"
        store.add_agent(AgentRecord(run_id="r1", instance_id=iid, attempt=k, repo="r", exit_status="Submitted",
                                    patch_sha=patch_sha(patch), trajectory=traj))
        store.add_pred(k, PredRow(instance_id=iid, model_name_or_path="m", model_patch=patch))
        # a grade of another patch is not this attempt's
        sha = patch_sha("an earlier patch") if (iid, k) == ("wrap", 1) else patch_sha(patch)
        store.add_grade(GradeRecord(run_id="r1", instance_id=iid, attempt=k, patch_sha=sha, grader="sandbox-bwrap",
                                    outcome="resolved" if ok else "unresolved", resolved=ok))
    store.add_grade(GradeRecord(run_id="old", instance_id="add", attempt=1, grader="sandbox-bwrap", outcome="resolved",
                                patch_sha=patch_sha("diff --git a/add.py b/add.py\n# attempt 1\n"),
                                resolved=True))  # another run's grade is never reused
    convs, counts = read_conversations([store.root])
    assert counts == {"files": 1, "conversations": 2, "skipped_unresolved": 2, "skipped_no_answer": 0}
    assert sorted(Path(src).parent.name + "/" + Path(src).name for src, _ in convs) == [
        "add/attempt0.traj.json", "wrap/attempt0.traj.json"]
    assert read_conversations([store.root], only_resolved=False)[1]["conversations"] == 4


def test_bad_input_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"instance_id": "x", "messages": [{"content": "hi"}]}) + "\n")
    with pytest.raises(DataError, match=r"bad.jsonl line 1 \(x\): messages\[0\] has no role"):
        read_conversations([bad])
    bad.write_text('{"instance_id": "x"}\n')
    with pytest.raises(DataError, match="line 1: field messages is missing"):
        read_conversations([bad])
    with pytest.raises(DataError, match="no such file"):
        read_conversations([tmp_path / "missing"])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match=r"without \*\.traj\.json"):
        read_conversations([empty])


def test_sft_learns_the_answers_and_writes_a_loadable_model(tmp_path: Path) -> None:
    """A tiny model fine-tuned on two trajectories answers both prompts greedily with the expert's action."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    d = tmp_path / "trajs"
    d.mkdir()
    for name in TASKS:
        write_traj(d / f"{name}.traj.json", name, resolved=True)
    out = tmp_path / "sft"
    summary = run_sft(SftParams(data=[d], out=out, recipe="tiny", epochs=60, lr=1e-2, batch_tokens=4096,
                               overrides=["train.seed=0", "train.threads=1"]))
    losses = [e["loss"] for e in summary["epochs"]]
    assert losses[-1] < 0.2 * losses[0]
    assert summary["counts"]["examples"] == 2 and summary["steps"] == 60
    model = AutoModelForCausalLM.from_pretrained(out, local_files_only=True)
    tok = AutoTokenizer.from_pretrained(out, local_files_only=True)
    for name, (_stmt, fix) in TASKS.items():
        msgs = [{"role": m["role"], "content": m["content"]} for m in conversation(name)[:2]]
        prompt = tok.apply_chat_template(msgs, tokenize=False, add_generation_prompt=True)
        ids = torch.tensor([tok.encode(prompt, add_special_tokens=False)])
        gen = model.generate(ids, max_new_tokens=len(tok.encode(fix)) + 1, do_sample=False,
                             eos_token_id=tok.convert_tokens_to_ids("<|im_end|>"), pad_token_id=tok.pad_token_id)
        assert tok.decode(gen[0, ids.shape[1]:], skip_special_tokens=True) == fix, name
    assert [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()] == list(range(1, 61))


def test_sft_cli_refuses_an_existing_out_and_bad_flags(tmp_path: Path) -> None:
    d = tmp_path / "trajs"
    d.mkdir()
    write_traj(d / "a.traj.json", "add", resolved=True)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "x").write_text("x")
    res = CliRunner().invoke(app, ["train", "sft", "--data", str(d), "--out", str(tmp_path / "out"), "--recipe", "tiny"])
    assert res.exit_code != 0 and "--force" in str(res.exception)
    res = CliRunner().invoke(app, ["train", "sft", "--data", str(d), "--out", str(tmp_path / "o2"), "--epochs", "0"])
    assert res.exit_code != 0 and str(res.exception).startswith("--epochs:")
