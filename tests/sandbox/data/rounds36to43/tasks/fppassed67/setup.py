open("a23lib/opts.py", "w").write('''"""Option merging for the command line front end."""

DEFAULTS = {"color": True, "width": 80, "pager": "less"}


def merge_options(overrides=None, defaults=DEFAULTS):
    """The defaults updated with the overrides that were given.

    A value passed in explicitly wins, even a falsy one (color=False, width=0); None means "use the default".
    """
    merged = dict(defaults)
    for key, value in (overrides or {}).items():
        # a value passed in explicitly wins, even a falsy one (color=False, width=0)
        if value is not None:
            merged[key] = value
    return merged
''')
open("tests/test_opts.py", "w").write('''from a23lib.opts import merge_options


def test_defaults():
    assert merge_options() == {"color": True, "width": 80, "pager": "less"}


def test_override():
    assert merge_options({"width": 120})["width"] == 120


def test_falsy_override():
    assert merge_options({"color": False})["color"] is False


def test_zero_width():
    assert merge_options({"width": 0})["width"] == 0


def test_none_means_default():
    assert merge_options({"pager": None})["pager"] == "less"
''')
