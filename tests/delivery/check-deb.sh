#!/usr/bin/env bash
# Builds the Debian package of the CLI with CPack from a configured and built
# folder, checks it as a Debian user would meet it, and runs the binary it holds.
#   bash tests/delivery/check-deb.sh BUILD_DIR WORK_DIR [--hardened] [--lintian] [--install]
# Run by CTest (delivery_deb_package) on the test build without the options;
# .ci/run runs it on the "cli" preset's build with --hardened (that preset's
# hardening flags are in the binary) and --lintian, and, as root on its throwaway
# machine, --install (apt-get install of the .deb for real, then `gltf-anim
# validate` from /usr/bin, then apt-get purge).
# Expected values come from elsewhere than CPack: the version from CMakeLists.txt's
# project(), the architecture from dpkg, the dependencies from the libraries the
# binary loads (ldd) and the packages that own them (dpkg -S).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: check-deb.sh BUILD_DIR WORK_DIR [--hardened] [--lintian] [--install]" >&2; exit 2; }
BUILD_DIR="$(cd "$1" && pwd)"
WORK="$2"
shift 2
HARDENED=0 LINTIAN=0 INSTALL=0
for option in "$@"; do
  case "$option" in
    --hardened) HARDENED=1;;
    --lintian) LINTIAN=1;;
    --install) INSTALL=1;;
    *) echo "check-deb: unknown option $option" >&2; exit 2;;
  esac
done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }

case "$WORK" in ""|/|.|..) fail "WORK_DIR '$WORK' is not a scratch folder";; esac
rm -rf "$WORK"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
# CPack's dependency scan (dpkg-shlibdeps) finds the executables with these tools;
# scripts/run-tests.sh installs them (packages dpkg-dev and file).
for tool in dpkg-shlibdeps file; do
  command -v "$tool" >/dev/null || fail "cpack needs $tool, which is not installed (Debian: apt-get install dpkg-dev file; scripts/run-tests.sh installs both)"
done
( cd "$BUILD_DIR" && cpack -G DEB -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1 ) \
  || { cat "$WORK/cpack.log" >&2; fail "cpack failed"; }

version="$(sed -n 's/^project(GltfAnim VERSION \([0-9.]*\).*/\1/p' "$ROOT/CMakeLists.txt")"
[ -n "$version" ] || fail "no version in CMakeLists.txt"
arch="$(dpkg --print-architecture)"
deb="$WORK/pkg/gltf-anim_${version}-1_${arch}.deb"
[ -f "$deb" ] || fail "expected $deb; cpack made: $(ls "$WORK/pkg")"
echo "package: $deb ($(stat -c %s "$deb") bytes)"

# --- control fields ---
dpkg-deb --info "$deb" >"$WORK/info.txt"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = gltf-anim ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "${version}-1" ] || fail "Version is '$(field Version)', want ${version}-1"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)'"
[[ "$(field Maintainer)" =~ ^[^\<]+\ \<[^@\>]+@[^\>]+\>$ ]] || fail "Maintainer '$(field Maintainer)' is not 'Name <address>'"
synopsis="$(field Description | sed -n 1p)"
[ -n "$synopsis" ] || fail "no Description"
[ "$(field Description | sed -n '2s/^ //p')" != "$synopsis" ] || fail "the long description repeats the synopsis"
[ "$(field Description | wc -l)" -ge 3 ] || fail "no long description"
depends="$(field Depends)"
echo "Depends: $depends"
# The package names of Depends, one a line (no versions, no alternatives' bars).
depends_names="$(tr ',|' '\n\n' <<<"$depends" | awk 'NF { print $1 }')"

# Every library the binary loads belongs to a package named in Depends.
extract="$WORK/root"
dpkg-deb -x "$deb" "$extract"
binary="$extract/usr/bin/gltf-anim"
[ -x "$binary" ] || fail "no executable usr/bin/gltf-anim"
needed=0
while read -r lib path; do
  [ -n "$path" ] || fail "the binary needs $lib, which is not found"
  owner=""
  # dpkg knows a file by the path its package ships (/lib or /usr/lib: usrmerge
  # makes both reach it), and ldd may name a link to it.
  resolved="$(readlink -f "$path")"
  for candidate in "$path" "${path#/usr}" "/usr$path" "$resolved" "${resolved#/usr}"; do
    owner="$(dpkg -S "$candidate" 2>/dev/null)" || owner=""
    owner="$(sed -n '1s/:.*//p' <<<"$owner")"
    [ -z "$owner" ] || break
  done
  [ -n "$owner" ] || fail "no package owns $path ($lib)"
  grep -qxF "$owner" <<<"$depends_names" || fail "the binary loads $lib of $owner, not in Depends"
  needed=$((needed + 1))
done < <(ldd "$binary" | awk '/=>/ { print $1, ($3 ~ /^\//) ? $3 : "" }')
[ "$needed" -gt 0 ] || fail "ldd found no library (a static binary was not expected)"

# --- files: the CLI and its documentation, nothing of the development package ---
dpkg-deb --contents "$deb" | awk '{ print $NF }' | grep -v '/$' | sort >"$WORK/files.txt"
printf '%s\n' ./usr/bin/gltf-anim ./usr/share/doc/gltf-anim/changelog.Debian.gz \
  ./usr/share/doc/gltf-anim/copyright ./usr/share/man/man1/gltf-anim.1.gz >"$WORK/files.want"
diff -u "$WORK/files.want" "$WORK/files.txt" >&2 || fail "unexpected files in the package"
dpkg-deb --contents "$deb" | awk '$1 ~ /^-/ && $2 != "root/root" { bad = 1 } END { exit bad }' \
  || fail "files not owned by root/root"
gzip -t "$extract/usr/share/doc/gltf-anim/changelog.Debian.gz" || fail "changelog.Debian.gz is not gzip"
changelog="$(zcat "$extract/usr/share/doc/gltf-anim/changelog.Debian.gz")"
[[ "$changelog" == "gltf-anim (${version}-1) "* ]] \
  || fail "changelog.Debian.gz does not start with this version"
cmp -s "$ROOT/packaging/copyright" "$extract/usr/share/doc/gltf-anim/copyright" || fail "copyright differs from packaging/copyright"
# The manual page: well-formed for man (what lintian runs: no warning at all), with
# a section for each command of the README's table.
page="$extract/usr/share/man/man1/gltf-anim.1.gz"
man_warnings="$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)" \
  || fail "man cannot format the manual page"
[ -z "$man_warnings" ] || fail "man warns about the manual page: $man_warnings"
page_source="$(zcat "$page")"
for command in validate sample compare generate squad-report codes; do
  grep -qxF ".SS ${command//-/\\-}" <<<"$page_source" || fail "the manual page has no section for $command"
done
sections="$(readelf -SW "$binary")"
! grep -q '\.symtab' <<<"$sections" || fail "usr/bin/gltf-anim is not stripped"

if [ "$HARDENED" -eq 1 ]; then
  # What Debian's hardening flags leave in a binary: PIE (type DYN), full RELRO
  # (a GNU_RELRO segment and BIND_NOW), the stack protector's and fortified
  # functions' symbols.
  # (Outputs are held first: grep -q closing the pipe early would fail pipefail.)
  header="$(readelf -hW "$binary")" segments="$(readelf -lW "$binary")"
  dynamic="$(readelf -dW "$binary")" symbols="$(nm -D "$binary")"
  grep -q 'Type:[[:space:]]*DYN' <<<"$header" || fail "not PIE"
  grep -q GNU_RELRO <<<"$segments" || fail "no RELRO segment"
  grep -q 'BIND_NOW' <<<"$dynamic" || fail "not linked with -z now"
  grep -q ' __stack_chk_fail' <<<"$symbols" || fail "no stack protector"
  grep -Eq ' __[a-z]+_chk@' <<<"$symbols" || fail "no fortified function (_FORTIFY_SOURCE)"
fi

# --- the unpacked binary, run from the scratch root ---
# Expected outputs: the valid example has no findings; duplicate_targets.gltf has
# two channels on one target, ANIMATION_DUPLICATE_TARGETS (its expected report).
run_checks() {
  local cli="$1" out status
  out="$("$cli" --version)" || fail "$cli --version exited $?"
  grep -qF "$version" <<<"$out" || fail "$cli --version does not say $version"
  out="$("$cli" validate "$ROOT/conformance_assets/valid/sqlerp_with_fallback.gltf")" \
    || fail "$cli validate of a valid asset exited $?"
  grep -q ': ok (0 errors' <<<"$out" || fail "unexpected report: $out"
  status=0
  out="$("$cli" validate --format json "$ROOT/conformance_assets/invalid/channel/duplicate_targets.gltf")" || status=$?
  [ "$status" -eq 1 ] || fail "$cli validate of an invalid asset exited $status, want 1"
  grep -q '"ANIMATION_DUPLICATE_TARGETS"' <<<"$out" || fail "the JSON report lacks ANIMATION_DUPLICATE_TARGETS"
  echo "ran $cli: valid asset 0, invalid asset 1 with ANIMATION_DUPLICATE_TARGETS"
}
run_checks "$binary"

# --- apt resolves Depends from the configured archives (simulated, no root) ---
apt-get install -s -qq "$deb" >"$WORK/apt-sim.txt" 2>&1 || { cat "$WORK/apt-sim.txt" >&2; fail "apt-get cannot install the package"; }

if [ "$LINTIAN" -eq 1 ]; then
  # Errors fail; warnings and informational tags are printed.
  lintian --fail-on error "$deb" || fail "lintian reports errors"
fi

if [ "$INSTALL" -eq 1 ]; then
  [ "$(id -u)" -eq 0 ] || fail "--install needs root"
  ! dpkg-query -W gltf-anim >/dev/null 2>&1 || fail "gltf-anim is already installed here; not replacing it"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$WORK/apt-install.log" 2>&1 \
    || { cat "$WORK/apt-install.log" >&2; fail "apt-get install failed"; }
  trap 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq gltf-anim >"$WORK/apt-purge.log" 2>&1' EXIT
  [ "$(command -v gltf-anim)" = /usr/bin/gltf-anim ] || fail "gltf-anim is not /usr/bin/gltf-anim on PATH"
  run_checks gltf-anim
fi
echo "check-deb: ok"
