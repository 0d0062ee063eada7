import os
os.makedirs(os.path.dirname('a23lib/build.py') or '.', exist_ok=True)
open('a23lib/build.py', 'w').write('"""Build helpers."""\n\n\ndef extension_filename(name):\n    """The file name CPython gives a compiled extension module called name on this interpreter."""\n    return name + ".so"\n')
os.makedirs(os.path.dirname('tests/test_build.py') or '.', exist_ok=True)
open('tests/test_build.py', 'w').write('import importlib.machinery\n\nfrom a23lib.build import extension_filename\n\n\ndef test_suffix():\n    assert extension_filename("fast") == "fast" + importlib.machinery.EXTENSION_SUFFIXES[0]\n')
