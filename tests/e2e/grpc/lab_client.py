# A grpcio client of `openloop lab --grpc` (Debian's python3-grpcio: run it with /usr/bin/python3): one unary call
# of openloop.lab.v1.Lab/Call through grpcio's own HTTP/2 stack (the reply's key echoed, its payload --body-size
# bytes), and a server reflection stream whose answer must be the very FileDescriptorProto protoc makes of
# proto/openloop/lab/v1/lab.proto. Prints one line per check; exits 1 on the first mismatch.
import argparse
import sys

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

parser = argparse.ArgumentParser()
parser.add_argument("--target", required=True)  # 127.0.0.1:PORT
parser.add_argument("--lab-protoset", required=True)  # protoc -o of lab.proto (no imports)
parser.add_argument("--reflection-protoset", required=True)
parser.add_argument("--body-size", type=int, required=True)
args = parser.parse_args()


def types(path, package, names):
    fds = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as f:
        fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in fds.file:
        pool.Add(file)
    factory = message_factory.MessageFactory(pool)
    return fds, [factory.GetPrototype(pool.FindMessageTypeByName(package + n)) for n in names]


lab_set, (Request, Reply) = types(args.lab_protoset, "openloop.lab.v1.", ["CallRequest", "CallReply"])
_, (RRequest, RResponse) = types(args.reflection_protoset, "grpc.reflection.v1.",
                                 ["ServerReflectionRequest", "ServerReflectionResponse"])


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what, flush=True)
    if not ok:
        sys.exit(1)


with grpc.insecure_channel(args.target) as channel:
    call = channel.unary_unary("/openloop.lab.v1.Lab/Call", request_serializer=Request.SerializeToString,
                               response_deserializer=Reply.FromString)
    reply = call(Request(key="k-42", payload=b"abc"), timeout=10)
    check(reply.key == "k-42" and len(reply.payload) == args.body_size,
          f"grpcio's call answered key {reply.key!r}, {len(reply.payload)} payload bytes")
    info = channel.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                 request_serializer=RRequest.SerializeToString,
                                 response_deserializer=RResponse.FromString)
    answers = list(info(iter([RRequest(file_containing_symbol="openloop.lab.v1.Lab"),
                              RRequest(list_services="")]), timeout=10))
    check(len(answers) == 2, f"two reflection answers for two requests (got {len(answers)})")
    files = answers[0].file_descriptor_response.file_descriptor_proto
    check(len(files) == 1 and files[0] == lab_set.file[0].SerializeToString(),
          "reflection sends protoc's FileDescriptorProto of lab.proto")
    names = [s.name for s in answers[1].list_services_response.service]
    check(names == ["openloop.lab.v1.Lab"], f"list_services names the lab's service ({names})")
