"""One update's page: its groups and rollouts with reward, advantage, staleness, attempts, split causes,
failures, grade outcome and hacking evidence (the page filters and searches them in the browser)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from swerl.view.redact import clean
from swerl.view.samples import RolloutSamples, rebuild
from swerl.view.train_run import TrainRun, _num


def outcome_of(events: list[dict[str, Any]], attempt: int) -> dict[str, Any]:
    """From a rollout's reward/status events: its reward data (current attempt), state history, failures."""
    reward = None
    history = []
    for e in events:
        if e["kind"] == "reward" and e["attempt"] == attempt:
            reward = e
        elif e["kind"] == "status":
            reason = e["data"].get("reason") if isinstance(e["data"], dict) else None
            history.append({"attempt": e["attempt"], "state": e["state"], "reason": reason, "t": e["created"]})
    final = next((h for h in reversed(history) if h["attempt"] == attempt), None)
    return {"reward_event": clean(reward["data"]) if reward else None,
            "reward": reward["reward"] if reward else None,
            "history": clean(history), "infra_failures": sum(1 for h in history if h["state"] == "failed_infra"),
            "final_reason": clean(final["reason"]) if final else None}


def _row(rid: str, status: str, ro: dict[str, Any] | None, rec: dict[str, Any] | None, out: dict[str, Any],
         rs: RolloutSamples | None, hacks: list[dict[str, Any]]) -> dict[str, Any]:
    meta = (ro or {}).get("metadata") or {}
    data = out["reward_event"] if isinstance(out["reward_event"], dict) else {}
    samples = (rec or {}).get("samples") or []
    rebuilt = [[s.num_tokens, s.num_response_tokens] for s in rs.samples] if rs else []
    return {
        "id": rid, "status": status, "group": (ro or {}).get("group_id"), "instance": meta.get("instance_id"),
        "split": meta.get("split"), "state": (ro or {}).get("state"), "attempt": (ro or {}).get("attempt"),
        "max_attempts": (ro or {}).get("max_attempts"), "held_s": (ro or {}).get("held_s"),
        "reward": _num((rec or {}).get("reward", out["reward"])),
        "advantage": samples[0][2] if samples else None, "staleness": (rec or {}).get("staleness"),
        "samples": len(samples) or len(rebuilt), "tokens": sum(s[0] for s in samples),
        "response_tokens": sum(s[1] for s in samples),
        "causes": [c for c in (rs.causes if rs else []) if c], "retries_dropped": len(rs.dropped) if rs else 0,
        "matches_record": rebuilt == [s[:2] for s in samples] if rec and rs else None,
        "infra_failures": out["infra_failures"], "final_reason": out["final_reason"],
        "exit_status": data.get("exit_status"), "resolved": data.get("resolved"),
        "canary": data.get("canary"), "hacking": [{"kind": h["kind"], "evidence": h["evidence"],
                                                   "command": h["command"]} for h in hacks],
    }


def update_page(run: TrainRun, step: int) -> dict[str, Any] | None:
    """None when the run has no such update."""
    rec = run.record(step)
    line = next((m for m in reversed(run.metrics.items()) if m.get("step") == step), None)
    if rec is None and line is None:
        return None
    page: dict[str, Any] = {"kind": "update", "step": step, "metrics": line or {}, "recorded": rec is not None,
                            "version": rec.get("version") if rec else None, "groups": [], "others": []}
    store = run.store()
    if rec is None or store is None:
        page["store"] = store is not None
        return page
    trained = [r for g in rec["groups"] for r in g]
    others = [(r, "dropped_stale") for r in rec.get("dropped_stale", [])] + \
             [(r, "no_samples") for r in rec.get("no_samples", [])]
    ids = trained + [r for r, _ in others]
    ros = store.rollouts(ids)
    events: dict[str, list[dict[str, Any]]] = {}
    for e in store.outcome_events(ids):
        events.setdefault(e["rollout_id"], []).append(e)
    rebuilt, _ = rebuild(store.token_batch(trained), trained, run.merge_mode(), run.tokenizer) if trained \
        else ({}, None)
    hacks: dict[str, list[dict[str, Any]]] = {}
    for h in run.hacking_of(lambda h: h.get("step") == step):
        hacks.setdefault(h.get("rollout_id", ""), []).append(h)

    def row(rid: str, status: str) -> dict[str, Any]:
        ro = ros.get(rid)
        out = outcome_of(events.get(rid, []), (ro or {}).get("attempt", 1))
        return _row(rid, status, ro, rec["rollouts"].get(rid), out, rebuilt.get(rid), hacks.get(rid, []))

    page["groups"] = [{"group_id": (ros.get(g[0]) or {}).get("group_id", g[0]), "rollouts": [row(r, "trained") for r in g]}
                      for g in rec["groups"]]
    page["others"] = [row(r, s) for r, s in others]
    page["causes"] = dict(Counter(c for g in page["groups"] for r in g["rollouts"] for c in r["causes"]))
    page["store"] = True
    return page


__all__ = ["outcome_of", "update_page"]
