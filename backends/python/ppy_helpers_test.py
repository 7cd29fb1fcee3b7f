#!/usr/bin/env python3
"""ppy_helpers.py imports cleanly and its helpers agree with Python's own
operators where ppy's semantics are Python's (and hold ppy's 64-bit limits where
they are not). Run by ctest as `python_helpers`."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ppy_helpers as h  # noqa: E402

MIN, MAX = -(2**63), 2**63 - 1


def raises(exc, fn, *args):
    """The message of the `exc` that fn(*args) raises (fails when it raises none)."""
    try:
        fn(*args)
    except exc as e:
        return str(e)
    raise AssertionError(f"{fn.__name__}{args} raised no {exc.__name__}")


def python_error(exc, fn):
    try:
        fn()
    except exc as e:
        return str(e)
    raise AssertionError("no error")


def test_integers():
    assert h._ppy_wrap(MAX + 1) == MIN and h._ppy_wrap(-1) == -1 and h._ppy_wrap(2**64 + 5) == 5
    for a in (-7, 7, -8, 9):
        for b in (-2, 3, 5):
            assert h._ppy_div_trunc(a, b) == int(a / b)
            assert h._ppy_mod_trunc(a, b) == int(math.fmod(a, b))
    assert h._ppy_shl(3, 4) == 3 << 4 and h._ppy_shl(0, 99) == 0
    assert raises(OverflowError, h._ppy_shl, 1, 63) == "integer overflow"
    assert h._ppy_shl_wrap(1, 63) == MIN and h._ppy_shl_wrap(1, 64) == 0
    assert h._ppy_shr(-5, 1) == -5 >> 1 and h._ppy_shr(-5, -1) == -1 and h._ppy_shr(5, -1) == 0
    for base, exp in ((3, 5), (-2, 63), (7, 0), (-1, 99)):
        assert h._ppy_pow_i64(base, exp) == base**exp
    assert raises(OverflowError, h._ppy_pow_i64, 2, 63) == "integer overflow"
    assert raises(ValueError, h._ppy_pow_i64, 2, -1) == "negative exponent"
    assert h._ppy_sum_i64([1, 2, 3]) == sum([1, 2, 3])
    assert raises(OverflowError, h._ppy_sum_i64, [MAX, 1]) == "integer overflow"


def test_strings():
    assert h._ppy_str_to_i64(" -42 ") == int(" -42 ")
    assert raises(ValueError, h._ppy_str_to_i64, "x") == python_error(ValueError, lambda: int("x"))
    assert raises(OverflowError, h._ppy_str_to_i64, str(MAX + 1)) == "integer overflow"
    for a, b in (("a", "b"), ("b", "a"), ("", "")):
        assert h._ppy_str_cmp(a, b) == (a > b) - (a < b)


def test_floats():
    assert h._ppy_exp(1.0) == math.exp(1.0) and h._ppy_exp(1000.0) == math.inf
    assert h._ppy_exp2(3.0) == 8.0 and h._ppy_exp2(5000.0) == math.inf
    assert h._ppy_pow(2.0, 0.5) == math.pow(2.0, 0.5)
    assert h._ppy_pow(10.0, 400.0) == math.inf and h._ppy_pow(-10.0, 401.0) == -math.inf
    assert h._ppy_pow(0.0, -1.0) == math.inf and h._ppy_pow(-0.0, -1.0) == -math.inf
    assert math.isnan(h._ppy_pow(-8.0, 1.0 / 3.0))
    for x in (-1.5, 1.5, -0.5, 2.0):
        assert h._ppy_floor(x) == float(math.floor(x)) and isinstance(h._ppy_floor(x), float)
        assert h._ppy_ceil(x) == float(math.ceil(x)) and h._ppy_trunc(x) == float(math.trunc(x))
    assert h._ppy_floor(math.inf) == math.inf and math.isnan(h._ppy_trunc(math.nan))
    assert h._ppy_fdiv_trunc(-7.0, 2.0) == -3.0


def test_reprs():
    assert h._ppy_list_repr([1, 0], "b") == repr([True, False])
    assert h._ppy_list_repr([[1], []], "[i") == repr([[1], []])
    assert h._ppy_list_repr(["a"], "s") == repr(["a"])
    assert h._ppy_list_repr([(1, 5), (0, 0)], "?i") == repr([5, None])
    assert h._ppy_list_repr([(1, 1, "x"), (2, 0, "y")], "(ibs)") == repr([(1, True, "x"), (2, False, "y")])
    assert h._ppy_list_repr([(3,)], "(i)") == repr([(3,)])
    assert h._ppy_dict_repr({1: 0, 2: 1}, "i:b") == repr({1: False, 2: True})
    assert h._ppy_dict_repr({"k": [1]}, "s:[i") == repr({"k": [1]})
    assert h._ppy_dict_repr({3}, "i") == repr({3}) and h._ppy_dict_repr(set(), "i") == repr(set())
    # issue 32: dicts and sets in lists and dicts (`{K:V}`, `{K}`), unions (`<...>`: tag, alternatives)
    assert h._ppy_list_repr([{"a": 1}, {}], "{s:b}") == repr([{"a": True}, {}])
    assert h._ppy_list_repr([{1}, set()], "{i}") == repr([{1}, set()])
    assert h._ppy_dict_repr({"x": {"y": [1]}}, "s:{s:[i}") == repr({"x": {"y": [1]}})
    assert h._ppy_list_repr([(0, 3, ""), (1, 0, "a")], "<is>") == repr([3, "a"])
    assert h._ppy_list_repr([(1, (1, 0, 7))], "(i<bi>)") == repr([(1, 7)])
    assert h._ppy_list_repr([(0, (5, 0), 0.0)], "<(ii)f>") == repr([(5, 0)])
    # issue 32: objects printed in containers, by the reprs the compiled code gives them
    a, b = h._ppy_obj([1]), h._ppy_obj([2])
    held = [[(1, a), (2, b)], {"k": [b]}, {a}]
    assert h._ppy_obj_collect(held, "[(iO)") == [a, b]
    assert h._ppy_obj_collect([{"k": [b]}, {"j": []}], "{s:[O}") == [b]
    assert h._ppy_obj_collect([{a}], "{O}") == [a]
    assert h._ppy_list_repr_objs([[(1, a), (2, b)]], "[(io)", [a, b], ["A", "B"]) == "[[(1, A), (2, B)]]"
    assert h._ppy_list_repr_objs([{"k": [b]}], "{s:[o}", [b], ["B"]) == "[{'k': [B]}]"
    assert h._ppy_list_repr_objs([{a}], "{o}", [a], ["A"]) == "[{A}]"


def changed_while_iterating(table, change):
    def run():
        for _ in table:
            change()

    return python_error(RuntimeError, run)


def test_tables():
    d, s = {1: 1}, {1}
    h._ppy_dict_check(d, 1)
    assert raises(RuntimeError, h._ppy_dict_check, d, 0) == changed_while_iterating(d, lambda: d.update({2: 2}))
    assert raises(RuntimeError, h._ppy_dict_check, s, 0) == changed_while_iterating(s, lambda: s.add(2))


def test_hashes():
    # hash() of a tuple from its elements' hashes is CPython's; objects hash by identity.
    for t in [(1, 2), (3,), (-1, 5, 7), (0, 0), (2**62, -3), (True, "a")]:
        assert h._ppy_hash_lanes([hash(x) for x in t]) == hash(t), t
    a, b = h._ppy_obj([1, 2]), h._ppy_obj([1, 2])
    assert len({a: 1, b: 2}) == 2 and {a: 1}[a] == 1 and b not in {a}


def test_exceptions():
    e = h._ppy_exc("KeyError", "'a'")
    assert type(e) is KeyError and str(e) == str(KeyError("a"))
    assert h._ppy_exc("ValueError", "").args == ValueError().args
    assert str(h._ppy_exc("IndexError", "list index out of range")) == python_error(IndexError, lambda: [][0])
    assert h._ppy_exc_matches("KeyError", "LookupError IndexError KeyError")
    assert not h._ppy_exc_matches("KeyError", "ValueError UnicodeError") and h._ppy_exc_matches("KeyError", "Exception")
    # an instance of an exception class: its classes match, its type prints as Python's own class would
    e = h._ppy_exc_obj("InsufficientFunds BankError ValueError", "short by 2", [3, "x"])
    assert isinstance(e, ValueError) and type(e).__name__ == "InsufficientFunds" and str(e) == "short by 2"
    assert h._ppy_exc_matches(e.ppy_classes, "ValueError UnicodeError") and not h._ppy_exc_matches(e.ppy_classes, "KeyError")
    assert h._ppy_exc_matches(e.ppy_classes, "BankError")
    h._ppy_caught[0] = e
    assert h._ppy_exc_object() == [3, "x"] and h._ppy_exc_classes() == e.ppy_classes
    h._ppy_caught[0] = KeyError("k")
    assert h._ppy_exc_object() is None and h._ppy_exc_classes() == "KeyError"
    assert type(h._ppy_exc_obj("KeyError", "'k'", None)) is KeyError
    h._ppy_caught[0] = None
    assert h._ppy_caught == [None]


if __name__ == "__main__":
    tests = [f for name, f in sorted(globals().items()) if name.startswith("test_")]
    for t in tests:
        t()
    print(f"ppy_helpers.py: {len(tests)} groups passed")
