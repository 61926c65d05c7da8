"""Serve the bare repositories of a folder over smart HTTP, as a forge would: each request is handed to
`git http-backend` (a CGI program). For the Weblate system test, which cannot use a local path or file://
repository: `python git_http.py ROOT PORT` listens on 127.0.0.1:PORT until it is killed."""
from __future__ import annotations

import subprocess
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class Handler(BaseHTTPRequestHandler):
    root = ""

    def do_GET(self) -> None:
        self.backend()

    def do_POST(self) -> None:
        self.backend()

    def backend(self) -> None:
        url = urlsplit(self.path)
        body = b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().strip(), 16)
                chunk = self.rfile.read(size)
                self.rfile.readline()
                if not size:
                    break
                body += chunk
        else:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        env = {"GIT_PROJECT_ROOT": self.root, "GIT_HTTP_EXPORT_ALL": "1", "PATH_INFO": url.path,
               "QUERY_STRING": url.query, "REQUEST_METHOD": self.command, "REMOTE_USER": "weblate",
               "REMOTE_ADDR": self.client_address[0], "CONTENT_TYPE": self.headers.get("Content-Type", ""),
               "CONTENT_LENGTH": str(len(body)), "SERVER_PROTOCOL": "HTTP/1.1", "GATEWAY_INTERFACE": "CGI/1.1",
               "HTTP_GIT_PROTOCOL": self.headers.get("Git-Protocol", ""),
               "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", "")}
        out = subprocess.run(["git", "http-backend"], input=body, capture_output=True, env=env).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


if __name__ == "__main__":
    Handler.root = sys.argv[1]
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), Handler).serve_forever()
