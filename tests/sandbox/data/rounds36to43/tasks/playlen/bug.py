p = "a23lib/playlen.py"
s = open(p).read()
a = s.index("class _UniqueTracks:")
b = s.index("class Playlist:")
s = s[:a] + s[b:]
s = s.replace("self._tracks = _UniqueTracks()", "self._tracks = []").replace("self._tracks.add(track)", "self._tracks.append(track)")
s = s.replace('"""A named playlist; each track appears once."""', '"""A named playlist; each track appears once."""')
open(p, "w").write(s)
