open("a23lib/codegen.py", "w").write('''"""Generate the source of small record classes."""


def record_class(name, fields):
    """Python source of class `name` with an __init__ taking `fields` and a __repr__ like a dataclass's."""
    args = ", ".join(fields)
    body = "\\n".join(f"        self.{f} = {f}" for f in fields) or "        pass"
    rep = ", ".join(f"{f}={{self.{f}!r}}" for f in fields)
    return (f"class {name}:\\n"
            f"    def __init__(self, {args}):\\n{body}\\n\\n"
            f"    def __repr__(self):\\n"
            f"        return f\\"{name}({rep})\\"\\n")
''')
open("tests/test_codegen.py", "w").write('''import importlib.util

from a23lib.codegen import record_class


def load(tmp_path, src):
    path = tmp_path / "gen_mod.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("gen_mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_repr(tmp_path):
    mod = load(tmp_path, record_class("Point", ["x", "y"]))
    assert repr(mod.Point(1, "a")) == "Point(x=1, y='a')"


def test_init(tmp_path):
    mod = load(tmp_path, record_class("Pair", ["a", "b"]))
    assert mod.Pair(3, 4).b == 4
''')
