#!/usr/bin/env bash
# CTest pipeline_matrix: regenerates the pipeline matrix into WORK (argument) with run-all.sh --check
# (every pipeline over the whole suite) and checks that the committed
# docs/conformance/pipelines.md is identical to it (tools/matrix/check-matrix.sh).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec bash "$HERE/../tools/matrix/check-matrix.sh" pipelines "${1:?usage: check-matrix.sh WORK_DIR}"
