"""CHANGELOG.md keeps to what a user sees, in Keep a Changelog's form (run by `make test`): every release is
`## X.Y.Z — YYYY-MM-DD`, newest first, and a tag of this repository when the clone carries tags; its
sections are only Added, Changed, Deprecated, Removed, Fixed and Security, in that order; and no line counts
instructions or allocations (those belong to Docs/Performance.md and the commit messages)."""
import re
import subprocess
import sys

KINDS = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"]
problems = []
text = open("CHANGELOG.md", encoding="utf-8").read()
tags = set(subprocess.run(["git", "tag"], capture_output=True, text=True).stdout.split())
versions = []
kinds = []
for number, line in enumerate(text.splitlines(), 1):
    if line.startswith("## "):
        match = re.fullmatch(r"## (\d+)\.(\d+)\.(\d+) — \d{4}-\d{2}-\d{2}", line)
        if not match:
            problems.append(f"{number}: a release heading is '## X.Y.Z — YYYY-MM-DD': {line}")
            continue
        versions.append((tuple(map(int, match.groups())), number))
        kinds = []
    elif line.startswith("### "):
        kind = line[4:].strip()
        if kind not in KINDS:
            problems.append(f"{number}: '{kind}' is not one of {', '.join(KINDS)}")
        elif kinds and KINDS.index(kind) <= KINDS.index(kinds[-1]):
            problems.append(f"{number}: '{kind}' comes after '{kinds[-1]}' (order: {', '.join(KINDS)})")
        else:
            kinds.append(kind)
    elif re.search(r"callgrind|instructions per request|allocations per request|\d k →", line):
        problems.append(f"{number}: a cost figure belongs in Docs/Performance.md: {line.strip()}")
for (newer, _), (older, number) in zip(versions, versions[1:]):
    if older >= newer:
        problems.append(f"{number}: releases go newest first")
if tags:
    for version, number in versions:
        name = ".".join(map(str, version))
        if name not in tags:
            problems.append(f"{number}: release {name} has no tag")
for problem in problems:
    print(f"CHANGELOG.md:{problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
