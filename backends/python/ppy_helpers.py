"""The helpers of the Python backend's output: what a generated module calls
where Python's own operators differ from ppy's (64-bit integers, IEEE floats,
the runtime's reprs and exceptions).

The backend (backends/python/python_helpers.cc) embeds this file and copies into
a module only the helpers it uses, with those they call, in this file's order.
A helper is a top-level `def _ppy_*` or `_ppy_* = ...` with what is indented
under it; anything else at the top level (this docstring, the import below) is
not copied. A module that gets a helper naming `math.` imports math itself.

python3 runs this file's tests (ppy_helpers_test.py) against Python's own
operators.
"""

import math


def _ppy_ceil(x):
    """math.ceil as a float (NaN and infinities pass through)."""
    return float(math.ceil(x)) if math.isfinite(x) else x


def _ppy_dict_check(d, n):
    """A loop's step over d, begun at n entries: Python's RuntimeError when that changed."""
    if len(d) != n:
        raise RuntimeError('Set changed size during iteration' if isinstance(d, set)
                           else 'dictionary changed size during iteration')


def _ppy_dict_repr(d, desc):
    """repr(d) of a dict (desc 'K:V') or a set (desc 'K'), as the runtime's: a bool may be held as 0 or 1."""
    item = _ppy_repr_of
    k, colon, v = desc.partition(':')
    if not colon:
        return '{' + ', '.join(item(x, k) for x in d) + '}' if d else 'set()'
    kind = type(d).__name__  # stdlib: collections' dict classes
    if kind == 'OrderedDict':
        pairs = ', '.join('(' + item(x, k) + ', ' + item(y, v) + ')' for x, y in d.items())
        return 'OrderedDict([' + pairs + '])' if d else 'OrderedDict()'
    pairs = d.most_common() if kind == 'Counter' else d.items()
    body = '{' + ', '.join(item(x, k) + ': ' + item(y, v) for x, y in pairs) + '}'
    if kind == 'defaultdict':
        return 'defaultdict(' + repr(d.default_factory) + ', ' + body + ')'
    if kind == 'Counter':
        return 'Counter(' + body + ')' if d else 'Counter()'
    return body


def _ppy_div_trunc(a, b):
    """Integer division rounding toward zero."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


_ppy_obj = type("_ppy_obj", (list,), {"__slots__": (), "__hash__": object.__hash__})  # an object: its fields, hashed by identity as ppy_dict.c's `o` keys (issue 32)


def _ppy_hash_lanes(lanes):
    """ppy_hash_lanes: CPython's tuple hash from its elements' hashes."""
    m = (1 << 64) - 1
    acc = 2870177450012600261
    for lane in lanes:
        acc = (acc + (lane & m) * 14029467366897019727) & m
        acc = ((acc << 31) | (acc >> 33)) & m
        acc = (acc * 11400714785074694791) & m
    acc = (acc + (len(lanes) ^ (2870177450012600261 ^ 3527539))) & m
    if acc == m:
        return 1546275796
    return acc - (1 << 64) if acc >> 63 else acc


_ppy_caught = [None]  # the exception the innermost try body raised


def _ppy_exc(name, msg):
    """The builtin exception `name` with message `msg` (a KeyError's message is its key's repr)."""
    import builtins
    if "." in name:  # a module's exception (dataclasses.FrozenInstanceError), matched by its full name
        import importlib
        module, _, short = name.rpartition(".")
        made = getattr(importlib.import_module(module), short)(msg)
        made.ppy_classes = name
        return made
    cls = getattr(builtins, name)
    if name == "KeyError" and msg:
        import ast
        return cls(ast.literal_eval(msg))
    if name == "SystemExit":  # raised again: its code as sys.exit gave it (an int's text back to the int)
        return cls(int(msg)) if msg.lstrip("-").isdigit() else cls(msg or None)
    return cls(msg) if msg else cls()


def _ppy_exc_args(name, msg, args):
    """ppy_exc_raise_args: the builtin exception `name` made from the args whose tuple's repr is `args`."""
    import ast
    import builtins
    try:
        values = ast.literal_eval(args)
    except (ValueError, SyntaxError):  # a float's inf or nan: its message alone
        return _ppy_exc(name, msg)
    return getattr(builtins, name)(*values)


def _ppy_exc_args_of():
    """ppy_exc_args: the repr of the caught builtin exception's args tuple ('' for an exception class's)."""
    caught = _ppy_caught[0]
    return '' if getattr(caught, 'ppy_obj', None) is not None else repr(caught.args)


def _ppy_exc_matches(name, classes):
    """ppy_exc_matches: `classes` is the class an except names, then its subclasses; `name` the exception's
    class, or an exception class instance's classes (its own, then its bases)."""
    return (any(n in classes.split() for n in name.split()) or classes == 'BaseException'
            or (classes == 'Exception' and name not in ('SystemExit', 'GeneratorExit')))


_ppy_exc_classes_made = {}  # an exception class of the program, by its classes: a Python class made once


def _ppy_exc_obj(classes, msg, obj):
    """ppy_exc_raise_object: the instance `obj` of the exception class first in `classes` (its bases after
    it, the builtin one last) with `str()` `msg`; a builtin exception again when `obj` is None."""
    names = classes.split()
    if obj is None:
        caught = _ppy_caught[0]
        if caught is not None and getattr(caught, 'ppy_classes', type(caught).__name__) == classes and str(caught) == msg:
            return caught  # raised again (a finally, no handler matched): the object itself, as Python does
        return _ppy_exc(names[0], msg)
    cls = _ppy_exc_classes_made.get(classes)
    if cls is None:
        import builtins
        module, _, short = names[0].rpartition('.')  # module.Name outside the entry (issue 32)
        cls = type(short, (getattr(builtins, names[-1]),), {'__str__': lambda self: self.ppy_msg})
        cls.__module__ = module or '__main__'
        _ppy_exc_classes_made[classes] = cls
    e = cls()
    e.ppy_msg, e.ppy_obj, e.ppy_classes = msg, obj, classes
    return e


def _ppy_exc_object():
    """ppy_exc_object: the caught exception's instance of a class of the program, else None."""
    return getattr(_ppy_caught[0], 'ppy_obj', None)


def _ppy_exc_classes():
    """ppy_exc_classes: the caught exception's classes, or its name."""
    return getattr(_ppy_caught[0], 'ppy_classes', type(_ppy_caught[0]).__name__)


def _ppy_exp(x):
    """math.exp with IEEE results (inf on overflow) instead of an exception."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def _ppy_exp2(x):
    """2.0 ** x with IEEE results."""
    try:
        return 2.0 ** x
    except OverflowError:
        return math.inf


def _ppy_fdiv_trunc(a, b):
    """Float division rounded toward zero."""
    return _ppy_trunc(a / b)


def _ppy_floor(x):
    """math.floor as a float (NaN and infinities pass through)."""
    return float(math.floor(x)) if math.isfinite(x) else x


def _ppy_list_repr(l, d):
    """repr(l), its elements as the descriptor d says (docs/runtime.md): a bool may be held as 0 or 1, an optional is (present, value)."""
    if type(l) is not list:  # a collections.deque (ppy_deque.h)
        m = '' if l.maxlen is None else ', maxlen=%d' % l.maxlen
        return 'deque(' + _ppy_list_repr(list(l), d) + m + ')'
    return '[' + ', '.join(_ppy_repr_of(x, d) for x in l) + ']'


def _ppy_repr_of(x, d):
    c = d[0]
    if c == 'b':
        return 'True' if x else 'False'
    if c == '[':
        return _ppy_list_repr(x, d[1:])
    if c == '<':  # a union (tag, alternatives...): what it holds (issue 32)
        i = 1
        for _ in range(x[0]):
            i = _ppy_desc_end(d, i)
        return _ppy_repr_of(x[1 + x[0]], d[i:_ppy_desc_end(d, i)])
    if c == '{':  # a dict or set: its own descriptor in braces (issue 32)
        return _ppy_dict_repr(x, d[1:_ppy_desc_end(d, 0) - 1])
    if c == 'n':
        return 'None'
    if c == '?':
        return _ppy_repr_of(x[1], d[1:]) if x[0] else 'None'
    if c == '(':
        parts, i = [], 1
        for v in x:
            e = _ppy_desc_end(d, i)
            parts.append(_ppy_repr_of(v, d[i:e]))
            i = e
        return '(' + ', '.join(parts) + (',)' if len(parts) == 1 else ')')
    if c == 'o' and _ppy_subst is not None and id(x) in _ppy_subst:  # an object: its repr (_ppy_list_repr_objs)
        return _ppy_subst[id(x)]
    return repr(x)


_ppy_subst = None  # while _ppy_list_repr_objs renders: id(object) -> its repr


def _ppy_list_repr_objs(l, d, objs, reprs):
    """ppy_list_repr_objs: repr(l), each object printed as the repr in reprs at its place in objs (issue 32)."""
    global _ppy_subst
    _ppy_subst = {id(o): r for o, r in zip(objs, reprs)}
    try:
        return _ppy_list_repr(l, d)
    finally:
        _ppy_subst = None


def _ppy_obj_collect(l, d):
    """ppy_obj_collect: the objects at the `O` leaves of l's elements, in order (issue 32)."""
    out = []
    for x in l:
        _ppy_collect(x, d, out)
    return out


def _ppy_collect(x, d, out):
    c = d[0]
    if c == 'O':
        out.append(x)
    elif c == '[':
        for y in x:
            _ppy_collect(y, d[1:], out)
    elif c == '?':
        if x[0]:
            _ppy_collect(x[1], d[1:], out)
    elif c == '<':
        i = 1
        for _ in range(x[0]):
            i = _ppy_desc_end(d, i)
        _ppy_collect(x[1 + x[0]], d[i:_ppy_desc_end(d, i)], out)
    elif c == '(':
        i = 1
        for v in x:
            e = _ppy_desc_end(d, i)
            _ppy_collect(v, d[i:e], out)
            i = e
    elif c == '{':
        inner = d[1:_ppy_desc_end(d, 0) - 1]
        k = inner[:_ppy_desc_end(inner, 0)]
        v = inner[len(k) + 1:]
        for key in x:
            _ppy_collect(key, k, out)
            if v:
                _ppy_collect(x[key], v, out)


def _ppy_desc_end(d, i):
    """Where the descriptor at d[i] ends."""
    if d[i] in '[?':
        return _ppy_desc_end(d, i + 1)
    if d[i] == '<':
        i += 1
        while d[i] != '>':
            i = _ppy_desc_end(d, i)
    if d[i] == '{':
        i += 1
        while d[i] != '}':
            i = _ppy_desc_end(d, i + 1 if d[i] == ':' else i)

    if d[i] == '(':
        i += 1
        while d[i] != ')':
            i = _ppy_desc_end(d, i)
    return i + 1


def _ppy_mod_trunc(a, b):
    """Integer remainder with the dividend's sign."""
    r = abs(a) % abs(b)
    return r if a >= 0 else -r


def _ppy_open(path, mode):
    """open() of a text file, UTF-8 as ppy's runtime reads and writes it."""
    return open(path, mode, encoding='utf-8')


def _ppy_pow(a, b):
    """math.pow with IEEE results instead of exceptions."""
    try:
        return math.pow(a, b)
    except OverflowError:
        odd = b == math.floor(b) and math.fmod(b, 2.0) != 0.0
        return -math.inf if a < 0 and odd else math.inf
    except ValueError:
        if a == 0.0:
            odd = b == math.floor(b) and math.fmod(b, 2.0) != 0.0
            return math.copysign(math.inf, a) if odd else math.inf
        return math.nan


def _ppy_pow_i64(base, exp):
    """int ** int within 64 bits, as ppy defines it."""
    if exp < 0:
        raise ValueError("negative exponent")
    result = 1
    while exp > 0:
        if exp & 1:
            result *= base
            if not -0x8000000000000000 <= result <= 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
        exp >>= 1
        if exp > 0:
            base *= base
            if not -0x8000000000000000 <= base <= 0x7FFFFFFFFFFFFFFF:
                raise OverflowError("integer overflow")
    return result


def _ppy_shl(a, b):
    """a << b within 64 bits: OverflowError when the result leaves them."""
    if a == 0:
        return 0
    if b < 0 or b > 63:
        raise OverflowError("integer overflow")
    r = a << b
    if not -0x8000000000000000 <= r <= 0x7FFFFFFFFFFFFFFF:
        raise OverflowError("integer overflow")
    return r


def _ppy_shl_wrap(a, b):
    """a << b wrapped to 64 bits; a count outside 0..63 gives 0."""
    if b < 0 or b > 63:
        return 0
    return ((a << b) + 0x8000000000000000 & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


def _ppy_shr(a, b):
    """a >> b; a negative count leaves only the sign, as the IR defines it."""
    return a >> b if b >= 0 else (-1 if a < 0 else 0)


def _ppy_str_cmp(a, b):
    """-1, 0 or 1, as ppy_str_compare (docs/runtime.md)."""
    return (a > b) - (a < b)


def _ppy_str_to_i64(s):
    """int(s) within 64 bits, as ppy defines it."""
    v = int(s)
    if not -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:
        raise OverflowError("integer overflow")
    return v


def _ppy_sum_i64(l):
    """sum(l) of ints, OverflowError past 64 bits as ppy's ints."""
    s = 0
    for x in l:
        s += x
        if not -0x8000000000000000 <= s <= 0x7FFFFFFFFFFFFFFF:
            raise OverflowError('integer overflow')
    return s


def _ppy_trunc(x):
    """math.trunc as a float (NaN and infinities pass through)."""
    return float(math.trunc(x)) if math.isfinite(x) else x


def _ppy_wrap(v):
    """v reduced to a signed 64-bit integer (wrapping arithmetic)."""
    return ((v + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


_ppy_math = __import__("math")


def _ppy_math_i64(v):
    """An int result of math (lcm, factorial, comb, perm, prod) within 64 bits, as ppy's ints."""
    if not -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:
        raise OverflowError("integer overflow")
    return v


def _ppy_isclose(a, b, rel_tol, abs_tol):
    """math.isclose with its keyword-only tolerances."""
    return math.isclose(a, b, rel_tol=rel_tol, abs_tol=abs_tol)


def _ppy_random_choice_index(n):
    """The index random.choice takes into a sequence of n items, drawn as random.choice draws it."""
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    return __import__("random")._inst._randbelow(n)


def _ppy_collections_new(desc, flavor, factory):
    """An empty defaultdict (flavor 1, factory 1 int, 2 float, 3 str, 4 list, 5 bool), Counter (2) or OrderedDict (3)."""
    collections = __import__("collections")
    if flavor == 1:
        return collections.defaultdict([None, int, float, str, list, bool][factory])
    return collections.Counter() if flavor == 2 else collections.OrderedDict()


def _ppy_counter_binop(a, b, op):
    """a + b, a - b, a | b, a & b (op 0 to 3) of Counters (or dicts, Python's errors)."""
    return (a + b) if op == 0 else (a - b) if op == 1 else (a | b) if op == 2 else (a & b)


def _ppy_deque_new(xs, maxlen):
    """collections.deque(xs, maxlen): maxlen -2**63 is None (ppy_deque.h)."""
    return __import__("collections").deque(xs, None if maxlen == -0x8000000000000000 else maxlen)


def _ppy_deque_maxlen(d):
    """d.maxlen, -1 for None."""
    m = d.maxlen
    return -1 if m is None else m


def _ppy_odict_end_key(d, last):
    """The key OrderedDict.popitem(last) takes, or its KeyError."""
    if not d:
        raise KeyError("dictionary is empty")
    return next(reversed(d)) if last else next(iter(d))


def _ppy_random_choices(population, k):
    """random.choices(population, k=k)."""
    return __import__("random").choices(population, k=k)


def _ppy_random_choices_w(population, weights, k):
    """random.choices(population, weights, k=k)."""
    return __import__("random").choices(population, weights, k=k)


def _ppy_random_choices_cum(population, cum_weights, k):
    """random.choices(population, cum_weights=cum_weights, k=k)."""
    return __import__("random").choices(population, cum_weights=cum_weights, k=k)


def _ppy_sort_order(keys, reverse):
    """sorted(key=) (issue 31): the indices of `keys` in the order a stable sort by key puts them."""
    return sorted(range(len(keys)), key=keys.__getitem__, reverse=bool(reverse))


def _ppy_fmt_new(room):
    """speedsort: an f-string's builder (its pieces, joined at its end)."""
    return []


def _ppy_fmt_add(builder, piece):
    """speedsort: `piece` appended to an f-string's builder, which is answered."""
    builder.append(piece)
    return builder


def _ppy_sort_pick(elems, order):
    """speedsort: `elems` in `order` (a new list)."""
    return [elems[i] for i in order]


def _ppy_sort_place(elems, order):
    """speedsort: `elems` rearranged in place in `order`."""
    elems[:] = [elems[i] for i in order]


def _ppy_shown(s, r, t):
    """A value of another type handed to a run-time template (ppy_vfmt_obj), by its
    str(), repr() and type's name: formatted as python3 formats such a value."""

    class Shown:
        _ppy_sub = None  # what a field reaches through it: `.name` / `[i]` -> value (_ppy_vfmt_reach)

        def __str__(self):
            return s

        def __repr__(self):
            return r

        def __format__(self, spec):
            if spec:
                raise TypeError(f"unsupported format string passed to {t}.__format__")
            return s

        def __getattr__(self, name):
            sub = object.__getattribute__(self, "_ppy_sub") or {}
            if "." + name in sub:
                return sub["." + name]
            if t in ("list", "dict", "set", "int", "float", "str", "bool"):
                raise NotImplementedError(_ppy_vfmt_unreached(t))
            raise AttributeError(f"'{t}' object has no attribute '{name}'")

        def __getitem__(self, key):
            sub = self._ppy_sub or {}
            if f"[{key}]" in sub:
                return sub[f"[{key}]"]
            if t == "tuple":
                if isinstance(key, int):
                    raise IndexError("tuple index out of range")
                raise TypeError("tuple indices must be integers or slices, not str")
            if t == "list" and not isinstance(key, int):
                raise TypeError("list indices must be integers or slices, not str")
            if t in ("list", "dict", "str"):
                raise NotImplementedError(_ppy_vfmt_unreached(t))
            raise TypeError(f"'{t}' object is not subscriptable")

    return Shown()


def _ppy_vfmt_unreached(t):
    """ppy_vformat.c's NotImplementedError for a field reaching into what the subset does not hand over."""
    return (f"an attribute or an index of {'an' if t[0] == 'i' else 'a'} {t} in a run-time template is outside the "
            "ppy subset (a field reaches an object's fields and a tuple's elements)")


def _ppy_vfmt_reach(args, kwargs):
    """The keywords of a builder without what lowering handed over through its arguments
    (`\x1f0.name`, `\x1fp[1]`: an object's fields, a tuple's elements), which go to
    the values they are reached through (ppy_vformat.c reads the same keywords)."""
    plain = {k: v for k, v in kwargs.items() if not k.startswith("\x1f")}
    reached = {}
    for k, v in kwargs.items():
        if not k.startswith("\x1f"):
            continue
        path = k[1:]
        cut = max(path.rfind("."), path.rfind("["))
        parent_path, step = path[:cut], path[cut:]
        parent = reached.get(parent_path)
        if parent is None:
            parent = args[int(parent_path)] if parent_path.isdigit() else plain.get(parent_path)
        if parent is not None and hasattr(type(parent), "_ppy_sub"):
            if parent._ppy_sub is None:
                parent._ppy_sub = {}
            parent._ppy_sub[step] = v
        reached[path] = v
    return plain


def _ppy_vfmt_new(tmpl):
    """A run-time template's builder: the template, positional and keyword arguments."""
    return (tmpl, [], {})


def _ppy_vfmt_add(builder, name, value):
    """An argument added to a builder (positional when `name` is empty), which is answered."""
    if name:
        builder[2][name] = value
    else:
        builder[1].append(value)
    return builder


def _ppy_vfmt_format(builder):
    """`template.format(*args, **kwargs)` of a builder."""
    kwargs = builder[2]
    if any(k.startswith("\x1f") for k in kwargs):
        kwargs = _ppy_vfmt_reach(builder[1], kwargs)
    return builder[0].format(*builder[1], **kwargs)


def _ppy_vfmt_percent(builder, how):
    """`template % x` of a builder: one value (how 0), a tuple (1) or a dict (2)."""
    if how == 2:  # the keys looked up; the dict itself (shown) where a field takes no key
        shown = builder[1][0] if builder[1] else builder[2]

        class Keys(dict):
            def __str__(self):
                return str(shown)

            def __repr__(self):
                return repr(shown)

        return builder[0] % Keys(builder[2])
    return builder[0] % (tuple(builder[1]) if how == 1 else builder[1][0])
