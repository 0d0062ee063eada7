from textkit.case import camel_case, snake_case, split_words


def test_split_words():
    assert split_words("someName_here") == ["some", "name", "here"]


def test_snake_from_camel():
    assert snake_case("someName") == "some_name"


def test_snake_from_kebab():
    assert snake_case("some-name") == "some_name"


def test_camel_from_snake():
    assert camel_case("some_name_here") == "someNameHere"


def test_camel_from_spaces():
    assert camel_case("Some Name") == "someName"


def test_camel_empty():
    assert camel_case("") == ""
