"""The `swerl` command: each room contributes a Typer sub-app `app` in `swerl/<room>/cli.py`, with heavy
imports (torch, docker, datasets) inside its commands so that `swerl --help` stays fast."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import typer
from rich.console import Console

from swerl import __version__
from swerl.errors import SwerlError
from swerl.log import configure

ROOMS = ("data", "sandbox", "gateway", "rollout", "train", "eval")

app = typer.Typer(name="swerl", help="Harnessed agentic RL for software-engineering agents.", no_args_is_help=True,
                  pretty_exceptions_enable=False, add_completion=False)
err_console = Console(stderr=True)


def _print_version(value: bool) -> None:
    """Eager: runs while parsing, before Click asks for a sub-command (`swerl --version` alone)."""
    if value:
        typer.echo(f"swerl {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True,
                                 callback=_print_version),
    log_level: str = typer.Option("WARNING", "--log-level", help="Log level for swerl's structured logs."),
) -> None:
    configure(log_level.upper())


recipe_app = typer.Typer(help="Inspect training recipes (recipes/*.yaml).", no_args_is_help=True)
app.add_typer(recipe_app, name="recipe")


@recipe_app.command("list")
def recipe_list() -> None:
    """List the bundled recipes (name, training backend, description), in aligned columns."""
    from swerl.config import available_recipes, load_recipe

    rows = [("RECIPE", "BACKEND", "DESCRIPTION")]
    for name in available_recipes():
        r = load_recipe(name)
        rows.append((name, r.train.backend, " ".join(r.description.split())))
    typer.echo(format_columns(rows))


def format_columns(rows: list[tuple[str, ...]]) -> str:
    """Plain left-aligned columns, two spaces apart, the last never padded or wrapped (not a rich
    table: the alignment survives pipes and narrow terminals)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]]).rstrip()
                     for r in rows)


@recipe_app.command("show")
def recipe_show(
    name: str = typer.Argument(..., help="Recipe name (recipes/NAME.yaml) or a path to a YAML file."),
    set_: list[str] = typer.Option([], "--set", help="Override a key: --set train.lr=1e-5 (repeatable)."),
) -> None:
    """Print the fully resolved recipe (defaults + file + overrides) as YAML."""
    import yaml

    from swerl.config import load_recipe

    recipe = load_recipe(name, set_)
    typer.echo(yaml.safe_dump(recipe.model_dump(mode="json"), sort_keys=False), nl=False)


@app.command("view")
def view(
    run_dir: Path = typer.Argument(..., help="A `swerl train` or `swerl eval swebench` run dir (or `eval compare` output)."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port to serve on (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind; loopback unless you mean to share it."),
    export: Path | None = typer.Option(None, "--export", help="Write a static site to this dir instead of serving."),
) -> None:
    """Look at a run in the browser: updates, rollouts, the tokens each update trained on (docs/view.md)."""
    from swerl.view.command import run_view

    run_view(run_dir, port=port, host=host, export=export)


for _room in ROOMS:
    app.add_typer(importlib.import_module(f"swerl.{_room}.cli").app, name=_room)


def main() -> None:
    """Console entry point: user errors (and an `OSError`: the user's environment, e.g. a full disk)
    print one line naming the path, exit 2, never a traceback. `SWERL_TRACEBACK=1` re-raises them."""
    try:
        app()
    except (SwerlError, OSError) as exc:
        if os.environ.get("SWERL_TRACEBACK") == "1":
            raise
        from rich.markup import escape  # messages quote user input: `[a, b]` must print, not style

        err_console.print(f"[bold red]error:[/bold red] {escape(_one_line(exc))}", soft_wrap=True, highlight=False)
        sys.exit(2)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and not isinstance(exc, SwerlError):
        where = f" {exc.filename}" if exc.filename else ""
        where += f" -> {exc.filename2}" if exc.filename2 else ""
        return f"{exc.strerror or type(exc).__name__}:{where}" if exc.strerror else f"{type(exc).__name__}: {exc}"
    return str(exc)


if __name__ == "__main__":
    main()
