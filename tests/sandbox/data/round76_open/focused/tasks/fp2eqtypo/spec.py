FILES = {
"a23lib/spans.py": '''"""Integer spans such as '3-7'."""


class Span:
    def __init__(self, start, end):
        self.start = start
        self.end = end

    def __eq__(self, other):
        if not isinstance(other, Span):
            return NotImplemented
        return self.start == other.start and self.end == other.end

    def __hash__(self):
        return hash((self.start, self.end))

    def __repr__(self):
        return f"Span({self.start}, {self.end})"


def parse_span(text):
    start, _, end = text.partition("-")
    return Span(int(start), int(end or start))
''',
"tests/test_spans.py": '''from a23lib.spans import Span, parse_span


def test_range():
    assert parse_span("3-7") == Span(3, 7)


def test_different_ends():
    assert parse_span("3-7") != Span(3, 8)
''',
}
BUG = [("a23lib/spans.py", "self.end == other.end", "self.end == other.start")]
F2P = ["tests/test_spans.py::test_range"]
P2P = ["tests/test_spans.py::test_different_ends"]
