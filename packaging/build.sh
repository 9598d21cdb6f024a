#!/usr/bin/env bash
# Builds this machine's packages into target/dist/, publishing nothing:
#   - the wheel (maturin, `bindings = "bin"`: the binary inside; pyproject.toml),
#   - the npm launcher's tarball (packaging/npm/mcp-java-index),
#   - this platform's npm tarball (@mcp-java-index/<os>-<cpu>, laid out by packaging/npm/platform/make.js).
# The release binary is built once: maturin runs `cargo build --release` (fresh when it was
# built before) and the npm package takes the same target/release/mcp-java-index.
# maturin comes from PyPI into a virtual environment under target/ (PKG_VENV), never the system
# Python. Other platforms are built by .github/workflows/release.yml.
set -euo pipefail
cd "$(dirname "$0")/.."

DIST=target/dist
PKG_VENV=${PKG_VENV:-target/pkgvenv}
MATURIN_VERSION=1.16.0
UV_VERSION=0.13.9

if ! "$PKG_VENV/bin/maturin" --version 2>/dev/null | grep -q "$MATURIN_VERSION" ||
  ! "$PKG_VENV/bin/uv" --version 2>/dev/null | grep -q "$UV_VERSION"; then
  echo "build.sh: installing maturin $MATURIN_VERSION and uv $UV_VERSION into $PKG_VENV"
  rm -rf "$PKG_VENV"
  python3 -m venv "$PKG_VENV"
  "$PKG_VENV/bin/python" -m pip install -q "maturin==$MATURIN_VERSION" "uv==$UV_VERSION"
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) PLATFORM=linux-x64 ;;
  Linux-aarch64) PLATFORM=linux-arm64 ;;
  Darwin-x86_64) PLATFORM=darwin-x64 ;;
  Darwin-arm64) PLATFORM=darwin-arm64 ;;
  *) echo "build.sh: no npm platform package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac

rm -rf "$DIST"
mkdir -p "$DIST"

# The wheel: maturin builds (or finds fresh) the release profile's binary and wraps it.
# `--compatibility linux` tags it for this machine's glibc; the release workflow builds
# manylinux wheels in maturin's containers.
# MJI_PACKAGE_PROFILE=dev packs the dev profile's binary instead: `.ci/run` checks the packages'
# installs with it (what its `cargo test` compiled is reused where the features agree, the rest
# built unoptimized); what it checks — the wheel, the tarballs, the launcher, the installs — is
# the same.
PROFILE=${MJI_PACKAGE_PROFILE:-release}
case "$PROFILE" in
  release) PROFILE_DIR=release ;;
  dev) PROFILE_DIR=debug ;;
  *) echo "build.sh: MJI_PACKAGE_PROFILE is release or dev, not $PROFILE" >&2; exit 1 ;;
esac
"$PKG_VENV/bin/maturin" build --profile "$PROFILE" --locked --out "$DIST" --compatibility linux --quiet
BIN=target/$PROFILE_DIR/mcp-java-index
[ -x "$BIN" ] || { echo "build.sh: $BIN was not built" >&2; exit 1; }

# The npm packages, staged under target/dist/npm and packed with `npm pack`.
STAGE="$DIST/npm"
mkdir -p "$STAGE"
cp -r packaging/npm/mcp-java-index "$STAGE/mcp-java-index"
cp README.md LICENSE-MIT LICENSE-APACHE "$STAGE/mcp-java-index/"
node packaging/npm/platform/make.js "$PLATFORM" "$BIN" "$STAGE/$PLATFORM"
for pkg in mcp-java-index "$PLATFORM"; do
  (cd "$STAGE/$pkg" && npm pack --silent --pack-destination "$PWD/../.." >/dev/null)
done
rm -rf "$STAGE"

echo "build.sh: target/dist/"
ls -l "$DIST" | tail -n +2
