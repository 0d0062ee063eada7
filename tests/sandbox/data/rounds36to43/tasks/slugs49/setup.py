open("a23lib/slugs.py", "w").write('''"""URL slugs for page titles."""
import re


def slugify(title):
    """Lower-case words of the title joined by dashes."""
    return "-".join(re.findall(r"[a-z0-9]+", title.lower()))


def slugify_all(titles):
    """One slug per title, in order; a slug already taken gets -2, -3, ... appended, so all slugs are distinct."""
    seen = {}
    out = []
    for title in titles:
        base = slugify(title)
        slug = base
        n = seen.get(base, 0)
        if n:
            slug = "%s-%d" % (base, n + 1)
        seen[base] = n + 1
        out.append(slug)
    return out
''')
open("tests/test_slugs.py", "w").write('''from a23lib.slugs import slugify, slugify_all


def test_distinct():
    slugs = slugify_all(["Hello World", "hello world", "Hello-World!", "Other"])
    assert len(set(slugs)) == len(slugs)


def test_single():
    assert slugify_all(["Hello World"]) == ["hello-world"]


def test_slugify():
    assert slugify("  A  Tale of 2 Cities ") == "a-tale-of-2-cities"
''')
