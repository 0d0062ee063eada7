open("a23lib/words.py", "w").write('''"""Text helpers: slugs and keywords."""
import re

STOP = frozenset({"the", "a", "an", "of"})


def slugify(text):
    """Lower-case words joined by dashes; punctuation dropped."""
    text = text.strip().lower()
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text.strip("-")


def keywords(text):
    """The set of non-stop words of the text."""
    return {w for w in slugify(text).split("-") if w and w not in STOP}


def word_counts(text):
    counts = {}
    for w in slugify(text).split("-"):
        if w:
            counts[w] = counts.get(w, 0) + 1
    return counts
''')
open("tests/test_words.py", "w").write('''from a23lib.words import slugify, keywords, word_counts


def test_slug_punct():
    assert slugify("Hello, World!") == "hello-world"


def test_keywords():
    assert keywords("The cat, the hat.") == {"cat", "hat"}


def test_counts():
    assert word_counts("Spam, spam; eggs.") == {"spam": 2, "eggs": 1}


def test_slug_simple():
    assert slugify(" A b ") == "a-b"


def test_kw_in():
    assert "cat" in keywords("a cat")
    assert "the" not in keywords("the dog")
''')
