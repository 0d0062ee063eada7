"""Rollout resource: create (idempotent), get, list by state, change state, rotate token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from swerl.gateway.routers.deps import GW, RolloutId, require_admin
from swerl.gateway.schema import (
    ErrorBody,
    Rollout,
    RolloutCreate,
    RolloutCreated,
    RolloutPage,
    State,
    StatusPatch,
    TokenIssued,
)

router = APIRouter(prefix="/rollouts", tags=["rollouts"], dependencies=[Depends(require_admin)],
                   responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, 422: {"model": ErrorBody}})


@router.post("", response_model=RolloutCreated, status_code=201, responses={200: {"model": RolloutCreated},
                                                                            409: {"model": ErrorBody}})
async def create_rollout(body: RolloutCreate, gw: GW, response: Response) -> RolloutCreated:
    """Create a queued rollout. Repeating the call with the same id returns it without a token (200)."""
    rec, token = await gw.create_rollout(body)
    if token is None:
        response.status_code = 200
    return RolloutCreated(**rec.public(), token=token, created_now=token is not None)


@router.get("", response_model=RolloutPage)
async def list_rollouts(gw: GW, state: Annotated[list[State] | None, Query()] = None,
                        cursor: Annotated[str | None, Query(max_length=32)] = None,
                        limit: Annotated[int, Query(ge=1, le=1000)] = 100) -> RolloutPage:
    """Rollouts in creation order, optionally only those in the given states; page with next_cursor."""
    rows, nxt = await gw.list_rollouts(state, cursor, limit)
    return RolloutPage(items=[Rollout(**{k: r[k] for k in Rollout.model_fields}) for r in rows], next_cursor=nxt)


@router.get("/{rollout_id}", response_model=Rollout, responses={404: {"model": ErrorBody}})
async def get_rollout(rollout_id: RolloutId, gw: GW) -> Rollout:
    return Rollout(**(await gw.must(rollout_id)).public())


@router.patch("/{rollout_id}", response_model=Rollout, responses={404: {"model": ErrorBody},
                                                                  409: {"model": ErrorBody}})
async def patch_rollout(rollout_id: RolloutId, body: StatusPatch, gw: GW) -> Rollout:
    """Change state by the transition table (409 otherwise); failed_infra -> queued is a retry."""
    rec, _ = await gw.set_state(rollout_id, body.state, body.attempt, body.reason)
    return Rollout(**rec.public())


@router.post("/{rollout_id}/token", response_model=TokenIssued, responses={404: {"model": ErrorBody}})
async def rotate_token(rollout_id: RolloutId, gw: GW) -> TokenIssued:
    """Issue a new token for the rollout (e.g. per attempt); the old one stops working."""
    return TokenIssued(rollout_id=rollout_id, token=await gw.rotate_token(rollout_id))
