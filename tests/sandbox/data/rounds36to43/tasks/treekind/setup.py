open("a23lib/treekind.py", "w").write('''"""A small tree of named nodes; a child refers back to its parent without keeping it alive."""
import weakref


class Node:
    def __init__(self, name, parent=None):
        self.name = name
        self.children = []
        self.parent = weakref.proxy(parent) if parent is not None else None
        if parent is not None:
            parent.children.append(self)

    def path(self):
        return self.name if self.parent is None else f"{self.parent.path()}/{self.name}"
''')
open("tests/test_treekind.py", "w").write('''import gc
import weakref

from a23lib.treekind import Node


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


def test_child_knows_parent():
    root = Node("root")
    leaf = Node("leaf", root)
    assert isinstance(leaf.parent, Node)
    assert leaf.path() == "root/leaf"
''')
