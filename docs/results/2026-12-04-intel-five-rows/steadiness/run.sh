# Runs the python load, the node load and the canary side by side for SECS seconds.
SECS=${1:-600}; OUT=$(realpath -m "${2:-/tmp/canary}"); mkdir -p "$OUT"; cd "$(dirname "$0")"
python3 load.py > "$OUT"/py.jsonl & P1=$!
node load.mjs > "$OUT"/node.jsonl & P2=$!
node canary.mjs > "$OUT"/canary.jsonl & P3=$!
sleep $SECS; kill $P1 $P2 $P3
