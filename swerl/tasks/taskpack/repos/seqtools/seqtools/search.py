"""Searching sequences."""


def find_first(items, predicate, default=None):
    """The first item for which `predicate` is true, else `default`."""
    for item in items:
        if predicate(item):
            return item
    return default


def last_index(items, value):
    """Index of the last occurrence of `value`; -1 when absent."""
    for i in range(len(items) - 1, -1, -1):
        if items[i] == value:
            return i
    return -1


def take_while(items, predicate):
    """The longest prefix of `items` whose items all satisfy `predicate`."""
    out = []
    for item in items:
        if not predicate(item):
            break
        out.append(item)
    return out


def lower_bound(sorted_items, value):
    """First index whose item is >= `value` in a sorted list (len(items) if none)."""
    lo, hi = 0, len(sorted_items)
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_items[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo
