"""`swerl data ...`: the bundled task pack and SWE-smith filtering."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(help="Task data: the bundled task pack and SWE-smith filtering.", no_args_is_help=True)
console = Console()


@app.command("taskpack")
def taskpack(
    out: Path = typer.Option(..., "--out", help="Directory to write tasks.jsonl and the git repos into."),
    force: bool = typer.Option(False, "--force", help="Replace --out if it exists."),
) -> None:
    """Materialise the bundled task pack: real git repos (a branch per instance_id) and SWE-smith rows."""
    from swerl.data.taskpack import materialize

    pack = materialize(out, force=force)
    table = Table(title=f"task pack → {out}")
    for col in ("instance_id", "F2P", "P2P", "statement"):
        table.add_column(col)
    for row in pack.rows:
        stmt = (row.problem_statement or "").strip().splitlines()
        table.add_row(row.instance_id, str(len(row.FAIL_TO_PASS)), str(len(row.PASS_TO_PASS)),
                      stmt[0][:50] if stmt else "[dim](empty)[/dim]")
    console.print(table)
