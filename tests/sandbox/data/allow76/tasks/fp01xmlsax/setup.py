import os
os.makedirs(os.path.dirname('a23lib/xmlout.py') or '.', exist_ok=True)
open('a23lib/xmlout.py', 'w').write('"""Writing XML by hand."""\n\n\ndef element(tag, text):\n    """<tag>text</tag> with the text escaped."""\n    text = text.replace("<", "&lt;").replace(">", "&gt;")\n    return f"<{tag}>{text}</{tag}>"\n')
os.makedirs(os.path.dirname('tests/test_xmlout.py') or '.', exist_ok=True)
open('tests/test_xmlout.py', 'w').write('from a23lib.xmlout import element\n\n\ndef test_amp():\n    assert element("t", "R&D <x>") == "<t>R&amp;D &lt;x&gt;</t>"\n\n\ndef test_plain():\n    assert element("t", "abc") == "<t>abc</t>"\n')
