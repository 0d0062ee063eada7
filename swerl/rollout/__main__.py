"""`python -m swerl.rollout run-one ...`: the rollout CLI without loading the other rooms' commands (fast
worker start-up for the process launcher and Kubernetes Jobs)."""

from swerl.errors import run_room_cli
from swerl.rollout.cli import app

run_room_cli(app, "swerl rollout")
