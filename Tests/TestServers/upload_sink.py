"""A test server that streams request bodies without keeping them: for every POST or PUT it answers with
the body's length and SHA-256, and for a multipart/form-data body the name, file name, content type,
length and SHA-256 of every part. It listens on the socket the test process passes as file descriptor 3.
"""
import base64
import hashlib
import json
import socket
import socketserver
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

CHUNK = 256 * 1024
ECHO_LIMIT = 64 * 1024  # bodies and parts up to this size are echoed back in base64


class Multipart:
    """A streaming multipart/form-data parser: parts are hashed as they pass, never held whole."""

    def __init__(self, boundary):
        self.delimiter = b"\r\n--" + boundary
        self.buffer = b"\r\n"  # the first delimiter has no CRLF before it
        self.state = "preamble"
        self.parts = []
        self.current = None

    def feed(self, data):
        self.buffer += data
        while True:
            if self.state == "preamble":
                index = self.buffer.find(self.delimiter)
                if index < 0:
                    self.buffer = self.buffer[-len(self.delimiter):]
                    return
                self.buffer = self.buffer[index + len(self.delimiter):]
                self.state = "after-delimiter"
            elif self.state == "after-delimiter":
                if len(self.buffer) < 2:
                    return
                if self.buffer[:2] == b"--":
                    self.state = "done"
                    return
                if self.buffer[:2] != b"\r\n":
                    raise ValueError("bad delimiter line")
                self.buffer = self.buffer[2:]
                self.state = "headers"
            elif self.state == "headers":
                index = self.buffer.find(b"\r\n\r\n")
                if index < 0:
                    return
                headers = {}
                for line in self.buffer[:index].decode("utf-8").split("\r\n"):
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                self.current = {"headers": headers, "length": 0, "hash": hashlib.sha256(), "kept": b""}
                self.buffer = self.buffer[index + 4:]
                self.state = "body"
            elif self.state == "body":
                index = self.buffer.find(self.delimiter)
                if index < 0:
                    safe = max(0, len(self.buffer) - len(self.delimiter) + 1)
                    self.take(self.buffer[:safe])
                    self.buffer = self.buffer[safe:]
                    return
                self.take(self.buffer[:index])
                self.finish_part()
                self.buffer = self.buffer[index + len(self.delimiter):]
                self.state = "after-delimiter"
            else:
                return

    def take(self, data):
        self.current["length"] += len(data)
        self.current["hash"].update(data)
        if self.current["length"] <= ECHO_LIMIT:
            self.current["kept"] += data

    def finish_part(self):
        disposition = self.current["headers"].get("content-disposition", "")
        fields = {}
        for item in disposition.split(";")[1:]:
            key, _, value = item.strip().partition("=")
            fields[key] = value.strip('"')
        self.parts.append({
            "name": fields.get("name"),
            "filename": fields.get("filename"),
            "contentType": self.current["headers"].get("content-type"),
            "length": self.current["length"],
            "sha256": self.current["hash"].hexdigest(),
            "base64": base64.b64encode(self.current["kept"]).decode() if self.current["length"] <= ECHO_LIMIT else None,
        })
        self.current = None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_exactly(self, count):
        while count:
            data = self.rfile.read(min(CHUNK, count))
            if not data:
                raise ConnectionError("body cut short")
            count -= len(data)
            yield data

    def body_chunks(self):
        if self.headers.get("Transfer-Encoding", "").lower() != "chunked":
            yield from self.read_exactly(int(self.headers.get("Content-Length", "0")))
            return
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b""):
                    pass
                return
            yield from self.read_exactly(size)
            self.rfile.readline()

    def do_POST(self):
        content_type = self.headers.get("Content-Type", "")
        parser = None
        if content_type.startswith("multipart/form-data"):
            boundary = content_type.split("boundary=", 1)[1].strip('"')
            parser = Multipart(boundary.encode())
        total, digest, kept = 0, hashlib.sha256(), b""
        for data in self.body_chunks():
            total += len(data)
            digest.update(data)
            if total <= ECHO_LIMIT:
                kept += data
            if parser:
                parser.feed(data)
        answer = {
            "method": self.command,
            "length": total,
            "sha256": digest.hexdigest(),
            "base64": base64.b64encode(kept).decode() if total <= ECHO_LIMIT else None,
            "chunked": self.headers.get("Transfer-Encoding", "").lower() == "chunked",
            "contentLength": self.headers.get("Content-Length"),
            "contentType": content_type,
            "parts": parser.parts if parser else None,
            "complete": parser.state == "done" if parser else True,
        }
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_PUT = do_POST


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True

    def __init__(self):
        HTTPServer.__init__(self, ("127.0.0.1", 0), Handler, bind_and_activate=False)
        self.socket = socket.socket(fileno=3)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    Server().serve_forever()
