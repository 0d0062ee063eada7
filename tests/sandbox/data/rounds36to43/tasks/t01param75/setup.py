import os
os.makedirs(os.path.dirname('a23lib/lines.py') or '.', exist_ok=True)
open('a23lib/lines.py', 'w').write('"""Counting lines of text files."""\n\n\ndef count_lines(path):\n    """Number of lines in a text file; a last line without a newline counts too."""\n    with open(path, encoding="utf-8") as f:\n        data = f.read()\n    if not data:\n        return 0\n    return data.count("\\n") + (0 if data.endswith("\\n") else 1)\n')
os.makedirs(os.path.dirname('tests/test_lines.py') or '.', exist_ok=True)
open('tests/test_lines.py', 'w').write('import pytest\n\nfrom a23lib.lines import count_lines\n\n\n@pytest.mark.parametrize("text,expected", [\n    pytest.param("a\\nb", 2, id="nolf"),\n    pytest.param("one", 1, id="one"),\n    pytest.param("a\\nb\\n", 2, id="lf"),\n    pytest.param("", 0, id="empty"),\n])\ndef test_count_lines(tmp_path, text, expected):\n    p = tmp_path / "f.txt"\n    p.write_text(text, encoding="utf-8")\n    assert count_lines(p) == expected\n')
