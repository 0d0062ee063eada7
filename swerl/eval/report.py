"""The run report: outcome per (instance, attempt) joined from the run directory, then counts and tables.

Outcomes are swebench's reporting buckets plus infra (`resolved`, `unresolved`, `empty_patch`,
`error`, `infra_failure`, `pending`; docs/eval.md). `resolved_pct` is resolved / every selected
instance (attempt 0), the field's number.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from math import comb
from typing import Any

from swerl.eval.schema import OUTCOMES, EvalReport, InstanceAttempt, RepoRow, RunManifest
from swerl.eval.store import RunStore, patch_sha


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): 1 - C(n-c, k) / C(n, k) for n samples of which c are correct."""
    if k > n:
        raise ValueError(f"k={k} > n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def _mean(vals: list[float] | list[int]) -> float:
    return round(sum(vals) / len(vals), 3) if vals else 0.0


def collect(store: RunStore, m: RunManifest) -> list[InstanceAttempt]:
    """Every (instance, attempt) of the manifest with its outcome, from this run's records only."""
    agents = store.agent_records(m.run_id)
    grades = store.grades(m.run_id)
    out: list[InstanceAttempt] = []
    for a in range(m.attempts):
        preds = store.preds(a)
        for iid in m.instance_ids:
            rec = agents.get((iid, a))
            pred = preds.get(iid)
            outcome, error = "pending", None
            if pred is None:
                if rec is not None and rec.error_kind == "infra":
                    outcome, error = "infra_failure", rec.error
            elif not (pred.model_patch or "").strip():
                outcome = "empty_patch"
            else:
                g = grades.get((iid, a, patch_sha(pred.model_patch)))
                if g is not None:
                    outcome, error = g.outcome, g.error
            repo = m.repos.get(iid) or (rec.repo if rec is not None else "?")
            out.append(InstanceAttempt(
                instance_id=iid, attempt=a, repo=repo, outcome=outcome,  # type: ignore[arg-type]
                exit_status=rec.exit_status if rec is not None else "",
                n_calls=rec.n_calls if rec is not None else 0,
                tokens=(rec.prompt_tokens + rec.completion_tokens) if rec is not None else 0,
                cost=rec.cost if rec is not None else 0.0, error=error))
    return out


def build_report(store: RunStore, m: RunManifest) -> EvalReport:
    attempts = collect(store, m)
    first = [x for x in attempts if x.attempt == 0]
    counts = Counter(x.outcome for x in first)
    total = len(first)
    by_repo: dict[str, list[bool]] = defaultdict(list)
    for x in first:
        by_repo[x.repo].append(x.outcome == "resolved")
    per_repo = [RepoRow(repo=r, instances=len(v), resolved=sum(v), resolved_pct=round(100 * sum(v) / len(v), 2))
                for r, v in sorted(by_repo.items())]
    ran = [x for x in first if x.exit_status]
    worked = [x for x in ran if x.outcome != "infra_failure"]  # means over runs that reached the model
    pak: dict[str, float] = {}
    if m.attempts > 1:
        per_inst: dict[str, int] = Counter(x.instance_id for x in attempts if x.outcome == "resolved")
        for k in range(1, m.attempts + 1):
            vals = [pass_at_k(m.attempts, per_inst.get(iid, 0), k) for iid in m.instance_ids]
            pak[f"pass@{k}"] = round(100 * sum(vals) / len(vals), 2) if vals else 0.0
    return EvalReport(
        run_id=m.run_id, model=m.model.name, dataset=m.dataset, split=m.split, total=total,
        counts={**{o: counts.get(o, 0) for o in OUTCOMES}, **({"pending": counts["pending"]} if counts["pending"] else {})},
        resolved_pct=round(100 * counts.get("resolved", 0) / total, 2) if total else 0.0,
        resolved_ids=sorted(x.instance_id for x in first if x.outcome == "resolved"),
        per_repo=per_repo,
        mean_steps=_mean([x.n_calls for x in worked]), mean_tokens=_mean([x.tokens for x in worked]),
        mean_cost=_mean([x.cost for x in worked]),
        exit_status=dict(sorted(Counter(x.exit_status for x in ran).items())),
        attempts=m.attempts, pass_at_k=pak, instances=attempts)


def table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], right: bool = True) -> Any:
    """A rich table whose first column is left-aligned and the others (numbers) right-aligned."""
    from rich.table import Table

    out = Table(title=title)
    for i, col in enumerate(columns):
        out.add_column(col, justify="right" if i and right else "left")
    for row in rows:
        out.add_row(*row)
    return out


def render(report: EvalReport) -> list[object]:
    """Rich renderables: summary, per-repo table, exit statuses (the CLI prints them)."""
    summary = [("resolved", f"{report.counts.get('resolved', 0)} / {report.total} ({report.resolved_pct:.1f}%)"),
               *((k.replace("_", " "), str(report.counts[k])) for k in
                 ("unresolved", "empty_patch", "error", "infra_failure", "pending") if k in report.counts),
               ("mean steps", f"{report.mean_steps:.1f}"), ("mean tokens", f"{report.mean_tokens:.0f}"),
               ("mean cost", f"{report.mean_cost:.4f}"), *((k, f"{v:.1f}%") for k, v in report.pass_at_k.items())]
    out = [table(f"{report.model} on {report.dataset} ({report.split}) - run {report.run_id}", ("metric", "value"),
                 summary),
           table("per repository", ("repo", "instances", "resolved", "%"),
                 [(r.repo, str(r.instances), str(r.resolved), f"{r.resolved_pct:.1f}") for r in report.per_repo])]
    if report.exit_status:
        out.append(table("exit status", ("exit status", "count"), [(k, str(v)) for k, v in report.exit_status.items()]))
    return out
