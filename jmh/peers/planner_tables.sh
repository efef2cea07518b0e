#!/bin/bash
# The planner's own tables for the transpose cases that the paired comparison runs: for each case,
# page size and thread count, `tegula plan SRC DST --measure --threads T` (every candidate walk it
# timed, on parts and on the whole, and the choice), as one Markdown page written to
# jmh/target/planner-tables.md (or the file named by --out). The page is a result of the machine
# at hand; the docs do not carry it.
#
#   bash jmh/peers/planner_tables.sh [--pages huge|4k|both] [--threads "1 2"] [--out FILE]
#
# Each plan allocates its own buffers (huge pages by default for arrays of 4 MiB and more;
# -Dtegula.hugePages=false for 4 KiB pages) and keeps no wisdom.
set -euo pipefail
cd "$(dirname "$0")/../.."
pages=both
threads="1 2"
out=jmh/target/planner-tables.md
while [ $# -gt 0 ]; do
  case "$1" in
    --pages) pages="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "planner_tables.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$pages" in both) pagelist="huge 4k" ;; huge|4k) pagelist="$pages" ;;
  *) echo "planner_tables.sh: --pages huge|4k|both, not $pages" >&2; exit 2 ;; esac
cases=(
  "f32_8192x8192_T|f32[8192,8192]{1,0}|{0,1}"
  "bf16_8192x8192_T|bf16[8192,8192]{1,0}|{0,1}"
  "f32_3d_210|f32[256,512,512]{2,1,0}|{0,1,2}"
  "f32_3d_102|f32[256,512,512]{2,1,0}|{2,0,1}"
  "f32_3d_021|f32[256,512,512]{2,1,0}|{1,2,0}"
  "f32_4d_3210|f32[64,64,64,64]{3,2,1,0}|{0,1,2,3}"
  "f32_4d_0231|f32[64,64,64,64]{3,2,1,0}|{1,3,2,0}"
)
mkdir -p "$(dirname "$out")"
echo "planner_tables.sh: writing $out" >&2
exec > "$out"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p') (family $(lscpu | sed -n 's/^CPU family: *//p') model \
$(lscpu | sed -n 's/^Model: *//p')), $(nproc) cores; started $(date -u '+%Y-%m-%d %H:%M') UTC"
for c in "${cases[@]}"; do
  IFS='|' read -r name src dst <<< "$c"
  for p in $pagelist; do
    for t in $threads; do
      opt=""
      [ "$p" = 4k ] && opt="-Dtegula.hugePages=false"
      echo
      echo "## $name, $p pages, $t thread(s)"
      echo
      echo '```'
      echo "\$ tegula plan '$src' '$dst' --measure --threads $t   # $(date -u +%H:%M:%S) UTC"
      JAVA_TOOL_OPTIONS="$opt" ./run plan "$src" "$dst" --measure --threads "$t" 2>&1 \
        | grep -v -e '^WARNING: Using incubator' -e '^Picked up JAVA_TOOL_OPTIONS'
      echo '```'
    done
  done
done
