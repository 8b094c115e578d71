# Compiles and runs OrtProbe.java against the kafka-streams row's built classes and jars (a bench
# builds them into the cache). Run from the repository root: bash docs/results/2026-12-04-genoa/probes/ort_probe.sh
set -euo pipefail
C=${BENCH_CACHE_DIR:-$HOME/.cache/stream-ml-bench}/kafka-streams
CP="$(ls -d "$C"/classes-* | head -1):$(ls -d "$C"/jars-* | head -1)/libs/*"
OUT=$(mktemp -d)
javac -cp "$CP" -d "$OUT" "$(dirname "$0")/OrtProbe.java"
java -Donnxruntime.native.path="$(ls -d "$C"/onnxruntime-*-native | head -1)/ai/onnxruntime/native/linux-x64" -cp "$OUT:$CP" bench.OrtProbe models fixtures/records.jsonl
