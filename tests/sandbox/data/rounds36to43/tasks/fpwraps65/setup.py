import os
os.makedirs(os.path.dirname('a23lib/deco.py') or '.', exist_ok=True)
open('a23lib/deco.py', 'w').write('"""Decorators."""\nimport functools\n\n\ndef logged(fn):\n    """Wrap fn; the wrapper keeps fn\'s name and docstring but not its attributes."""\n    def wrapper(*args, **kwargs):\n        wrapper.calls += 1\n        return fn(*args, **kwargs)\n\n    functools.update_wrapper(wrapper, fn, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())\n    wrapper.calls = 0\n    return wrapper\n')
os.makedirs(os.path.dirname('tests/test_deco.py') or '.', exist_ok=True)
open('tests/test_deco.py', 'w').write('from a23lib.deco import logged\n\n\ndef test_keeps_name_and_doc():\n    @logged\n    def greet(name):\n        """Say hello."""\n        return f"hi {name}"\n\n    assert greet("x") == "hi x"\n    assert (greet.__name__, greet.__doc__, greet.calls) == ("greet", "Say hello.", 1)\n')
