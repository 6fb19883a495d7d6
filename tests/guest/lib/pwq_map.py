# drgn script: the pool_workqueues of an unbound workqueue, read from the
# live kernel, against what the affinity scopes promise.
#
#   drgn -q -k -s VMLINUX pwq_map.py WQ SCOPE   every CPU has a pwq of its own
#   drgn -q -k -s VMLINUX pwq_map.py --ordered  every ordered unbound one has one pwq
#
# WQ SCOPE: each online CPU c has a pwq (wq->cpu_pwq) that serves c alone
# (not the dfl_pwq, not another CPU's), belongs to WQ and is on its pwqs
# list, whose pool's pod is c's pod in SCOPE (pod tables wq_pod_types[],
# within WQ's cpumask), and CPUs of one pod share one pool. Where the pwq
# records its CPU (wq61's pwq->cpu), it must be c. --ordered: every
# unbound workqueue with __WQ_ORDERED uses its dfl_pwq on every possible
# CPU, and has no other pwq. Exit 0 and a summary, or 1 and what is wrong.
import sys

from drgn import TypeKind
from drgn.helpers.linux.cpumask import (for_each_cpu, for_each_online_cpu,
                                        for_each_possible_cpu)
from drgn.helpers.linux.list import list_for_each_entry
from drgn.helpers.linux.percpu import per_cpu_ptr


def cpus(mask):
    # cpumask_var_t is a pointer with CPUMASK_OFFSTACK, an array without
    t = mask.type_
    while t.kind == TypeKind.TYPEDEF:
        t = t.type
    if t.kind == TypeKind.ARRAY:
        mask = mask[0]
    elif t.kind == TypeKind.POINTER:
        mask = mask[0]
    return frozenset(for_each_cpu(mask))


def workqueues():
    return list_for_each_entry('struct workqueue_struct',
                               prog['workqueues'].address_of_(), 'list')


def name_of(wq):
    return wq.name.string_().decode()


def pwqs_of(wq):
    return {p.value_() for p in list_for_each_entry(
        'struct pool_workqueue', wq.pwqs.address_of_(), 'pwqs_node')}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def check_ordered():
    flag = prog['__WQ_ORDERED'].value_()
    unbound = prog['WQ_UNBOUND'].value_()
    seen = []
    for wq in workqueues():
        if not (wq.flags & flag) or not (wq.flags & unbound):
            continue
        dfl = wq.dfl_pwq.value_()
        for c in for_each_possible_cpu(prog):
            p = per_cpu_ptr(wq.cpu_pwq, c)[0].value_()
            if p != dfl:
                fail(f'{name_of(wq)}: ordered, CPU {c} has pwq {p:#x}, '
                     f'not the dfl_pwq {dfl:#x}')
        pw = pwqs_of(wq)
        if pw != {dfl}:
            fail(f'{name_of(wq)}: ordered, {len(pw)} pwqs on its list')
        seen.append(name_of(wq))
    if not seen:
        fail('no ordered unbound workqueue to look at')
    print(f'{len(seen)} ordered unbound workqueues, one pwq each '
          f'({", ".join(seen[:4])}{" ..." if len(seen) > 4 else ""})')


def check_percpu(name, scope):
    wq = next((w for w in workqueues() if name_of(w) == name), None)
    if wq is None:
        fail(f'no workqueue {name}')
    pt = prog['wq_pod_types'][prog['WQ_AFFN_' + scope.upper()].value_()]
    wq_cpus = cpus(wq.unbound_attrs.cpumask)
    dfl = wq.dfl_pwq.value_()
    listed = pwqs_of(wq)
    has_cpu = any(m.name == 'cpu' for m in
                  prog.type('struct pool_workqueue').members)
    owner = {}      # pwq -> the CPU it serves
    pod_pool = {}   # pod's CPUs -> the pool they use
    online = list(for_each_online_cpu(prog))
    for c in online:
        pwq = per_cpu_ptr(wq.cpu_pwq, c)[0]
        p = pwq.value_()
        if not p:
            fail(f'{name}: no pwq for CPU {c}')
        if p == dfl:
            fail(f'{name}: CPU {c} uses the dfl_pwq, not a pwq of its own')
        if p in owner:
            fail(f'{name}: CPUs {owner[p]} and {c} share pwq {p:#x}')
        owner[p] = c
        if pwq.wq.value_() != wq.value_():
            fail(f'{name}: CPU {c}: pwq of another workqueue')
        if p not in listed:
            fail(f'{name}: CPU {c}: pwq {p:#x} not on the pwqs list')
        if has_cpu and pwq.cpu.value_() != c:
            fail(f'{name}: CPU {c}: pwq->cpu is {pwq.cpu.value_()}')
        pod = cpus(pt.pod_cpus[pt.cpu_pod[c]]) & wq_cpus
        got = cpus(pwq.pool.attrs.__pod_cpumask)
        if got != pod:
            fail(f'{name}: CPU {c}: pool {pwq.pool.id.value_()} has pod '
                 f'{sorted(got)}, want {sorted(pod)} ({scope})')
        pool = pwq.pool.value_()
        if pod_pool.setdefault(pod, pool) != pool:
            fail(f'{name}: CPUs of pod {sorted(pod)} on different pools')
    if len(set(pod_pool.values())) != len(pod_pool):
        fail(f'{name}: two pods share a pool')
    print(f'{name} ({scope}): {len(online)} online CPUs, {len(owner)} pwqs '
          f'of their own, {len(pod_pool)} pools, one per pod')


if len(sys.argv) == 2 and sys.argv[1] == '--ordered':
    check_ordered()
elif len(sys.argv) == 3:
    check_percpu(sys.argv[1], sys.argv[2])
else:
    print('usage: pwq_map.py WQ SCOPE | --ordered', file=sys.stderr)
    sys.exit(2)
