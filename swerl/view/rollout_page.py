"""One rollout's page: the conversation the harness saw, each LLM call (latency, hold), and each training
sample as tokens (trained vs masked, behaviour log-prob, advantage) with where and why it split.

What the update recorded per token: the loss mask (from assembly: response tokens) and, for GRPO/RLOO,
one advantage per sample (every trained token of the sample gets it). The torch backend does not
record per-token ratios, DIS masks or SAO's per-token advantages, so the page says "not recorded"
for them rather than recomputing them with a policy that has moved on since.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from swerl.view.redact import clean
from swerl.view.samples import RolloutSamples, TokenText, rebuild, usable_calls
from swerl.view.train_run import TrainRun
from swerl.view.update_page import outcome_of

NOT_RECORDED = "not recorded"


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def _reply(response: Any) -> str | None:
    if not isinstance(response, dict):
        return None
    choices = response.get("choices") or [{}]
    c = choices[0] if isinstance(choices[0], dict) else {}
    msg = c.get("message") if isinstance(c.get("message"), dict) else {}
    return _text(msg.get("content")) if msg else c.get("text")


def _calls(raw: list[dict[str, Any]], lengths: dict[int, tuple[int, int]], where: dict[int, Any]
           ) -> list[dict[str, Any]]:
    out, prev = [], {}
    for e in raw:
        msgs = (e.get("request") or {}).get("messages") if isinstance(e.get("request"), dict) else None
        n0 = prev.get(e["attempt"], 0)
        t0, t1, t2 = e.get("t_arrival"), e.get("t_start"), e.get("t_end")
        plen, flen = lengths.get(e["id"], (None, None))
        out.append({"seq": e["seq"], "attempt": e["attempt"], "policy_version": e["policy_version"],
                    "mode": e["mode"], "finish_reason": e["finish_reason"], "error": clean(e["error"]),
                    "http_status": e["http_status"], "hold_s": t1 - t0 if t0 and t1 else None,
                    "latency_s": t2 - t1 if t1 and t2 else None, "prompt_tokens": plen,
                    "response_tokens": None if plen is None else flen - plen, "sample": where.get(e["id"]),
                    "new_messages": clean([{"role": m.get("role"), "content": _text(m.get("content"))}
                                           for m in (msgs or [])[n0:] if isinstance(m, dict)]),
                    "reply": clean(_reply(e.get("response")))})
        if msgs:
            prev[e["attempt"]] = len(msgs)
    return out


def _trajectory(run: TrainRun, rid: str, attempt: int) -> dict[str, Any] | None:
    p = run.root / "trajectories" / f"{rid}.attempt{attempt}.traj.json"
    if not p.is_file():
        return None
    try:
        data = orjson.loads(p.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    sw = info.get("swerl") if isinstance(info.get("swerl"), dict) else {}
    return clean({"file": str(Path("trajectories") / p.name), "exit_status": info.get("exit_status"),
                  "patch": sw.get("patch") or info.get("submission") or "",
                  "messages": [{"role": m.get("role"), "content": _text(m.get("content"))}
                               for m in data.get("messages", []) if isinstance(m, dict)]})


def _samples(rs: RolloutSamples, batch: Any, rec: dict[str, Any] | None, text: TokenText) -> list[dict[str, Any]]:
    out = []
    recorded = (rec or {}).get("samples") or []
    for j, s in enumerate(rs.samples):
        mask = s.loss_mask.astype(bool)
        adv = recorded[j][2] if j < len(recorded) else None
        out.append({
            "index": j, "tokens": s.num_tokens, "response_tokens": s.num_response_tokens,
            "policy_versions": s.policy_versions, "advantage": adv,
            "split_before": rs.causes[j - 1] if j else None, "split_after": rs.causes[j],
            "calls": [{"seq": int(batch.seq[c]), "response": [int(batch.prompt_len[c]), int(batch.full_len[c])]}
                      for c in rs.chains[j]],
            "matches_record": recorded[j][:2] == [s.num_tokens, s.num_response_tokens] if j < len(recorded) else None,
            "ids": s.input_ids, "text": text(s.input_ids), "mask": s.loss_mask,
            "logprob": [float(x) if m else None for x, m in zip(s.rollout_logprobs.tolist(), mask.tolist(),
                                                                 strict=True)],
            "per_token": {"ratio": NOT_RECORDED, "dis_mask": NOT_RECORDED,
                          "advantage": "per sample" if adv is not None else NOT_RECORDED},
        })
    return out


def rollout_page(run: TrainRun, rid: str) -> dict[str, Any] | None:
    """None when the store has no such rollout."""
    store = run.store()
    ro = store.rollouts([rid]).get(rid) if store else None
    if ro is None or store is None:
        return None
    step = run.owner(rid)
    rec = ((run.record(step) or {}).get("rollouts") or {}).get(rid) if step else None
    batch = store.token_batch([rid])
    rows = batch.rows_by_rollout().get(rid, [])
    lengths = {int(batch.event_id[r]): (int(batch.prompt_len[r]), int(batch.full_len[r])) for r in rows}
    tok = run.tokenizer()
    built, _ = rebuild(batch, [rid], run.merge_mode(), run.tokenizer)
    rs = built.get(rid)
    where: dict[int, Any] = {int(batch.event_id[r]): "retry dropped" for r in usable_calls(batch, rows)}
    for j, chain in enumerate(rs.chains if rs else []):
        where.update({int(batch.event_id[c]): j for c in chain})
    out = outcome_of(store.outcome_events([rid]), ro["attempt"])
    return {"kind": "rollout", "id": rid, "group": ro["group_id"], "state": ro["state"], "attempt": ro["attempt"],
            "max_attempts": ro["max_attempts"], "held_s": ro["held_s"], "engine": ro["engine"],
            "metadata": clean(ro["metadata"]), "created": ro["created"], "updated": ro["updated"],
            "step": step, "record": rec, "outcome": out, "merge_mode": run.merge_mode(),
            "tokenizer": tok is not None, "calls": _calls(store.calls(rid), lengths, where),
            "samples": _samples(rs, batch, rec, TokenText(tok)) if rs else [],
            "trajectory": _trajectory(run, rid, ro["attempt"]),
            "hacking": run.hacking_of(lambda h: h.get("rollout_id") == rid)}


__all__ = ["NOT_RECORDED", "rollout_page"]
