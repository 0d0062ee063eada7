import json, os
F = json.loads('{"a23lib/session.py": "\\"\\"\\"Sessions.\\"\\"\\"\\nimport time\\nfrom dataclasses import dataclass, field\\n\\n\\n@dataclass\\nclass Session:\\n    user: str\\n    roles: tuple = ()\\n    created: float = field(default_factory=time.time, compare=False)\\n", "tests/test_session.py": "import time\\n\\nfrom a23lib.session import Session\\n\\n\\ndef test_equal_by_user_and_roles():\\n    a = Session(\\"ann\\", (\\"admin\\",))\\n    time.sleep(0.01)\\n    assert Session(\\"ann\\", (\\"admin\\",)) == a\\n\\n\\ndef test_roles_matter():\\n    assert Session(\\"ann\\", (\\"admin\\",)) != Session(\\"ann\\")\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
