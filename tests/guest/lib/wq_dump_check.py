#!/usr/bin/env python3
# Check the "Worker Pools" and "Workqueue CPU -> pool" sections of
# tools/workqueue/wq_dump.py's output against the guest's sysfs topology
# (tests/guest/24-wq-dump.sh). Reads wq61's and mainline's format alike:
#   pool[ID] ... cpu=N            a per-cpu pool
#   pool[ID] ... cpus=HEX pod_cpus=HEX [strict]
#   NAME TYPE[,FLAGS] ID... DFL   one pool ID per possible CPU
#
#   wq_dump_check.py DUMP WQ percpu          pool of CPU c is c's per-cpu pool
#   wq_dump_check.py DUMP WQ ordered         one pool, the dfl one, everywhere
#   wq_dump_check.py DUMP WQ SCOPE STRICT    unbound: pool of CPU c covers
#                                            c's pod of SCOPE, strict or not
# Prints one line of what it checked; exits 1 with the reason otherwise.
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wq_pods import parse_cpulist  # noqa: E402

POOL = re.compile(r'^pool\[\s*(\d+)\].*?(?:cpu=\s*(\d+)|cpus=(\S+)\s+pod_cpus=(\S+))(.*)$')


def hexmask(text):
    bits = int(text.replace(',', ''), 16)
    return frozenset(b for b in range(bits.bit_length()) if bits >> b & 1)


def sysfs_pod(scope, cpu, possible):
    base = '/sys/devices/system/cpu/cpu%d/' % cpu

    def read(path):
        with open(path) as f:
            return frozenset(parse_cpulist(f.read()))
    if scope == 'cpu':
        return frozenset([cpu])
    if scope == 'smt':
        return read(base + 'topology/thread_siblings_list')
    if scope == 'cache':
        return read(base + 'cache/index3/shared_cpu_list')
    if scope == 'numa':
        for d in os.listdir('/sys/devices/system/node'):
            if re.match(r'node\d+$', d):
                cpus = read('/sys/devices/system/node/%s/cpulist' % d)
                if cpu in cpus:
                    return cpus
        sys.exit('cpu %d is in no node' % cpu)
    return frozenset(possible)


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: wq_dump_check.py DUMP WQ percpu|ordered|SCOPE STRICT')
    path, wq, mode = sys.argv[1:4]
    with open('/sys/devices/system/cpu/possible') as f:
        possible = sorted(parse_cpulist(f.read()))
    with open(path) as f:
        lines = f.read().splitlines()

    pools = {}
    for line in lines:
        m = POOL.match(line)
        if m:
            pid = int(m.group(1))
            if m.group(2) is not None:
                pools[pid] = ('percpu', int(m.group(2)))
            else:
                pools[pid] = ('unbound', hexmask(m.group(3)), hexmask(m.group(4)),
                              'strict' in m.group(5).split())
    if not pools:
        sys.exit('no "pool[ID]" lines')
    # Only the map: mainline's later sections name workqueues too.
    if 'Workqueue CPU -> pool' not in lines:
        sys.exit('no "Workqueue CPU -> pool" section')
    start = lines.index('Workqueue CPU -> pool') + 2
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    rows = [line.split() for line in lines[start:end]
            if line.split() and line.split()[0] == wq[-24:]]
    # Mainline 6.12.y has two workqueues named "events" (and
    # "events_unbound"): system_percpu_wq and system_dfl_wq, workqueues of
    # their own under the old names.
    # Every row of the name must pass.
    if not rows:
        sys.exit('no row for workqueue %s' % wq)
    for row in rows:
        check_row(wq, mode, row, pools, possible)


def check_row(wq, mode, row, pools, possible):
    kind, *ids = row[1:]
    kind, _, flags = kind.partition(',')
    ids = [int(i) for i in ids if i.isdigit()]
    if len(ids) < len(possible):
        sys.exit('%s: %d pool IDs for %d CPUs: %s' % (wq, len(ids), len(possible), row))
    for pid in ids:
        if pid not in pools:
            sys.exit('%s: pool %d is not listed under Worker Pools' % (wq, pid))
    by_cpu = dict(zip(possible, ids))

    if mode == 'percpu':
        if kind != 'percpu':
            sys.exit('%s: type %s, want percpu' % (wq, kind))
        for cpu, pid in by_cpu.items():
            if pools[pid] != ('percpu', cpu):
                sys.exit('%s: CPU %d uses pool %d %s' % (wq, cpu, pid, pools[pid]))
        print('%s: percpu, CPU c -> pool of CPU c for %d CPUs' % (wq, len(by_cpu)))
    elif mode == 'ordered':
        if kind != 'ordered' or len(set(ids)) != 1:
            sys.exit('%s: type %s, pools %s: want ordered, one pool' % (wq, kind, ids))
        print('%s: ordered, pool %d on every CPU' % (wq, ids[0]))
    else:
        strict = sys.argv[4] == '1'
        if kind != 'unbound' or ('S' in flags) != strict:
            sys.exit('%s: type %s flags "%s", want unbound strict=%d' % (wq, kind, flags, strict))
        npools = set()
        for cpu, pid in by_cpu.items():
            p = pools[pid]
            want = sysfs_pod(mode, cpu, possible)
            if p[0] != 'unbound' or p[2] != want or p[3] != strict:
                sys.exit('%s: CPU %d uses pool %d %s, want pod_cpus %s strict=%d'
                         % (wq, cpu, pid, p, sorted(want), strict))
            npools.add(pid)
        print('%s: unbound,%s strict=%d: %d CPUs on %d pools, each its CPU\'s pod'
              % (wq, mode, strict, len(by_cpu), len(npools)))


if __name__ == '__main__':
    main()
