"""Reads a HAR file with the tools people use, and prints what each saw as one JSON document:
haralyzer's entries (method, URL, status, body) and mitmproxy's flows loaded from the file (mitmproxy's
HAR import, the one `mitmdump -nr FILE.har` uses). Exits non-zero if either refuses the file."""
import base64
import json
import sys

from haralyzer import HarEntry, HarParser
from mitmproxy import io

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    parser = HarParser(json.load(f))
seen = {"haralyzer": [], "mitmproxy": []}
for raw in parser.har_data["entries"]:
    entry = HarEntry(raw)
    text = entry.response.text or ""
    body = base64.b64decode(text) if entry.response.textEncoding == "base64" else text.encode("utf-8")
    seen["haralyzer"].append({"method": entry.request.method, "url": entry.request.url,
                              "status": entry.response.status, "body": base64.b64encode(body).decode()})
with open(path, "rb") as f:
    for flow in io.FlowReader(f).stream():
        seen["mitmproxy"].append({"method": flow.request.method, "url": flow.request.url,
                                  "status": flow.response.status_code,
                                  "body": base64.b64encode(flow.response.get_content(strict=False) or b"").decode()})
print(json.dumps(seen))
