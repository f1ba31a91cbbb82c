#!/usr/bin/env python3
"""The size check (run by `make test`): no function, initializer or accessor of the library, the stock bricks
or the command is longer than 60 lines, counted from its declaration to its closing brace, and no file of them is
longer than 250 lines. Fails naming each one that is."""
import glob, re, sys

LIMIT_FUNCTION, LIMIT_FILE = 60, 250
declaration = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|static|class|final|override|mutating|nonisolated(?:\(nonsending\))?|convenience|required|@inlinable|@usableFromInline)\s+)*(?:func\b|init\b|init\?|deinit\b)')

def code_only(line):
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)  # string literals on one line
    return line.split('//', 1)[0]

failures, big = [], []
for path in sorted(glob.glob('Sources/**/*.swift', recursive=True) + glob.glob('Bricks/**/*.swift', recursive=True)):
    lines = open(path, encoding='utf-8').read().splitlines()
    if len(lines) > LIMIT_FILE: big.append(f'{path}: {len(lines)} lines')
    in_block_string = False
    for start, line in enumerate(lines):
        if not declaration.match(line): continue
        depth, opened = 0, False
        for end in range(start, len(lines)):
            text = lines[end]
            if text.count('"""') % 2 == 1: in_block_string = not in_block_string; continue
            if in_block_string: continue
            code = code_only(text)
            if not opened and end > start + 8: break  # a requirement without a body
            depth += code.count('{') - code.count('}')
            opened = opened or '{' in code
            if opened and depth <= 0:
                if end - start + 1 > LIMIT_FUNCTION:
                    failures.append(f'{path}:{start + 1}: {end - start + 1} lines: {line.strip()[:80]}')
                break
for note in big: print(f'sizes: {note} (the limit is {LIMIT_FILE})', file=sys.stderr)
for failure in failures: print(f'sizes: {failure} (the limit is {LIMIT_FUNCTION})', file=sys.stderr)
if failures or big: sys.exit(1)
print(f'sizes: no function over {LIMIT_FUNCTION} lines, no file over {LIMIT_FILE}')
