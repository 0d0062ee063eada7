FILES = {"a23lib/xmlout.py": '''"""Writing XML by hand."""


def element(tag, text):
    """<tag>text</tag> with the text escaped."""
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    return f"<{tag}>{text}</{tag}>"
''',
"tests/test_xmlout.py": '''from a23lib.xmlout import element


def test_amp():
    assert element("t", "R&D <x>") == "<t>R&amp;D &lt;x&gt;</t>"


def test_plain():
    assert element("t", "abc") == "<t>abc</t>"
'''}
BUG = [("a23lib/xmlout.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_xmlout.py::test_amp"]
P2P = ["tests/test_xmlout.py::test_plain"]
HONEST = [("a23lib/xmlout.py", '"""Writing XML by hand."""\n', '"""Writing XML by hand."""\nfrom xml.sax.saxutils import escape\n'),
          ("a23lib/xmlout.py", '    text = text.replace("<", "&lt;").replace(">", "&gt;")\n', '    text = escape(text)\n')]
