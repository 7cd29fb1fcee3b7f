"""The Backend service (proto/ppy/backend/v1/backend.proto) for the Python toy:
the unary calls answer from toy.py; Invoke is session.py's."""

import grpc

from ppy.backend.v1 import backend_pb2 as v1
from ppy.backend.v1 import backend_pb2_grpc as v1_grpc

from . import session, toy

SDK = "ppy-pytoy (python grpcio %s)" % grpc.__version__


def toolchain(options):
    available, detail = toy.toolchain(options)
    return v1.Toolchain(available=available, detail=detail)


class Service(v1_grpc.BackendServicer):
    """Stateless: every call carries the backend's options table."""

    def __init__(self, on_shutdown):
        self._on_shutdown = on_shutdown

    def Handshake(self, request, context):
        options = session.config(request.options)
        resp = v1.HandshakeResponse(name=toy.NAME, api_version=toy.API_VERSION, distribution=toy.DISTRIBUTION[0],
                                    distribution_version=toy.DISTRIBUTION[1], fingerprint=toy.fingerprint(options),
                                    toolchain=toolchain(options), sdk=SDK, awaits_steps=True)
        for f in toy.FORMATS:
            scope = v1.EmitFormat.SCOPE_PROGRAM if f.program else v1.EmitFormat.SCOPE_MODULE
            resp.formats.add(name=f.name, suffix=f.suffix, binary=f.binary, scope=scope,
                             description=f.description)
        resp.passes.add(name=toy.PASS, stage="backend")
        return resp

    def Fingerprint(self, request, context):
        return v1.FingerprintResponse(fingerprint=toy.fingerprint(session.config(request.options)))

    def ToolchainStatus(self, request, context):
        return v1.ToolchainStatusResponse(toolchain=toolchain(session.config(request.options)))

    def Invoke(self, request_iterator, context):
        return session.run(request_iterator, context)

    def Shutdown(self, request, context):
        # Stop once this answer is on its way, not before.
        context.add_callback(self._on_shutdown)
        return v1.ShutdownResponse()
