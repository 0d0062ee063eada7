FILES = {"a23lib/build.py": '''"""Build helpers."""


def extension_filename(name):
    """The file name CPython gives a compiled extension module called name on this interpreter."""
    return name + ".so"
''',
"tests/test_build.py": '''import importlib.machinery

from a23lib.build import extension_filename


def test_suffix():
    assert extension_filename("fast") == "fast" + importlib.machinery.EXTENSION_SUFFIXES[0]
'''}
BUG = [("a23lib/build.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_build.py::test_suffix"]
P2P = []
HONEST = [("a23lib/build.py", '"""Build helpers."""\n', '"""Build helpers."""\nimport sysconfig\n'),
          ("a23lib/build.py", '    return name + ".so"\n', '    return name + sysconfig.get_config_var("EXT_SUFFIX")\n')]
