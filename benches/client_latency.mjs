// What a real MCP client sees, through the official TypeScript SDK (@modelcontextprotocol/sdk,
// which the MCP Inspector depends on; .ci/run installs it into target/node_modules): round
// trips including the client's parsing and its validation of structuredContent against the
// tool's outputSchema. The same calls as benches/client_latency.py.
//
// usage, from the repository's root: node benches/client_latency.mjs BINARY FILE.java [N]
import { createRequire } from "node:module";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

// Resolved from target/node_modules under the current directory.
const require = createRequire(resolve(process.cwd(), "target", "package.json"));
const { Client } = await import(require.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(require.resolve("@modelcontextprotocol/sdk/client/stdio.js"));

const [binary, java, nArg] = process.argv.slice(2);
const n = Number(nArg ?? 30);
const root = mkdtempSync(join(tmpdir(), "client-latency-"));
const name = basename(java);
copyFileSync(java, join(root, name));
writeFileSync(join(root, "Tiny.java"), "class Tiny {}\n");

const ms = (xs) => {
  xs = [...xs].sort((a, b) => a - b);
  const median = xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
  return `median ${median.toFixed(1)} ms, p90 ${xs[Math.floor(0.9 * (xs.length - 1))].toFixed(1)} ms`;
};
const timed = async (f) => {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return out;
};

const start = performance.now();
const transport = new StdioClientTransport({ command: binary, args: ["serve", "--no-watch", "--root", root], stderr: "ignore" });
const client = new Client({ name: "client-latency", version: "0" });
await client.connect(transport);
await client.listTools(); // also caches the output schemas the SDK validates against
const first = performance.now() - start;
const listing = await timed(() => client.listTools());
const call = async (file) => {
  const r = await client.callTool({ name: "java_index", arguments: { filePath: file } });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r;
};
const size = (await call(name)).content[0].text.length; // fills the cache
const calls = await timed(() => call(name));
await call("Tiny.java");
const tiny = await timed(() => call("Tiny.java"));
await client.close();
rmSync(root, { recursive: true, force: true });

console.log(`start to first tools/list: ${first.toFixed(1)} ms`);
console.log(`tools/list: ${ms(listing)}`);
console.log(`cached java_index ${name} (${size} bytes of text): ${ms(calls)}`);
console.log(`cached java_index Tiny.java (one line; the floor): ${ms(tiny)}`);
