from textkit.slug import slugify


def test_basic():
    assert slugify("Hello World") == "hello-world"


def test_punctuation():
    assert slugify("Hello, World!") == "hello-world"


def test_accents():
    assert slugify("Crème brûlée") == "creme-brulee"


def test_custom_sep():
    assert slugify("a b c", sep="_") == "a_b_c"


def test_max_length_no_trailing_sep():
    assert slugify("hello big world", max_length=10) == "hello-big"


def test_empty():
    assert slugify("!!!") == ""
