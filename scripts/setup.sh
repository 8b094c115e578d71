#!/usr/bin/env bash
# Everything a fresh Debian 12 machine needs before the bench or the tests can run.
# Idempotent: a second run only checks. Products' own environments (Python venvs, jars) are
# built by their adapters on first use, into the cache, not here.
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION=10.20.0
# The bench's own packages; each product's own (a JDK, Debian's torch, ...) are declared in its
# adapter's package.json ("bench": { "apt": [...] }) and added below.
BENCH_APT_PACKAGES=(
  openjdk-17-jdk-headless maven          # the Kafka broker; Maven resolves its jars
  python3.11                             # core's tests run the Python apps' kit (models/bench_kit.py)
  build-essential python3-dev            # librdkafka for @confluentinc/kafka-javascript builds from source
  libssl-dev zlib1g-dev
  chromium fonts-dejavu-core             # the page.html test opens the page in headless Chromium
)

# Node.js >= 20.19 (Debian 12's nodejs is 18), installed from the npm registry when missing or
# older; first, because it reads the adapters' apt declarations below.
bash scripts/install-node.sh
hash -r
# A Node that install-node.sh put there: node-gyp builds native modules against the headers
# beside it instead of downloading them.
node_home=$(node -p 'require("path").resolve(process.execPath, "..", "..")')
case "$node_home" in */lib/nodejs-*) export npm_config_nodedir="$node_home" ;; esac

declared_apt=$(node scripts/declared-apt.mjs)
missing=()
# shellcheck disable=SC2086 # one package name a line, split on purpose
for p in "${BENCH_APT_PACKAGES[@]}" $declared_apt; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION"
  npm install -g "pnpm@$PNPM_VERSION"
  hash -r
fi

# Both native modules would download binaries from outside the registries and fail:
# librdkafka builds against the system's libraries instead, onnxruntime-node skips its CUDA fetch.
export CKJS_LINKING=dynamic ONNXRUNTIME_NODE_INSTALL=skip
pnpm install --frozen-lockfile
