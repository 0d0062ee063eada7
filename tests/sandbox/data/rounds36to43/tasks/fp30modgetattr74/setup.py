import os
os.makedirs(os.path.dirname('a23lib/shapes.py') or '.', exist_ok=True)
open('a23lib/shapes.py', 'w').write('"""Shape areas by name."""\nimport math\n\n\ndef area_circle(r):\n    return math.pi * r * r\n\n\ndef area_square(s):\n    return s * s\n\n\ndef area(kind, size):\n    import a23lib.shapes as me\n\n    fn = getattr(me, f"area_{kind}", None)\n    if fn is None:\n        raise ValueError(kind)\n    return fn(size)\n')
os.makedirs(os.path.dirname('tests/test_fp30modgetattr.py') or '.', exist_ok=True)
open('tests/test_fp30modgetattr.py', 'w').write('from a23lib.shapes import area\n\n\ndef test_square():\n    assert area("square", 3) == 9\n\n\ndef test_circle():\n    assert round(area("circle", 1), 5) == 3.14159\n')
