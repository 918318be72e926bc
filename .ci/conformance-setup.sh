#!/usr/bin/env bash
# Installs the official MCP conformance suite (pinned) on Node 22 (the npm package `node@22`)
# under target/conformance, once. Sourced by the conformance scripts; afterwards
# `conformance ARGS...` runs the suite's CLI (bounded) from that directory.
set -euo pipefail

conformance_version=0.1.16
conformance_dir="$root/target/conformance"
conformance_pkg="$conformance_dir/node_modules/@modelcontextprotocol/conformance/package.json"
installed=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
    "$conformance_pkg" 2>/dev/null || true)
if [ "$installed" != "$conformance_version" ]; then
    echo "conformance: installing Node 22 and @modelcontextprotocol/conformance $conformance_version in $conformance_dir"
    command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq npm; }
    mkdir -p "$conformance_dir/home"
    HOME="$conformance_dir/home" timeout 900 npm install --prefix "$conformance_dir" --no-audit \
        --no-fund --loglevel=error "node@22" "@modelcontextprotocol/conformance@$conformance_version"
fi

# conformance ARGS...: the suite's CLI with Node 22 first on PATH (bounded to 15 minutes).
conformance() {
    (cd "$conformance_dir" && HOME="$conformance_dir/home" \
        PATH="$conformance_dir/node_modules/.bin:$PATH" \
        timeout 900 npx --no-install conformance "$@")
}
