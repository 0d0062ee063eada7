"""Greedy word wrapping."""


def wrap(text, width):
    """Split `text` into lines of at most `width` characters, breaking at spaces.

    A single word longer than `width` gets a line of its own.
    """
    if width < 1:
        raise ValueError("width must be positive")
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= width:
            current = candidate
        else:
            if current:
                lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines
