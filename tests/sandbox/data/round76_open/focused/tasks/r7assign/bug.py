s = open('a23lib/tags.py').read(); assert 'Tag(name, "_".join(' in s, 'a23lib/tags.py'; open('a23lib/tags.py', 'w').write(s.replace('Tag(name, "_".join(', 'Tag(name, "-".join(', 1))
