"""Reshaping sequences: chunks, sliding windows, rotation, interleaving, flattening."""


def chunk(items, size):
    """Split `items` into lists of `size` items; the last one may be shorter."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def window(items, size):
    """All contiguous windows of `size` items, as tuples, in order."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [tuple(items[i:i + size]) for i in range(len(items) - size + 1)]


def rotate(items, steps):
    """Rotate left by `steps` (negative rotates right); an empty list stays empty."""
    if not items:
        return []
    k = steps % len(items)
    return list(items[k:]) + list(items[:k])


def interleave(first, second):
    """Alternate items of both lists, starting with `first`; leftovers are appended."""
    out = []
    n = min(len(first), len(second))
    for i in range(n):
        out.append(first[i])
        out.append(second[i])
    out.extend(first[n:])
    out.extend(second[n:])
    return out


def flatten(nested, depth=1):
    """Flatten lists nested up to `depth` levels."""
    out = []
    for item in nested:
        if isinstance(item, list) and depth > 0:
            out.extend(flatten(item, depth - 1))
        else:
            out.append(item)
    return out
