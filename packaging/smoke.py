"""The installed package, as a client starts it: one `tools/list` through the official MCP
Python SDK (mcp==2.3.0), and the time from the start of the command to that first answer.

usage: python smoke.py ROOT COMMAND [ARG...]
   e.g. python smoke.py /tmp/proj target/pkg/venv/bin/mcp-java-index
        python smoke.py /tmp/proj uvx --from target/dist/x.whl mcp-java-index
The server is started as `COMMAND ARG... serve --root ROOT` with this process's environment
(the caller sets PATH). Prints one line; exits non-zero when the answer is not the tool list."""

import asyncio
import os
import sys
import time

from mcp import Client, StdioServerParameters


async def main() -> None:
    root, command, *args = sys.argv[1:]
    params = StdioServerParameters(command=command, args=[*args, "serve", "--root", root], env=dict(os.environ))
    start = time.monotonic()
    async with Client(params, mode="legacy") as client:
        tools = await client.list_tools()
        elapsed = time.monotonic() - start
    names = {t.name for t in tools.tools}
    assert {"java_index", "java_find_symbol", "find_references"} <= names, sorted(names)
    print(f"smoke: {' '.join([command, *args])}: tools/list answered {len(names)} tools, {elapsed:.2f} s after the start")


if __name__ == "__main__":
    asyncio.run(main())
