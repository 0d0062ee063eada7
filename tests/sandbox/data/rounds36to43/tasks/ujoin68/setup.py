open("a23lib/links.py", "w").write('''"""Links in documents."""
import urllib.parse


def resolve(base, ref):
    """The absolute form of `ref` found in a document at `base` (RFC 3986, as browsers do)."""
    return urllib.parse.urljoin(base, ref)
''')
open("tests/test_links.py", "w").write('''from urllib.parse import urljoin

import pytest

from a23lib.links import resolve


@pytest.mark.parametrize("base,ref", [
    ("http://a/b/c/d", "g"),
    ("http://a/b/c/d", "../g"),
    ("svn://host/repo/trunk/x", "../tags/y"),
])
def test_resolve(base, ref):
    assert resolve(base, ref) == urljoin(base, ref)
''')
