"""The system packages a program that uses BrickRequest links against are named by one install line, the same
wherever a page gives it (README.md, Docs/GettingStarted.md, the DocC landing page), and .ci/setup installs
every one of them whatever its mode (run by `make test`)."""
import pathlib
import re
import sys

LINE = "apt-get install libcurl4-openssl-dev libpsl-dev zlib1g-dev libbrotli-dev libzstd-dev"
PAGES = ["README.md", "Docs/GettingStarted.md", "Sources/BrickRequest/BrickRequest.docc/BrickRequest.md"]

root = pathlib.Path(__file__).resolve().parent.parent
problems = []
setup = (root / ".ci/setup").read_text()
unconditional = setup.split("\nmissing=()")[1].split('\nif [ "$mode"')[0]
always = set(re.findall(r"^want (\S+)$", unconditional, re.MULTILINE))
for package in LINE.split()[2:]:
    if package not in always:
        problems.append(f".ci/setup does not install {package} in every mode")
for page in PAGES:
    text = (root / page).read_text()
    if f"`{LINE}`" not in text:
        problems.append(f"{page}: the install line `{LINE}` is missing")
    for other in re.findall(r"`(apt-get install libcurl[^`]*)`", text):
        if other != LINE:
            problems.append(f"{page}: another install line: `{other}`")
if problems:
    print("\n".join("install-line: " + p for p in problems))
    sys.exit(1)
print(f"install-line: {len(PAGES)} pages give the one install line, and .ci/setup installs it")
