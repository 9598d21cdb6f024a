"""What a real MCP client sees: round-trip latency through the official MCP Python SDK
(mcp==2.3.0), including the client's own parsing and validation of each answer, beside the
same calls timed on the raw pipe by benches/server.rs.

usage: target/venv/bin/python benches/client_latency.py BINARY FILE.java [N]
  FILE.java is copied into a fresh temp root (so the server's indexing pass is trivial);
  prints the median and p90 of N (default 30) calls of tools/list, of a cached java_index of
  FILE.java, and of a cached java_index of a one-line file: the floor of a tool call's round
  trip through the SDK, whatever the answer. benches/client_latency.mjs does the same through
  the official TypeScript SDK."""

import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters


async def main(binary: str, java: str, n: int) -> None:
    root = Path(tempfile.mkdtemp())
    name = Path(java).name
    shutil.copy(java, root / name)
    (root / "Tiny.java").write_text("class Tiny {}\n")
    params = StdioServerParameters(command=binary, args=["serve", "--no-watch", "--root", str(root)])
    start = time.perf_counter()
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        first = time.perf_counter() - start
        listing = []
        for _ in range(n):
            t = time.perf_counter()
            await client.list_tools()
            listing.append(time.perf_counter() - t)
        r = await client.call_tool("java_index", {"filePath": name})  # fills the cache
        assert not r.is_error, r.content
        size = len(r.content[0].text)
        calls = []
        for _ in range(n):
            t = time.perf_counter()
            r = await client.call_tool("java_index", {"filePath": name})
            calls.append(time.perf_counter() - t)
            assert not r.is_error
        await client.call_tool("java_index", {"filePath": "Tiny.java"})
        tiny = []
        for _ in range(n):
            t = time.perf_counter()
            r = await client.call_tool("java_index", {"filePath": "Tiny.java"})
            tiny.append(time.perf_counter() - t)
            assert not r.is_error
    shutil.rmtree(root)

    def ms(xs):
        xs = sorted(xs)
        return f"median {1000 * statistics.median(xs):.1f} ms, p90 {1000 * xs[int(0.9 * (len(xs) - 1))]:.1f} ms"

    print(f"start to first tools/list: {1000 * first:.1f} ms")
    print(f"tools/list: {ms(listing)}")
    print(f"cached java_index {name} ({size} bytes of text): {ms(calls)}")
    print(f"cached java_index Tiny.java (one line; the floor): {ms(tiny)}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 30))
