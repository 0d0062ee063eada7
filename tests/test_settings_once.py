"""Each setting is declared once: the recipe (`swerl.config.Recipe`) composes every room's settings model, and no
other pydantic model, dataclass or NamedTuple in swerl/ restates one of its fields (same name, same default).

A restated field is a second knob for one setting: its default drifts from the recipe's, and a value set in the
recipe never reaches code that reads the copy. The fix is to compose the section model itself (as
`RolloutSettings.rollout` and `EvalOptions.gateway` do); only a field that must carry the value elsewhere (a wire
model of an HTTP API, a record on disk) or a different setting that happens to share name and default is allowed,
and each such exception is listed below with its reason.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any

from pydantic import BaseModel

import swerl
from swerl.config import Recipe

# "module.Class.field" -> why this restatement of a recipe field is not a second declaration of the setting
ALLOWED = {
    "swerl.gateway.schema.ChatCompletionRequest.model": "OpenAI wire model: the request's own `model` field",
    "swerl.gateway.schema.CompletionRequest.model": "OpenAI wire model: the request's own `model` field",
    "swerl.gateway.schema.ResponsesRequest.model": "OpenAI wire model: the request's own `model` field",
    "swerl.gateway.schema.EngineIn.model": "engine wire model: the `model` a proxied request named",
    "swerl.gateway.engines.openai_server.Sampling.temperature": "one request's sampling: OpenAI's default when a "
                                                                "request omits temperature, not rollout.temperature",
    "swerl.eval.schema.RunManifest.agent_config": "record in run.json of the agent config a run used (resume check)",
    "swerl.eval.options.EvalOptions.model": "a different setting: the endpoint URL or checkpoint dir to evaluate",
    "swerl.data.params.FilterParams.split": "a different setting: the split of the source dataset `data filter` reads",
    "swerl.data.params.FilterParams.seed": "a different setting: the seed of `data filter`'s test split",
    "swerl.data.taskgen.TaskgenParams.seed": "a different setting: the seed of `data taskgen`'s sampling",
    "swerl.rollout.context.WorkerOptions.overrides": "a different setting: `--set` recipe edits, not verl.overrides",
    "swerl.train.sft.SftParams.overrides": "a different setting: `--set` recipe edits, not verl.overrides",
    "swerl.sandbox.launch.Launch.env": "a parse result, not a setting: the `VAR=value` prefix of a task's test "
                                       "command",
    "swerl.sandbox.minisweagent_env.SwerlEnvironmentConfig.env": "the harness's own config (mini-swe-agent's "
        "`environment.env` in its YAML, which runs unchanged): the agent's commands get it on top of sandbox.env",
}


def sections(model: type[BaseModel]) -> set[type[BaseModel]]:
    """`model` and every section model it composes, recursively (Recipe -> SandboxSettings -> DockerSettings...)."""
    out = {model}
    for field in model.model_fields.values():
        sub = field.annotation
        if isinstance(sub, type) and issubclass(sub, BaseModel) and sub not in out:
            out |= sections(sub)
    return out


def defaults(cls: type) -> dict[str, Any]:
    """The fields of a pydantic model, dataclass or NamedTuple that have a default, with that default."""
    if issubclass(cls, BaseModel):
        return {n: f.get_default(call_default_factory=True) for n, f in cls.model_fields.items() if not f.is_required()}
    if dataclasses.is_dataclass(cls):
        return {f.name: f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
                for f in dataclasses.fields(cls) if (f.default, f.default_factory) != (dataclasses.MISSING,) * 2}
    if issubclass(cls, tuple) and hasattr(cls, "_field_defaults"):
        return dict(cls._field_defaults)
    return {}


def swerl_classes() -> set[type]:
    """Every class defined in swerl/ outside swerl/tasks/ (bundled task data); a module whose optional dependency
    (verl, harbor, ray) is not installed here is skipped, as are `__main__` entry points (they run the CLI)."""
    found: set[type] = set()
    for info in pkgutil.walk_packages(swerl.__path__, "swerl."):
        if info.name.startswith("swerl.tasks") or info.name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except ModuleNotFoundError as exc:
            if (exc.name or "").startswith("swerl"):
                raise
            continue
        found |= {c for c in vars(module).values() if isinstance(c, type) and c.__module__ == info.name}
    return found


def restatements(classes: set[type]) -> set[str]:
    """`module.Class.field` of each field in `classes` with the name and default of a recipe field (composed
    section models are not fields here: a model holding `RolloutConfig` as a whole is the fix, not a copy)."""
    owned = sections(Recipe)
    recipe = [(n, d) for m in owned for n, d in defaults(m).items() if not isinstance(d, BaseModel)]
    return {f"{c.__module__}.{c.__qualname__}.{name}" for c in classes - owned
            for name, value in defaults(c).items() for rname, rvalue in recipe
            if name == rname and same(value, rvalue)}


def same(a: Any, b: Any) -> bool:
    """Equal defaults of one kind: `600` restates `600.0`, but `False` is not `0`."""
    return a == b and (type(a) is type(b) or {type(a), type(b)} == {int, float})


def test_no_model_restates_a_recipe_field() -> None:
    found = restatements(swerl_classes())
    new, stale = sorted(found - ALLOWED.keys()), sorted(ALLOWED.keys() - found)
    assert not new, f"restate a recipe field (compose its section model instead): {new}"
    assert not stale, f"allow-list entries that no longer restate a recipe field (remove them): {stale}"


def test_a_restatement_is_found() -> None:
    """The check itself: copies of `rollout.max_tokens` and `rollout.temperature` (written `1`) with their defaults
    are reported; another default, or `False` for `train.seed`'s `0`, is not."""

    class Copy(BaseModel):
        max_tokens: int = 512
        temperature: float = 1
        seed: bool = False

    @dataclasses.dataclass
    class Other:
        max_tokens: int = 4096

    prefix = f"{__name__}.{Copy.__qualname__}"
    assert restatements({Copy, Other}) == {f"{prefix}.max_tokens", f"{prefix}.temperature"}
