#!/usr/bin/env python3
"""The one outcome model of the checks: every result is a row

    STATUS NAME [WHY]     STATUS: PASS, FAIL, SKIP or LOST

in a results.txt. Every check that boots a guest turns the guest's run
directory (scripts/guest/vm.py: verdict, output, dmesg) into rows here, and every
summary line is counted here from a results.txt, so that the line and the
file never disagree.

  results.py run DIR PREFIX [--kunit] [--ours S,S] [--require] [--splats-elsewhere]
      the rows of one guest run (below); exit 130 if it was interrupted
  results.py summary RESULTS [--label TEXT]
      "N passed, N failed, N lost, N skipped" (after the FAIL/LOST rows);
      exit 1 when anything failed or was lost
  results.py tap FILE PREFIX      the rows of a TAP file alone
  results.py kunit DMESG PREFIX   the rows of the KUnit (KTAP) output in a log

The rules of a run directory:
  - its verdict gives one row: passed -> PASS PREFIX/kernel-log-clean;
    splat -> FAIL PREFIX/kernel-log-clean (with --splats-elsewhere, where
    a sanitizer run sorts the kernel's reports itself, PASS PREFIX/guest);
    failed N -> FAIL PREFIX/guest; lost (or no verdict at all) -> LOST
    PREFIX/guest; interrupted -> no rows and exit 130 (the caller stops:
    an interrupted run has no results);
  - every TAP test (tests/run-in-guest.sh) gives the row it reported:
    ok -> PASS, ok # SKIP -> SKIP, not ok (a timeout too) -> FAIL;
  - what was promised but never reported is LOST, whatever the verdict: a
    test the TAP plan named ("1..N" and its "# wq61-tests:" names) with no
    result line, a KUnit suite that started and never finished;
  - with --kunit, the KUnit cases of the boot's dmesg: those of the suites
    --ours names (default: the series' own, OURS below) as
    PREFIX/kunit/SUITE.CASE, the kernel's own as
    PREFIX/kunit-kernel/SUITE.CASE; with --require, a suite of --ours with
    no case at all is FAIL PREFIX/kunit/SUITE (it did not run: a config
    that lost it fails the check).
"""
import re
import sys

STATUSES = ('PASS', 'FAIL', 'LOST', 'SKIP')
# The series' own KUnit suites (CONFIG_WQ_KUNIT_TEST): the default of --ours.
OURS = ('workqueue', 'workqueue_affinity')
TS = re.compile(r'^\[\s*\d+\.\d+\]\s?')
RESULT = re.compile(r'^(\s*)(not ok|ok) (\d+)(?: -)? ?([^#]*?)\s*(#.*)?$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
PLAN = re.compile(r'^1\.\.(\d+)')
NAMES = re.compile(r'^# wq61-tests:(.*)$')
SKIP = re.compile(r'^#\s*skip\b', re.IGNORECASE)


class Interrupted(Exception):
    pass


def status(ok, directive):
    # TAP's directive is "# SKIP" at the comment's start; a comment that
    # only mentions skipping (a commit subject, say) is no directive.
    if SKIP.match(directive or ''):
        return 'SKIP'
    return 'PASS' if ok == 'ok' else 'FAIL'


def lines(path):
    """The lines of a file a run may not have written: none if it is missing."""
    try:
        with open(path, errors='replace') as f:
            return f.read().split('\n')
    except FileNotFoundError:
        return []


def tap(path, prefix):
    """Rows of a TAP file; tests of the plan that never reported are LOST."""
    out, seen, plan, names = [], set(), 0, []
    for line in lines(path):
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
        m = NAMES.match(line)
        if m:
            names = m.group(1).split()
        m = RESULT.match(line)
        if m and not m.group(1):
            seen.add(int(m.group(3)))
            out.append((status(m.group(2), m.group(5)), f'{prefix}/{m.group(4)}',
                        m.group(5) or ''))
    for n in range(1, plan + 1):
        if n not in seen:
            name = names[n - 1] if n <= len(names) else f'test-{n}'
            out.append(('LOST', f'{prefix}/{name}', '# not run'))
    return out


def kunit(path):
    """Rows of the KUnit cases in a kernel log (leaf cases, not suites),
    named SUITE.CASE (SUITE.CASE.PARAM for parameterised ones)."""
    out = []
    stack = []  # (indent, name) of open subtests
    for raw in lines(path):
        line = TS.sub('', raw)
        m = SUBTEST.match(line)
        if m:
            stack.append((len(m.group(1)), m.group(2).strip()))
            continue
        m = RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        if stack and stack[-1][0] == indent + 4:
            stack.pop()  # a suite's (or parameterised test's) own line
            continue
        if not stack:
            continue  # not inside KTAP output
        path_names = [n for _, n in stack]
        out.append((status(m.group(2), m.group(5)),
                    '.'.join(path_names + [m.group(4)]),
                    m.group(5) or ''))
    for _, name in stack:
        out.append(('LOST', name, '# suite never finished'))
    return out


def verdict_row(d, prefix, splats_elsewhere):
    try:
        with open(f'{d}/verdict') as f:
            v = f.read().strip()
    except FileNotFoundError:
        v = 'lost: no verdict'
    if v == 'interrupted':
        raise Interrupted()
    if v == 'passed':
        return ('PASS', f'{prefix}/kernel-log-clean', '')
    if v == 'splat':
        if splats_elsewhere:
            return ('PASS', f'{prefix}/guest', f'(splat: sorted apart, {d}/console.log)')
        return ('FAIL', f'{prefix}/kernel-log-clean', f'(splat: {d}/scan.txt)')
    if v.startswith('failed'):
        return ('FAIL', f'{prefix}/guest', f'({v}: {d}/console.log)')
    return ('LOST', f'{prefix}/guest', f'({v}: {d}/console.log)')


def run(d, prefix, with_kunit=False, ours=(), require=False, splats_elsewhere=False):
    """Rows of one guest run directory, by the rules in the docstring."""
    rows = [verdict_row(d, prefix, splats_elsewhere)]
    rows += tap(f'{d}/output', prefix)
    if with_kunit:
        found = set()
        for st, name, why in kunit(f'{d}/dmesg'):
            suite = name.split('.')[0]
            if suite in ours:
                found.add(suite)
            where = 'kunit' if suite in ours else 'kunit-kernel'
            rows.append((st, f'{prefix}/{where}/{name}', why))
        if require:
            for s in ours:
                if s not in found:
                    rows.append(('FAIL', f'{prefix}/kunit/{s}', '(suite did not run)'))
    return rows


def count(path):
    n = dict.fromkeys(STATUSES, 0)
    bad = []
    with open(path) as f:
        for line in f:
            st = line.split(' ', 1)[0]
            if st not in n:
                raise SystemExit(f'{path}: not a result row: {line.rstrip()}')
            n[st] += 1
            if st in ('FAIL', 'LOST'):
                bad.append(line.rstrip('\n'))
    return n, bad


def summary(path, label=''):
    n, bad = count(path)
    if bad:
        print('Failed or lost:')
        for line in bad:
            print('  ' + line)
    print(f"{label}{n['PASS']} passed, {n['FAIL']} failed, {n['LOST']} lost, {n['SKIP']} skipped")
    return 1 if bad else 0


def emit(rows):
    for st, name, why in rows:
        print(f'{st} {name} {why}'.rstrip())


def main(argv):
    usage = __doc__.split('The rules')[0]
    if len(argv) < 2:
        raise SystemExit(usage)
    kind, args = argv[0], argv[1:]
    if kind == 'summary':
        label = ''
        if args[1:2] == ['--label'] and len(args) == 3:
            label = args[2]
        elif len(args) != 1:
            raise SystemExit(usage)
        return summary(args[0], label)
    if len(args) < 2:
        raise SystemExit(usage)
    path, prefix, opts = args[0], args[1], args[2:]
    if kind == 'tap' and not opts:
        emit(tap(path, prefix))
    elif kind == 'kunit' and not opts:
        emit((st, f'{prefix}/{name}', why) for st, name, why in kunit(path))
    elif kind == 'run':
        kw = {'with_kunit': False, 'ours': OURS, 'require': False, 'splats_elsewhere': False}
        i = 0
        while i < len(opts):
            o = opts[i]
            if o == '--kunit':
                kw['with_kunit'] = True
            elif o == '--require':
                kw['require'] = True
            elif o == '--splats-elsewhere':
                kw['splats_elsewhere'] = True
            elif o == '--ours' and i + 1 < len(opts):
                i += 1
                kw['ours'] = tuple(s for s in opts[i].split(',') if s)
            else:
                raise SystemExit(f'results.py run: unknown option {o}\n{usage}')
            i += 1
        try:
            emit(run(path, prefix, **kw))
        except Interrupted:
            print(f'{path}: the run was interrupted', file=sys.stderr)
            return 130
    else:
        raise SystemExit(usage)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
