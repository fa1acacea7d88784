# A real gRPC server for the e2e tests (grpcio, Debian's python3-grpcio: run it with /usr/bin/python3): serves
# openloop.test.v1.Bench/Call from a FileDescriptorSet (no generated code), each call after --delay-ms, answering
# with the status a request's note names: "status:NOT_FOUND" every call; "cycle:OK,NOT_FOUND,UNAVAILABLE" by
# the index of the call among those with the same note (the first OK, the second NOT_FOUND, ...);
# "first:N:STATUS[:PUSHBACK]" the first N calls with the note STATUS (with grpc-retry-pushback-ms: PUSHBACK in the
# trailers when given), then OK. It writes its port to --port-file once serving; on SIGTERM it writes the number of
# calls and every distinct request message it received (text format, sorted) to --count-file, a line per call to
# --times-file when given (its arrival in monotonic seconds, the deadline's time remaining in seconds or -1 without
# one, its note), and exits. With --reflection v1 (or v1alpha) it also serves server reflection under that
# version's name, written here from the reflection .proto's messages (--reflection-protoset; Debian has no
# grpcio-reflection): each answer carries one file, as grpcio-reflection's, so a client must ask for the imports
# itself; it counts the reflection streams it served and writes that number to --count-file.reflection.
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
parser.add_argument("--reflection", choices=["off", "v1", "v1alpha"], default="off")
parser.add_argument("--reflection-protoset")
parser.add_argument("--times-file")
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
times = []
by_note = {}


def call(request, context):
    global calls
    with lock:
        calls += 1
        served = calls
        by_note[request.note] = index = by_note.get(request.note, 0) + 1
        remaining = context.time_remaining()
        times.append(f"{time.monotonic():.6f} {-1 if remaining is None else remaining:.6f} {request.note}")
        messages.add(text_format.MessageToString(request, as_one_line=True))
    if args.delay_ms > 0:
        time.sleep(args.delay_ms / 1000)
    status, pushback = "OK", None
    if request.note.startswith("status:"):
        status = request.note[len("status:"):]
    elif request.note.startswith("cycle:"):
        cycle = request.note[len("cycle:"):].split(",")
        status = cycle[(index - 1) % len(cycle)]
    elif request.note.startswith("first:"):
        n, named, *rest = request.note[len("first:"):].split(":")
        if index <= int(n):
            status, pushback = named, (rest[0] if rest else None)
    if status != "OK":
        if pushback is not None:
            context.set_trailing_metadata((("grpc-retry-pushback-ms", pushback),))
        context.abort(getattr(grpc.StatusCode, status), "asked for by the request")
    return Reply(payload=b"x" * max(0, request.size), served=served)


handler = grpc.method_handlers_generic_handler(
    "openloop.test.v1.Bench",
    {"Call": grpc.unary_unary_rpc_method_handler(call, Request.FromString, Reply.SerializeToString)})
reflection_streams = 0


def reflection_handler():
    rset = descriptor_pb2.FileDescriptorSet()
    with open(args.reflection_protoset, "rb") as f:
        rset.ParseFromString(f.read())
    rpool = descriptor_pool.DescriptorPool()
    for file in rset.file:
        rpool.Add(file)
    rfactory = message_factory.MessageFactory(rpool)
    RRequest, RResponse = (rfactory.GetPrototype(rpool.FindMessageTypeByName("grpc.reflection.v1." + name))
                           for name in ("ServerReflectionRequest", "ServerReflectionResponse"))
    files = {file.name: file.SerializeToString() for file in fds.file}

    def info(requests, context):
        global reflection_streams
        with lock:
            reflection_streams += 1
        for request in requests:
            which = request.WhichOneof("message_request")
            response = RResponse(original_request=request)
            try:
                if which == "file_containing_symbol":
                    name = pool.FindFileContainingSymbol(request.file_containing_symbol).name
                elif which == "file_by_filename":
                    name = request.file_by_filename
                else:
                    raise NotImplementedError(which)
                response.file_descriptor_response.file_descriptor_proto.append(files[name])
            except KeyError:
                response.error_response.error_code = grpc.StatusCode.NOT_FOUND.value[0]
                response.error_response.error_message = "not found"
            except NotImplementedError:
                response.error_response.error_code = grpc.StatusCode.UNIMPLEMENTED.value[0]
                response.error_response.error_message = "not implemented here"
            yield response

    return grpc.method_handlers_generic_handler(
        f"grpc.reflection.{args.reflection}.ServerReflection",
        {"ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
            info, RRequest.FromString, RResponse.SerializeToString)})


server = grpc.server(futures.ThreadPoolExecutor(max_workers=64))
server.add_generic_rpc_handlers((handler,) if args.reflection == "off" else (handler, reflection_handler()))
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
with open(args.count_file + ".reflection", "w") as f:
    f.write(f"{reflection_streams}\n")
if args.times_file:
    with lock, open(args.times_file, "w") as f:
        f.writelines(line + "\n" for line in times)
