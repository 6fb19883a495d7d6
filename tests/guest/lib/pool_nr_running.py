# drgn script: wait until every per-cpu worker pool's nr_running has come
# back to 0 (nothing running in the pool), reading the live kernel once a
# second, for at most DEADLINE seconds (default 60).
#
#   drgn -q -k -s VMLINUX pool_nr_running.py [DEADLINE]
#
# nr_running counts the pool's workers that are running and concurrency
# managed; it is never negative in a correct kernel, and an idle pool's is
# 0. A pool counts as settled once a sample has shown it at 0, so activity
# elsewhere on the system cannot keep the check from passing. Exit 0 when
# every pool has settled; 1 at once if any sample is negative, or when the
# deadline passes with pools that never showed 0 (a count stuck above 0).
# The last sample is printed as "cpuN: normal highpri" lines.
import sys
import time

from drgn import TypeKind

from drgn.helpers.linux.cpumask import for_each_possible_cpu
from drgn.helpers.linux.percpu import per_cpu

deadline = time.monotonic() + (float(sys.argv[1]) if len(sys.argv) > 1 else 60)
pools = prog['cpu_worker_pools']
ptype = pools.type_
while ptype.kind == TypeKind.TYPEDEF:   # drgn 0.0.22 has no Type.unaliased()
    ptype = ptype.type
npools = ptype.length   # NR_STD_WORKER_POOLS
cpus = list(for_each_possible_cpu(prog))


def sample():
    return {cpu: [per_cpu(pools, cpu)[i].nr_running.value_()
                  for i in range(npools)] for cpu in cpus}


def show(values):
    for cpu in cpus:
        print(f'cpu{cpu}: ' + ' '.join(str(v) for v in values[cpu]))


unsettled = {(cpu, i) for cpu in cpus for i in range(npools)}
samples = 0
while True:
    values = sample()
    samples += 1
    negative = [(cpu, i) for cpu in cpus for i in range(npools)
                if values[cpu][i] < 0]
    if negative:
        show(values)
        print('negative nr_running: ' +
              ' '.join(f'cpu{c}/pool{i}={values[c][i]}' for c, i in negative))
        sys.exit(1)
    unsettled -= {(cpu, i) for cpu in cpus for i in range(npools)
                  if values[cpu][i] == 0}
    if not unsettled:
        show(values)
        print(f'every per-cpu pool seen at nr_running 0 ({len(cpus)} CPUs, '
              f'{samples} samples)')
        sys.exit(0)
    if time.monotonic() >= deadline:
        show(values)
        print('nr_running never 0: ' +
              ' '.join(f'cpu{c}/pool{i}={values[c][i]}'
                       for c, i in sorted(unsettled)))
        sys.exit(1)
    time.sleep(1)
