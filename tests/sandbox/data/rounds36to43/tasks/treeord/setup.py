open("a23lib/treeord.py", "w").write('''"""A small tree of named nodes, ordered by path; a child refers back to its parent without keeping it alive."""
import functools
import weakref


@functools.total_ordering
class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.children = []
        self.parent = weakref.proxy(parent) if parent is not None else None
        if parent is not None:
            parent.children.append(self)

    def path(self):
        return (self.name,) if self.parent is None else self.parent.path() + (self.name,)

    def __eq__(self, other):
        return self.path() == other.path()

    def __lt__(self, other):
        return self.path() < other.path()

    def __hash__(self):
        return hash(self.path())
''')
open("tests/test_treeord.py", "w").write('''import gc
import weakref

from a23lib.treeord import Node


def test_parent_not_kept_alive():
    gc.disable()
    try:
        root = Node("root")
        Node("leaf", root)
        ref = weakref.ref(root)
        del root
        assert ref() is None
    finally:
        gc.enable()


def test_siblings_ordered_by_path():
    root = Node("root")
    assert Node("a", root) < Node("b", root)
''')
