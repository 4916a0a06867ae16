#!/usr/bin/env bash
# Validates glTF assets in CI and writes the reports CI systems read. This is what
# the GitHub Action (action.yml) and the GitLab CI snippet (docs/ci/gitlab-ci.yml)
# run, and what CTest runs on committed assets (tests/delivery/), so the commands
# they run are the ones tested.
#
# Settings, from the environment (all optional):
#   GLTF_ANIM_PATHS    files and folders to validate, separated by spaces or new lines;
#                      quote one holding a space as in a shell: "exports 'my assets'".
#                      Default: . (the current folder)
#   GLTF_ANIM_FAIL_ON  error, warning or info: the least severity that fails (default error)
#   GLTF_ANIM_SARIF    SARIF report file; empty for none (default gltf-anim.sarif)
#   GLTF_ANIM_JUNIT    JUnit XML report file; empty for none (default gltf-anim.junit.xml)
#   GLTF_ANIM_JSON     JSON report file; empty for none (default none)
#   GLTF_ANIM_ARGS     more `gltf-anim validate` options, quoted as in a shell,
#                      e.g. "--ignore UNUSED_OBJECT --threads 4"
#   GLTF_ANIM          the executable (default: gltf-anim from PATH)
# Nothing in them is expanded or evaluated: quotes group words, nothing else.
#
# The text report goes to standard output (the CI log; --format=text whatever a
# project config's "format" says), then each report file is
# written by a run with its --format and --output (validation is deterministic, so
# they agree; each run costs one validation). Every report is written whatever the
# findings, none when the text run ends in a usage or I/O error. Exit code: validate's: 0 nothing at or above GLTF_ANIM_FAIL_ON, 1
# findings, 2 usage or I/O error (a bad setting, no asset found, a report that
# could not be written).
# Under GitHub Actions (GITHUB_OUTPUT set) the step also gets the outputs exit-code,
# sarif, junit and json (the report paths, empty when not written). With
# GITHUB_STEP_SUMMARY set, two more runs write the job summary (--format=md: "N of
# M assets failed", the failing assets and their issues first, the passing ones
# folded) and the annotations (--format=github, printed to the log as workflow
# commands); the runs' own output is read with workflow commands stopped, so no
# asset's name or message can be a command.
set -uo pipefail

die() {
  echo "ci-validate: $*" >&2
  if [ -n "${token:-}" ]; then
    echo "::$token::"
    echo "### gltf-anim validate: exit code 2, a usage or I/O error (the log says which)" >>"$GITHUB_STEP_SUMMARY"
  fi
  [ -z "${GITHUB_OUTPUT:-}" ] || echo "exit-code=2" >>"$GITHUB_OUTPUT"
  exit 2
}

# Splits $1 into the array named $2 the way a shell splits words and removes
# quotes, with no expansion at all: xargs' own quoting rules (single and double
# quotes, backslash). An unbalanced quote is an error.
split_words() {
  local text="$1" tmp
  local -n into="$2"
  tmp="$(mktemp)" || die "cannot create a temporary file"
  if ! printf '%s' "$text" | xargs -r printf '%s\0' >"$tmp" 2>/dev/null; then
    rm -f "$tmp"
    die "cannot split '$text' into words (an unbalanced quote?)"
  fi
  mapfile -d '' -t into <"$tmp"
  rm -f "$tmp"
}

CLI="${GLTF_ANIM:-gltf-anim}"
command -v "$CLI" >/dev/null 2>&1 || die "gltf-anim executable '$CLI' not found (set GLTF_ANIM)"
FAIL_ON="${GLTF_ANIM_FAIL_ON:-error}"
SARIF="${GLTF_ANIM_SARIF-gltf-anim.sarif}"
JUNIT="${GLTF_ANIM_JUNIT-gltf-anim.junit.xml}"
JSON="${GLTF_ANIM_JSON-}"

paths=()
split_words "${GLTF_ANIM_PATHS:-.}" paths
[ ${#paths[@]} -gt 0 ] || die "GLTF_ANIM_PATHS names no file or folder"
extra=()
split_words "${GLTF_ANIM_ARGS:-}" extra

# One validate run; its exit code is the function's. Shows the command in the log.
# Options end with "--": a path that begins with "-" is a path, never an option
# (an asset named --output=x.txt must not overwrite x.txt). Option values are
# joined to their option (--output=FILE) for the same reason.
run_validate() {
  local cmd=("$CLI" validate "--fail-on=$FAIL_ON" "$@" "${extra[@]}" -- "${paths[@]}")
  printf '$' >&2; printf ' %q' "${cmd[@]}" >&2; printf '\n' >&2
  "${cmd[@]}"
}

# Under GitHub Actions the runner reads every line of the log that begins with "::"
# as a workflow command, and a line of the text report begins with an asset's name:
# an asset named "::error::x.gltf", or "::add-mask::..." must not be a command. So
# the runs' output is read with commands stopped (GitHub's ::stop-commands:: with a
# token no asset can know), and resumed only for the annotations this script writes.
token=""
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  token="gltf-anim-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" || die "cannot read /dev/urandom"
  [ "${#token}" -eq 42 ] || die "cannot make a token from /dev/urandom"
  echo "::stop-commands::$token"
fi

status=0
run_validate --format=text || status=$?
# A usage error or no asset found: the report files would say nothing more.
[ "$status" -ne 2 ] || die "no report written"

written_sarif="" written_junit="" written_json=""
for format in sarif junit json; do
  case "$format" in
    sarif) file="$SARIF";;
    junit) file="$JUNIT";;
    json) file="$JSON";;
  esac
  [ -n "$file" ] || continue
  dir="$(dirname -- "$file")"
  mkdir -p -- "$dir" || die "cannot create the folder of '$file'"
  run_status=0
  run_validate "--format=$format" "--output=$file" || run_status=$?
  # A report that could not be written is an error even when the assets are fine.
  if [ "$run_status" -eq 2 ] || [ ! -f "$file" ]; then
    echo "ci-validate: the $format report '$file' was not written" >&2
    status=2
    continue
  fi
  printf -v "written_$format" '%s' "$file"
done

# GitHub's job summary and annotations: the failing assets first, with their
# issues, then a count of the passing ones (--format=md, appended to the summary
# page), and one annotation per finding (--format=github: ::error file=...::...,
# capped, escaped by GitHub's rules), printed once commands are resumed.
if [ -n "$token" ]; then
  work="$(mktemp -d)" || die "cannot create a temporary folder"
  for format in md github; do
    run_status=0
    run_validate "--format=$format" "--output=$work/report.$format" || run_status=$?
    if [ "$run_status" -eq 2 ] || [ ! -f "$work/report.$format" ]; then
      echo "ci-validate: the $format report was not written" >&2
      status=2
    fi
  done
  echo "::$token::"
  [ ! -f "$work/report.github" ] || cat -- "$work/report.github"
  if [ -f "$work/report.md" ]; then
    cat -- "$work/report.md" >>"$GITHUB_STEP_SUMMARY" || echo "ci-validate: cannot write the job summary" >&2
  else
    echo "### gltf-anim validate: exit code $status (no summary written: see the log)" >>"$GITHUB_STEP_SUMMARY"
  fi
  rm -rf -- "$work"
fi

# A step output in GitHub's multi-line form (NAME<<DELIMITER, the value, DELIMITER)
# with a delimiter the value does not hold: a report name with a new line in it stays
# one value and cannot add a line of its own (a forged exit-code=0).
github_output() {
  local name="$1" value="$2" delimiter
  while :; do
    delimiter="gltf_anim_${RANDOM}${RANDOM}${RANDOM}"
    [[ "$value" == *"$delimiter"* ]] || break
  done
  printf '%s<<%s\n%s\n%s\n' "$name" "$delimiter" "$value" "$delimiter" >>"$GITHUB_OUTPUT"
}
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  github_output exit-code "$status"
  github_output sarif "$written_sarif"
  github_output junit "$written_junit"
  github_output json "$written_json"
fi
exit "$status"
