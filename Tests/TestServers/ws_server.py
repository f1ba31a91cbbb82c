"""A WebSocket server for the tests, on the socket the test process passes as file descriptor 3.

`ws_server.py` runs Python's `websockets` (a strict peer no one here wrote), with permessage-deflate on:
  /echo             every message sent back as it came
  /headers          first a text message: the handshake's request fields as JSON; then echo
  /close?code=C&reason=R   closes at once with that code and reason
  /big?size=N       sends one binary message of N bytes, then echo
  /refuse           answers 403
  /counted          every text message kept in the server's ledger (across connections) and echoed;
                    `subscribe` is answered `subscribed`
  /ledger           sends the ledger as JSON ({"messages": [...], "connections": N}) and closes
The socket may be a TCP or a Unix one.
`ws_server.py silent` answers the handshake by hand (no compression), then reads and ignores everything:
it never answers a ping or a close frame, and never closes.
"""
import asyncio
import base64
import hashlib
import json
import socket
import sys
from urllib.parse import parse_qs, urlparse

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


LEDGER = {"messages": [], "connections": 0}


async def handler(connection):
    url = urlparse(connection.request.path)
    query = parse_qs(url.query)
    if url.path == "/counted":
        LEDGER["connections"] += 1
        async for message in connection:
            LEDGER["messages"].append(message)
            await connection.send("subscribed" if message == "subscribe" else message)
        return
    if url.path == "/ledger":
        await connection.send(json.dumps(LEDGER))
        await connection.close()
        return
    if url.path == "/headers":
        await connection.send(json.dumps({name: value for name, value in connection.request.headers.raw_items()}))
    elif url.path == "/close":
        await connection.close(int(query["code"][0]), query.get("reason", [""])[0])
        return
    elif url.path == "/big":
        await connection.send(b"\x00" * int(query["size"][0]))
    async for message in connection:
        await connection.send(message)


async def serve_websockets():
    from websockets.asyncio.server import serve

    listener = socket.socket(fileno=3)  # TCP or a Unix socket: the test process made it
    def select(connection, offered):
        return next((name for name in offered if name in ("chat.v2", "chat.v1")), None)

    def refuse(connection, request):
        if request.path == "/refuse":
            return connection.respond(403, "not here\n")
        return None

    # No timeouts of the server's own: under a loaded test run a client's task may wait seconds for a core,
    # and the tests judge the client, not how fast the machine schedules it.
    async with serve(
        handler, sock=listener, max_size=64 * 1024 * 1024, select_subprotocol=select, process_request=refuse,
        open_timeout=None, ping_interval=None, close_timeout=60,
    ) as server:
        await server.serve_forever()


def serve_silent():
    listener = socket.socket(fileno=3)
    held = []
    while True:
        connection, _ = listener.accept()
        request = b""
        while b"\r\n\r\n" not in request:
            more = connection.recv(4096)
            if not more:
                break
            request += more
        key = ""
        for line in request.decode("latin-1").split("\r\n"):
            if line.lower().startswith("sec-websocket-key:"):
                key = line.split(":", 1)[1].strip()
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        connection.sendall(
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        held.append(connection)  # read by no one: the client's pings and close go unanswered


if __name__ == "__main__":
    import logging
    import os

    logging.basicConfig(level=logging.DEBUG if os.environ.get("BRICK_WS_DEBUG") else logging.INFO, format="%(asctime)s %(message)s")
    logging.info("started")
    if sys.argv[1:] == ["silent"]:
        serve_silent()
    else:
        asyncio.run(serve_websockets())
