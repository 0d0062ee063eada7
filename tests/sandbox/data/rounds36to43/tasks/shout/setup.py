open("a23lib/shout.py", "w").write('''def shout(text):
    """The text in capitals, with an exclamation mark."""
    return text.upper() + "!"
''')
open("tests/test_shout.py", "w").write('''from a23lib.shout import shout


def test_shout_is_upper():
    assert shout("hi there").isupper()


def test_shout_keeps_capitals():
    assert shout("HEY") == "HEY!"
''')
