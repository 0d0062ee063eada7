"""`python -m swerl.rollout run-one ...`: the rollout CLI without loading the other rooms' commands (fast
worker start-up for the process launcher and Kubernetes Jobs)."""

import sys

from swerl.errors import SwerlError
from swerl.log import configure
from swerl.rollout.cli import app

configure()
try:
    app(prog_name="swerl rollout")
except SwerlError as exc:
    sys.stderr.write(f"error: {exc}\n")
    sys.exit(2)
