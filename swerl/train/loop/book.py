"""The trainer's book of declared rollouts: what is in flight, what completed, which groups are whole.

Completion comes from the gateway's completion feed (cursor + long-poll), never from polling
rollouts one by one. Batches take whole groups (GRPO/RLOO need the whole group for the baseline)
in completion order, so all samples of a rollout land in one update (docs/algorithms.md sec. 5).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from swerl.gateway.client import GatewayClient
from swerl.gateway.states import TERMINAL, TRAINABLE
from swerl.rollout.schema import RolloutRequest

FINAL_STATES = sorted(TERMINAL)


@dataclass
class Group:
    group_id: str
    split: str
    rollout_ids: list[str]
    done: dict[str, str] = field(default_factory=dict)  # rollout id -> final state

    @property
    def complete(self) -> bool:
        return len(self.done) == len(self.rollout_ids)

    @property
    def trainable(self) -> list[str]:
        return [r for r in self.rollout_ids if self.done.get(r) in TRAINABLE]


class RolloutBook:
    """Declared rollouts by group, their final states, and the completion cursor (checkpointed)."""

    def __init__(self, max_attempts: int) -> None:
        self.max_attempts = max_attempts
        self.cursor = 0
        self.specs: dict[str, RolloutRequest] = {}
        self.groups: OrderedDict[str, Group] = OrderedDict()
        self.ready: list[str] = []  # complete train groups, in completion order
        self.infra_failed: list[str] = []  # rollouts that ran out of attempts (not trained)

    def add_group(self, group_id: str, split: str, specs: list[RolloutRequest]) -> None:
        self.groups[group_id] = Group(group_id, split, [s.rollout_id for s in specs])
        for s in specs:
            self.specs[s.rollout_id] = s

    def outstanding(self, split: str = "train") -> int:
        """Declared rollouts of `split` that are not done yet."""
        return sum(len(g.rollout_ids) - len(g.done) for g in self.groups.values() if g.split == split)

    def ready_rollouts(self) -> int:
        return sum(len(self.groups[g].trainable) for g in self.ready)

    def poll(self, client: GatewayClient, wait_s: float) -> int:
        """Read the completion feed once (long-poll up to wait_s); returns how many rollouts became done."""
        page = client.completed(after=self.cursor, wait_s=wait_s, states=FINAL_STATES)
        n = 0
        for item in page.items:
            n += self.mark(item.rollout_id, item.state, item.attempt)
        self.cursor = page.next_cursor
        return n

    def mark(self, rid: str, state: str, attempt: int) -> int:
        spec = self.specs.get(rid)
        if spec is None:
            return 0  # not ours (another run on the same gateway, or consumed already)
        if state == "failed_infra" and attempt < self.max_attempts:
            return 0  # the controller retries it as a new attempt
        group = self.groups[spec.group_id]
        if rid in group.done:
            return 0
        group.done[rid] = state
        if state == "failed_infra":
            self.infra_failed.append(rid)
        if group.complete and group.split == "train":
            self.ready.append(group.group_id)
        return 1

    def take(self, min_rollouts: int) -> list[Group]:
        """Pop whole ready groups (completion order) until they hold >= min_rollouts trainable rollouts."""
        out: list[Group] = []
        n = 0
        while self.ready and n < min_rollouts:
            g = self.groups[self.ready.pop(0)]
            out.append(g)
            n += len(g.trainable)
        return out

    def forget(self, groups: list[Group]) -> None:
        """Drop consumed (or abandoned) groups from the book."""
        for g in groups:
            self.groups.pop(g.group_id, None)
            for rid in g.rollout_ids:
                self.specs.pop(rid, None)

    def state_dict(self) -> dict[str, Any]:
        """The cursor and the complete-but-unconsumed train groups (incomplete ones are abandoned on resume)."""
        ready = [self.groups[g] for g in self.ready]
        return {"cursor": self.cursor, "ready": [
            {"group_id": g.group_id, "split": g.split, "rollout_ids": g.rollout_ids, "done": g.done,
             "specs": [self.specs[r].model_dump(mode="json") for r in g.rollout_ids]} for g in ready]}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.cursor = int(state["cursor"])
        for g in state.get("ready", []):
            specs = [RolloutRequest.model_validate(s) for s in g["specs"]]
            self.add_group(g["group_id"], g["split"], specs)
            self.groups[g["group_id"]].done = dict(g["done"])
            self.ready.append(g["group_id"])


__all__ = ["FINAL_STATES", "TRAINABLE", "Group", "RolloutBook"]
