import os
os.makedirs(os.path.dirname('a23lib/slug.py') or '.', exist_ok=True)
open('a23lib/slug.py', 'w').write('"""Slugs for titles."""\nimport re\nimport unicodedata\n\n\ndef slugify(title):\n    """Lower-case ASCII words joined by hyphens."""\n    text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()\n    words = re.findall(r"[a-z0-9]+", text.lower())\n    return "-".join(words)\n')
os.makedirs(os.path.dirname('tests/slugs.json') or '.', exist_ok=True)
open('tests/slugs.json', 'w').write('[["Hello World", "hello-world"], ["  Spaces  everywhere ", "spaces-everywhere"],\n ["Caf\\u00e9 cr\\u00e8me", "cafe-creme"], ["C++ & Rust: 2024!", "c-rust-2024"]]\n')
os.makedirs(os.path.dirname('tests/test_slug.py') or '.', exist_ok=True)
open('tests/test_slug.py', 'w').write('import json\nimport pathlib\n\nimport pytest\n\nfrom a23lib.slug import slugify\n\n\n@pytest.fixture\ndef cases():\n    return json.loads((pathlib.Path(__file__).parent / "slugs.json").read_text())\n\n\ndef test_slugs(cases):\n    for title, want in cases:\n        assert slugify(title) == want\n\n\ndef test_idempotent():\n    assert slugify("already-a-slug") == "already-a-slug"\n')
