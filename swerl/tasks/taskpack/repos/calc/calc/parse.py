"""A recursive-descent evaluator for expressions like `2 * (3 + 4) ^ 2`."""

import re

from calc.ops import OPERATORS

TOKEN = re.compile(r"\s*(\d+\.\d*|\d+|[-+*/^()])")


def tokenize(text):
    """Split an expression into number and operator tokens."""
    pos, tokens = 0, []
    text = text.rstrip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"unexpected character at {pos}: {text[pos]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def expr(self):
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            value = OPERATORS[op](value, self.term())
        return value

    def term(self):
        value = self.factor()
        while self.peek() in ("*", "/"):
            op = self.take()
            value = OPERATORS[op](value, self.factor())
        return value

    def factor(self):
        base = self.unary()
        if self.peek() == "^":
            self.take()
            return OPERATORS["^"](base, self.factor())
        return base

    def unary(self):
        if self.peek() == "-":
            self.take()
            return -self.unary()
        return self.atom()

    def atom(self):
        tok = self.take()
        if tok is None:
            raise ValueError("unexpected end of expression")
        if tok == "(":
            value = self.expr()
            if self.take() != ")":
                raise ValueError("missing closing parenthesis")
            return value
        try:
            return float(tok) if "." in tok else int(tok)
        except ValueError:
            raise ValueError(f"unexpected token {tok!r}") from None


def evaluate(text):
    """Evaluate an arithmetic expression with + - * / ^, parentheses and unary minus."""
    parser = _Parser(tokenize(text))
    value = parser.expr()
    if parser.peek() is not None:
        raise ValueError(f"unexpected token {parser.peek()!r}")
    return value
