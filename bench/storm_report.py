#!/usr/bin/env python3
"""The kworker storm (issue 24) as a table.

  storm_report.py STORM.CSV OUTDIR "FLAVOURS" "HOW"

STORM.CSV rows: config,metric,flavour,run,value (bench/storm-in-guest.sh).
Writes OUTDIR/storm.csv (a copy) and OUTDIR/storm.md: per configuration
and metric, each flavour's median over its runs with min..max.
"""
import csv
import shutil
import statistics
import sys

METRICS = [
    ('peak_running', 'storm items running at once, all CPUs (peak)'),
    ('peak_cpu', 'storm items running at once on one CPU (peak)'),
    ('workers', 'distinct kworkers that ran storm items'),
    ('kworkers_new', 'kworkers that exist after the storm, not before'),
    ('drain_ms', 'first queueing to last completion (ms, TCG: noisy)'),
    ('first_drained_ms', 'first queueing to the end of the first CPU backlog to drain (ms, TCG: noisy)'),
    ('item_us', 'an item from its start to its end, mean (us, TCG: noisy)'),
    ('probe_wait_ms', 'a short item queued on the first CPU: wait (ms, TCG: noisy)'),
]


def drain_ratios(cfg, vals, runs, flavours):
    """Drain time of each kernel over the first one's, and of a kernel
    over its own control run (detection off) in the same boot."""
    def med(flv):
        v = vals.get((cfg, 'drain_ms', flv))
        return statistics.median(v) if v else None
    base = med(flavours[0])
    parts = []
    for flv in flavours[1:]:
        m = med(flv)
        if m is not None and base and not flv.endswith('-off'):
            parts.append(f'{flv}/{flavours[0]} {m / base:.2f}')
    for flv in flavours:
        off = f'{flv}-off'
        if off not in flavours:
            continue
        paired = [v / runs[(cfg, 'drain_ms', off, run)]
                  for (c, metric, f, run), v in runs.items()
                  if (c, metric, f) == (cfg, 'drain_ms', flv)
                  and runs.get((cfg, 'drain_ms', off, run))]
        if paired:
            parts.append(f'{flv}/{off} run by run {statistics.median(paired):.2f} '
                         f'({min(paired):.2f}..{max(paired):.2f}, {len(paired)} pairs)')
    return ['Drain time, ratio of the medians: ' + '; '.join(parts) + '.'] if parts else []


def main():
    src, outdir, flavours, how = sys.argv[1:5]
    flavours = flavours.split()
    runs = {}
    with open(src) as f:
        for row in csv.reader(f):
            if len(row) != 5:
                sys.exit(f'storm_report: bad row {row}')
            cfg, metric, flv, run, value = row
            runs[(cfg, metric, flv, run)] = float(value)
    vals = {}
    for (cfg, metric, flv, _run), value in runs.items():
        vals.setdefault((cfg, metric, flv), []).append(value)
    shutil.copy(src, f'{outdir}/storm.csv')
    configs = sorted({k[0] for k in vals}, key=lambda c: c.split(':'))
    out = ['# Kworker storm (issue 24)', '',
           f'{how}. Module `wq61_storm`: per configuration `NCPUS:ITEMS:HOLD_US`, '
           'ITEMS work items queued on each of NCPUS CPUs of a per-cpu '
           'workqueue, each taking one shared spinlock 20 times for HOLD_US '
           'with `cond_resched()` between, never sleeping; then a short '
           'item on the first CPU of another per-cpu workqueue. Medians '
           'over the runs, min..max in brackets. `patched-off`, '
           '`mainline-off`: the same boots with '
           '`workqueue.cpu_intensive_thresh_us` set to 0 for the run '
           '(detection off: 6.1\'s concurrency management), before or '
           'after the run with it on, in turn.', '']
    for cfg in configs:
        out += [f'## {cfg}', '',
                '| metric | ' + ' | '.join(flavours) + ' |',
                '|---|' + '---:|' * len(flavours)]
        for m, what in METRICS:
            cells = []
            for flv in flavours:
                v = vals.get((cfg, m, flv))
                if not v:
                    cells.append('-')
                    continue
                cells.append(f'{statistics.median(v):g} ({min(v):g}..{max(v):g})')
            out.append(f'| {what} | ' + ' | '.join(cells) + ' |')
        out += [''] + drain_ratios(cfg, vals, runs, flavours) + ['']
    with open(f'{outdir}/storm.md', 'w') as f:
        f.write('\n'.join(out))


if __name__ == '__main__':
    main()
