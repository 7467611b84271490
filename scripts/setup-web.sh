#!/usr/bin/env bash
# What the browser tests need, installed idempotently: Debian's chromium (apt) and the front
# end's npm packages (TypeScript, esbuild, playwright-core) from web/package-lock.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v chromium >/dev/null 2>&1 || ! dpkg -s fonts-ipafont-mincho >/dev/null 2>&1; then
    echo "installing Debian's chromium and a Japanese font (apt)"
    export DEBIAN_FRONTEND=noninteractive
    sudo_() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }
    sudo_ apt-get update -qq
    sudo_ apt-get install -y -qq --no-install-recommends chromium fonts-ipafont-mincho >/dev/null
fi

if [[ ! -d web/node_modules ]] || [[ web/package-lock.json -nt web/node_modules/.package-lock.json ]]; then
    echo "installing the front end's npm packages (npm ci)"
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
