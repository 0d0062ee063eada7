s = open('a23lib/plugins/__init__.py').read(); assert '"""\n' in s, 'a23lib/plugins/__init__.py'; open('a23lib/plugins/__init__.py', 'w').write(s.replace('"""\n', '"""\n# v1\n', 1))
