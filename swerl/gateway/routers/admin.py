"""Gateway control: pause/drain/hold and resume with a new policy version, engines, status."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from swerl.gateway.errors import ApiError
from swerl.gateway.routers.deps import GW, require_admin
from swerl.gateway.schema import Engine, EngineIn, ErrorBody, GatewayStatus, PauseResult, ResumeIn
from swerl.gateway.service import text

router = APIRouter(prefix="/admin", tags=["admin"], dependencies=[Depends(require_admin)],
                   responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, 422: {"model": ErrorBody}})


def _result(gw: GW, drained: bool) -> PauseResult:
    g = gw.gate
    return PauseResult(paused=g.paused, drained=drained, in_flight=g.in_flight, held=g.held,
                       policy_version=g.policy_version)


@router.post("/pause", response_model=PauseResult)
async def pause(gw: GW, timeout_s: Annotated[float | None, Query(ge=0, le=3600)] = None) -> PauseResult:
    """Stop admitting model calls and return once in-flight ones finished; new calls wait (held)."""
    drained = await gw.pause(timeout_s)
    return _result(gw, drained)


@router.post("/resume", response_model=PauseResult, responses={409: {"model": ErrorBody}})
async def resume(body: ResumeIn, gw: GW) -> PauseResult:
    """Release held calls; they and all later calls are served and recorded with policy_version."""
    await gw.resume(body.policy_version)
    return _result(gw, gw.gate.in_flight == 0)


def _engines(gw: GW) -> list[Engine]:
    return [Engine.model_validate(e, from_attributes=True) for e in gw.engines.by_name.values()]


@router.get("/status", response_model=GatewayStatus)
async def status(gw: GW) -> GatewayStatus:
    g = gw.gate
    return GatewayStatus(paused=g.paused, in_flight=g.in_flight, held=g.held, policy_version=g.policy_version,
                         engines=_engines(gw), continuous_tokens=gw.continuous is not None,
                         max_hold_s=gw.cfg.max_hold_s, client_timeout_s=gw.cfg.client_timeout_s)


@router.get("/engines", response_model=list[Engine])
async def list_engines(gw: GW) -> list[Engine]:
    return _engines(gw)


@router.post("/engines", response_model=Engine, status_code=201)
async def add_engine(body: EngineIn, gw: GW) -> Engine:
    """Register an OpenAI-compatible engine (its base URL); new rollouts are spread over engines."""
    text(body.model, "model")
    try:
        e = gw.engines.add(body.url, body.model)
    except ValueError as exc:
        raise ApiError(422, f"url: {exc}") from None
    await gw.save_engines()
    return Engine.model_validate(e, from_attributes=True)


@router.delete("/engines/{name}", status_code=204, responses={404: {"model": ErrorBody}})
async def remove_engine(name: Annotated[str, Path(max_length=64)], gw: GW) -> None:
    """Unregister an engine; rollouts pinned to it move to another on their next call."""
    if not await gw.engines.remove(name):
        raise ApiError(404, f"engine {name!r} not found")
    await gw.save_engines()
