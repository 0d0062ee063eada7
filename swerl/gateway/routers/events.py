"""Event resource: append (idempotent with a key), list per rollout, global cursor, completion feed."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Response
from pydantic import BaseModel

from swerl.gateway import sql
from swerl.gateway.routers.deps import GW, RolloutId, require_admin
from swerl.gateway.schema import (
    BigInt,
    Completed,
    CompletedPage,
    ErrorBody,
    Event,
    EventIn,
    EventKind,
    EventPage,
    State,
)

router = APIRouter(tags=["events"], dependencies=[Depends(require_admin)],
                   responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, 422: {"model": ErrorBody}})
Wait = Annotated[float, Query(ge=0, le=60, description="Long-poll: wait up to this many seconds for a new item.")]
Limit = Annotated[int, Query(ge=1, le=1000)]


class Appended(BaseModel):
    id: int | None
    seq: int | None
    created_now: bool


def _page(items: list[dict[str, Any]], after: int, key: str) -> EventPage:
    return EventPage(items=[Event(**e) for e in items], next_cursor=items[-1][key] if items else after)


@router.post("/rollouts/{rollout_id}/events", response_model=Appended, status_code=201,
             responses={200: {"model": Appended}, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}})
async def append_event(rollout_id: RolloutId, body: EventIn, gw: GW, response: Response) -> Appended:
    """Append a reward/status/model_request event; status events change state like PATCH does."""
    out = await gw.append_event(rollout_id, body)
    if not out["created_now"]:
        response.status_code = 200
    return Appended(**out)


@router.get("/rollouts/{rollout_id}/events", response_model=EventPage, responses={404: {"model": ErrorBody}})
async def list_rollout_events(rollout_id: RolloutId, gw: GW, after_seq: Annotated[BigInt, Query()] = 0,
                              limit: Limit = 100, kind: Annotated[list[EventKind] | None, Query()] = None,
                              include_json: bool = False) -> EventPage:
    """A rollout's events in seq order (pass next_cursor back as after_seq)."""
    items = await gw.list_events(rollout_id, after_seq, limit, kind, include_json)
    return _page(items, after_seq, "seq")


@router.get("/events", response_model=EventPage)
async def list_events(gw: GW, after: Annotated[BigInt, Query()] = 0, limit: Limit = 100,
                      kind: Annotated[list[EventKind] | None, Query()] = None, include_json: bool = False,
                      wait: Wait = 0) -> EventPage:
    """All events after a global cursor, in commit order; with wait>0 a long-poll."""
    items = await gw.long_poll(lambda c: sql.list_events_global(c, after, limit, kind, include_json), wait)
    return _page(items, after, "id")


@router.get("/completed", response_model=CompletedPage)
async def completed(gw: GW, after: Annotated[BigInt, Query()] = 0, limit: Limit = 100,
                    state: Annotated[list[State] | None, Query()] = None, wait: Wait = 0) -> CompletedPage:
    """Rollouts reaching a final state (default: the trainable ones), after a cursor; long-poll with wait."""
    items = await gw.list_completed(after, limit, state, wait)
    return CompletedPage(items=[Completed(**c) for c in items], next_cursor=items[-1]["cursor"] if items else after)
