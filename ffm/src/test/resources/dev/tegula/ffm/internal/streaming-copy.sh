#!/bin/sh
# Assembles streaming-copy.s with the GNU assembler and writes its bytes as hex, 16 a line, to
# streaming-copy.hex (what StreamingCopyTest compares the class's own encoding with).
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
as --64 -o "$tmp/r.o" streaming-copy.s
objcopy -O binary -j .text "$tmp/r.o" "$tmp/r.bin"
od -An -v -tx1 -w16 "$tmp/r.bin" | sed 's/^ //' > streaming-copy.hex
