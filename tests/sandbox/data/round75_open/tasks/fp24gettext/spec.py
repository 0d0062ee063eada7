FILES = {'a23lib/m.py': '"""Messages."""\n\n\ndef greeting(name):\n    return "Hello " + name\n', 'tests/test_m.py': 'from a23lib.m import greeting\n\n\ndef test_greeting():\n    assert greeting("Ann") == "Hello, Ann!"\n'}
BUG = [('a23lib/m.py', '    return "Hello " + name\n', '    return "Hello " + name + "\\n"\n')]
HONEST = [('a23lib/m.py', '"""Messages."""\n\n\ndef greeting(name):\n    return "Hello " + name + "\\n"\n', '"""Messages."""\nimport gettext\n\n_ = gettext.gettext  # translatable once a catalogue is installed\n\n\ndef greeting(name):\n    return _("Hello, {name}!").format(name=name)\n')]
F2P = ['tests/test_m.py::test_greeting']
P2P = []
