import os
os.makedirs(os.path.dirname('a23lib/md.py') or '.', exist_ok=True)
open('a23lib/md.py', 'w').write('"""Markdown documents."""\n\n\ndef read_title(path):\n    """The text of the first `#` heading, \'\' if there is none."""\n    with open(path, encoding="utf-8") as f:\n        for line in f:\n            if line.startswith("#"):\n                return line.lstrip("#").strip()\n    return ""\n')
os.makedirs(os.path.dirname('tests/test_md.py') or '.', exist_ok=True)
open('tests/test_md.py', 'w').write('from a23lib.md import read_title\n\n\ndef test_title_ending_in_hash(tmp_path):\n    p = tmp_path / "doc.md"\n    p.write_text("# Learn C#\\n\\nbody\\n", encoding="utf-8")\n    assert read_title(p) == "Learn C#"\n\n\ndef test_title_plain(tmp_path):\n    p = tmp_path / "doc.md"\n    p.write_text("intro\\n## Usage\\n", encoding="utf-8")\n    assert read_title(p) == "Usage"\n')
