#!/usr/bin/env python3
"""`make test`: every article of Docs/ (and the DocC landing page) opens with an abstract, a paragraph that
ends as a sentence does. DocC shows that first paragraph alone under the title and in every list of
articles, so one that ends in a colon introduces a sample the reader cannot see there."""
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
pages = sorted(root.glob("Docs/*.md")) + [root / "Sources/BrickRequest/BrickRequest.docc/BrickRequest.md"]
bad = []
for page in pages:
    lines = page.read_text().splitlines()
    body = [line for line in lines[1:]]  # after the title
    paragraph = []
    for line in body:
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    text = " ".join(paragraph)
    if not text or text.startswith(("```", "<!--", "|", "-", "#", "@")) or not text.endswith((".", ".)")):
        bad.append(f"{page.relative_to(root)}: the abstract must be a paragraph that ends in a period: …{text[-60:]!r}")
for line in bad:
    print(f"abstracts: {line}", file=sys.stderr)
if bad:
    sys.exit(1)
print(f"abstracts: {len(pages)} pages, each opens with a sentence")
