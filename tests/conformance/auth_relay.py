"""An HTTP relay that adds `Authorization: Bearer <token>` to every request: the official MCP
conformance suite has no way to send a token, and the server always requires one. Streams
responses (SSE) through as they come. The relay's own loopback address in `Host` and `Origin`
becomes the server's, so the server sees what it would see from the suite directly (its DNS
rebinding checks included). Standard library only.

usage: python3 auth_relay.py UPSTREAM_HOST:PORT TOKEN_FILE
Prints `relay: http://127.0.0.1:PORT` on stdout once listening; serves until killed."""

import http.client
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[1]
TOKEN = open(sys.argv[2]).read().strip()
HOP = {"host", "content-length", "connection", "authorization", "transfer-encoding", "keep-alive"}


def upstream_authority(authority):
    """`localhost:RELAY` -> `localhost:UPSTREAM`; any other authority unchanged."""
    host, _, port = authority.rpartition(":")
    if port == str(server.server_address[1]) and host in ("localhost", "127.0.0.1", "[::1]"):
        return f"{host}:{UPSTREAM.rsplit(':', 1)[1]}"
    return authority


class Relay(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else None
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        headers["Host"] = upstream_authority(self.headers.get("Host", ""))
        if "Origin" in headers:
            scheme, _, authority = headers["Origin"].partition("://")
            headers["Origin"] = f"{scheme}://{upstream_authority(authority)}"
        headers["Authorization"] = f"Bearer {TOKEN}"
        up = http.client.HTTPConnection(*UPSTREAM.rsplit(":", 1), timeout=300)
        try:
            up.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for k, v in headers.items():
                up.putheader(k, v)
            if body is not None:
                up.putheader("Content-Length", str(len(body)))
            up.endheaders(body)
            resp = up.getresponse()
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in HOP:
                    self.send_header(k, v)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            while True:
                chunk = resp.read1(65536)
                if not chunk:
                    break
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            up.close()

    do_GET = do_POST
    do_DELETE = do_POST


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that hung up mid-stream: nothing to relay


server = Server(("127.0.0.1", 0), Relay)
print(f"relay: http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
