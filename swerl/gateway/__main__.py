"""`python -m swerl.gateway serve ...`: the gateway CLI without loading the other rooms' commands."""

import sys

from swerl.errors import SwerlError
from swerl.gateway.cli import app
from swerl.log import configure

configure()
try:
    app(prog_name="swerl gateway")
except SwerlError as exc:
    sys.stderr.write(f"error: {exc}\n")
    sys.exit(2)
