# A real gRPC server for the e2e tests (grpcio, Debian's python3-grpcio: run it with /usr/bin/python3): serves
# openloop.test.v1.Bench/Call from a FileDescriptorSet (no generated code), each call after --delay-ms, answering
# with the status a request's note names ("status:NOT_FOUND"). It writes its port to --port-file once serving; on
# SIGTERM it writes the number of calls and every distinct request message it received (text format, sorted) to
# --count-file and exits.
import argparse
import os
import signal
import threading
import time
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, text_format

parser = argparse.ArgumentParser()
parser.add_argument("--protoset", required=True)
parser.add_argument("--port-file", required=True)
parser.add_argument("--count-file", required=True)
parser.add_argument("--delay-ms", type=float, default=0)
args = parser.parse_args()

fds = descriptor_pb2.FileDescriptorSet()
with open(args.protoset, "rb") as f:
    fds.ParseFromString(f.read())
pool = descriptor_pool.DescriptorPool()
for file in fds.file:
    pool.Add(file)
factory = message_factory.MessageFactory(pool)
Request = factory.GetPrototype(pool.FindMessageTypeByName("openloop.test.v1.CallRequest"))
Reply = factory.GetPrototype(pool.FindMessageTypeByName("openloop.test.v1.CallReply"))

lock = threading.Lock()
calls = 0
messages = set()


def call(request, context):
    global calls
    with lock:
        calls += 1
        served = calls
        messages.add(text_format.MessageToString(request, as_one_line=True))
    if args.delay_ms > 0:
        time.sleep(args.delay_ms / 1000)
    if request.note.startswith("status:"):
        context.abort(getattr(grpc.StatusCode, request.note[len("status:"):]), "asked for by the request")
    return Reply(payload=b"x" * max(0, request.size), served=served)


handler = grpc.method_handlers_generic_handler(
    "openloop.test.v1.Bench",
    {"Call": grpc.unary_unary_rpc_method_handler(call, Request.FromString, Reply.SerializeToString)})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
server.add_generic_rpc_handlers((handler,))
port = server.add_insecure_port("127.0.0.1:0")
server.start()
with open(args.port_file + ".tmp", "w") as f:
    f.write(f"{port}\n")
# The rename makes the port file appear whole.
os.rename(args.port_file + ".tmp", args.port_file)

done = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: done.set())
done.wait()
server.stop(0)
with lock, open(args.count_file, "w") as f:
    f.write(f"{calls}\n")
    for m in sorted(messages):
        f.write(m + "\n")
