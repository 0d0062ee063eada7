import os
os.makedirs(os.path.dirname('a23lib/plugins.py') or '.', exist_ok=True)
open('a23lib/plugins.py', 'w').write('"""Plugin modules register their handlers with a registry."""\n\n\nclass Registry:\n    def __init__(self):\n        self.handlers = {}\n\n    def add(self, name, fn):\n        self.handlers[name] = fn\n\n\ndef load(registry, *modules):\n    """Let each plugin module register its handlers: module.register(registry)."""\n    for module in modules:\n        module.register(registry)\n    return registry\n')
os.makedirs(os.path.dirname('tests/plugin_hello.py') or '.', exist_ok=True)
open('tests/plugin_hello.py', 'w').write('def register(registry):\n    registry.add("hello", lambda: "hi")\n')
os.makedirs(os.path.dirname('tests/test_plugins.py') or '.', exist_ok=True)
open('tests/test_plugins.py', 'w').write('from a23lib.plugins import Registry, load\nfrom tests import plugin_hello\n\n\ndef test_load_registers_handlers():\n    reg = load(Registry(), plugin_hello)\n    assert reg.handlers["hello"]() == "hi"\n\n\ndef test_no_plugins():\n    assert load(Registry()).handlers == {}\n')
