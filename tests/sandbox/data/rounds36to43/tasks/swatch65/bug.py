p = 'a23lib/colors.py'; s = open(p).read(); assert 'f"#{r:02x}{g:02x}{b:02x}"' in s; s = s.replace('f"#{r:02x}{g:02x}{b:02x}"', 'f"#{r:x}{g:x}{b:x}"'); open(p, 'w').write(s)
