#!/usr/bin/env python3
"""Sort the sanitizer reports of a kernel log into "workqueue" and "elsewhere".

usage: sanitizer_reports.py (--object WORKQUEUE.O | --symbols NM-OUTPUT)
                            [--expected FILE] LOG
(--object runs nm on the kernel's kernel/workqueue.o itself.)

A report is a KASAN, KCSAN or UBSAN block of the log (from its "BUG: KASAN:",
"BUG: KCSAN:" or "UBSAN:" line to the closing line of '='). It involves the
workqueue when
- its title names a function of kernel/workqueue.c (KASAN: the faulting
  function; KCSAN: either racing function) or the file (UBSAN: file:line);
- a frame of the faulting stack or of the object's "Allocated by"/"Freed by"
  stacks is a function of kernel/workqueue.c other than the generic
  executors (process_one_work, worker_thread, rescuer_thread: every work
  item runs under them), or of a wq61 test module.
KASAN's "potentially related work creation" stacks are left out: they record
queue_work() calls on any object that holds a work item. So are the frames
below an interrupt or exception entry (asm_sysvec_*, asm_exc_*, </IRQ>): a
race seen from the timer interrupt lists the work item it interrupted there,
which had no part in it.

Every report is printed (one line each, the workqueue ones first, with the
frames that made them so); other splats (WARN, lockdep, ...) not matched by
--expected are printed too. Exit 1 if a report involves the workqueue or an
unexpected non-sanitizer splat was found, else 0.
"""
import os
import re
import subprocess
import sys

import scan_log

EXECUTORS = {'process_one_work', 'worker_thread', 'rescuer_thread'}
START = re.compile(r'(BUG: (KASAN|KCSAN): .*|UBSAN: .*)')
FRAME = re.compile(r'\b([A-Za-z_][A-Za-z0-9_.]*)\+0x[0-9a-f]+/0x[0-9a-f]+(?: \[(\w+)\])?')
# The entry of an interrupt or exception: the frames after it in a stack
# belong to the code that was interrupted, not to the racing access.
IRQ_ENTRY = re.compile(r'\basm_(sysvec|common_interrupt|exc)_\w*\+0x|</IRQ>')
# A new stack: KCSAN's "read/write ... by task|interrupt", KASAN's sections.
STACK_START = re.compile(r'^(race at|(read|write)\b.* by |Allocated by|Freed by)')
# Sections of a KASAN report whose frames say nothing about the bug.
AUX = re.compile(r'(Last|Second to last) potentially related work creation')
SECTION = re.compile(r'^(Allocated by|Freed by|The buggy address|Memory state)')


def strip(line):
    """Drop the console's timestamp prefix."""
    return re.sub(r'^\s*\[\s*[0-9.]+\]\s?', '', line)


def parse_symbols(lines):
    """The text symbols (functions) of nm output."""
    syms = set()
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[1] in 'Tt':
            syms.add(parts[2])
    return syms


def load_symbols(path):
    with open(path) as f:
        return parse_symbols(f)


def object_symbols(path):
    """Run nm on an object file; an empty set if that fails."""
    try:
        out = subprocess.run(['nm', path], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print('nm %s: %s' % (path, e), file=sys.stderr)
        return set()
    return parse_symbols(out.splitlines())


def reports(lines):
    """Yield (title, block lines) for each sanitizer report."""
    i = 0
    while i < len(lines):
        m = START.search(lines[i])
        if not m:
            i += 1
            continue
        title = m.group(1).strip()
        block = [title]
        j = i + 1
        while j < len(lines) and j < i + 400:
            s = strip(lines[j])
            if re.match(r'^={20,}', s) or START.search(lines[j]):
                break
            block.append(s)
            j += 1
        yield title, block
        i = j + 1 if j < len(lines) and not START.search(lines[j]) else j


def involved(title, block, syms):
    """The reasons (function names, file) a report involves the workqueue."""
    why = []
    if 'kernel/workqueue.c' in title:
        why.append('kernel/workqueue.c')
    m = re.search(r' in (\S+)(?: / (\S+))?', title)
    if m:
        # KASAN names the function with its offset, KCSAN without
        why += [f.split('+')[0] for f in m.groups() if f and f.split('+')[0] in syms]
    skip = interrupted = False
    for line in block[1:]:
        if AUX.search(line):
            skip = True
        elif SECTION.search(line):
            skip = line.startswith('The buggy') or line.startswith('Memory state')
        if STACK_START.search(line):
            interrupted = False
        if skip or interrupted:
            continue
        if IRQ_ENTRY.search(line):
            interrupted = True
            continue
        for fm in FRAME.finditer(line):
            fn, module = fm.group(1), fm.group(2)
            if fn in syms and fn not in EXECUTORS:
                why.append(fn)
            elif module and module.startswith('wq61_'):
                why.append('%s [%s]' % (fn, module))
    return sorted(set(why))


def other_splats(path, expected):
    """Non-sanitizer splats per scripts/report/scan_log.py, minus the expected ones."""
    out = []
    with open(path, errors='replace') as f:
        for line in f.read().splitlines():
            if not scan_log.SPLAT_RE.search(line) or scan_log.BENIGN_RE.search(line):
                continue
            if re.search(r'KASAN|KCSAN|UBSAN', line):
                continue
            if any(e.search(line) for e in expected):
                continue
            out.append(strip(line))
    return out


def main(argv):
    syms, expected, log = None, [], None
    it = iter(argv)
    for a in it:
        if a == '--symbols':
            syms = load_symbols(next(it))
        elif a == '--object':
            syms = object_symbols(next(it))
        elif a == '--expected':
            p = next(it)
            if os.path.exists(p):
                with open(p, errors='replace') as f:
                    expected = [re.compile(l.strip()) for l in f if l.strip()]
        else:
            log = a
    if syms is None or log is None:
        print(__doc__, file=sys.stderr)
        return 2
    if not syms:
        print('no kernel/workqueue.c functions (--symbols or --object)', file=sys.stderr)
        return 2
    with open(log, errors='replace') as f:
        lines = f.read().splitlines()
    ours, elsewhere = {}, {}
    for title, block in reports(lines):
        why = involved(title, block, syms)
        key = re.sub(r'0x[0-9a-f]+', '0x?', title)
        d = ours if why else elsewhere
        n, w = d.get(key, (0, set()))
        d[key] = (n + 1, w | set(why))
    for key, (n, why) in sorted(ours.items()):
        print('WORKQUEUE %dx %s   [%s]' % (n, key, ', '.join(sorted(why))))
    for key, (n, _) in sorted(elsewhere.items()):
        print('elsewhere %dx %s' % (n, key))
    splats = other_splats(log, expected)
    for s in splats[:20]:
        print('splat     %s' % s)
    print('sanitizer reports: %d involving the workqueue, %d elsewhere; other splats: %d'
          % (sum(n for n, _ in ours.values()), sum(n for n, _ in elsewhere.values()), len(splats)))
    return 1 if ours or splats else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
