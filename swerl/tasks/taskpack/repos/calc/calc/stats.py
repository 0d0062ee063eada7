"""Descriptive statistics over sequences of numbers."""


def mean(values):
    """Arithmetic mean; an empty sequence raises ValueError."""
    values = list(values)
    if not values:
        raise ValueError("mean of empty data")
    return sum(values) / len(values)


def median(values):
    """Middle value; for an even count, the mean of the two middle values."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("median of empty data")
    mid = n // 2
    if n % 2 == 1:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def variance(values, sample=True):
    """Variance; `sample=True` divides by n - 1 (Bessel's correction)."""
    values = list(values)
    n = len(values)
    if n < 2 and sample:
        raise ValueError("sample variance needs at least two values")
    m = mean(values)
    ss = sum((v - m) ** 2 for v in values)
    return ss / (n - 1 if sample else n)
