#!/usr/bin/env python3
"""Writes the seed corpus of GgufFuzzTest (replayed in every `mvn verify`, fuzzed with JAZZER_FUZZ=1).

Seeds: small GGUF files built from the format (magic, version, counts, key-value pairs, tensor
infos, aligned data) covering every value type, nested arrays and plain and block tensor types;
damaged copies of them (cut short, counts and lengths made to lie, types and offsets changed); and
the gguf-py fixture all_types_v3.gguf (run make_gguf_fixtures.py first). Run from the repository root:

    python3 io/src/test/python/make_gguf_fuzz_corpus.py
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
RES = os.path.join(HERE, "..", "resources", "dev", "tegula", "io")
OUT = os.path.join(RES, "gguf", "GgufFuzzTestInputs", "readGguf")


def s(text):
    b = text.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def kv(key, vtype, payload):
    return s(key) + struct.pack("<I", vtype) + payload


def tensor(name, ne, ttype, offset):
    return s(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne) + struct.pack("<IQ", ttype, offset)


def gguf(kvs, infos, data, version=3, align=32):
    head = b"GGUF" + struct.pack("<IQQ", version, len(infos), len(kvs)) + b"".join(kvs) + b"".join(infos)
    pad = (-len(head)) % align
    return head + b"\0" * pad + data


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    seeds = {}
    every = [kv("u8", 0, b"\x07"), kv("i8", 1, b"\xff"), kv("u16", 2, b"\x01\x02"), kv("i16", 3, b"\xfe\xff"),
             kv("u32", 4, struct.pack("<I", 9)), kv("i32", 5, struct.pack("<i", -9)), kv("f32", 6, struct.pack("<f", 0.5)),
             kv("bool", 7, b"\x01"), kv("str", 8, s("héllo")), kv("u64", 10, struct.pack("<Q", 2**64 - 1)),
             kv("i64", 11, struct.pack("<q", -5)), kv("f64", 12, struct.pack("<d", 0.25)),
             kv("arr", 9, struct.pack("<IQ", 4, 3) + struct.pack("<3I", 1, 2, 3)),
             kv("sarr", 9, struct.pack("<IQ", 8, 2) + s("a") + s("bc")),
             kv("nest", 9, struct.pack("<IQ", 9, 2) + struct.pack("<IQ", 3, 1) + struct.pack("<h", -1)
                + struct.pack("<IQ", 3, 0))]
    seeds["metadata_only"] = gguf(every, [], b"")
    f32 = struct.pack("<8f", *range(8))
    seeds["plain_f32"] = gguf([kv("general.alignment", 4, struct.pack("<I", 16))], [tensor("w", [4, 2], 0, 0)], f32,
                              align=16)
    seeds["plain_types"] = gguf([], [tensor("a", [2], 1, 0), tensor("b", [2], 30, 32), tensor("c", [3], 24, 64),
                                     tensor("d", [1], 27, 96)], b"\1\2\3\4" + b"\0" * 28 + b"\5\6\7\x08" + b"\0" * 28
                                + b"\x09\x0a\x0b" + b"\0" * 29 + b"\x01" * 8)
    q8 = struct.pack("<e", 0.5) + bytes(range(32))
    seeds["q8_0"] = gguf([], [tensor("q", [32, 1], 8, 0)], q8)
    q4k = struct.pack("<ee", 0.25, 0.125) + bytes(range(12)) + bytes((i * 7) & 0xFF for i in range(128))
    seeds["q4_k"] = gguf([], [tensor("k", [256], 12, 0)], q4k)
    seeds["iq4_nl"] = gguf([], [tensor("n", [32], 20, 0)], b"\1" * 18)
    seeds["v2_scalar"] = gguf([kv("x", 4, struct.pack("<I", 1))], [tensor("s", [], 0, 0)], b"\0\0\x80\x3f", version=2)
    base = seeds["plain_f32"]
    seeds["cut_header"] = base[:30]
    seeds["cut_data"] = base[:-5]
    seeds["lying_kv_count"] = base[:16] + struct.pack("<Q", 2**62) + base[24:]
    seeds["lying_tensor_count"] = base[:8] + struct.pack("<Q", 2**40) + base[16:]
    seeds["big_endian"] = b"GGUF" + struct.pack(">IQQ", 3, 0, 0)
    seeds["unknown_type"] = gguf([], [tensor("w", [4], 99, 0)], b"\0" * 16)
    seeds["unaligned"] = gguf([], [tensor("w", [1], 0, 4)], b"\0" * 16)
    seeds["overlap"] = gguf([], [tensor("a", [16], 0, 0), tensor("b", [1], 0, 32)], b"\0" * 64)
    seeds["deep"] = gguf([kv("d", 9, struct.pack("<IQ", 9, 1) * 10 + struct.pack("<IQ", 4, 0))], [], b"")
    for name, blob in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(blob)
    fixture = os.path.join(RES, "gguf", "all_types_v3.gguf")
    if os.path.exists(fixture):
        shutil.copy(fixture, os.path.join(OUT, "gguf_py_all_types"))
    print("wrote", len(os.listdir(OUT)), "seeds to", os.path.normpath(OUT))


if __name__ == "__main__":
    main()
