"""calc: small arithmetic helpers."""

from calc.ops import add, div, mul, power, sub
from calc.parse import evaluate
from calc.stats import mean, median, variance

__all__ = ["add", "div", "evaluate", "mean", "median", "mul", "power", "sub", "variance"]
