from seqtools.search import find_first, last_index, lower_bound, take_while


def test_find_first():
    assert find_first([1, 4, 6, 8], lambda x: x > 3) == 4


def test_find_first_default():
    assert find_first([1, 2], lambda x: x > 5, default=-1) == -1


def test_last_index():
    assert last_index([1, 2, 1, 3], 1) == 2


def test_last_index_first_position():
    assert last_index([7, 2, 3], 7) == 0


def test_last_index_missing():
    assert last_index([1, 2], 9) == -1


def test_take_while():
    assert take_while([2, 4, 5, 6], lambda x: x % 2 == 0) == [2, 4]


def test_take_while_none():
    assert take_while([1, 2], lambda x: x > 5) == []


def test_lower_bound_present():
    assert lower_bound([1, 3, 3, 5, 8], 3) == 1


def test_lower_bound_between():
    assert lower_bound([1, 3, 5, 8], 4) == 2


def test_lower_bound_past_end():
    assert lower_bound([1, 3, 5], 9) == 3
