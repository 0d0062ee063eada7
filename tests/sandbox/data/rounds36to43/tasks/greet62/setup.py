import os
FILES = {
    "a23lib/greet.py": 'def banner(name):\n    """The welcome line for a returning user."""\n    return f"*** Welcome back, {name.title()}! ***"\n',
    "tests/test_greet.py": 'from a23lib.greet import banner\n\nWELCOME = "Welcome back, Ann Lee!"\n\n\n'
                           'def test_banner():\n    assert WELCOME in banner("ann lee")\n\n\n'
                           'def test_plain():\n    assert "Welcome back, Bob!" in banner("bob")\n',
}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(s)
