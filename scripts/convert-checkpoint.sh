#!/usr/bin/env bash
# The documented checkpoint run of docs/benchmarks.md: a safetensors checkpoint of 120 tensors of
# mixed element types and shapes, written by numpy (not by Tegula), converted whole by
# `tegula convert` with per-name rules, then every output tensor decoded by numpy from the bytes
# (tiles, column-major order, type conversion) and compared with its source, bit for bit.
#   scripts/convert-checkpoint.sh [DIR]        needs python3 with numpy and a built jar (./run --version)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=${1:-/tmp/tegula-ckpt}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$DIR"
python3 - "$DIR/model.safetensors" <<'PY'
import sys, json, struct, numpy as np
rng = np.random.default_rng(3)
tensors = {}
def f32(shape): return (rng.integers(-2000, 2000, size=shape) / 16).astype('<f4')
for i in range(24):
    r, c = int(rng.integers(1, 300)), int(rng.integers(1, 700))
    tensors[f"layers.{i}.attn.weight"] = ('F32', f32((r, c)))
    tensors[f"layers.{i}.attn.bias"] = ('F32', f32((c,)))
    b = f32((int(rng.integers(1, 200)), int(rng.integers(1, 300))))
    tensors[f"layers.{i}.mlp.weight"] = ('BF16', (b.view('<u4') >> 16).astype('<u2'))   # exact bf16 values
    tensors[f"layers.{i}.conv"] = ('F16', f32(tuple(int(x) for x in rng.integers(1, 9, size=4))).astype('<f2'))
    tensors[f"layers.{i}.index"] = (['I32', 'I64', 'U8', 'I8'][i % 4],
        rng.integers(0, 100, size=(int(rng.integers(1, 50)),)).astype(['<i4', '<i8', 'u1', 'i1'][i % 4]))
tensors["emb.table"] = ('F32', f32((1000, 96)))
tensors["step"] = ('I64', np.array(12345, dtype='<i8'))
tensors["mask"] = ('BOOL', rng.integers(0, 2, size=(17, 5)).astype(bool))
header, off, blobs = {"__metadata__": {"format": "pt", "source": "numpy"}}, 0, []
for name, (dt, a) in tensors.items():
    b = np.ascontiguousarray(a).tobytes()
    header[name] = {"dtype": dt, "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
    off += len(b); blobs.append(b)
h = json.dumps(header).encode()
h += b' ' * (-(8 + len(h)) % 8)
with open(sys.argv[1], 'wb') as f:
    f.write(struct.pack('<Q', len(h))); f.write(h)
    for b in blobs: f.write(b)
print(f"{sys.argv[1]}: {len(tensors)} tensors, {off} bytes of data")
PY
/usr/bin/time -f "convert: %e s, max RSS %M KiB" "$JAVA" --enable-native-access=dev.tegula.ffm,dev.tegula.io \
  --module-path cli/target/tegula.jar:cli/target/lib --module dev.tegula.cli/dev.tegula.cli.Main convert "$DIR/model.safetensors" \
  --layout '*.weight={1,0:T(8,128)}' --layout '*.conv={0,1,2,3}' \
  --type '*.mlp.weight=f32' --type 'emb.*=f16' --memory 64M --stats \
  --out "$DIR/model-tiled.safetensors" > "$DIR/printed.txt" 2> "$DIR/stats.txt"
grep -v WARNING "$DIR/stats.txt" | tail -1
python3 - "$DIR/model.safetensors" "$DIR/model-tiled.safetensors" "$DIR/printed.txt" <<'PY'
import sys, json, struct, re, numpy as np
def load(p):
    raw = open(p, 'rb').read()
    n = struct.unpack('<Q', raw[:8])[0]
    h = json.loads(raw[8:8 + n]); meta = h.pop('__metadata__', {})
    return h, meta, raw[8 + n:]
NP = {'F32': '<f4', 'F16': '<f2', 'BF16': '<u2', 'I32': '<i4', 'I64': '<i8', 'U8': 'u1', 'I8': 'i1', 'BOOL': '?'}
TY = {'f32': '<f4', 'f16': '<f2', 's32': '<i4', 's64': '<i8', 'u8': 'u1', 's8': 'i1', 'pred': '?', 'bf16': '<u2'}
src, smeta, sdata = load(sys.argv[1]); out, ometa, odata = load(sys.argv[2])
printed = dict(l.split(' ', 1) for l in open(sys.argv[3]).read().splitlines())
def source(name):
    e = src[name]; a, b = e['data_offsets']
    v = np.frombuffer(sdata[a:b], dtype=NP[e['dtype']]).reshape(e['shape'])
    if e['dtype'] == 'BF16': v = (v.astype('<u4') << 16).view('<f4')
    return v
checked = 0
assert [k for k in out] == [k for k in src], "tensor order or names differ"
assert ometa.get('format') == 'pt' and ometa.get('source') == 'numpy', ometa
for name, e in out.items():
    a, b = e['data_offsets']; raw = odata[a:b]
    want = source(name)
    text = ometa.get('tegula.shape.' + name)
    if text is None:   # stored as safetensors stores it: row-major
        got = np.frombuffer(raw, dtype=NP[e['dtype']]).reshape(e['shape'])
        typ = {'F32': 'f32', 'F16': 'f16', 'I32': 's32', 'I64': 's64', 'U8': 'u8', 'I8': 's8', 'BOOL': 'pred'}[e['dtype']]
    else:
        m = re.fullmatch(r'(\w+)\[([\d,]*)\]\{([\d,]*)(?::T\((\d+),(\d+)\))?\}', text)
        typ, dims = m.group(1), [int(x) for x in m.group(2).split(',') if x]
        m2m = [int(x) for x in m.group(3).split(',') if x]
        flat = np.frombuffer(raw, dtype=TY[typ])
        if m.group(4):     # 2-D T(a,b) on {1,0}: tiles row-major, each tile row-major, padded
            ta, tb = int(m.group(4)), int(m.group(5))
            R, C = dims; R8, C8 = -(-R // ta) * ta, -(-C // tb) * tb
            got = flat.reshape(R8 // ta, C8 // tb, ta, tb).transpose(0, 2, 1, 3).reshape(R8, C8)[:R, :C]
        else:              # a permutation: dims in minor-to-major order, minor fastest
            got = flat.reshape([dims[d] for d in reversed(m2m)]).transpose([list(reversed(m2m)).index(d) for d in range(len(dims))])
    assert printed[name].startswith(typ + '['), (name, printed[name], typ)
    if name.startswith('emb.'): want = want.astype('<f2')
    assert got.shape == want.shape, (name, got.shape, want.shape)
    assert got.dtype == np.dtype(TY[typ]), (name, got.dtype)
    assert np.array_equal(np.ascontiguousarray(got).view(np.uint8), np.ascontiguousarray(want.astype(got.dtype)).view(np.uint8)), name
    checked += 1
print(f"checked {checked} tensors of {sys.argv[2]} against {sys.argv[1]}: all equal bit for bit "
      f"({sum(1 for k in out if 'tegula.shape.' + k in ometa)} stored in a non-row-major layout)")
PY
rm -rf "$DIR"
