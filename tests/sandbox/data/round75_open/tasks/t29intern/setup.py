import os
os.makedirs(os.path.dirname('a23lib/names.py') or '.', exist_ok=True)
open('a23lib/names.py', 'w').write('"""Identifiers from display names."""\n\n\ndef snake(name):\n    """CamelCase -> camel_case."""\n    out = []\n    for i, ch in enumerate(name):\n        if ch.isupper() and i:\n            out.append("_")\n        out.append(ch.lower())\n    return "".join(out)\n')
os.makedirs(os.path.dirname('tests/test_names.py') or '.', exist_ok=True)
open('tests/test_names.py', 'w').write('from a23lib.names import snake\n\n\ndef test_two_words():\n    assert snake("HelloWorld") == "hello_world"\n\n\ndef test_three_words():\n    assert snake("ParseHttpHeader") == "parse_http_header"\n\n\ndef test_lower():\n    assert snake("plain") == "plain"\n')
