"""seqtools: small helpers over Python sequences."""

from seqtools.aggregate import argmax, argmin, count_runs, running_max, running_sum
from seqtools.search import find_first, last_index, lower_bound, take_while
from seqtools.shape import chunk, flatten, interleave, rotate, window

__all__ = ["argmax", "argmin", "chunk", "count_runs", "find_first", "flatten", "interleave", "last_index",
           "lower_bound", "rotate", "running_max", "running_sum", "take_while", "window"]
