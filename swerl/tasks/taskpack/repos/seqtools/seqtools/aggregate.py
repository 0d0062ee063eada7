"""Aggregates over sequences of numbers."""


def running_sum(values):
    """Prefix sums: running_sum([1, 2, 3]) == [1, 3, 6]."""
    out, total = [], 0
    for v in values:
        total = total + v
        out.append(total)
    return out


def running_max(values):
    """The maximum seen so far at each position."""
    out = []
    for v in values:
        out.append(v if not out or v > out[-1] else out[-1])
    return out


def argmax(values):
    """Index of the first largest value; an empty sequence raises ValueError."""
    if not values:
        raise ValueError("argmax of empty sequence")
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


def argmin(values):
    """Index of the first smallest value; an empty sequence raises ValueError."""
    if not values:
        raise ValueError("argmin of empty sequence")
    best = 0
    for i in range(1, len(values)):
        if values[i] < values[best]:
            best = i
    return best


def count_runs(values):
    """Run-length encoding: [(value, count), ...] for consecutive equal values."""
    runs = []
    for v in values:
        if runs and runs[-1][0] == v:
            runs[-1] = (v, runs[-1][1] + 1)
        else:
            runs.append((v, 1))
    return runs
