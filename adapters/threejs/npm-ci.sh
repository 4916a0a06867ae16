#!/usr/bin/env bash
# The three.js adapter shares adapters/package.json; see adapters/npm-ci.sh.
exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../npm-ci.sh" "$@"
