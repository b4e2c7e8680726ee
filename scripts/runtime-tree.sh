#!/usr/bin/env sh
# Copies what the production image runs into $1, after the build step: the root and every workspace's package.json
# (npm links the workspaces), each workspace's dist/, migrations/ and bin/. Then `npm ci --omit=dev` there gives the
# runtime tree (the root manifest goes without its scripts: its `prepare` is the build step, already done; the
# dependencies' own install scripts must run, embedded-postgres links its libraries in one). Used by the Dockerfile
# and by .ci/runtime-tree-check.sh.
set -eu
out="$1"
mkdir -p "$out"
cp package-lock.json "$out/"
node -e 'const m = require("./package.json"); delete m.scripts; process.stdout.write(JSON.stringify(m, null, 2) + "\n")' >"$out/package.json"
for p in packages/* services/* apps/* examples/*; do
  mkdir -p "$out/$p"
  cp "$p/package.json" "$out/$p/"
  for d in dist migrations bin; do
    if [ -d "$p/$d" ]; then cp -r "$p/$d" "$out/$p/"; fi
  done
done
