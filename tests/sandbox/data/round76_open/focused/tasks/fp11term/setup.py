import os
os.makedirs(os.path.dirname('a23lib/messages.py') or '.', exist_ok=True)
open('a23lib/messages.py', 'w').write('"""Messages for the command line."""\nimport os\n\n\ndef _color():\n    return os.environ.get("TERM", "dumb") != "dumb" and "NO_COLOR" not in os.environ\n\n\ndef warn(msg):\n    text = f"warning: {msg}"\n    return f"\\x1b[33m{text}\\x1b[0m" if _color() else text\n\n\ndef _count(n, word):\n    return f"{n} {word}" + ("" if n == 1 else "s")\n\n\ndef summary(errors, warnings):\n    return f"{_count(errors, \'error\')}, {_count(warnings, \'warning\')}"\n')
os.makedirs(os.path.dirname('tests/test_messages.py') or '.', exist_ok=True)
open('tests/test_messages.py', 'w').write('from a23lib.messages import summary, warn\n\n\ndef test_summary():\n    assert summary(2, 1) == "2 errors, 1 warning"\n\n\ndef test_warn_plain():\n    assert warn("disk low") == "warning: disk low"\n')
