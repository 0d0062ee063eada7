"""`swerl view RUN_DIR`: a local web page (or a static export) over a training or evaluation run.

The viewer reads what a run leaves behind, lazily and read-only, while the run may still be
writing it: `metrics.jsonl`, `updates.jsonl` (what each update trained on), `hacking.jsonl`, the
gateway store (`gateway.sqlite`, WAL readers never block the writer), trajectories, and for
evaluation runs `run.json`, `agent.jsonl`, `grades.jsonl`, predictions, harness logs and
`compare.json`. Training samples are rebuilt with the trainer's own fetch and assembly
(`swerl.gateway.sql.token_batch` + `swerl.train.assembly.assemble`), so the token view shows
what the update trained on, checked against the sizes `updates.jsonl` recorded.
"""

from __future__ import annotations

from swerl.view.source import RunSource

__all__ = ["RunSource"]
