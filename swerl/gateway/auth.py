"""Bearer tokens: per-rollout tokens (proxy path only) and the admin token (everything else).

Tokens are 256-bit random strings, so an unsalted SHA-256 suffices: the store holds only hashes (a
leaked store or trajectory reveals no usable token). Comparisons are constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from swerl.errors import SwerlError

TOKEN_PREFIX = "swr_"


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header (also accepts a bare `api-key`)."""
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    value = value.strip()
    return value or None


def same(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)


def load_admin_token(path: str | Path | None, *, create: bool = True) -> str:
    """Read the admin token from a file; create one (mode 0600) if the file does not exist yet."""
    if path is None:
        raise SwerlError("--admin-token-file is required: the gateway never runs without an admin token")
    p = Path(path)
    if p.exists():
        token = p.read_text().strip()
        if len(token) < 16:
            raise SwerlError(f"--admin-token-file {p}: the token must be at least 16 characters")
        return token
    if not create:
        raise SwerlError(f"--admin-token-file {p} does not exist")
    token = new_token()
    p.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    return token
