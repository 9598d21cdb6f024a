#!/usr/bin/env node
// Lays out one platform package, @mcp-java-index/<os>-<cpu>, for `npm pack`:
//   node make.js <os>-<cpu> <binary> <out-dir>
// Its version is the launcher's (packaging/npm/mcp-java-index/package.json), its `os` and
// `cpu` make npm install it only where it runs. Used by packaging/build.sh and the release
// workflow alike.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

const [platform, binary, out] = process.argv.slice(2);
if (!platform || !binary || !out) {
  process.stderr.write("usage: node make.js <os>-<cpu> <binary> <out-dir>\n");
  process.exit(2);
}
const [os, cpu] = platform.split("-");
const launcher = require(path.join(__dirname, "..", "mcp-java-index", "package.json"));
if (!(`@mcp-java-index/${platform}` in launcher.optionalDependencies)) {
  process.stderr.write(`make.js: ${platform} is not one of the launcher's optionalDependencies\n`);
  process.exit(2);
}
const exe = os === "win32" ? "mcp-java-index.exe" : "mcp-java-index";
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, "bin"), { recursive: true });
fs.copyFileSync(binary, path.join(out, "bin", exe));
fs.chmodSync(path.join(out, "bin", exe), 0o755);
const pkg = {
  name: `@mcp-java-index/${platform}`,
  version: launcher.version,
  description: `The ${platform} binary of mcp-java-index (installed by the mcp-java-index package)`,
  license: launcher.license,
  repository: launcher.repository,
  os: [os],
  cpu: [cpu],
  files: [`bin/${exe}`, "LICENSE-MIT", "LICENSE-APACHE"],
  preferUnplugged: true,
};
fs.writeFileSync(path.join(out, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
const root = path.join(__dirname, "..", "..", "..");
for (const f of ["LICENSE-MIT", "LICENSE-APACHE"]) {
  fs.copyFileSync(path.join(root, f), path.join(out, f));
}
fs.writeFileSync(
  path.join(out, "README.md"),
  `# @mcp-java-index/${platform}\n\nThe ${platform} binary of [mcp-java-index](https://www.npmjs.com/package/mcp-java-index); install that package instead.\n`,
);
