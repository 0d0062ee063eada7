"""The `swerl` command. Each room contributes a Typer sub-app in `swerl/<room>/cli.py`
(exported as `app`); a room without one has no command yet, so no placeholder exists.
Room CLIs keep heavy imports (torch, docker, datasets) inside their command functions
so that `swerl --help` stays fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer
from rich.console import Console

from swerl import __version__
from swerl.errors import SwerlError
from swerl.log import configure

ROOMS = ("data", "sandbox", "gateway", "rollout", "train", "eval")

app = typer.Typer(
    name="swerl",
    help="Harnessed agentic RL for software-engineering agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit."),
    log_level: str = typer.Option("WARNING", "--log-level", help="Log level for swerl's structured logs."),
) -> None:
    configure(log_level.upper())
    if version:
        console.print(__version__)
        raise typer.Exit()


recipe_app = typer.Typer(help="Inspect training recipes (recipes/*.yaml).", no_args_is_help=True)
app.add_typer(recipe_app, name="recipe")


@recipe_app.command("list")
def recipe_list() -> None:
    """List the bundled recipes."""
    from swerl.config import available_recipes, load_recipe

    for name in available_recipes():
        console.print(f"[bold]{name}[/bold]  {load_recipe(name).description}")


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


def _register_rooms() -> None:
    for room in ROOMS:
        mod_name = f"swerl.{room}.cli"
        if importlib.util.find_spec(mod_name) is None:
            continue
        mod = importlib.import_module(mod_name)
        sub = getattr(mod, "app", None)
        if isinstance(sub, typer.Typer):
            app.add_typer(sub, name=room)


_register_rooms()


def main() -> None:
    """Console entry point: user errors print one clear line and exit 2, never a traceback."""
    try:
        app()
    except SwerlError as exc:
        err_console.print(f"[bold red]error:[/bold red] {exc}")
        sys.exit(2)


if __name__ == "__main__":
    main()
