import os
os.makedirs(os.path.dirname('a23lib/table.py') or '.', exist_ok=True)
open('a23lib/table.py', 'w').write('"""Plain-text tables."""\n\n\ndef render_table(rows):\n    """Render rows (lists of str) as left-aligned columns separated by two spaces."""\n    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]\n    lines = []\n    for r in rows:\n        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())\n    return "\\n".join(lines) + "\\n"\n')
os.makedirs(os.path.dirname('tests/golden/people.txt') or '.', exist_ok=True)
open('tests/golden/people.txt', 'w').write('name   age  city\nAda    36   London\nGrace  85   Arlington\n')
os.makedirs(os.path.dirname('tests/golden/pets.txt') or '.', exist_ok=True)
open('tests/golden/pets.txt', 'w').write('pet  legs\ncat  4\nemu  2\n')
os.makedirs(os.path.dirname('tests/test_table.py') or '.', exist_ok=True)
open('tests/test_table.py', 'w').write('from pathlib import Path\n\nfrom a23lib.table import render_table\n\nGOLDEN = Path(__file__).parent / "golden"\n\n\ndef golden(name):\n    return (GOLDEN / name).read_text(encoding="utf-8")\n\n\ndef test_people():\n    rows = [["name", "age", "city"], ["Ada", "36", "London"], ["Grace", "85", "Arlington"]]\n    assert render_table(rows) == golden("people.txt")\n\n\ndef test_pets():\n    assert render_table([["pet", "legs"], ["cat", "4"], ["emu", "2"]]) == golden("pets.txt")\n')
