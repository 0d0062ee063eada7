"""Binary arithmetic operations used by the evaluator."""


def add(a, b):
    """Return a + b."""
    return a + b


def sub(a, b):
    """Return a - b."""
    return a - b


def mul(a, b):
    """Return a * b."""
    return a * b


def div(a, b):
    """Return a / b as a float; dividing by zero raises ZeroDivisionError."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


def power(a, b):
    """Return a raised to the power b."""
    return a**b


OPERATORS = {"+": add, "-": sub, "*": mul, "/": div, "^": power}
