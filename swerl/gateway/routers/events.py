"""Event resource: append (idempotent with a key), list per rollout or by global cursor, many rollouts
at once, completion feed. Pages are serialised straight from the store rows with orjson (shape
`PageOfEvents`): an update's events are large and validating them again would only cost time.
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel

from swerl.gateway import sql
from swerl.gateway.routers.deps import GW, RolloutId, require_admin
from swerl.gateway.schema import (
    BigInt,
    Completed,
    CompletedPage,
    ErrorBody,
    EventKind,
    NewEvent,
    PageOfEvents,
    RolloutEventsQuery,
    State,
)
from swerl.tokens import MEDIA_TYPE as TOKENS_MEDIA_TYPE

router = APIRouter(tags=["events"], dependencies=[Depends(require_admin)],
                   responses={401: {"model": ErrorBody}, 403: {"model": ErrorBody}, 422: {"model": ErrorBody}})
Wait = Annotated[float, Query(ge=0, le=60, description="Long-poll: wait up to this many seconds for a new item.")]
Limit = Annotated[int, Query(ge=1, le=1000)]
_PAGE = {200: {"model": PageOfEvents}}


class Appended(BaseModel):
    id: int | None
    seq: int | None
    created_now: bool


def _page(items: list[dict[str, Any]], next_cursor: int | None) -> Response:
    return Response(orjson.dumps({"items": items, "next_cursor": next_cursor}), media_type="application/json")


@router.post("/rollouts/{rollout_id}/events", response_model=Appended, status_code=201,
             responses={200: {"model": Appended}, 404: {"model": ErrorBody}, 409: {"model": ErrorBody}})
async def append_event(rollout_id: RolloutId, body: NewEvent, gw: GW, response: Response) -> Appended:
    """Append a reward/status/model_request event; status events change state like PATCH does."""
    out = await gw.append_event(rollout_id, body)
    if not out["created_now"]:
        response.status_code = 200
    return Appended(**out)


@router.get("/rollouts/{rollout_id}/events", response_class=Response, responses={**_PAGE, 404: {"model": ErrorBody}})
async def list_rollout_events(rollout_id: RolloutId, gw: GW, after_seq: Annotated[BigInt, Query()] = 0,
                              limit: Limit = 100, kind: Annotated[list[EventKind] | None, Query()] = None,
                              include_json: bool = False) -> Response:
    """A rollout's events in seq order (pass next_cursor back as after_seq)."""
    items = await gw.list_events(rollout_id, after_seq, limit, kind, include_json)
    return _page(items, items[-1]["seq"] if items else after_seq)


@router.get("/events", response_class=Response, responses=_PAGE)
async def list_events(gw: GW, after: Annotated[BigInt, Query()] = 0, limit: Limit = 100,
                      kind: Annotated[list[EventKind] | None, Query()] = None, include_json: bool = False,
                      wait: Wait = 0) -> Response:
    """All events after a global cursor, in commit order; with wait>0 a long-poll."""
    items = await gw.long_poll(lambda c: sql.list_events_global(c, after, limit, kind, include_json), wait)
    return _page(items, items[-1]["id"] if items else after)


@router.post("/events/query", response_class=Response, responses={
    200: {**_PAGE[200], "content": {"application/json": {}, TOKENS_MEDIA_TYPE: {}}}})
async def query_events(body: RolloutEventsQuery, gw: GW, request: Request) -> Response:
    """The events of many rollouts in commit order, in one answer (next_cursor null when complete).

    With `Accept: application/vnd.swerl.tokens`: one binary `swerl.tokens.TokenBatch` of the whole
    selection (`after`/`limit` do not apply), the trainer's fetch. JSON stays for humans.
    """
    if TOKENS_MEDIA_TYPE in request.headers.get("accept", ""):
        data = await gw.store.read(lambda c: sql.token_batch(c, body.rollout_ids, body.kinds, body.current_attempt,
                                                            body.include_json))
        return Response(data, media_type=TOKENS_MEDIA_TYPE)
    items = await gw.store.read(lambda c: sql.events_of(c, body.rollout_ids, body.kinds, body.current_attempt,
                                                        body.include_json, body.after, body.limit))
    return _page(items, items[-1]["id"] if len(items) == body.limit else None)


@router.get("/completed", response_model=CompletedPage)
async def completed(gw: GW, after: Annotated[BigInt, Query()] = 0, limit: Limit = 100,
                    state: Annotated[list[State] | None, Query()] = None, wait: Wait = 0) -> CompletedPage:
    """Rollouts reaching a final state (default: the trainable ones), after a cursor; long-poll with wait."""
    items = await gw.list_completed(after, limit, state, wait)
    return CompletedPage(items=[Completed(**c) for c in items], next_cursor=items[-1]["cursor"] if items else after)
