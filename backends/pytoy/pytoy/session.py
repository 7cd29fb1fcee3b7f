"""One `Invoke` session, in the contract's order (docs/protocol.md): the format
and its scope, the toolchain, the modules, the backend stage's passes, the
modules back when asked, validate, then emit / emit_program / build; then one
Finished or BackendError. Yields the InvokeResponse messages."""

import os
import shutil
import stat
import tempfile

import grpc
from google.protobuf.message import DecodeError

from ppy.backend.v1 import backend_pb2 as v1
from ppy.ir.v1 import ir_pb2

from . import toy

CHUNK = 1 << 20  # the protocol's largest piece of data in one message

Action = v1.InvokeHeader


class Failed(Exception):
    """A refusal the session answers as a BackendError."""

    def __init__(self, code, message, module="", what="", capability="", location=None, pass_name=""):
        super().__init__(message)
        self.error = v1.BackendError(code=code, backend=toy.NAME, message=message, module=module, what=what,
                                     capability=capability, **{"pass": pass_name})
        if location:
            self.error.location.file, self.error.location.line, self.error.location.col = location


class Gone(Exception):
    """The caller cancelled or its deadline passed: stop, answer nothing."""


def config(table):
    """A ConfigTable as a dict of Python values."""
    return {k: value(v) for k, v in table.fields.items()}


def value(v):
    kind = v.WhichOneof("kind")
    if kind == "list_value":
        return [value(x) for x in v.list_value.values]
    if kind == "table_value":
        return config(v.table_value)
    return getattr(v, kind) if kind else ""


def chunks(data):
    """`data` in pieces of at most CHUNK bytes; one empty piece for empty data."""
    if not data:
        yield b"", True
    for at in range(0, len(data), CHUNK):
        yield data[at:at + CHUNK], at + CHUNK >= len(data)


def read_modules(header, requests):
    """The modules that follow the header, decoded, in the header's order."""
    parts = [[] for _ in header.modules]
    done = [None] * len(header.modules)
    current = 0
    # The modules the header lists, and no further: with await_steps the
    # driver's side stays open, and what comes next answers a Step.
    while current < len(parts):
        req = next(requests, None)
        if req is None:
            break
        if req.WhichOneof("msg") != "module":
            raise ValueError("a second header in one session")
        c = req.module
        if c.module_index != current:
            raise ValueError(f"a chunk of module {c.module_index} where module {current} was due")
        if c.HasField("whole"):
            done[current] = c.whole
        else:
            parts[current].append(c.data)
        if c.last:
            if done[current] is None:
                try:
                    done[current] = ir_pb2.Module.FromString(b"".join(parts[current]))
                except DecodeError as e:
                    raise Failed(v1.BackendError.BAD_MODULE, f"module '{header.modules[current].name}' did not "
                                 f"decode: {e}", module=header.modules[current].name)
            parts[current] = None
            current += 1
    if current != len(parts):
        raise ValueError(f"the stream ended after {current} of {len(parts)} module(s)")
    for m in done:
        if m.schema_version != 1 or not m.strings or m.strings[0] != "":
            raise Failed(v1.BackendError.BAD_MODULE, f"module '{m.name}' is not IR schema 1", module=m.name)
    return done


def format_of(header):
    """The format a header asks for, checked against its action's scope; None for validate and build."""
    if header.action not in (Action.EMIT, Action.EMIT_PROGRAM):
        return None
    f = next((f for f in toy.FORMATS if f.name == header.format), None)
    if f is None:
        raise Failed(v1.BackendError.UNSUPPORTED, f"backend '{toy.NAME}' does not emit '{header.format}'")
    program = header.action == Action.EMIT_PROGRAM
    if program != f.program:
        raise Failed(v1.BackendError.UNSUPPORTED,
                     f"the format '{f.name}' of backend '{toy.NAME}' is {'module' if program else 'program'}"
                     f"-scoped: ask for it through {'emit' if program else 'emit_program'}")
    return f


def artifact(module, binary, data):
    size = len(data)
    for piece, last in chunks(data):
        yield v1.InvokeResponse(artifact=v1.ArtifactChunk(module=module, binary=binary, data=piece, last=last,
                                                          size_bytes=size))
        size = 0


def build_files(folder):
    """FileChunks of every regular file under `folder`, in path order."""
    files = []
    for root, _, names in os.walk(folder):
        files += [os.path.join(root, n) for n in names if not os.path.islink(os.path.join(root, n))]
    for path in sorted(files):
        with open(path, "rb") as f:
            data = f.read()
        rel = os.path.relpath(path, folder).replace(os.sep, "/")
        executable = bool(os.stat(path).st_mode & stat.S_IXUSR)
        size = len(data)
        for piece, last in chunks(data):
            yield v1.InvokeResponse(file=v1.FileChunk(path=rel, data=piece, last=last, executable=executable,
                                                      size_bytes=size))
            size = 0


def run(requests, context):
    """The session: yields every InvokeResponse; a malformed stream ends the
    call with INVALID_ARGUMENT."""
    requests = iter(requests)
    first = next(requests, None)
    if first is None or first.WhichOneof("msg") != "header":
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "a session begins with its header")
    header = first.header
    if header.action == Action.ACTION_UNSPECIFIED:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the header names no action")
    try:
        yield from steps(header, requests, context)
    except Failed as f:
        yield v1.InvokeResponse(error=f.error)
    except Gone:
        return
    except ValueError as e:
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(e))


def steps(header, requests, context):
    options = config(header.options)

    def step(name):
        if not context.is_active():
            raise Gone()
        if header.report_steps:
            yield v1.InvokeResponse(step=v1.Step(name=name))
            # Begun only once the driver has seen it (it names the step we die in).
            if header.await_steps and next(requests, None) is None:
                raise Gone()

    fmt = format_of(header)
    if header.action == Action.BUILD or fmt is not None:
        available, detail = toy.toolchain(options)
        if not available:
            raise Failed(v1.BackendError.TOOLCHAIN, f"backend '{toy.NAME}' is unavailable here: {detail}")
    modules = read_modules(header, requests)

    finished = v1.Finished()
    if header.run_passes:
        yield from step("passes")
        for i, m in enumerate(modules):
            changed = toy.count_ops_pass(m)
            if i == 0:
                finished.passes.add(name=toy.PASS, changed=changed)
    if header.return_modules:
        for i, m in enumerate(modules):
            for piece, last in chunks(m.SerializeToString()):
                yield v1.InvokeResponse(module=v1.ModuleChunk(module_index=i, data=piece, last=last))
    if header.validate or header.action == Action.VALIDATE:
        yield from step("validate")
        for m in modules:
            try:
                toy.validate(m)
            except toy.Refusal as r:
                raise Failed(v1.BackendError.VALIDATION, r.message(), module=r.module, what=r.what,
                             capability=r.capability, location=r.location)

    if header.action == Action.EMIT:
        yield from step("emit")
        for m in modules:
            yield from artifact(m.name, False, toy.text(m).encode())
    elif header.action == Action.EMIT_PROGRAM:
        yield from step("emit_program")
        yield from artifact("", True, toy.image(modules))
    elif header.action == Action.BUILD:
        yield from step("build")
        folder = tempfile.mkdtemp(prefix="ppy-build-")
        try:
            outputs, note = toy.build(modules, folder, options)
            yield v1.InvokeResponse(note=v1.Note(text=note))
            yield from build_files(folder)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        finished.outputs.extend(outputs)
    if not context.is_active():
        raise Gone()
    yield v1.InvokeResponse(finished=finished)
