#!/usr/bin/env bash
# The packages as users install them, with no Rust on the PATH: runs packaging/build.sh, then
#   - pip: the wheel into a fresh virtual environment,
#   - npm: the launcher's and this platform's tarballs into a scratch prefix (`npm install -g`),
#   - uvx: `uvx --from target/dist/<wheel> mcp-java-index`, from an empty uv cache,
#   - pipx: `pipx install target/dist/<wheel>` (pipx from PyPI into target/pkgvenv),
# and for each `mcp-java-index --version` and a `tools/list` through the MCP Python SDK
# (packaging/smoke.py, which also prints the time from the start to that answer).
# Everything lives under target/pkgtest; nothing is published or fetched from a registry
# (npm and uv run offline: the packages have no dependencies to download).
set -euo pipefail
cd "$(dirname "$0")/.."

SDK_PY=${MCP_JAVA_INDEX_PYTHON:-$PWD/target/venv/bin/python}
PKG_VENV=$PWD/target/pkgvenv
WORK=$PWD/target/pkgtest
# No ~/.cargo/bin: the system's directories only.
BASE_PATH=/usr/local/bin:/usr/bin:/bin

bash packaging/build.sh
if env PATH="$BASE_PATH" sh -c 'command -v cargo || command -v rustc' >/dev/null; then
  echo "check.sh: cargo or rustc is on $BASE_PATH: this check needs a PATH without Rust" >&2
  exit 1
fi

WHEEL=$(ls target/dist/mcp_java_index-*.whl)
LAUNCHER=$(ls target/dist/mcp-java-index-[0-9]*.tgz)
PLATFORM_TGZ=$(ls target/dist/mcp-java-index-*-*-[0-9]*.tgz)

rm -rf "$WORK"
mkdir -p "$WORK/project"
cp tests/fixtures/records.java "$WORK/project/"

# Runs `mcp-java-index --version` and the SDK's tools/list with PATH=$1:$BASE_PATH.
smoke() {
  local path="$1"
  shift
  local version
  version=$(env PATH="$path:$BASE_PATH" "$@" --version)
  echo "check.sh: $* --version: $version"
  [ "$version" = "mcp-java-index $(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)" ] ||
    { echo "check.sh: unexpected version" >&2; exit 1; }
  env PATH="$path:$BASE_PATH" "$SDK_PY" packaging/smoke.py "$WORK/project" "$@"
}

echo "check.sh: pip install $WHEEL into a fresh virtual environment"
python3 -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q --no-index "$WHEEL"
smoke "$WORK/venv/bin" mcp-java-index

echo "check.sh: npm install -g --prefix $WORK/npm $LAUNCHER $PLATFORM_TGZ"
npm install -g --offline --no-audit --no-fund --loglevel=error --prefix "$WORK/npm" "$LAUNCHER" "$PLATFORM_TGZ" >/dev/null
smoke "$WORK/npm/bin" mcp-java-index

echo "check.sh: uvx --from $WHEEL (from an empty uv cache, then again)"
export UV_CACHE_DIR="$WORK/uv-cache" UV_PYTHON_DOWNLOADS=never UV_OFFLINE=1
env PATH="$PKG_VENV/bin:$BASE_PATH" "$SDK_PY" packaging/smoke.py "$WORK/project" uvx --from "$WHEEL" mcp-java-index
smoke "$PKG_VENV/bin" uvx --from "$WHEEL" mcp-java-index

echo "check.sh: pipx install $WHEEL"
PIPX_VERSION=1.18.4
"$PKG_VENV/bin/pipx" --version 2>/dev/null | grep -q "$PIPX_VERSION" ||
  "$PKG_VENV/bin/python" -m pip install -q "pipx==$PIPX_VERSION"
unset UV_OFFLINE
env PATH="$PKG_VENV/bin:$BASE_PATH" PIPX_HOME="$WORK/pipx" PIPX_BIN_DIR="$WORK/pipx-bin" \
  PIPX_MAN_DIR="$WORK/pipx-man" "$PKG_VENV/bin/pipx" install --quiet "$WHEEL" >/dev/null
smoke "$WORK/pipx-bin" mcp-java-index

echo "check.sh: ok"
