"""`swerl gateway serve`: the recording gateway."""

from __future__ import annotations

from pathlib import Path

import typer

from swerl.errors import SwerlError

app = typer.Typer(help="The recording gateway: rollout API + OpenAI-compatible proxy per rollout.",
                  no_args_is_help=True)


@app.callback()
def _group() -> None:
    """The recording gateway: rollout API + OpenAI-compatible proxy per rollout."""


@app.command("serve")
def serve_cmd(
    store: Path = typer.Option(..., "--store", help="SQLite store file (created if missing)."),
    admin_token_file: Path = typer.Option(..., "--admin-token-file",
                                          help="File holding the admin token; created (0600) if missing."),
    host: str = typer.Option("127.0.0.1", "--host"),
    port: int = typer.Option(8900, "--port", min=0, max=65535),
    upstream: list[str] = typer.Option([], "--upstream", help="OpenAI-compatible engine base URL (repeatable)."),
    upstream_model: str | None = typer.Option(None, "--upstream-model", help="Model name sent to the engines."),
    sync: str = typer.Option("full", "--sync", help="SQLite synchronous: full (survives power loss) or normal "
                                                    "(survives kill -9 / process crash)."),
    max_body_mb: float = typer.Option(32.0, "--max-body-mb", min=0.001, help="Largest request body accepted."),
    retries: int = typer.Option(4, "--upstream-attempts", min=1, max=20, help="Tries per call on engine failure."),
    upstream_timeout: float = typer.Option(600.0, "--upstream-timeout", min=1, help="Seconds to wait for an engine."),
    max_hold_s: float = typer.Option(1800.0, "--max-hold-s", min=1,
                                     help="Longest a call is held by a pause (then 503); harness timeouts must "
                                          "exceed this plus --upstream-timeout (GET /admin/status: client_timeout_s)."),
    continuous_tokens: bool = typer.Option(False, "--continuous-tokens/--no-continuous-tokens",
                                           help="Feed the engine exact prior tokens when a call extends the last."),
    tokenizer: str | None = typer.Option(None, "--tokenizer", help="qwen2.5, tiny-bpe or a tokenizer directory "
                                                                      "(needed by --continuous-tokens)."),
) -> None:
    """Serve the gateway (blocks)."""
    from swerl.config import GatewaySettings
    from swerl.gateway.app import create_app
    from swerl.gateway.auth import load_admin_token
    from swerl.gateway.server import serve
    from swerl.gateway.service import Gateway

    if sync.lower() not in ("full", "normal"):
        raise SwerlError(f"--sync must be 'full' or 'normal', not {sync!r}")
    if continuous_tokens and not tokenizer:
        raise SwerlError("--continuous-tokens needs --tokenizer DIR (a transformers tokenizer with a chat template)")
    for u in upstream:
        if not u.startswith(("http://", "https://")):
            raise SwerlError(f"--upstream {u!r}: must be an http(s):// URL")
    tok = None
    if tokenizer:
        from swerl.models import load_tokenizer  # 'qwen2.5', 'tiny-bpe' or a local directory

        try:
            tok = load_tokenizer(tokenizer)
        except (OSError, ValueError) as exc:
            raise SwerlError(f"--tokenizer {tokenizer}: cannot load: {exc}") from exc
    cfg = GatewaySettings(store=str(store), sync=sync.lower(), max_body_bytes=int(max_body_mb * (1 << 20)),
                          continuous_tokens=continuous_tokens, retry_attempts=retries, read_timeout_s=upstream_timeout,
                          max_hold_s=max_hold_s)
    try:
        gw = Gateway(cfg, admin_token=load_admin_token(admin_token_file), upstreams=upstream,
                     upstream_model=upstream_model, tokenizer=tok)
    except (OSError, ValueError) as exc:
        raise SwerlError(f"--store {store}: {exc}") from exc
    serve(create_app(gw), host, port)
