#!/usr/bin/env python3
"""Every public symbol of the library's modules has a documentation comment.

Reads the symbol graphs `swift package dump-symbol-graph` wrote (the directory is the first argument) and
lists each public symbol declared in this repository's sources without a `///` comment. Symbols the
compiler made (no source location) are skipped: DocC documents them from their protocols.
"""
import glob
import json
import sys

MODULES = ["BrickTransport", "BrickCurl", "BrickReachability", "BrickCore", "Bricks", "BrickTesting", "BrickCassette", "BrickRequest",
           "BrickHTTPTypes", "BrickOpenAPI", "BrickObservability", "BrickServiceLifecycle", "BrickQueue"]

directory = sys.argv[1]
missing = []
for module in MODULES:
    for path in glob.glob(f"{directory}/{module}.symbols.json") + glob.glob(f"{directory}/{module}@*.symbols.json"):
        graph = json.load(open(path))
        for symbol in graph["symbols"]:
            location = symbol.get("location", {}).get("uri", "")
            if symbol.get("accessLevel") != "public" or "docComment" in symbol or not location:
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # an extension block: its members carry the documentation
            line = symbol["location"]["position"]["line"] + 1
            file = location.split("/work/")[-1] if "/work/" in location else location
            missing.append(f"{file.split('/', 1)[-1] if file.startswith('main/') else file}:{line}: "
                           f"{'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']})")
for entry in sorted(set(missing)):
    print(f"undocumented: {entry}")
if missing:
    print(f"doc-coverage: {len(set(missing))} public symbols without documentation", file=sys.stderr)
    sys.exit(1)
print("doc-coverage: every public symbol is documented")
