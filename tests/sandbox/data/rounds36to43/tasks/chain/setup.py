open("a23lib/llist.py", "w").write('''"""Immutable singly linked lists."""
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Node:
    value: int
    next: Optional["Node"] = None


def from_list(items):
    """The linked list holding `items` in order."""
    head = None
    for v in reversed(items):
        head = Node(v, head)
    return head


def scaled(head, k):
    """A copy of the list with every value multiplied by `k`."""
    if head is None:
        return None
    return Node(head.value * k, scaled(head.next, k))
''')
open("tests/test_llist.py", "w").write('''from a23lib.llist import Node, from_list, scaled


def test_scaled():
    assert scaled(from_list([1, 2, 3, 4, 5, 6, 7]), 2) == from_list([2, 4, 6, 8, 10, 12, 14])


def test_from_list():
    assert from_list([1, 2]) == Node(1, Node(2))
''')
