"""Which mini-swe-agent model class and configuration a rollout uses, built from mini-swe-agent's own files.

`mini-swe-agent` (tool calls, `benchmarks/swebench.yaml`) or `mini-swe-agent-textbased`
(```mswea_bash_command blocks, for engines that return no `tool_calls`, such as the embedded and
scripted engines), or a model class `pkg.mod:Class`. Only the template's "## Submission" section is
replaced: git is disabled in swerl's sandboxes and the patch is collected on the host, so the
upstream `git diff > patch.txt` instruction would fail.
"""

from __future__ import annotations

import copy
import importlib
import os
import re
from dataclasses import dataclass
from typing import Any

import yaml

from swerl.errors import ConfigError
from swerl.rollout.schema import HARNESS_AUTO, HARNESS_TEXT, HARNESS_TOOLCALL, ModelEndpoint


@dataclass(frozen=True)
class HarnessSpec:
    model_class: str
    config: str
    textbased: bool


HARNESSES: dict[str, HarnessSpec] = {
    HARNESS_TOOLCALL: HarnessSpec("minisweagent.models.litellm_model:LitellmModel", "benchmarks/swebench.yaml", False),
    HARNESS_TEXT: HarnessSpec("minisweagent.models.litellm_textbased_model:LitellmTextbasedModel",
                              "benchmarks/swebench_backticks.yaml", True),
}

_SUBMISSION = re.compile(r"## Submission\n.*?(?=</instructions>)", re.DOTALL)

SUBMISSION_TEXT = """## Submission

git is disabled in this environment (there is no repository history, and `git` commands fail).
You do not need to create a patch: your changes to the files in {{cwd}} are collected automatically
when you submit. Do not modify test files; changes to tests, conftest.py and test configuration are
discarded.

When you are done, submit with this EXACT command, on its own:

<FENCE>
echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT
```

<CRITICAL>
- Do not combine the submit command with any other command.
- You CANNOT continue working on this task after submitting.
</CRITICAL>
"""


def harness_env() -> None:
    """Process-wide settings mini-swe-agent and litellm read from the environment (set only if unset)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no remote price-list fetch at import
    os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")  # stdout belongs to the CLI
    # mini-swe-agent retries a failed call 10 times with 4-60 s waits; the gateway already retries engine
    # failures and a held call simply waits, so more retries here only delay classifying a dead engine as infra
    os.environ.setdefault("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "2")
    import litellm

    litellm.suppress_debug_info = True  # no "Provider List" banners on stdout for unpriced local models


def resolve(harness: str, config: str | None = None) -> HarnessSpec:
    """`mini-swe-agent`, `mini-swe-agent-textbased`, or `pkg.mod:Class` (a mini-swe-agent Model class)."""
    if harness in HARNESSES:
        spec = HARNESSES[harness]
        return HarnessSpec(spec.model_class, config or spec.config, spec.textbased) if config else spec
    if ":" in harness:
        return HarnessSpec(harness, config or HARNESSES[HARNESS_TEXT].config, textbased="textbased" in harness.lower())
    if harness == HARNESS_AUTO:
        raise ConfigError(f"rollout.harness {HARNESS_AUTO!r}: only `swerl eval` resolves it (from its engine); "
                          f"name {HARNESS_TOOLCALL}, {HARNESS_TEXT} or pkg.mod:Class")
    raise ConfigError(f"rollout.harness {harness!r}: expected {HARNESS_TOOLCALL}, {HARNESS_TEXT} or pkg.mod:Class")


def load_class(path: str) -> Any:
    mod, _, name = path.partition(":")
    try:
        return getattr(importlib.import_module(mod), name)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"rollout.harness: cannot import {path!r}: {exc}") from exc


def base_config(spec: HarnessSpec) -> dict[str, Any]:
    """mini-swe-agent's config file for this harness with swerl's submission section."""
    from minisweagent.config import get_config_path

    try:
        cfg = yaml.safe_load(get_config_path(spec.config).read_text())
    except FileNotFoundError as exc:
        raise ConfigError(f"harness config {spec.config!r}: {exc}") from exc
    agent = cfg.setdefault("agent", {})
    template = agent.get("instance_template", "")
    section = SUBMISSION_TEXT.replace("<FENCE>", "```mswea_bash_command" if spec.textbased else "```bash")
    if not spec.textbased:
        section = section.replace("submit with this EXACT command", "submit by calling the bash tool with this "
                                                                     "EXACT command")
    new, n = _SUBMISSION.subn(lambda _: section, template)
    if n != 1:
        raise ConfigError(f"harness config {spec.config!r}: no '## Submission' section to replace "
                          "(mini-swe-agent's template changed?)")
    agent["instance_template"] = new
    return cfg


def agent_settings(spec: HarnessSpec, *, step_limit: int, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `DefaultAgent` keyword arguments and model template settings, `overrides` (mini-swe-agent-shaped:
    `{agent, model, environment}`) merged on top. Cost limits are off (local engines); time is the sandbox's."""
    from minisweagent.utils.serialize import recursive_merge

    cfg = base_config(spec)
    agent = {k: v for k, v in cfg.get("agent", {}).items() if k in {
        "system_template", "instance_template", "max_consecutive_format_errors"}}
    agent |= {"step_limit": step_limit, "cost_limit": 0.0}
    model = {k: v for k, v in cfg.get("model", {}).items() if k in {
        "observation_template", "format_error_template", "action_regex"}}
    model_kwargs = {k: v for k, v in (cfg.get("model", {}).get("model_kwargs") or {}).items()}
    base = {"agent": agent, "model": {**model, "model_kwargs": model_kwargs}, "environment": {}}
    return recursive_merge(copy.deepcopy(base), copy.deepcopy(overrides or {}))


def keeping_rejected_replies(cls: type) -> type:
    """`cls` (a mini-swe-agent model class) whose format errors keep the rejected assistant reply in history.

    mini-swe-agent 2.x raises `FormatError` before the reply enters the history, so the next prompt
    lacks it and every later sample starts over (merge failure `reply_dropped`). Here the history
    gets the reply's text, then the format-error message (as in 1.x): the next prompt extends it.
    """
    from minisweagent.exceptions import FormatError

    class KeepRejectedReplies(cls):  # type: ignore[misc, valid-type]
        def query(self, messages: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
            try:
                return super().query(messages, **kwargs)
            except FormatError as exc:
                reply = _rejected_reply(exc.messages[0] if exc.messages else {})
                if reply is not None:
                    exc.messages = (reply, *exc.messages)
                raise

    KeepRejectedReplies.__name__ = KeepRejectedReplies.__qualname__ = f"{cls.__name__}KeepRejectedReplies"
    return KeepRejectedReplies


def _rejected_reply(error_message: dict[str, Any]) -> dict[str, Any] | None:
    """The assistant message of the response a format error carries (mini-swe-agent stores it in `extra`)."""
    resp = (error_message.get("extra") or {}).get("response")
    try:
        content = resp["choices"][0]["message"].get("content") if isinstance(resp, dict) else None
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    if content is None:
        return None
    return {"role": "assistant", "content": content, "extra": {"rejected": True}}


def make_model(spec: HarnessSpec, endpoint: ModelEndpoint, model_cfg: dict[str, Any]) -> Any:
    """A mini-swe-agent litellm model pointed at `endpoint` (`openai/<model>`, api_base, api_key), sampling and
    keeping rejected replies as `endpoint.rollout` says (the recipe's section: one default per setting)."""
    cls = load_class(spec.model_class)
    if endpoint.rollout.keep_rejected_replies:
        cls = keeping_rejected_replies(cls)
    kwargs = dict(model_cfg.get("model_kwargs") or {})
    kwargs |= {"api_base": endpoint.base_url, "api_key": endpoint.api_key.get_secret_value(),
               "temperature": endpoint.rollout.temperature, "max_tokens": endpoint.rollout.max_tokens,
               "timeout": endpoint.timeout_s, **endpoint.extra}
    cfg = {k: v for k, v in model_cfg.items() if k != "model_kwargs"}
    return cls(model_name=f"openai/{endpoint.model}", model_kwargs=kwargs, cost_tracking="ignore_errors", **cfg)
