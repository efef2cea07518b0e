#!/usr/bin/env bash
# The documented run of docs/benchmarks.md "Converting a tensor larger than memory": a 12 GiB f32
# tensor converted to T(8,128) and to its transpose inside a cgroup v1 memory group of 2 GiB, with
# peak RssAnon sampled, outputs sampled against the generating formula, and `cp` of the same file
# timed in the same run. Needs root (the cgroup), python3 with numpy, ~40 GB free in DIR, a built jar
# (./run --version builds it). Deletes its big files at the end.
#   scripts/convert-large.sh [DIR] [ROWS] [COLS]      defaults: /tmp/tegula-large 49152 65536 (12 GiB)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
DIR=${1:-/tmp/tegula-large}
ROWS=${2:-49152}
COLS=${3:-65536}
LIMIT=${LIMIT:-2G}
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
# the tegula command: module dev.tegula.cli on the module path (./run starts it the same way)
TEGULA=("$JAVA" --enable-native-access=dev.tegula.ffm,dev.tegula.io
  --module-path cli/target/tegula.jar:cli/target/lib --module dev.tegula.cli/dev.tegula.cli.Main)
CG=/sys/fs/cgroup/memory/tegula
mkdir -p "$DIR"
trap 'rm -f "$DIR"/*.npy "$DIR"/*.bin "$DIR"/*.copy "$DIR"/.*.tmp' EXIT

python3 - "$DIR/src.npy" "$ROWS" "$COLS" <<'PY'
import sys, numpy as np
path, R, C = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, 'wb') as f:
    np.lib.format.write_array_header_1_0(f, {'descr': '<f4', 'fortran_order': False, 'shape': (R, C)})
    step = max(1, (128 << 20) // (4 * C))
    for r0 in range(0, R, step):
        r1 = min(R, r0 + step)
        v = ((np.arange(r0, r1, dtype=np.int64)[:, None] * 65537 + np.arange(C, dtype=np.int64)[None, :]) % 16777216)
        f.write(v.astype('<f4').tobytes())
PY
ls -l "$DIR/src.npy"

mkdir -p "$CG"
echo "$LIMIT" > "$CG/memory.limit_in_bytes"
echo "cgroup $CG: memory.limit_in_bytes = $(cat $CG/memory.limit_in_bytes)"

# runs "$@" inside the cgroup with a cold page cache, samples RssAnon/VmHWM of the process every 0.1 s
measure() {
  local name=$1; shift
  sync; echo 1 > /proc/sys/vm/drop_caches
  echo 0 > "$CG/memory.max_usage_in_bytes" 2>/dev/null || true
  local start end pid peak_anon=0 hwm=0
  start=$(date +%s.%N)
  sh -c 'echo $$ > '"$CG"'/cgroup.procs; exec "$@"' sh "$@" &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    if [[ -r /proc/$pid/status ]]; then
      a=$(awk '/^RssAnon:/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
      h=$(awk '/^VmHWM:/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
      [[ -n "$a" && "$a" -gt "$peak_anon" ]] && peak_anon=$a
      [[ -n "$h" && "$h" -gt "$hwm" ]] && hwm=$h
    fi
    sleep 0.1
  done
  wait "$pid"
  end=$(date +%s.%N)
  printf '%-15s wall %7.1f s   peak RssAnon %6d MiB   peak VmHWM %6d MiB   cgroup max usage %6d MiB\n' "$name" \
    "$(echo "$end - $start" | bc)" $((peak_anon / 1024)) $((hwm / 1024)) \
    $(( $(cat $CG/memory.max_usage_in_bytes) / 1048576 ))
}

measure cp sh -c "cp '$DIR/src.npy' '$DIR/src.copy' && sync '$DIR/src.copy'"
rm -f "$DIR/src.copy"
measure tiled "${TEGULA[@]}" convert \
  "$DIR/src.npy" --layout '{1,0:T(8,128)}' --stats --out "$DIR/tiled.bin"
python3 - "$DIR/tiled.bin" "$ROWS" "$COLS" tiled <<'PY'
import sys, numpy as np
path, R, C, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
m = np.memmap(path, dtype='<f4', mode='r')
rng = np.random.default_rng(1)
i = rng.integers(0, R, 200000); j = rng.integers(0, C, 200000)
want = ((i * 65537 + j) % 16777216).astype(np.float32)
if kind == 'tiled':
    cols_tiles = (C + 127) // 128
    at = ((i // 8) * cols_tiles + j // 128) * 1024 + (i % 8) * 128 + j % 128
else:
    at = j * R + i
bad = int(np.count_nonzero(m[at] != want))
print(f"{kind}: {path} {m.size * 4} bytes, 200000 sampled elements, {bad} wrong")
sys.exit(1 if bad else 0)
PY
rm -f "$DIR/tiled.bin"
for MEM in 256M 1G; do
measure "transpose $MEM" "${TEGULA[@]}" convert \
  "$DIR/src.npy" --layout '{0,1}' --memory "$MEM" --stats --out "$DIR/transposed.bin"
python3 - "$DIR/transposed.bin" "$ROWS" "$COLS" transpose <<'PY'
import sys, numpy as np
path, R, C, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
m = np.memmap(path, dtype='<f4', mode='r')
rng = np.random.default_rng(2)
i = rng.integers(0, R, 200000); j = rng.integers(0, C, 200000)
want = ((i * 65537 + j) % 16777216).astype(np.float32)
bad = int(np.count_nonzero(m[j * R + i] != want))
print(f"{kind}: {path} {m.size * 4} bytes, 200000 sampled elements, {bad} wrong")
sys.exit(1 if bad else 0)
PY
rm -f "$DIR/transposed.bin"
done
