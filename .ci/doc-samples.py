"""Every Swift sample in README.md, Docs/ and the DocC landing page compiles (run by `make test`).

Each page becomes a file of the DocSamples target (Tests/DocSamples), which `make test` builds: the
declarations at its blocks' top level stay declarations (file-private, so that two pages may both write a
`GetUser`; a later block of a page may use what an earlier one declared, as its reader does), and the
statements around them become the body of an `async throws` function, one per block. A sample that
uses names it does not declare gets them from an HTML comment right above it, which the page does not show:

    <!-- sample context:
    let api = Session()
    -->

and a block that is not Swift to compile (a Package.swift fragment, say) is marked `<!-- sample: not compiled -->`.
A `@Test(TRAITS) func` of a page is compiled as a plain function, its traits type-checked in a constant beside
it, so that the DocSamples target runs none of the pages' tests (they would call the pages' example hosts).

    python3 .ci/doc-samples.py          writes Tests/DocSamples from the pages
    python3 .ci/doc-samples.py --check  fails when Tests/DocSamples is not what the pages make
"""
import glob
import os
import re
import sys

PAGES = ["README.md"] + sorted(glob.glob("Docs/*.md")) + sorted(glob.glob("Sources/*/*.docc/*.md"))
OUT = "Tests/DocSamples"
DECLARATION = re.compile(r"(@\w+(\([^)]*\))?\s+)*((public|package|internal|fileprivate|private|final|open|indirect|static) )*(class|struct|enum|protocol|extension|actor|func|typealias)\b")
ACCESS = re.compile(r"(public|package|internal|fileprivate|private|open)\b")


def blocks(page):
    """(number, code, context, compiled) for each swift block of `page`."""
    lines = open(page, encoding="utf-8").read().splitlines()
    found, number, index = [], 0, 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            number += 1
            end = index + 1
            while lines[end].strip() != "```":
                end += 1
            context, compiled = [], True
            back = index - 1
            while back >= 0 and not lines[back].strip():
                back -= 1
            if back >= 0 and lines[back].strip() == "<!-- sample: not compiled -->":
                compiled = False
            elif back >= 0 and lines[back].strip() == "-->":
                start = back
                while start >= 0 and not lines[start].startswith("<!-- sample context:"):
                    start -= 1
                if start >= 0:
                    context = lines[start + 1:back]
            found.append((number, lines[index + 1:end], context, compiled))
            index = end
        index += 1
    return found


def chunks(code):
    """The block's top-level pieces: each starts at a line that is not indented (or not a closing brace)."""
    pieces = []
    for line in code:
        starts = line and not line[0].isspace() and not line.startswith("}") and not line.startswith(")") and not line.startswith("]")
        if starts or not pieces:
            pieces.append([line])
        else:
            pieces[-1].append(line)
    return pieces


def private(chunk):
    """A declaration made file-private, its attributes kept in front."""
    first = chunk[0]
    match = re.match(r"((@\w+(\([^)]*\))?\s+)*)(.*)", first)
    attributes, rest = match.group(1), match.group(4)
    if rest.startswith("public "):  # a sample's public API, in a test target whose imports are internal
        rest = rest[len("public "):]
    elif ACCESS.match(rest):
        return chunk
    return [attributes + "fileprivate " + rest] + chunk[1:]


def test_as_function(chunk, number):
    """A `@Test(TRAITS) func …` as a file-private function and a constant that holds its traits."""
    head = chunk[0]
    traits = ""
    if head.startswith("@Test("):
        depth, end = 0, len("@Test")
        for end in range(len("@Test"), len(head)):
            depth += {"(": 1, ")": -1}.get(head[end], 0)
            if depth == 0:
                break
        traits, head = head[len("@Test("):end], head[end + 1:]
    else:
        head = head[len("@Test"):]
    constant = [f"fileprivate let testTraits{number}: [any Trait] = [{traits}]"] if traits else []
    rest = [head.lstrip()] + chunk[1:] if head.strip() else chunk[1:]
    return constant + (private(rest) if rest else [])  # a `func` on a line of its own is a chunk of its own


def swift(page, samples):
    imports, declarations, functions = set(), [], []
    name = re.sub(r"\W", "_", os.path.splitext(os.path.basename(page))[0])
    for number, code, context in samples:
        statements, comments = [], []
        pieces = chunks(context + code)
        for chunk in pieces:
            head = chunk[0]
            if head.startswith("import ") or head.startswith("@testable import "):
                imports |= {line.strip() for line in chunk if line.strip()}
            elif all(not line.strip() or line.lstrip().startswith("//") for line in chunk):
                comments += chunk  # goes with what follows it
            elif head.startswith("@Test"):
                declarations += comments + test_as_function(chunk, len(declarations))
                comments = []
            elif DECLARATION.match(head):
                declarations += comments + private(chunk)
                comments = []
            else:
                statements += comments + chunk
                comments = []
        statements += comments
        if any(line.strip() for line in statements):
            functions += ["", f"// Swift block {number}", f"fileprivate func sample{number}() async throws {{"]
            functions += ["    " + line if line else line for line in statements]
            functions += ["}"]
    text = [f"// Generated from {page} by .ci/doc-samples.py: edit the page, not this file.", ""]
    text += sorted({"import BrickRequest", "import Foundation"} | imports) + [""]
    text += declarations + [""] + [f"fileprivate enum SamplesOf{name} {{"] + ["    " + line if line else line for line in functions] + ["}"]
    return "\n".join(text).rstrip() + "\n"


def generate():
    """One file per page: a page's samples may use what its earlier samples declare, as its reader does."""
    files = {}
    for page in PAGES:
        samples = [(number, code, context) for number, code, context, compiled in blocks(page) if compiled]
        if samples:
            name = re.sub(r"\W", "_", page.replace("/", "_").removesuffix(".md"))
            files[f"{name}.swift"] = swift(page, samples)
    return files


files = generate()
if sys.argv[1:] == ["--check"]:
    present = {name: open(os.path.join(OUT, name), encoding="utf-8").read() for name in os.listdir(OUT) if name.endswith(".swift")}
    stale = sorted(set(present) ^ set(files) | {name for name in files if present.get(name) != files[name]})
    if stale:
        print("doc-samples: Tests/DocSamples is not what the pages make (run python3 .ci/doc-samples.py): " + ", ".join(stale), file=sys.stderr)
        sys.exit(1)
    print(f"doc-samples: {len(files)} samples, up to date")
else:
    for name in os.listdir(OUT):
        if name.endswith(".swift"):
            os.remove(os.path.join(OUT, name))
    for name, text in files.items():
        open(os.path.join(OUT, name), "w", encoding="utf-8").write(text)
    print(f"doc-samples: {len(files)} samples written to {OUT}")
