#!/usr/bin/env node
// The npm launcher (as esbuild and biome ship theirs): npm installs the one optional
// dependency whose `os` and `cpu` match this machine, @mcp-java-index/<platform>-<arch>, which
// holds the native binary; this script runs it with the same arguments, stdio and exit code.
"use strict";

const { spawn } = require("node:child_process");

const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];

function fail(message) {
  process.stderr.write(`mcp-java-index: ${message}\n`);
  process.exit(1);
}

function binaryPath() {
  // A binary of your own (a source build, an unsupported platform) wins.
  if (process.env.MCP_JAVA_INDEX_BINARY) {
    return process.env.MCP_JAVA_INDEX_BINARY;
  }
  const platform = `${process.platform}-${process.arch}`;
  if (!PLATFORMS.includes(platform)) {
    fail(
      `there is no prebuilt binary for ${platform} (packages exist for ${PLATFORMS.join(", ")}). ` +
        "Build it from source (cargo install --git https://github.com/mcp-java-index/mcp-java-index --locked) " +
        "and set MCP_JAVA_INDEX_BINARY to its path, or use the Python package (uvx mcp-java-index).",
    );
  }
  const exe = process.platform === "win32" ? "mcp-java-index.exe" : "mcp-java-index";
  const pkg = `@mcp-java-index/${platform}`;
  try {
    return require.resolve(`${pkg}/bin/${exe}`);
  } catch {
    fail(
      `${pkg}, the package with this platform's binary, is not installed. npm installs it as an ` +
        "optional dependency: reinstall without --omit=optional / --no-optional " +
        `(npm install -g mcp-java-index ${pkg}).`,
    );
  }
}

// `setup` registers the command that started it: this launcher when it is on PATH.
const env = { ...process.env, MCP_JAVA_INDEX_LAUNCHER: __filename };
const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", windowsHide: true, env });
child.on("error", (e) => fail(`cannot start ${e.path || "the binary"}: ${e.message}`));
// Signals sent to the launcher alone (a client stopping its server) reach the binary too.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code === null ? 1 : code);
  }
});
