"""Helpers for the eval tests: a mini-swe-agent DeterministicModel script whose behaviour depends on the task.

One script serves every instance (mini-swe-agent's DeterministicModel replays the same
outputs for each run), so the first command looks at the checked-out code and acts on
the bug it finds: fixes median_even (resolves), breaks wrap_off_by_one differently
(unresolved), does nothing on slug_trailing_sep (empty patch) and sleeps past the
instance time budget on camel_case_capitalize (TimeExceeded).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from swerl.eval.options import EvalOptions, eval_data, eval_rollout, eval_sandbox

RESOLVES = "swerl-taskpack__calc-median_even"
WRONG = "swerl-taskpack__textkit-wrap_off_by_one"
EMPTY = "swerl-taskpack__textkit-slug_trailing_sep"
TIMEOUT = "swerl-taskpack__textkit-camel_case_capitalize"
NOAPPLY = "swerl-taskpack__ledger-discount_truncates"

WORK = r"""F=calc/stats.py; if [ -f $F ] && grep -q 'ordered\[mid\] + ordered\[mid + 1\]' $F; then sed -i 's/ordered\[mid\] + ordered\[mid + 1\]/ordered[mid - 1] + ordered[mid]/' $F; fi
F=textkit/wrap.py; if [ -f $F ] && grep -q 'len(candidate) < width:' $F; then sed -i 's/len(candidate) < width:/len(candidate) < width - 1:/' $F; fi
F=textkit/case.py; if [ -f $F ] && grep -q 'for w in words)$' $F; then sleep 60; fi
echo worked
"""


def _out(content: str, command: str) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "extra": {"actions": [{"command": command}]}}


def deterministic_config(pre_sleep: float = 0.0) -> dict[str, Any]:
    """`agent_config` for `run_agent`: mini-swe-agent's DeterministicModel playing the script above."""
    work = (f"sleep {pre_sleep}\n" if pre_sleep else "") + WORK
    return copy.deepcopy({
        "harness": "minisweagent.models.test_models:DeterministicModel",
        "model": {"outputs": [_out("THOUGHT: fix what I recognise", work),
                              _out("THOUGHT: submit", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")]},
    })


# shorthand keyword -> the `rollout:` field it sets
_ROLLOUT = {"infra_retries": "max_infra_retries", "step_limit": "max_steps", "temperature": "temperature",
            "max_tokens": "max_tokens", "harness": "harness", "workers": "concurrency", "attempts": "n_per_task"}


def options(out: Path, dataset: Path | str, instances: list[str] | None, *, backend: str = "docker",
            **kw: Any) -> EvalOptions:
    """Options for a DeterministicModel run (the endpoint is never called: the model class is the script);
    `sandbox=` as given, else the eval default on `backend`; rollout shorthands (`step_limit=`...) fill `rollout:`,
    the timeouts `sandbox:`."""
    rollout = {"max_infra_retries": 0} | {_ROLLOUT[k]: kw.pop(k) for k in list(kw) if k in _ROLLOUT}
    timeouts = {k: kw.pop(k) for k in ("command_timeout_s", "rollout_timeout_s") if k in kw}
    sandbox = kw.pop("sandbox", None) or eval_sandbox().model_copy(update={"backend": backend, **timeouts})
    assert sandbox.backend == backend, "sandbox= and backend= disagree"
    base: dict[str, Any] = dict(out=out, model="http://127.0.0.1:9/v1", model_name="deterministic",
                                data=eval_data().model_copy(update={"dataset": str(dataset)}),
                                instances=",".join(instances) if instances else None,
                                agent_config=deterministic_config(), sandbox=sandbox,
                                rollout=eval_rollout().model_copy(update=rollout))
    return EvalOptions(**{**base, **kw})


def bundled_task_count() -> int:
    """How many tasks `tasks.yaml` declares: every one must reach both row schemas (none dropped on the way)."""
    import yaml

    from swerl.tasks.taskpack import PACK_DIR

    return len(yaml.safe_load((PACK_DIR / "tasks.yaml").read_text()))
