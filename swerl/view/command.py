"""`swerl view RUN_DIR [--port N] [--host H] [--export DIR]`: what the root CLI's `view` command runs."""

from __future__ import annotations

import ipaddress
import sys
import threading
from pathlib import Path

import typer

from swerl.errors import SwerlError
from swerl.view.source import RunSource


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def run_view(run_dir: Path, *, port: int, host: str, export: Path | None) -> None:
    """Export a static site, or serve until Ctrl-C. A bad run dir or a busy port is one error line."""
    source = RunSource(run_dir)
    if export is not None:
        from swerl.view.export import export_site

        def progress(n: int, key: str) -> None:
            if n % 500 == 0:
                typer.echo(f"  {n} pages ({key})", err=True)

        n = export_site(source, export, progress)
        typer.echo(f"wrote {n} pages to {export}; open {export.resolve() / 'index.html'} in a browser (no server)")
        return
    from swerl.view.server import ViewServer

    try:
        server = ViewServer(source, host=host, port=port)
    except OSError as exc:
        raise SwerlError(f"--host {host} --port {port}: cannot listen ({exc.strerror or exc}); "
                         "try another --port (0 picks a free one)") from None
    if not _loopback(host):
        typer.echo(f"warning: serving on {host}: anyone who can reach this address can read the run", err=True)
    typer.echo(f"swerl view: {source.kind} run {run_dir} at {server.url} (Ctrl-C stops)")
    sys.stdout.flush()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()


__all__ = ["run_view"]
