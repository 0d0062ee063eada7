import os
os.makedirs(os.path.dirname('a23lib/text.py') or '.', exist_ok=True)
open('a23lib/text.py', 'w').write('"""Text helpers."""\nimport re\n\n\ndef slugify(text):\n    """Lower-case words joined by single dashes."""\n    text = re.sub(r"[^a-z0-9]+", "-", text.lower())\n    return text.strip("-")\n')
os.makedirs(os.path.dirname('tests/data/slugs.csv') or '.', exist_ok=True)
open('tests/data/slugs.csv', 'w').write('title,slug\nHello World,hello-world\n  Many   spaces  here ,many-spaces-here\nC++ & Rust!,c-rust\nalready-slugged,already-slugged\n')
os.makedirs(os.path.dirname('tests/test_text.py') or '.', exist_ok=True)
open('tests/test_text.py', 'w').write('import csv\nfrom pathlib import Path\n\nimport pytest\n\nfrom a23lib.text import slugify\n\nHERE = Path(__file__).parent\nwith open(HERE / "data" / "slugs.csv", newline="") as fh:\n    ROWS = list(csv.DictReader(fh))\n\n\n@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["slug"])\ndef test_slugify(row):\n    assert slugify(row["title"]) == row["slug"]\n')
