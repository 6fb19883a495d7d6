#!/usr/bin/env python3
# Affinity-scope pods in one canonical text form, so that three witnesses
# can be compared with diff (tests/guest/21-affinity-pods.sh):
#
#   drgn -k -s VMLINUX wq_pods.py kernel     the kernel's wq_pod_types[]
#   python3 wq_pods.py sysfs                 the guest topology in sysfs
#   python3 wq_pods.py wq-dump FILE          the "Affinity Scopes" section of
#                                            mainline's tools/workqueue/wq_dump.py
#
# Output, for each scope (cpu smt cache_shard cache numa system; cache_shard
# where the kernel has it):
#   SCOPE pods LIST[@NODE] LIST[@NODE] ...   pods sorted by first CPU
#   SCOPE cpu N LIST                         the pod CPU N maps to
# @NODE (the pod's NUMA node) is given for cpu/smt/cache/numa only.
#
# "kernel --run-wq-dump SCRIPT OUT" also runs SCRIPT (wq_dump.py) in the same
# drgn session, its stdout into OUT: it saves a second load of the debug
# info, and lets for_each_node() be called without prog as drgn >= 0.0.23
# allows (drgn 0.0.22 wants it; wq_dump.py's last section omits it).
# "run-wq-dump SCRIPT OUT" (under drgn) runs only SCRIPT, with that shim.
import os
import sys

SCOPES = ['cpu', 'smt', 'cache_shard', 'cache', 'numa', 'system']
# cache_shard (issue 25) is newer than the others: a kernel without it
# (mainline 6.12) has no workqueue.cache_shard_size and no WQ_AFFN_CACHE_SHARD
SHARD_SIZE = '/sys/module/workqueue/parameters/cache_shard_size'


def cpulist(cpus):
    cpus = sorted(cpus)
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else '%d-%d' % (cpus[i], cpus[j]))
        i = j + 1
    return ','.join(out) if out else 'empty'


def parse_cpulist(text):
    cpus = set()
    for part in text.strip().split(','):
        if not part:
            continue
        lo, _, hi = part.partition('-')
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def emit(scope, pods, nodes, cpu_pod):
    """pods: list of CPU sets; nodes: node per pod; cpu_pod: {cpu: index}."""
    order = sorted(range(len(pods)), key=lambda p: (min(pods[p]) if pods[p] else -1))
    words = []
    for p in order:
        w = cpulist(pods[p])
        if scope != 'system':
            w += '@%d' % nodes[p]
        words.append(w)
    print('%s pods %s' % (scope, ' '.join(words)))
    for cpu in sorted(cpu_pod):
        p = cpu_pod[cpu]
        print('%s cpu %d %s' % (scope, cpu,
                                cpulist(pods[p]) if 0 <= p < len(pods) else 'bad-pod-%d' % p))


def from_sysfs():
    base = '/sys/devices/system/cpu'
    with open(base + '/possible') as f:
        possible = sorted(parse_cpulist(f.read()))
    node_of = {}
    for d in os.listdir('/sys/devices/system/node'):
        if d.startswith('node') and d[4:].isdigit():
            with open('/sys/devices/system/node/%s/cpulist' % d) as f:
                for c in parse_cpulist(f.read()):
                    node_of[c] = int(d[4:])

    def group(fn):
        pods, cpu_pod = [], {}
        for c in possible:
            s = frozenset(fn(c))
            if s not in pods:
                pods.append(s)
            cpu_pod[c] = pods.index(s)
        return pods, cpu_pod

    def read(c, rel):
        with open('%s/cpu%d/%s' % (base, c, rel)) as f:
            return parse_cpulist(f.read())

    def shards():
        # The spec, not the kernel's code: each L3's cores (sets of thread
        # siblings) in order of their first CPU, n of them, are dealt into
        # s = ceil(n / size) runs of consecutive cores, core k into run
        # k * s // n.
        with open(SHARD_SIZE) as f:
            size = int(f.read())
        of = {}
        for c in possible:
            if c in of:
                continue
            llc = read(c, 'cache/index3/shared_cpu_list')
            cores = []
            for x in sorted(llc):
                core = frozenset(read(x, 'topology/thread_siblings_list') & llc)
                if core not in cores:
                    cores.append(core)
            n = len(cores)
            s = -(-n // size)
            runs = [set() for _ in range(s)]
            for k, core in enumerate(cores):
                runs[k * s // n] |= core
            for run in runs:
                for x in run:
                    of[x] = run
        return of

    shard_of = shards() if os.path.exists(SHARD_SIZE) else None
    fns = {
        'cpu': lambda c: {c},
        'cache_shard': lambda c: shard_of[c],
        'smt': lambda c: read(c, 'topology/thread_siblings_list'),
        'cache': lambda c: read(c, 'cache/index3/shared_cpu_list'),
        'numa': lambda c: {x for x in possible if node_of.get(x) == node_of.get(c)},
        'system': lambda c: set(possible),
    }
    for scope in SCOPES:
        if scope == 'cache_shard' and shard_of is None:
            continue
        pods, cpu_pod = group(fns[scope])
        emit(scope, [set(p) for p in pods],
             [node_of.get(min(p), -1) for p in pods], cpu_pod)


def from_wq_dump(path):
    """wq_dump.py prints, per scope: a header (CPU, SMT, CACHE (default),
    ...), then 'nr_pods N', 'pod_cpus [i]=HEXMASK ...', 'pod_node [i]=N ...'
    and 'cpu_pod [cpu]=i ...'."""
    with open(path) as f:
        lines = f.read().splitlines()
    try:
        start = lines.index('Affinity Scopes')
    except ValueError:
        sys.exit('wq_dump: no "Affinity Scopes" section')
    tables, cur = {}, None
    for line in lines[start + 2:]:
        if line and not line.startswith(' ') and line.split()[0].lower() in SCOPES:
            cur = tables.setdefault(line.split()[0].lower(), {})
        elif line.startswith('  ') and cur is not None:
            key, *vals = line.split()
            if key == 'nr_pods':
                cur[key] = int(vals[0])
            else:
                cur[key] = {int(v.split(']=')[0].lstrip('[')): v.split(']=')[1] for v in vals}
        elif line and not line.startswith(' ') and tables:
            break       # the next section ("Worker Pools")
    for scope in SCOPES:
        if scope == 'cache_shard' and scope not in tables:
            continue    # a kernel without it; sysfs says whether it should
        t = tables.get(scope)
        if not t or 'pod_cpus' not in t or 'cpu_pod' not in t:
            sys.exit('wq_dump: scope %s incomplete' % scope)
        n = t.get('nr_pods', len(t['pod_cpus']))
        pods = []
        for i in range(n):
            mask = int(t['pod_cpus'][i].replace(',', ''), 16)
            pods.append({b for b in range(mask.bit_length()) if mask >> b & 1})
        nodes = [int(t.get('pod_node', {}).get(i, -1)) for i in range(n)]
        emit(scope, pods, nodes, {c: int(p) for c, p in t['cpu_pod'].items()})


def from_kernel(prog):
    from drgn import TypeKind
    from drgn.helpers.linux.cpumask import for_each_cpu, for_each_possible_cpu
    pod_types = prog['wq_pod_types']
    possible = list(for_each_possible_cpu(prog))
    for scope in SCOPES:
        try:
            idx = prog['WQ_AFFN_' + scope.upper()].value_()
        except KeyError:
            continue    # a kernel without it; sysfs says whether it should
        pt = pod_types[idx]
        n = pt.nr_pods.value_()
        pods, nodes = [], []
        for i in range(n):
            m = pt.pod_cpus[i]
            # cpumask_var_t: a pointer with CPUMASK_OFFSTACK, else cpumask[1]
            t = m.type_
            while t.kind == TypeKind.TYPEDEF:   # no Type.unaliased() in 0.0.22
                t = t.type
            if t.kind == TypeKind.ARRAY:
                m = m[0]
            pods.append(set(for_each_cpu(m)))
            nodes.append(pt.pod_node[i].value_())
        emit(scope, pods, nodes, {c: pt.cpu_pod[c].value_() for c in possible})


def run_wq_dump(prog, script, out):
    import contextlib
    import runpy
    import drgn.helpers.linux.nodemask as nodemask
    orig = nodemask.for_each_node

    def for_each_node(p=None):
        return orig(prog if p is None else p)
    nodemask.for_each_node = for_each_node
    argv = sys.argv
    try:
        with open(out, 'w') as f, contextlib.redirect_stdout(f):
            sys.argv = [script]
            try:
                runpy.run_path(script, init_globals={'prog': prog}, run_name='__main__')
            except Exception as e:
                # Later sections are not this test's business; the caller
                # checks that the one it reads is complete.
                print('wq_pods.py: %s raised %s: %s' % (script, type(e).__name__, e),
                      file=sys.stderr)
    finally:
        sys.argv = argv
        nodemask.for_each_node = orig


if __name__ == '__main__':
    mode = sys.argv[1] if len(sys.argv) > 1 else ''
    if mode == 'kernel':
        from_kernel(prog)  # noqa: F821 (drgn's global)
        if len(sys.argv) == 5 and sys.argv[2] == '--run-wq-dump':
            sys.stdout.flush()
            run_wq_dump(prog, sys.argv[3], sys.argv[4])  # noqa: F821
    elif mode == 'run-wq-dump' and len(sys.argv) == 4:
        run_wq_dump(prog, sys.argv[2], sys.argv[3])  # noqa: F821
    elif mode == 'sysfs':
        from_sysfs()
    elif mode == 'wq-dump' and len(sys.argv) == 3:
        from_wq_dump(sys.argv[2])
    else:
        sys.exit(__doc__ if __doc__ else 'usage: wq_pods.py kernel|sysfs|wq-dump FILE')
