#!/usr/bin/env python3
"""Summarise bench rows (benchmark,unit,flavour,boot,run,value) into
results.md (table), summary.json and a PNG plot per unit (gnuplot).

Usage: report.py RAW.csv OUTDIR "FLAVOURS" NOTE

Per flavour: the median of all runs, and the median of each boot. Each
ratio (patched/baseline, mainline/baseline, patched/mainline) is one of the
medians; beside it, the range of the same ratio within each set of boots
(one boot per flavour, side by side or one after the other), which shows
how noisy the shared machine was.
"""
import csv
import os
import statistics as st
import sys

import reporting


def pct(sorted_vals, p):
    """Nearest-rank percentile: the smallest value with at least p% of the
    values at or below it (so p99 of 20 values is the maximum)."""
    k = max(1, -(-p * len(sorted_vals) // 100))
    return sorted_vals[k - 1]


# The ratios reported, numerator/denominator, when both flavours ran.
RATIOS = [('patched', 'baseline'), ('mainline', 'baseline'), ('patched', 'mainline')]


def main(raw, outdir, flavours, note):
    flavours = flavours.split()
    nf = len(flavours)
    rows = [r for r in csv.reader(open(raw)) if r and r[0] != 'benchmark']
    data = {}
    for bench, unit, flavour, boot, run, value in rows:
        d = data.setdefault(bench, {'unit': unit, **{f: {} for f in flavours}})
        d.setdefault(flavour, {}).setdefault(int(boot), []).append(float(value))
    os.makedirs(outdir, exist_ok=True)
    ratios = [(n, m) for n, m in RATIOS if n in flavours and m in flavours]
    summary = {}
    md = ['# Benchmark results', '', f'{note}.', '',
          '| benchmark | unit | ' + ' | '.join(f'{f} median' for f in flavours) + ' | '
          + ' | '.join(f'{n}/{m} (per set min..max)' for n, m in ratios)
          + ' | boot-to-boot spread, ' + ' / '.join(flavours) + ' | runs |',
          '|---|---|' + '---:|' * nf + '---|' * len(ratios) + '---:|---:|']
    for bench, d in sorted(data.items()):
        alls = {f: [v for vs in d[f].values() for v in vs] for f in flavours}
        if not all(alls.values()):
            continue
        s = {'unit': d['unit'], 'runs': {f: len(alls[f]) for f in flavours}}
        for f in flavours:
            s[f + '_median'] = st.median(alls[f])
            s[f + '_boot_medians'] = {k: st.median(v) for k, v in d[f].items()}
            bb = list(s[f + '_boot_medians'].values())
            # The noise floor: how far the same kernel's per-boot medians
            # lie apart. A ratio closer to 1 than this is not resolved.
            s[f + '_aa_spread'] = max(bb) / min(bb) - 1 if min(bb) else None
        cells = []
        for n, m in ratios:
            # Boots nf*k .. nf*k+nf-1 form set k (bench.sh numbers them so).
            per_set = []
            for boot, vs in d[n].items():
                mate = boot - flavours.index(n) + flavours.index(m)
                if boot // nf == mate // nf and mate in d[m]:
                    per_set.append(st.median(vs) / st.median(d[m][mate]))
            r = s[n + '_median'] / s[m + '_median'] if s[m + '_median'] else None
            s[f'{n}/{m}'] = {'ratio': r, 'per_set': per_set}
            rng = f' ({min(per_set):.3f}..{max(per_set):.3f})' if per_set else ''
            cells.append(f'{r:.3f}{rng}' if r is not None else '-')
        summary[bench] = s
        aa = [f'{100 * s[f + "_aa_spread"]:.1f}%' if s[f + '_aa_spread'] is not None else '-'
              for f in flavours]
        md.append(f'| {bench} | {d["unit"]} | '
                  + ' | '.join(f'{s[f + "_median"]:.1f}' for f in flavours) + ' | '
                  + ' | '.join(cells) + f' | {" / ".join(aa)} | '
                  + '+'.join(str(len(alls[f])) for f in flavours) + ' |')
    # Distributions over all runs: what latency goals are stated in.
    md += ['', '| benchmark | unit | ' + ' | '.join(f'{f} p50 / p99 / max' for f in flavours) + ' |',
           '|---|---|' + '---:|' * nf]
    for bench, d in sorted(data.items()):
        if bench not in summary:
            continue
        cols = []
        for fl in flavours:
            vs = sorted(v for r in d[fl].values() for v in r)
            q = {'p50': pct(vs, 50), 'p99': pct(vs, 99), 'max': vs[-1]}
            summary[bench][fl + '_dist'] = q
            cols.append(f'{q["p50"]:.1f} / {q["p99"]:.1f} / {q["max"]:.1f}')
        md.append(f'| {bench} | {d["unit"]} | ' + ' | '.join(cols) + ' |')
    md += ['', 'Boot-to-boot spread: max/min - 1 of a kernel\'s per-boot '
           'medians, i.e. how much the same kernel moves between boots; a '
           'patched/baseline ratio closer to 1 than that is within noise.', '',
           'icount_*: one vCPU under QEMU -icount shift=0,sleep=off (preset bench1); '
           'the guest clock counts retired instructions, so these are guest '
           'instruction counts, independent of the host\'s load. The others are '
           'wall-clock figures of TCG guests on a shared 2-core host: noisy.',
           '', 'Ratios above 1 mean the first flavour takes longer (for costs) '
           'or does more (for throughput); see the unit. mainline is 6.12 '
           'as Debian ships it: it differs from 6.1 in far more than the '
           'workqueue, so its ratios set the series in context, no more.', '']
    reporting.save_data(outdir, 'summary.json', summary, 'raw.csv',
                        'benchmark,unit,flavour,boot,run,value', rows)
    # One plot per unit: each flavour's median, bars show its boot range.
    units = sorted({s['unit'] for s in summary.values()})
    labels = {'baseline': 'baseline (6.1)', 'patched': 'patched (wq61)', 'mainline': 'mainline (6.12)'}
    for unit in units:
        benches = [b for b, s in summary.items() if s['unit'] == unit]
        rows = []
        for b in benches:
            s = summary[b]
            cols = []
            for fl in flavours:
                bb = list(s[fl + '_boot_medians'].values())
                cols += [s[fl + '_median'], min(bb), max(bb)]
            rows.append((b, cols))
        line = reporting.histogram(
            outdir, f'plot-{unit.replace("/", "_per_")}.png', rows,
            [labels.get(fl, fl) for fl in flavours], errorbars=True, alt=unit,
            title=f"{' vs '.join(flavours)} ({unit}; bars: range of per-boot medians)",
            ylabel=unit)
        if line:
            md.append(line)
    with open(os.path.join(outdir, 'results.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    print('\n'.join(md))


if __name__ == '__main__':
    main(*sys.argv[1:5])
