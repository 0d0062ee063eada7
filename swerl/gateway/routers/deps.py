"""Shared route dependencies: the Gateway instance and admin-token authorisation."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from swerl.gateway.auth import same, token_hash
from swerl.gateway.errors import ApiError
from swerl.gateway.schema import ID_PATTERN
from swerl.gateway.service import Gateway

_bearer = HTTPBearer(auto_error=False, description="The admin token (trainer/controller).")
RolloutId = Annotated[str, Path(pattern=ID_PATTERN, max_length=128)]


async def gateway(request: Request) -> Gateway:
    """Async on purpose: FastAPI runs plain `def` dependencies in a thread pool (a costly hop per call)."""
    return request.app.state.gw


async def require_admin(request: Request,
                  cred: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)] = None) -> None:
    """Everything but the proxy path needs the admin token; rollout tokens are refused here (403)."""
    gw: Gateway = request.app.state.gw
    if cred is None or not cred.credentials:
        raise ApiError(401, "missing admin bearer token")
    if not same(token_hash(cred.credentials), gw.admin_hash):
        raise ApiError(403, "not the admin token")


GW = Annotated[Gateway, Depends(gateway)]
