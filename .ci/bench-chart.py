"""Draws `make bench`'s results as an SVG, standard library only: for each scenario, each client's throughput
as a multiple of the reference of the same round (raw libcurl; JSONDecoder in S5), the bar at the median
and a whisker from the smallest to the largest round.

usage: bench-chart.py RESULTS.tsv OUT.svg   (RESULTS.tsv as .ci/bench writes it: round, scenario, RESULT line)
"""
import statistics
import sys

rows = {}
for line in open(sys.argv[1]):
    round_, scenario, result = line.rstrip("\n").split("\t")
    fields = dict(item.split("=", 1) for item in result.split()[1:])
    rows.setdefault(scenario, {}).setdefault(fields["client"], {})[round_] = fields

def rate(fields, scenario):
    wall = float(fields["wall_s"])
    return int(fields["bytes"]) / wall if scenario in ("S3", "S3m") else int(fields["n"]) / wall

order = ["S1", "S2", "S3", "S3m", "S4", "S5", "H1", "H2", "H3"]
clients = ["libcurl", "jsondecoder", "floor", "brick"]
colours = {"libcurl": "#9e9e9e", "jsondecoder": "#9e9e9e", "floor": "#7fa7d0", "brick": "#d9822b"}
names = {"libcurl": "raw libcurl (C)", "jsondecoder": "JSONDecoder (S5)", "floor": "the architecture's floor",
         "brick": "BrickRequest"}
groups = []
for scenario in [s for s in order if s in rows]:
    reference = "jsondecoder" if scenario == "S5" else "libcurl"
    base = rows[scenario].get(reference)
    if not base:
        continue
    bars = []
    for client in clients:
        runs = rows[scenario].get(client)
        if not runs:
            continue
        ratios = [rate(runs[r], scenario) / rate(base[r], scenario) for r in runs if r in base]
        if ratios:
            bars.append((client, statistics.median(ratios), min(ratios), max(ratios)))
    groups.append((scenario, bars))

bar_w, gap, left, top, bottom, plot_h = 22, 26, 56, 34, 58, 260
width = left + sum(len(b) * bar_w + gap for _, b in groups) + 20
height = top + plot_h + bottom
ceiling = max([1.2] + [hi for _, bars in groups for _, _, _, hi in bars]) * 1.05
def y(value): return top + plot_h - plot_h * value / ceiling

svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
       '<rect width="100%" height="100%" fill="white"/>',
       f'<text x="{left}" y="18">Throughput × raw libcurl of the same round (median, whiskers: min–max of the rounds)</text>']
tick = 0.0
while tick <= ceiling:
    svg.append(f'<line x1="{left}" y1="{y(tick):.1f}" x2="{width - 20}" y2="{y(tick):.1f}" stroke="#e0e0e0"/>')
    svg.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.2f}</text>')
    tick += 0.25
x = left + gap / 2
for scenario, bars in groups:
    start = x
    for client, median, low, high in bars:
        svg.append(f'<rect x="{x:.1f}" y="{y(median):.1f}" width="{bar_w - 4}" height="{y(0) - y(median):.1f}" '
                   f'fill="{colours[client]}"><title>{names[client]}: {median:.2f} ({low:.2f}–{high:.2f})</title></rect>')
        middle = x + (bar_w - 4) / 2
        svg.append(f'<line x1="{middle:.1f}" y1="{y(high):.1f}" x2="{middle:.1f}" y2="{y(low):.1f}" stroke="black"/>')
        svg.append(f'<text x="{middle:.1f}" y="{y(high) - 4:.1f}" text-anchor="middle" font-size="10">{median:.2f}</text>')
        x += bar_w
    svg.append(f'<text x="{(start + x - 4) / 2:.1f}" y="{y(0) + 16:.1f}" text-anchor="middle">{scenario}</text>')
    x += gap
svg.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - 20}" y2="{y(0):.1f}" stroke="black"/>')
legend_x = left
for client in ["libcurl", "floor", "brick"]:
    svg.append(f'<rect x="{legend_x}" y="{height - 22}" width="12" height="12" fill="{colours[client]}"/>')
    svg.append(f'<text x="{legend_x + 16}" y="{height - 12}">{names[client]}</text>')
    legend_x += 200
svg.append("</svg>")
open(sys.argv[2], "w").write("\n".join(svg) + "\n")
print(f"bench: chart of {len(groups)} scenarios written to {sys.argv[2]}")
