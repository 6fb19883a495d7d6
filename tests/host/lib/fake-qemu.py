#!/usr/bin/env python3
"""A stand-in for qemu-system-x86_64 that misbehaves on demand, so the
runner's verdicts can be tested in seconds and without a kernel.

The runner starts it as it would QEMU (WQ61_QEMU=this file). It finds the
run directory (the "results" 9p share) and the monitor socket in its
arguments, answers the human monitor ("(qemu) " prompts; "nmi" prints a
backtrace like unknown_nmi_panic and exits), and plays the guest's part
of scripts/guest/guest-init.sh as $FAKE_QEMU says:

  ok N        boots, runs the "command" (exit status N), powers off
  splat       like ok 0, but dmesg holds a WARNING
  silent      prints a few boot lines, then nothing, forever
  slow-boot   prints a line every 0.2 s, comes up after $FAKE_UP s
              (default 3), then finishes like ok 0; ignores NMIs
  exit-early  prints a few boot lines and exits 1 (QEMU died)
  mid-suite   comes up, the test runner's TAP plan says 5 tests, two
              report, then QEMU exits (the guest died)
  hang        comes up and never finishes
  stubborn    like hang, and ignores SIGTERM (only SIGKILL stops it)
"""
import os
import signal
import socket
import sys
import threading
import time

mode = os.environ.get('FAKE_QEMU', 'ok 0').split()
args = sys.argv[1:]
rundir = sock = None
for i, a in enumerate(args):
    if a == '-fsdev' and 'id=res,' in args[i + 1]:
        rundir = args[i + 1].split('path=')[1].split(',')[0]
    if a == '-monitor':
        sock = args[i + 1].split('unix:')[1].split(',')[0]
if not rundir:
    sys.exit('fake-qemu: no results share in the arguments')
ignore_nmi = mode[0] == 'slow-boot'
# Record the PID, so a test can check that nothing outlives the runner,
# and the arguments, so it can check what the runner asked QEMU for.
with open(os.path.join(rundir, 'fake-qemu.pid'), 'w') as f:
    f.write('%d\n' % os.getpid())
with open(os.path.join(rundir, 'fake-qemu.argv'), 'w') as f:
    f.write(''.join(a + '\n' for a in args))


def say(text):
    sys.stdout.write(text + '\n')
    sys.stdout.flush()


def serve_monitor():
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(sock)
    srv.listen(1)
    while True:
        conn, _ = srv.accept()
        conn.sendall(b'QEMU 7.2.0 monitor - fake\r\n(qemu) ')
        buf = b''
        while True:
            data = conn.recv(4096)
            if not data:
                break
            buf += data
            while b'\n' in buf:
                line, buf = buf.split(b'\n', 1)
                cmd = line.decode().strip()
                if cmd == 'nmi' and not ignore_nmi:
                    say('Uhhuh. NMI received for unknown reason 00 on CPU 0.')
                    say('Kernel panic - not syncing: NMI: Not continuing')
                    conn.sendall(b'(qemu) ')
                    os._exit(0)
                if cmd == 'quit':
                    os._exit(0)
                conn.sendall(('%s\r\nfake answer to %s\r\n(qemu) ' % (cmd, cmd)).encode())


if sock:
    threading.Thread(target=serve_monitor, daemon=True).start()


def write(name, text):
    with open(os.path.join(rundir, name), 'w') as f:
        f.write(text)


def boot_lines():
    for line in ('Linux version 6.1.0-fake', 'Run /init as init process'):
        say(line)


def come_up():
    say('wq61-guest: up in 1.0s, 6.1.0-fake, 4 CPUs')


def finish(status, dmesg='[    1.0] fake: clean\n'):
    write('output', 'fake command output\n')
    write('rc', '%d\n' % status)
    write('dmesg', dmesg)
    say('wq61-guest: command exited %d; powering off' % status)
    sys.exit(0)


def forever():
    while True:
        time.sleep(60)


kind = mode[0]
if kind == 'ok':
    boot_lines(); come_up(); finish(int(mode[1]))
elif kind == 'splat':
    boot_lines(); come_up()
    finish(0, '[    1.0] WARNING: CPU: 0 PID: 1 at kernel/fake.c:1 fake_fn+0x0/0x10\n')
elif kind == 'silent':
    boot_lines(); forever()
elif kind == 'slow-boot':
    end = time.time() + float(os.environ.get('FAKE_UP', '3'))
    while time.time() < end:
        say('booting...')
        time.sleep(0.2)
    come_up(); finish(0)
elif kind == 'exit-early':
    boot_lines(); sys.exit(1)
elif kind == 'mid-suite':
    boot_lines(); come_up()
    write('output', 'TAP version 13\n1..5\n# wq61-tests: 00-a 01-b 02-c 03-d 04-e\n'
                    '# ---- 00-a\nok 1 00-a\n# ---- 01-b\nok 2 01-b\n# ---- 02-c\n')
    say('Kernel panic - not syncing: fake death')
    sys.exit(0)
elif kind in ('hang', 'stubborn'):
    if kind == 'stubborn':
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    boot_lines(); come_up(); forever()
else:
    sys.exit('fake-qemu: unknown mode %s' % kind)
