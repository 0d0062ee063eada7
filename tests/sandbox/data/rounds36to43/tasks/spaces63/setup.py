import os
os.makedirs(os.path.dirname('a23lib/slug.py') or '.', exist_ok=True)
open('a23lib/slug.py', 'w').write('"""Slugs."""\nimport re\n\n\ndef slugify(text):\n    """\'Hello World\' -> \'hello-world\'."""\n    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")\n')
os.makedirs(os.path.dirname('tests/test_slug.py') or '.', exist_ok=True)
open('tests/test_slug.py', 'w').write('import pytest\n\nfrom a23lib.slug import slugify\n\n\n@pytest.mark.parametrize("text,want", [\n    ("Hello World", "hello-world"),\n    ("  padded  ", "padded"),\n    ("C++ and Rust", "c-and-rust"),\n    ("simple", "simple"),\n])\ndef test_slugify(text, want):\n    assert slugify(text) == want\n')
