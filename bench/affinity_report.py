#!/usr/bin/env python3
"""Summarise the affinity-scope benchmark (bench/affinity-in-guest.sh rows:
config,metric,flavour,boot,run,value) into affinity.md, affinity.json,
affinity.csv and a plot of where items start (gnuplot).

Usage: affinity_report.py RAW.csv OUTDIR "FLAVOURS" NOTE

One table row per flavour and configuration. Locality (l3_local, on_cpu)
is the mean over issuers and boots, so every item counts the same;
latencies, distinct CPUs and times are medians over runs and boots;
repatriations are summed per boot, then the median over boots is shown.
Batch times are also given relative to the same flavour's "system" (or,
for 6.1, "stock") configuration measured in the same boot.
"""
import csv
import os
import statistics as st
import sys

import reporting

CONFIGS = ['stock', 'system', 'numa', 'cache', 'cache_strict', 'cpu_strict', 'cache_localize']
LABEL = {'stock': '6.1 (numa pools)', 'cache_strict': 'cache strict', 'cpu_strict': 'cpu strict',
         'cache_localize': 'cache + localize'}


def main(raw, outdir, flavours, note):
    flavours = flavours.split()
    rows = [r for r in csv.reader(open(raw)) if r and r[0] != 'config']
    data = {}
    for cfg, metric, flavour, boot, run, value in rows:
        (data.setdefault((flavour, cfg), {}).setdefault(metric, {})
         .setdefault(int(boot), []).append(float(value)))

    def values(flavour, cfg, metric):
        return [v for vs in data.get((flavour, cfg), {}).get(metric, {}).values() for v in vs]

    def per_boot_sum(flavour, cfg, metric):
        return [sum(vs) for vs in data.get((flavour, cfg), {}).get(metric, {}).values()]

    summary = {}
    for flavour in flavours:
        ref = 'system' if (flavour, 'system') in data else 'stock'
        ref_one = values(flavour, ref, 'one_ms')
        ref_all = values(flavour, ref, 'all_ms')
        for cfg in CONFIGS:
            if (flavour, cfg) not in data:
                continue
            s = {'boots': len(data[(flavour, cfg)].get('l3_local', {}))}
            for m in ('l3_local', 'on_cpu', 'l3_local_serial', 'on_cpu_serial'):
                s[m] = st.mean(values(flavour, cfg, m))
            for m in ('lat_p50', 'lat_p99', 'one_cpus', 'one_ms', 'all_ms'):
                s[m] = st.median(values(flavour, cfg, m))
            s['repatriated'] = st.median(per_boot_sum(flavour, cfg, 'repatriated'))
            out = sum(values(flavour, cfg, 'l3_out'))
            s['l3_out_busy'] = 100 * sum(values(flavour, cfg, 'l3_out_busy')) / out if out else None
            s['one_ms_vs_ref'] = s['one_ms'] / st.median(ref_one) if ref_one else None
            s['all_ms_vs_ref'] = s['all_ms'] / st.median(ref_all) if ref_all else None
            s['ref'] = ref
            summary[f'{flavour}/{cfg}'] = s

    os.makedirs(outdir, exist_ok=True)
    md = ['# Affinity scopes: where unbound work items start', '', f'{note}.', '',
          'Workqueue `wq61_affn` (module wq61_affinity), preset big: SMT pairs, '
          'L3 of 4 CPUs, NUMA nodes of 8, 16 CPUs. Locality: 200 items of 100 us '
          'queued at once from a kthread bound to CPU 0, 5, 10 and 15 in turn; '
          '"one at a time": 50 items each, every one queued after the previous one '
          'ended (idle workers wait, as localize wants). Batch: 64 items of '
          '5 ms CPU time from CPU 0 ("one"), 8 from every CPU at once ("all"); '
          '"vs sys." is the batch time over the same flavour\'s `system` '
          '(6.1: stock) in the same boot.', '',
          '| flavour | configuration | in issuer\'s L3 % | on issuing CPU % | '
          'one at a time: in L3 / on CPU % | '
          'outside L3: by busy workers % | repatriated | latency p50 / p99 us | one: CPUs used | one: ms (vs sys.) | '
          'all: ms (vs sys.) | boots |',
          '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|']

    def vs(x):
        return f' ({x:.2f})' if x is not None else ''
    for key, s in summary.items():
        flavour, cfg = key.split('/')
        md.append(f"| {flavour} | {LABEL.get(cfg, cfg)} | {s['l3_local']:.0f} | {s['on_cpu']:.0f} | "
                  f"{s['l3_local_serial']:.0f} / {s['on_cpu_serial']:.0f} | "
                  f"{'-' if s['l3_out_busy'] is None else format(s['l3_out_busy'], '.0f')} | "
                  f"{s['repatriated']:.0f} | {s['lat_p50']:.0f} / {s['lat_p99']:.0f} | "
                  f"{s['one_cpus']:.0f} | {s['one_ms']:.0f}{vs(s['one_ms_vs_ref'])} | "
                  f"{s['all_ms']:.0f}{vs(s['all_ms_vs_ref'])} | {s['boots']} |")
    md += ['', 'TCG guests: 16 vCPUs share 2 host cores and QEMU models no cache, so '
           'times and latencies here say nothing about cache effects and the '
           'bandwidth cap of strict scopes is masked by the host; the start '
           'CPUs are what these figures measure.', '']

    reporting.save_data(outdir, 'affinity.json', summary, 'affinity.csv', 'config,metric,flavour,boot,run,value', rows)

    # Where items start: L3-local and on-CPU %, one bar pair per row.
    rows = []
    for key, s in summary.items():
        flavour, cfg = key.split('/')
        rows.append((f'{flavour} {LABEL.get(cfg, cfg)}',
                     [s['l3_local'], s['on_cpu'], s['on_cpu_serial']]))
    line = reporting.histogram(
        outdir, 'plot-affinity.png', rows,
        ["in the issuer's L3", 'on the issuing CPU', 'on the issuing CPU, one at a time'],
        title='Unbound work items: where they start (% of items)', ylabel='%',
        alt='where items start', yrange='0:105', size='1000,500',
        xtics='rotate by -35 noenhanced')
    if line:
        md.append(line)
    with open(os.path.join(outdir, 'affinity.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    print('\n'.join(md))


if __name__ == '__main__':
    main(*sys.argv[1:5])
