"""ppy-backend-pytoy: serves the Python toy on a unix socket (`--socket PATH`),
the way the driver reaches a helper whose manifest says `connection = "socket"`.
Prints `listening unix:PATH` once it accepts calls; exits on Shutdown, SIGTERM,
SIGINT, or when its parent process goes away."""

import argparse
import os
import signal
import sys
import threading
from concurrent import futures

import grpc

from ppy.backend.v1 import backend_pb2_grpc as v1_grpc

from . import service

MESSAGE_LIMIT = 64 << 20  # above gRPC's 4 MiB default, as the C++ SDK's


def parse(argv):
    p = argparse.ArgumentParser(prog="ppy-backend-pytoy", description=__doc__.split("\n\n")[0])
    p.add_argument("--socket", metavar="PATH", help="listen on the unix socket PATH")
    p.add_argument("--fd", metavar="N", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.fd is not None:
        p.error("Python's gRPC cannot serve on an inherited descriptor: the manifest says connection = \"socket\"")
    if not args.socket:
        p.error("give --socket PATH")
    return args


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    stop = threading.Event()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8),
                         options=[("grpc.max_receive_message_length", MESSAGE_LIMIT),
                                  ("grpc.max_send_message_length", MESSAGE_LIMIT)])
    v1_grpc.add_BackendServicer_to_server(service.Service(stop.set), server)
    try:
        os.unlink(args.socket)  # a stale socket from an earlier run
    except FileNotFoundError:
        pass
    if not server.add_insecure_port("unix:" + args.socket):
        print(f"ppy-backend-pytoy: cannot listen on {args.socket}", file=sys.stderr)
        return 1
    server.start()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"listening unix:{args.socket}", flush=True)

    parent = os.getppid()
    while not stop.wait(0.2):
        if os.getppid() != parent:
            break  # the driver is gone: a helper never outlives it
    server.stop(grace=2).wait()
    try:
        os.unlink(args.socket)
    except FileNotFoundError:
        pass
    return 0
