#!/usr/bin/env bash
# Gives Tegula's DLPack exports (DLPack.exportLegacy and DLPack.export) to real Python consumers in
# one process: DLPackPythonConsumers (io's test classes) embeds CPython through FFM and runs
# check_dlpack_consumers.py, which hands the structs to numpy.from_dlpack and, where installed,
# torch.utils.dlpack.from_dlpack. Not part of `mvn verify` (it needs a Python with NumPy).
#
#   mvn -B -o test-compile -pl io -am               # once: builds io's test classes
#   io/src/test/python/check_dlpack_consumers.sh [LIBPYTHON]
#
# LIBPYTHON defaults to Debian's /usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0 (python3-numpy 1.24
# and python3-torch 1.13 take only the legacy struct); PYTHONHOME must name that Python's prefix
# when it is not /usr (e.g. a pyenv build). JAVA names a JDK 25 java (default: java on PATH).
set -euo pipefail
root="$(cd "$(dirname "$0")/../../../.." && pwd)"
lib="${1:-/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0}"
slf4j="$(find "${HOME}/.m2/repository/org/slf4j/slf4j-api" -name 'slf4j-api-*.jar' | sort | tail -1)"
cp="$root/io/target/test-classes:$root/io/target/classes:$root/vector/target/classes:$root/ffm/target/classes"
cp="$cp:$root/core/target/classes:$slf4j"
export PYTHONHOME="${PYTHONHOME:-/usr}"
exec "${JAVA:-java}" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -cp "$cp" \
    dev.tegula.io.dlpack.DLPackPythonConsumers "$lib" "$root/io/src/test/python/check_dlpack_consumers.py"
