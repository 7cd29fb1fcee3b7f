"""What the Python toy backend does, over the wire's own IR (ppy.ir.v1.Module):
the C++ toy's behaviour (backends/toy), with a summary of each function's ops
where the C++ toy prints the function (this backend has no IR printer).

Nothing here speaks gRPC: session.py runs these in the contract's order."""

import os
import struct

from ppy.ir.v1 import ir_pb2

NAME = "pytoy"
API_VERSION = 1  # a literal of our own, never the driver's number
DISTRIBUTION = ("ppy-pytoy", "0.1")
PASS = "pytoy-count-ops"
OPS_ATTR = "pytoy.ops"


class Format:
    """One emit format, as the handshake declares it."""

    def __init__(self, name, suffix, binary, program, description):
        self.name, self.suffix, self.binary = name, suffix, binary
        self.program, self.description = program, description


FORMATS = [
    Format("pytoy", ".pytoy", False, False, "each function's operations, counted"),
    Format("pytoy-image", ".img", True, True, "every module's pytoy text in one length-prefixed image"),
]


class Refusal(Exception):
    """validate()'s refusal: what cannot be taken, the capability it needs, where."""

    def __init__(self, what, capability, location, module):
        super().__init__(what)
        self.what, self.capability, self.location, self.module = what, capability, location, module

    def message(self):
        out = f"backend '{NAME}' cannot take {self.what}"
        if self.location:
            out += " at %s:%d:%d" % self.location
        return out + f" (needs {self.capability})"


def option(options, key, default):
    """A key of the backend's table (`[tool.ppy.backends.pytoy]`) as text."""
    value = options.get(key)
    return default if value is None else str(value)


def fingerprint(options):
    """`pytoy:<sdk-version>`: what the distribution's version does not cover."""
    return "pytoy:" + option(options, "sdk-version", "0")


def toolchain(options):
    """(available, detail): missing when `sdk-version` is "missing", so tests reach E1801."""
    sdk = option(options, "sdk-version", "0")
    if sdk == "missing":
        return False, "missing pytoy-sdk"
    return True, "pytoy sdk " + sdk


def string_index(module, text):
    """The index of `text` in the module's string table, added when absent."""
    try:
        return list(module.strings).index(text)
    except ValueError:
        module.strings.append(text)
        return len(module.strings) - 1


def count_ops(function):
    """Ops in the body's blocks; nested regions' ops are not counted (as the C++ toy)."""
    return sum(len(b.ops) for b in function.body.blocks)


def count_ops_pass(module):
    """`pytoy-count-ops`: sets each defined function's `pytoy.ops`; answers whether
    anything changed. Attributes stay in key order, as the wire requires."""
    changed = False
    key = None
    for f in module.functions:
        if not f.body.blocks:
            continue
        n = count_ops(f)
        if key is None:
            key = string_index(module, OPS_ATTR)
        entry = next((a for a in f.attrs if a.key == key), None)
        if entry is not None:
            if entry.value.WhichOneof("value") == "int_value" and entry.value.int_value == n:
                continue
            entry.value.Clear()
            entry.value.int_value = n
        else:
            attrs = [(module.strings[a.key], a) for a in f.attrs]
            new = ir_pb2.NamedAttribute(key=key, value=ir_pb2.Attribute(int_value=n))
            attrs.append((OPS_ATTR, new))
            attrs.sort(key=lambda pair: pair[0].encode())
            copies = [ir_pb2.NamedAttribute.FromString(a.SerializeToString()) for _, a in attrs]
            del f.attrs[:]
            f.attrs.extend(copies)
        changed = True
    return changed


def walk(region):
    """Every op of `region`, nested regions included, in order."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            for r in op.regions:
                yield from walk(r)


def location(module, loc_owner):
    """(file, line, col) of an op's or function's `loc`, or None."""
    if not loc_owner.HasField("loc") or not loc_owner.loc.file:
        return None
    loc = loc_owner.loc
    return module.strings[loc.file], loc.line, loc.col


def validate(module):
    """Refuses any `gpu` op, naming it, its function and its location."""
    for f in module.functions:
        for op in walk(f.body):
            name = module.strings[op.name]
            if name.split(".", 1)[0] == "gpu":
                where = location(module, op) or location(module, f)
                raise Refusal(f"{name} in {f.name}", "device kernels", where, module.name)


def text(module):
    """The `pytoy` text of one module: per function with a body,
    `// <name>: <N> operations`, then per block `^<label>: <op> <op> ...`, then a blank line."""
    out = []
    for f in module.functions:
        if not f.body.blocks:
            continue
        attr = next((a.value for a in f.attrs if module.strings[a.key] == OPS_ATTR), None)
        n = attr.int_value if attr is not None and attr.WhichOneof("value") == "int_value" else count_ops(f)
        out.append(f"// {f.name}: {n} operations\n")
        for i, b in enumerate(f.body.blocks):
            label = module.strings[b.label] or f"bb{i}"
            ops = " ".join(module.strings[op.name] for op in b.ops)
            out.append(f"^{label}: {ops}\n")
        out.append("\n")
    return "".join(out)


def image(modules):
    """The `pytoy-image` of a program: `TOYIMG01`, the module count (u32 little
    endian), then per module its name and its text, length-prefixed (u32, u64)."""
    out = [b"TOYIMG01", struct.pack("<I", len(modules))]
    for m in modules:
        name, body = m.name.encode(), text(m).encode()
        out += [struct.pack("<I", len(name)), name, struct.pack("<Q", len(body)), body]
    return b"".join(out)


def build(modules, folder, options):
    """Writes one `<module>.pytoy` per module into `folder`; answers the outputs
    (relative) and a note for the driver to print."""
    outputs = []
    for m in modules:
        path = os.path.join(folder, m.name + ".pytoy")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text(m))
        outputs.append(m.name + ".pytoy")
    note = f"pytoy: built {len(modules)} module(s) with pytoy sdk {option(options, 'sdk-version', '0')}"
    return outputs, note
