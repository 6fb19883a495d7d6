#!/usr/bin/env python3
"""Non-strict cache locality run after run (issue 25 section 3) as a table.

  locality_report.py LOCALITY.CSV OUTDIR "FLAVOURS" "HOW"

LOCALITY.CSV rows: condition,metric,flavour,run,value
(bench/locality-in-guest.sh). Writes OUTDIR/locality.csv, locality.json
and locality.md: per condition and flavour, the L3-local share's minimum,
median and maximum over the runs, how many runs reached the goal (90 %),
and the items that started outside the L3, split by why.
"""
import csv
import statistics
import sys

from reporting import histogram, save_data

GOAL = 90.0
CONDITIONS = ['idle', 'loaded']


def main():
    src, outdir, flavours, how = sys.argv[1:5]
    flavours = flavours.split()
    rows, vals = [], {}
    with open(src) as f:
        for row in csv.reader(f):
            if row and row[0] == 'condition':
                continue  # the header of a kept locality.csv
            if len(row) != 5:
                sys.exit(f'locality_report: bad row {row}')
            rows.append(row)
            cond, metric, flv, _run, value = row
            vals.setdefault((cond, metric, flv), []).append(float(value))
    out = ['# Locality run after run: non-strict cache (issue 25 section 3)', '',
           f'{how}. Each run: 200 items of 100 us queued at once on `wq61_affn` '
           'from a kthread on CPU 0, 5, 10 and 15 in turn (800 items); the '
           'share that started in the issuer\'s L3 (4 CPUs of 16). wq61 and '
           'mainline: the workqueue set to non-strict `cache`; stock 6.1: its '
           'NUMA-node pools (8 CPUs, two L3s). Of the items that started '
           'outside the L3: "busy", by a worker that went on from its previous '
           'item without sleeping (never woken for it, so never repatriated); '
           '"free", while a CPU of that L3 ran none of the run\'s items and no '
           'issuer for an item\'s length before and after: a start that a '
           'saturated L3 did not force.', '',
           f'| condition | kernel | L3-local % min | median | max | runs >= {GOAL:g} % '
           '| started outside | of which busy | of which free |',
           '|---|---|---:|---:|---:|---:|---:|---:|---:|']
    summary, plot_rows = {}, []
    for cond in CONDITIONS:
        bars = []
        for flv in flavours:
            v = vals.get((cond, 'l3_local', flv))
            if not v:
                bars += [0, 0, 0]
                continue
            sums = {m: int(sum(vals.get((cond, m, flv), [0])))
                    for m in ('out', 'out_busy', 'out_free')}
            s = {'min': min(v), 'median': statistics.median(v), 'max': max(v),
                 'runs': len(v), 'runs_at_goal': sum(x >= GOAL for x in v), **sums}
            summary.setdefault(cond, {})[flv] = s
            out.append(f'| {cond} | {flv} | {s["min"]:.1f} | {s["median"]:.1f} | '
                       f'{s["max"]:.1f} | {s["runs_at_goal"]} of {s["runs"]} | '
                       f'{sums["out"]} | {sums["out_busy"]} | {sums["out_free"]} |')
            bars += [s['median'], s['min'], s['max']]
        plot_rows.append((cond, bars))
    out.append('')
    plot = histogram(outdir, 'plot-locality.png', plot_rows, flavours,
                     title='non-strict cache: items started in the issuer\'s L3',
                     ylabel='% (median, min..max over runs)', alt='locality run after run',
                     errorbars=True, yrange='0:100', size='700,450')
    if plot:
        out += [plot, '']
    save_data(outdir, 'locality.json', {'how': how, 'goal': GOAL, 'conditions': summary},
              'locality.csv', 'condition,metric,flavour,run,value', rows)
    with open(f'{outdir}/locality.md', 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()
