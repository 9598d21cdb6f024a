"""Drives the real server with the official MCP Python SDK (pip install mcp==2.3.0), in both
protocol eras: mode="legacy" (initialize) and mode="auto" (server/discover, 2026-07-28).

usage: python3 client.py BINARY ROOT   (ROOT holds a copy of tests/fixtures)
Prints one line per era and exits non-zero on the first failed check."""

import asyncio
import sys

from mcp import Client, StdioServerParameters


async def session(mode: str, binary: str, root: str) -> None:
    params = StdioServerParameters(command=binary, args=["serve", "--root", root])
    async with Client(params, mode=mode) as client:
        version = str(client.protocol_version)
        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        assert {"java_index", "java_read_range", "java_read_javadoc"} <= set(names), names
        assert all(t.output_schema and t.output_schema.get("type") == "object" for t in tools.tools)

        r = await client.call_tool("java_index", {"filePath": "records.java"})
        assert not r.is_error, r.content
        outline = r.structured_content
        assert outline["filePath"] == "records.java", outline["filePath"]
        first = outline["classes"][0]
        assert first["startLine"] >= 1 and first["endLine"] >= first["startLine"], first

        r = await client.call_tool("java_read_javadoc", {"filePath": "records.java", "symbolId": first["symbolId"]})
        assert not r.is_error, r.content
        assert r.structured_content["found"] == first["javadoc"]["present"], r.structured_content

        r = await client.call_tool("java_read_range", {"filePath": "records.java", "startLine": first["startLine"], "endLine": first["startLine"]})
        assert not r.is_error, r.content
        assert r.structured_content["content"].startswith(f"{first['startLine']}: "), r.structured_content

        r = await client.call_tool("java_index", {"filePath": "../outside/Secret.java"})
        assert r.is_error, r.structured_content
        assert "outside the workspace roots" in r.content[0].text, r.content[0].text
        print(f"python sdk {mode}: ok (protocol {version}, {len(names)} tools)")


async def main() -> None:
    binary, root = sys.argv[1], sys.argv[2]
    for mode in ("legacy", "auto"):
        await session(mode, binary, root)


if __name__ == "__main__":
    asyncio.run(main())
