"""`swerl gateway` command line: flags are checked with messages that name them; admin token file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from swerl.errors import SwerlError
from swerl.gateway.auth import load_admin_token
from swerl.gateway.cli import app

runner = CliRunner()


def _serve(tmp_path: Path, *extra: str) -> BaseException | None:
    res = runner.invoke(app, ["serve", "--store", str(tmp_path / "s.sqlite"), "--admin-token-file",
                              str(tmp_path / "tok"), *extra])
    return res.exception


@pytest.mark.parametrize(("args", "flag"), [
    (["--continuous-tokens"], "--tokenizer"),
    (["--sync", "sometimes"], "--sync"),
    (["--upstream", "localhost:8000"], "--upstream"),
    (["--tokenizer", "/no/such/dir"], "--tokenizer")])
def test_bad_flags_are_user_errors_naming_the_flag(tmp_path: Path, args: list[str], flag: str) -> None:
    exc = _serve(tmp_path, *args)
    assert isinstance(exc, SwerlError) and flag in str(exc)


def test_admin_token_file_is_required() -> None:
    res = runner.invoke(app, ["serve", "--store", "x.sqlite"])
    assert res.exit_code == 2 and "--admin-token-file" in res.output


def test_admin_token_file_is_created_private_and_reused(tmp_path: Path) -> None:
    p = tmp_path / "sub" / "admin.token"
    tok = load_admin_token(p)
    assert stat.S_IMODE(p.stat().st_mode) == 0o600 and len(tok) > 30
    assert load_admin_token(p) == tok
    (tmp_path / "short").write_text("abc\n")
    with pytest.raises(SwerlError, match="--admin-token-file"):
        load_admin_token(tmp_path / "short")
    with pytest.raises(SwerlError, match="--admin-token-file"):
        load_admin_token(None)


def test_help_lists_the_commands() -> None:
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0 and "serve" in res.output
