#!/usr/bin/env bash
# CTest exporter_matrix: regenerates the exporter matrix into WORK (argument) with run-all.sh --check
# (every exporter over the whole suite) and checks that the committed
# docs/conformance/exporters.md is identical to it (tools/matrix/check-matrix.sh).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$HERE/../tools/matrix/check-matrix.sh" exporters "${1:?usage: check-matrix.sh WORK_DIR}"
