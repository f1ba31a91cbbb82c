"""The tally of an Autobahn|Testsuite run (index.json): every case not OK with its behaviour, category 9's
timings as a benchmark, and the AUTOBAHN line. Exits 1 when a case FAILED or is UNIMPLEMENTED, or fewer than
517 ran."""
import json
import sys
from collections import Counter

EXPECTED = 517
path, agent = sys.argv[1], sys.argv[2]
with open(path) as file:
    cases = json.load(file)[agent]


def key(case):
    return [int(part) for part in case.split(".")]


counts = Counter()
for case in sorted(cases, key=key):
    result = cases[case]
    behaviour = result["behavior"]
    counts[behaviour] += 1
    close = result.get("behaviorClose")
    if behaviour != "OK" or close not in ("OK", "INFORMATIONAL"):
        print(f"  {case:8} {behaviour:13} close {close}")
print("category 9 (a benchmark, not a test): case, milliseconds")
for case in sorted((c for c in cases if c.startswith("9.")), key=key):
    print(f"  {case:8} {cases[case].get('duration', '?')}")
failed, unimplemented = counts["FAILED"], counts["UNIMPLEMENTED"]
print(
    f"AUTOBAHN cases={len(cases)} ok={counts['OK']} non_strict={counts['NON-STRICT']} "
    f"informational={counts['INFORMATIONAL']} unimplemented={unimplemented} failed={failed}"
)
sys.exit(1 if failed or unimplemented or len(cases) < EXPECTED else 0)
