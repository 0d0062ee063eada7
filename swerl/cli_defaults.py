"""Flags that fill a settings model's fields state no default of their own: each is `None` (the model's default
applies unless the flag is given), and `--help` shows the model's default, read from the model when help is
printed. The model is named by import path: `swerl --help` never imports it (the eval options cost ~0.3 s)."""

from __future__ import annotations

import copy
import importlib
from collections.abc import Mapping
from typing import Any

import typer
from typer.core import TyperCommand, TyperOption


def model_default(model: Any, path: str) -> Any:
    """The default of `model`'s field at dotted `path` (`rollout.max_steps`: the `rollout` field's default, its
    factory called, then its `max_steps`)."""
    head, _, rest = path.partition(".")
    value = model.model_fields[head].get_default(call_default_factory=True)
    for name in rest.split(".") if rest else ():
        value = getattr(value, name)
    return value


def defaults_from(model: str, fields: Mapping[str, str] | None = None) -> type[TyperCommand]:
    """A command class whose `--help` shows, for each option left at `None`, the default of the field it fills in
    `model` ('pkg.mod:Class'): `fields` maps a parameter to a dotted field, else the parameter's name is the field.
    Options without such a field, or whose field defaults to None, show none."""
    where, _, name = model.partition(":")

    class ModelDefaultsCommand(TyperCommand):
        def format_help(self, ctx: typer.Context, formatter: Any) -> None:
            cls = getattr(importlib.import_module(where), name)
            shown = self.params
            self.params = [_showing_default(p, cls, (fields or {}).get(p.name or "", p.name or "")) for p in shown]
            try:
                super().format_help(ctx, formatter)
            finally:
                self.params = shown

    return ModelDefaultsCommand


def _showing_default(param: Any, model: Any, path: str) -> Any:
    """A copy of an unset option that shows the model's default (typer renders it: `[default: 250]`, `pull`)."""
    if not isinstance(param, TyperOption) or param.default is not None:
        return param
    field = model.model_fields.get(path.partition(".")[0])
    if param.required or field is None or field.is_required():
        return param
    value = model_default(model, path)
    if value is None:
        return param
    shown = copy.copy(param)
    shown.default, shown.show_default = value, True
    return shown
