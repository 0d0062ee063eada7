"""`python -m swerl.gateway serve ...`: the gateway CLI without loading the other rooms' commands."""

from swerl.errors import run_room_cli
from swerl.gateway.cli import app

run_room_cli(app, "swerl gateway")
