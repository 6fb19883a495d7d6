#!/usr/bin/env python3
"""Summarise bench rows (benchmark,unit,flavour,boot,run,value) into
results.md (table), summary.json and a PNG plot per unit (gnuplot).

Per flavour: the median of all runs, and the median of each boot. The
ratio is patched/baseline of the medians; its spread is the range of the
ratios of boot pairs (boots 2k and 2k+1: side by side, or one after the
other in ABBA order), which shows how noisy the shared machine was.
"""
import csv
import json
import os
import statistics as st
import subprocess
import sys


def pct(sorted_vals, p):
    """Nearest-rank percentile: the smallest value with at least p% of the
    values at or below it (so p99 of 20 values is the maximum)."""
    k = max(1, -(-p * len(sorted_vals) // 100))
    return sorted_vals[k - 1]


def main(raw, outdir, note):
    rows = [r for r in csv.reader(open(raw)) if r and r[0] != 'benchmark']
    data = {}
    for bench, unit, flavour, boot, run, value in rows:
        d = data.setdefault(bench, {'unit': unit, 'baseline': {}, 'patched': {}})
        d[flavour].setdefault(int(boot), []).append(float(value))
    os.makedirs(outdir, exist_ok=True)
    summary = {}
    md = ['# Benchmark results', '', f'{note}.', '',
          '| benchmark | unit | baseline median | patched median | patched/baseline | pair ratios (min..max) | boot-to-boot spread, baseline / patched | runs |',
          '|---|---|---:|---:|---:|---|---:|---:|']
    for bench, d in sorted(data.items()):
        b_all = [v for vs in d['baseline'].values() for v in vs]
        p_all = [v for vs in d['patched'].values() for v in vs]
        if not b_all or not p_all:
            continue
        bm, pm = st.median(b_all), st.median(p_all)
        # Boots 2k and 2k+1 form pair k (ABBA order: either flavour first).
        pair = []
        for boot, vs in d['baseline'].items():
            mate = boot ^ 1
            if mate in d['patched']:
                pair.append(st.median(d['patched'][mate]) / st.median(vs))
        s = {'unit': d['unit'], 'baseline_median': bm, 'patched_median': pm,
             'ratio': pm / bm if bm else None,
             'pair_ratios': pair,
             'baseline_boot_medians': {k: st.median(v) for k, v in d['baseline'].items()},
             'patched_boot_medians': {k: st.median(v) for k, v in d['patched'].items()},
             'runs': [len(b_all), len(p_all)]}
        summary[bench] = s
        spread = f'{min(pair):.3f}..{max(pair):.3f}' if pair else '-'
        # The noise floor: how far the same (baseline) kernel's per-boot
        # medians lie apart. A ratio closer to 1 than this is not resolved.
        aa = []
        for fl in ('baseline', 'patched'):
            bb = list(s[fl + '_boot_medians'].values())
            s[fl + '_aa_spread'] = max(bb) / min(bb) - 1 if min(bb) else None
            aa.append(f'{100 * s[fl + "_aa_spread"]:.1f}%' if s[fl + '_aa_spread'] is not None else '-')
        md.append(f'| {bench} | {d["unit"]} | {bm:.1f} | {pm:.1f} | '
                  f'{s["ratio"]:.3f} | {spread} | {" / ".join(aa)} | {len(b_all)}+{len(p_all)} |')
    # Distributions over all runs: what latency goals are stated in.
    md += ['', '| benchmark | unit | baseline p50 / p99 / max | patched p50 / p99 / max |',
           '|---|---|---:|---:|']
    for bench, d in sorted(data.items()):
        if bench not in summary:
            continue
        cols = []
        for fl in ('baseline', 'patched'):
            vs = sorted(v for r in d[fl].values() for v in r)
            q = {'p50': pct(vs, 50), 'p99': pct(vs, 99), 'max': vs[-1]}
            summary[bench][fl + '_dist'] = q
            cols.append(f'{q["p50"]:.1f} / {q["p99"]:.1f} / {q["max"]:.1f}')
        md.append(f'| {bench} | {d["unit"]} | {cols[0]} | {cols[1]} |')
    md += ['', 'Boot-to-boot spread: max/min - 1 of a kernel\'s per-boot '
           'medians, i.e. how much the same kernel moves between boots; a '
           'patched/baseline ratio closer to 1 than that is within noise.', '',
           'icount_*: one vCPU under QEMU -icount shift=0,sleep=off (preset bench1); '
           'the guest clock counts retired instructions, so these are guest '
           'instruction counts, independent of the host\'s load. The others are '
           'wall-clock figures of TCG guests on a shared 2-core host: noisy.',
           '', 'Ratios above 1 mean the patched kernel takes longer (for costs) '
           'or does more (for throughput); see the unit.', '']
    with open(os.path.join(outdir, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=2)
    with open(os.path.join(outdir, 'raw.csv'), 'w') as f:
        f.write('benchmark,unit,flavour,boot,run,value\n')
        f.writelines(','.join(r) + '\n' for r in rows)
    # One plot per unit: baseline vs patched medians, bars show boot range.
    units = sorted({s['unit'] for s in summary.values()})
    for i, unit in enumerate(units):
        benches = [b for b, s in summary.items() if s['unit'] == unit]
        dat = os.path.join(outdir, f'plot{i}.dat')
        with open(dat, 'w') as f:
            for b in benches:
                s = summary[b]
                bb = list(s['baseline_boot_medians'].values())
                pb = list(s['patched_boot_medians'].values())
                f.write(f'"{b}" {s["baseline_median"]} {min(bb)} {max(bb)} '
                        f'{s["patched_median"]} {min(pb)} {max(pb)}\n')
        png = f'plot-{unit.replace("/", "_per_")}.png'
        gp = f'''set terminal pngcairo size 900,500
set output "{os.path.join(outdir, png)}"
set title "baseline vs patched ({unit}; bars: range of per-boot medians)" noenhanced
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set ylabel "{unit}" noenhanced
set yrange [0:*]
set key outside bottom center horizontal
set xtics noenhanced
plot "{dat}" using 2:3:4:xtic(1) title "baseline (6.1)", "" using 5:6:7 title "patched (wq61)"
'''
        r = subprocess.run(['gnuplot'], input=gp, text=True, capture_output=True)
        if r.returncode == 0:
            md.append(f'![{unit}]({png})')
        else:
            print('gnuplot failed:', r.stderr, file=sys.stderr)
        os.unlink(dat)
    with open(os.path.join(outdir, 'results.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    print('\n'.join(md))


if __name__ == '__main__':
    main(*sys.argv[1:4])
