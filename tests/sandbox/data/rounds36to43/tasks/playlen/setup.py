open("a23lib/playlen.py", "w").write('''class _UniqueTracks:
    """Tracks in the order first added; adding a track again keeps the first."""

    def __init__(self):
        self._order = {}

    def add(self, track):
        self._order.setdefault(track, None)

    def __len__(self):
        return len(self._order)

    def __iter__(self):
        return iter(self._order)


class Playlist:
    """A named playlist; each track appears once."""

    def __init__(self, name):
        self.name = name
        self._tracks = _UniqueTracks()

    def add(self, *tracks):
        for track in tracks:
            self._tracks.add(track)
        return self

    def __len__(self):
        return len(self._tracks)

    def __iter__(self):
        return iter(self._tracks)
''')
open("tests/test_playlen.py", "w").write('''from a23lib.playlen import Playlist


def test_duplicates_counted_once():
    assert len(Playlist("mix").add("a", "b", "a")) == 2


def test_order_kept():
    assert list(Playlist("mix").add("b", "a")) == ["b", "a"]
''')
