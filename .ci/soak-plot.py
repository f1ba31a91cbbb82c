"""Draws the soak run (requests, resident KiB, open descriptors per line) as an SVG, standard library only."""
import sys

rows = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()[1:] if line.strip()]
points = [(int(r[0]), int(r[1]) / 1024, int(r[2])) for r in rows]
width, height, left, bottom = 720, 360, 60, 40
most = max(p[0] for p in points) or 1
rss_top = max(p[1] for p in points) * 1.2 or 1
fd_top = max(p[2] for p in points) * 1.5 or 1

def x(n): return left + (width - left - 20) * n / most
def y(value, top): return height - bottom - (height - bottom - 20) * value / top

def line(values, top, colour):
    path = " ".join(f"{x(n):.1f},{y(v, top):.1f}" for n, v in values)
    return f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{path}"/>'

svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
       '<rect width="100%" height="100%" fill="white"/>',
       f'<line x1="{left}" y1="{height - bottom}" x2="{width - 20}" y2="{height - bottom}" stroke="black"/>',
       f'<line x1="{left}" y1="20" x2="{left}" y2="{height - bottom}" stroke="black"/>',
       line([(p[0], p[1]) for p in points], rss_top, "#1f77b4"),
       line([(p[0], p[2]) for p in points], fd_top, "#d62728"),
       f'<text x="{left}" y="14">resident memory (MiB, blue, 0–{rss_top:.0f}) and open descriptors (red, 0–{fd_top:.0f})</text>',
       f'<text x="{width - 20}" y="{height - 10}" text-anchor="end">{most:,} requests</text>',
       f'<text x="{left}" y="{height - 10}">0</text>', '</svg>']
open(sys.argv[2], "w").write("\n".join(svg) + "\n")
print(f"soak: plotted {len(points)} samples to {sys.argv[2]}")
