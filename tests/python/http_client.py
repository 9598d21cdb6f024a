"""Drives `serve --http` with the official MCP Python SDK's Streamable HTTP client (pip install
mcp==2.3.0), in both protocol eras (mode="legacy": initialize and a session; mode="auto":
server/discover, 2026-07-28), several clients at once on one server.

usage: python3 http_client.py URL TOKEN   (the server's ROOT holds a copy of tests/fixtures)
Prints one line per era and exits non-zero on the first failed check."""

import asyncio
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def session(mode: str, url: str, token: str, n: int) -> str:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with http, Client(streamable_http_client(url, http_client=http), mode=mode) as client:
        version = str(client.protocol_version)
        tools = await client.list_tools()
        names = {t.name for t in tools.tools}
        assert {"java_index", "java_read_range", "java_find_symbol"} <= names, names

        r = await client.call_tool("java_index", {"filePath": "records.java"})
        assert not r.is_error, r.content
        first = r.structured_content["classes"][0]
        r = await client.call_tool(
            "java_read_range", {"filePath": "records.java", "startLine": first["startLine"], "endLine": first["startLine"]}
        )
        assert not r.is_error, r.content
        assert r.structured_content["content"].startswith(f"{first['startLine']}: "), r.structured_content

        r = await client.call_tool("java_find_symbol", {"query": first["name"], "rootDir": "."})
        assert not r.is_error, r.content

        listed = await client.list_resources()
        uri = next(str(r.uri) for r in listed.resources if str(r.uri).endswith("/records.java"))
        read = await client.read_resource(uri)
        assert read.contents[0].text.startswith("package "), read.contents[0]
        templates = await client.list_resource_templates()
        assert {t.uri_template for t in templates.resource_templates} == {"file:///{path}", "java-type://{fqn}"}

        r = await client.call_tool("java_index", {"filePath": "../outside/Secret.java"})
        assert r.is_error and "outside the workspace roots" in r.content[0].text, r.content
        return f"python sdk http {mode} #{n}: ok (protocol {version}, {len(names)} tools)"


async def refused(url: str) -> None:
    # No token: the SDK's request fails (HTTP 401) instead of reaching the server.
    async with httpx2.AsyncClient() as http:
        r = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                            headers={"Accept": "application/json, text/event-stream"})
        assert r.status_code == 401, r.status_code


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    await refused(url)
    for mode in ("legacy", "auto"):
        # Three clients of one era at once, each in its own session.
        for line in await asyncio.gather(*(session(mode, url, token, n) for n in range(3))):
            print(line)


if __name__ == "__main__":
    asyncio.run(main())
