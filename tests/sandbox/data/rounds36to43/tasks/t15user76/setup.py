import os
os.makedirs(os.path.dirname('a23lib/lines.py') or '.', exist_ok=True)
open('a23lib/lines.py', 'w').write('"""Writing line files."""\n\n\ndef save_lines(path, lines):\n    """Write each line followed by a newline."""\n    with open(path, "w", encoding="utf-8") as f:\n        f.write("".join(line + "\\n" for line in lines))\n')
os.makedirs(os.path.dirname('tests/test_lines.py') or '.', exist_ok=True)
open('tests/test_lines.py', 'w').write('from a23lib.lines import save_lines\n\n\ndef test_save(tmp_path):\n    p = tmp_path / "out.txt"\n    save_lines(p, ["a", "b"])\n    assert p.read_text(encoding="utf-8") == "a\\nb\\n"\n\n\ndef test_empty(tmp_path):\n    p = tmp_path / "out.txt"\n    save_lines(p, [])\n    assert p.read_text(encoding="utf-8") == ""\n')
