#!/usr/bin/env python3
"""Boot a built kernel in QEMU, run a command in it, and give a verdict.

  scripts/guest/vm.py [options] -- COMMAND...
    -f, --flavour F       patched (default), baseline (or any built flavour)
    -p, --preset P        topology preset tests/topology/P.conf (default big)
    -a, --append ARGS     extra kernel command-line arguments
    -t, --timeout S       the whole run may take S seconds (default 900)
    -b, --boot-timeout S  userspace must be up within S seconds (default 150)
    -e, --env K=V         export K=V in the guest (repeatable)
    -r, --run-dir DIR     where console.log, output, dmesg, rc, verdict go
    -k, --kernel FILE     boot FILE, not the flavour's build (make check-deb)
    -I, --initrd FILE     with this initramfs
    -i, --interactive     a shell on the console instead of COMMAND
    -q, --quiet           do not echo the console

The host root is shared read-only over 9p; the run directory is mounted
read-write at /mnt/results ($WQ61_RESULTS) in the guest. Every WQ61_*
variable of the runner's environment reaches the guest, as do the preset's
EXPECT_* values and -e K=V.

The outcome is one line in RUN-DIR/verdict, the only thing callers read:
  passed           the command exited 0, the kernel log is clean
  failed N         the command exited N, the kernel log is clean
  splat            the kernel log has unexpected splats (RUN-DIR/scan.txt)
  lost: WHY        no exit status came back: boot watchdog, timeout, QEMU
                   died; final when given, a late exit status is ignored
  interrupted      the runner got SIGINT/SIGTERM/SIGHUP
Exit status: 0 passed, 1 failed, 125 splat, 124 lost, 130 interrupted.

Boot watchdog: a guest whose userspace is not up within the boot timeout,
or whose console is silent for $WQ61_BOOT_SILENCE s (default 30) before
that, is lost: its local APIC state and registers go to stall-info.txt, it
gets an NMI (unknown_nmi_panic: a backtrace on the console) and is killed.
$WQ61_BOOT_TRIES (default 1) boots are tried; each lost boot is a line in
RUN-DIR/boots and its console is kept as console.log.lost-N.

QEMU is $WQ61_QEMU (default qemu-system-x86_64); the host tests substitute
a fake one. It is stopped by PID, and killed by the kernel if the runner
dies first (PR_SET_PDEATHSIG): no process outlives the runner.
"""
import argparse
import ctypes
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T0 = int(os.environ.get('T0', time.time()))
UP_MARK = b'wq61-guest: up'
EXIT = {'passed': 0, 'failed': 1, 'splat': 125, 'lost': 124, 'interrupted': 130}


def log(msg):
    print('[wq61 %4ds] %s' % (time.time() - T0, msg), file=sys.stderr, flush=True)


def die(msg):
    print('[wq61] error: %s' % msg, file=sys.stderr)
    sys.exit(2)


_LIBC = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG = 1


def die_with_runner(runner=os.getpid()):
    """Run in QEMU's process before exec: the kernel kills it when the
    runner dies, however it dies (a SIGKILL leaves the runner no chance to
    stop QEMU itself, and a lone TCG guest would spin on for its timeout)."""
    _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != runner:      # the runner died before prctl
        os._exit(1)


class Interrupted(Exception):
    pass


def on_signal(signum, _frame):
    raise Interrupted(signal.Signals(signum).name)


def read_preset(name):
    """The preset's QEMU settings and EXPECT_* values: the .conf files are
    bash (they hold an array), so bash reads them."""
    conf = os.path.join(TOP, 'tests', 'topology', name + '.conf')
    if not os.path.isfile(conf):
        have = sorted(f[:-5] for f in os.listdir(os.path.dirname(conf)) if f.endswith('.conf'))
        die("unknown preset '%s' (have: %s)" % (name, ' '.join(have)))
    script = ('set -e; . "$1"; printf "%s\\0" "$QEMU_CPU" "$QEMU_SMP" "$QEMU_MEM"; '
              'for v in ${!EXPECT_*}; do printf "%s=%s\\0" "$v" "${!v}"; done; '
              'printf "\\0"; printf "%s\\0" "${QEMU_NUMA[@]}" "${QEMU_EXTRA[@]}"')
    out = subprocess.run(['bash', '-c', script, 'preset', conf], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    head, _, numa = out.partition('\0\0')
    fields = head.split('\0')
    expect = dict(f.split('=', 1) for f in fields[3:] if f)
    return fields[0], fields[1], fields[2], [a for a in numa.split('\0') if a], expect


# The guest mounts a tmpfs over these (scripts/guest/guest-init.sh): host files
# below them are hidden from it.
GUEST_TMPFS = ('/tmp', '/run', '/var/tmp', '/var/lib/dhcp', '/mnt', '/dev/shm')


def hidden_in_guest(path):
    """The tmpfs mount point that hides path from the guest, or None."""
    path = os.path.realpath(path)
    for d in GUEST_TMPFS:
        if path == d or path.startswith(d + '/'):
            return d
    return None


def flavour_row(name):
    """config/flavours' row for flavour NAME: (family, source, [config dirs])."""
    with open(os.path.join(TOP, 'config', 'flavours')) as f:
        rows = [ln.split() for ln in f if ln.strip() and not ln.lstrip().startswith('#')]
    for r in rows:
        if r[0] == name and len(r) >= 4:
            return r[1], r[2], [d for d in r[3:] if d != '-']
    die("unknown flavour '%s' (config/flavours has: %s)" % (name, ' '.join(r[0] for r in rows)))


def flavour_paths(flavour):
    """Where the flavour's tree, build and test modules are, and the cache
    itself, as scripts/common.sh lays them out (src_of, out_of, modules_of):
    the shell side says it, in one place."""
    script = ('. "$1/scripts/common.sh" && src_of "$2" && out_of "$2" && '
              'modules_of "$2" && echo "$WQ61_CACHE"')
    out = subprocess.run(['bash', '-c', script, 'paths', TOP, flavour], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split('\n')
    return dict(zip(('src', 'build', 'modules', 'cache'), out))


def guest_env(args, expect):
    """The lines of RUN-DIR/env, sourced by the guest's init."""
    env = {k: v for k, v in os.environ.items() if k.startswith('WQ61_')}
    env.update(expect)
    env.update(WQ61_TOP=TOP, WQ61_FLAVOUR=args.flavour, WQ61_FAMILY=flavour_row(args.flavour)[0],
               WQ61_PRESET=args.preset,
               WQ61_BUILD=args.paths['build'],
               WQ61_VMLINUX=os.path.join(args.paths['build'], 'vmlinux'),
               WQ61_MODULES=args.paths['modules'], WQ61_SRC=args.paths['src'])
    for kv in args.env:
        if '=' not in kv or not re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', kv):
            die('-e wants NAME=VALUE, got %r' % kv)
        k, v = kv.split('=', 1)
        env[k] = v
    # The results mount is the guest's own path; the host's value is not.
    env.pop('WQ61_RESULTS', None)
    return ''.join('export %s=%s\n' % (k, shlex.quote(v)) for k, v in sorted(env.items()))


class Guest:
    """One QEMU process: console captured to a file (and echoed), stopped
    by PID."""

    def __init__(self, argv, rundir, quiet):
        self.rundir = rundir
        self.console = open(os.path.join(rundir, 'console.log'), 'wb')
        self.quiet = quiet
        self.last_output = time.time()
        self.up = False
        self.tail = b''
        qlog = open(os.path.join(rundir, 'qemu.log'), 'wb')
        # Own session: a Ctrl-C on the terminal reaches the runner, which
        # then stops QEMU itself.
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=qlog, start_new_session=True,
                                     preexec_fn=die_with_runner)
        qlog.close()
        self.reader = threading.Thread(target=self._pump, daemon=True)
        self.reader.start()

    def _pump(self):
        fd = self.proc.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            self.last_output = time.time()
            self.console.write(data)
            self.console.flush()
            if not self.up:
                self.tail = (self.tail + data)[-4096:]
                self.up = UP_MARK in self.tail
            if not self.quiet:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()

    def running(self):
        return self.proc.poll() is None

    def monitor(self, commands, out_path=None):
        """Send human-monitor commands; keep their answers in out_path."""
        sock_path = os.path.join(self.rundir, 'monitor.sock')
        answers = b''

        def until_prompt(s):
            # Each answer ends with the next "(qemu) " prompt; 2 s at most.
            got, end = b'', time.time() + 2
            while time.time() < end and not got.endswith(b'(qemu) '):
                try:
                    chunk = s.recv(65536)
                except socket.timeout:
                    continue
                if not chunk:
                    break
                got += chunk
            return got
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(0.2)
            s.connect(sock_path)
            until_prompt(s)                     # the banner
            for c in commands:
                s.sendall(c.encode() + b'\n')
                answers += until_prompt(s)
            s.close()
        except OSError as e:
            answers += ('(monitor: %s)\n' % e).encode()
        if out_path:
            text = answers.decode(errors='replace')
            text = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', text)
            text = re.sub(r'\(qemu\) [^\n]*\n?', '', text)
            with open(out_path, 'w') as f:
                f.write(text)

    def stop(self, grace=0.0):
        """Stop QEMU by PID (after up to grace seconds), reap it, and let
        the reader drain what it printed."""
        if self.running() and grace > 0:
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if not self.running():
                break
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                pass
        self.proc.wait()
        self.reader.join(5)
        self.console.close()


def boot_once(argv, args, deadline):
    """Boot one guest and watch it. Returns (None, None) when the guest
    ended by itself, or ('boot'|'run', why) when the runner gave it up."""
    guest = Guest(argv, args.run_dir, args.quiet)
    silence = float(os.environ.get('WQ61_BOOT_SILENCE', '30'))
    started = time.time()
    lost = None
    try:
        while guest.running():
            time.sleep(0.2)
            now = time.time()
            if os.path.exists(os.path.join(args.run_dir, 'rc')):
                # The guest saves its dmesg and powers off.
                guest.stop(grace=60)
                break
            if not guest.up:
                if now - started > args.boot_timeout:
                    lost = ('boot', 'boot watchdog: userspace not up after %ds' % args.boot_timeout)
                elif now - guest.last_output > silence:
                    lost = ('boot', 'boot watchdog: console silent for %ds before userspace came up'
                            % silence)
            if lost is None and now > deadline:
                lost = ('run', 'timed out after %ds' % args.timeout)
            if lost:
                break
    except BaseException:
        guest.stop()
        raise
    if lost:
        # The verdict is given: what the guest does from now on does not
        # change it. A stalled boot is worth a look first: CPU 0's local
        # APIC (pending/in-service vectors), the registers, an NMI backtrace.
        if lost[0] == 'boot':
            guest.monitor(['info lapic 0', 'info registers -a', 'info irq'],
                          os.path.join(args.run_dir, 'stall-info.txt'))
            guest.monitor(['nmi'])
            guest.stop(grace=3)
        else:
            guest.stop()
        return lost
    guest.stop()
    return None, None


def qemu_argv(args, preset):
    cpu, smp, mem, numa, _ = preset
    kernel = args.kernel or os.path.join(args.paths['build'], 'arch/x86/boot/bzImage')
    if args.kernel and not os.path.isfile(kernel):
        die('no kernel at %s' % kernel)
    if not os.path.isfile(kernel) and 'WQ61_QEMU' not in os.environ:
        die('no %s kernel at %s: run scripts/build/build.sh %s' % (args.flavour, kernel, args.flavour))
    initrd = []
    if args.initrd:
        if not os.path.isfile(args.initrd):
            die('no initramfs at %s' % args.initrd)
        initrd = ['-initrd', args.initrd]
    accel = 'kvm' if os.environ.get('WQ61_KVM') == '1' else 'tcg'
    # unknown_nmi_panic: a stalled guest gets an NMI from the boot watchdog
    # and dies with a backtrace on the console, which says where it was.
    # tsc=reliable: under TCG on a loaded host the clocksource watchdog can
    # mark the TSC unstable while a CPU comes up; 6.1's TSC sync check then
    # leaves the new CPU waiting for a source that skipped the check, and
    # cpu_up() spins for good (seen once in a hotplug storm; x86 code, not
    # the workqueue). QEMU's TSC is the same host clock on every vCPU.
    cmdline = ('console=ttyS0,115200 panic=-1 unknown_nmi_panic tsc=reliable rootfstype=9p '
               'rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro '
               'init=%s/scripts/guest/guest-init.sh %s' % (TOP, ' '.join(args.append))).strip()
    return [os.environ.get('WQ61_QEMU', 'qemu-system-x86_64'),
            '-machine', 'q35,accel=' + accel, '-cpu', cpu, '-smp', smp, '-m', mem] + numa + [
            '-kernel', kernel] + initrd + ['-append', cmdline,
            '-display', 'none', '-no-reboot', '-vga', 'none', '-nic', 'none',
            '-monitor', 'unix:%s/monitor.sock,server=on,wait=off' % args.run_dir,
            '-fsdev', 'local,id=root,path=/,readonly=on,security_model=none,multidevs=remap',
            '-device', 'virtio-9p-pci,fsdev=root,mount_tag=/dev/root',
            '-fsdev', 'local,id=res,path=%s,security_model=none' % args.run_dir,
            '-device', 'virtio-9p-pci,fsdev=res,mount_tag=results']


def scan(rundir):
    """True if the kernel log is clean (tests declare deliberate splats)."""
    logs = [os.path.join(rundir, f) for f in ('dmesg', 'console.log')]
    with open(os.path.join(rundir, 'scan.txt'), 'w') as out:
        rc = subprocess.call([os.path.join(TOP, 'scripts', 'report', 'scan_log.py'), '--expected',
                              os.path.join(rundir, 'expected-messages')] + logs, stdout=out)
    return rc == 0


def verdict(rundir, text):
    with open(os.path.join(rundir, 'verdict'), 'w') as f:
        f.write(text + '\n')
    return EXIT[text.split(':')[0].split()[0]]


def main():
    p = argparse.ArgumentParser(usage=__doc__.split('\n\n')[1].strip().split('\n')[0])
    p.add_argument('-f', '--flavour', default='patched')
    p.add_argument('-p', '--preset', default=os.environ.get('WQ61_PRESET', 'big'))
    p.add_argument('-a', '--append', action='append', default=[])
    p.add_argument('-t', '--timeout', type=int, default=900)
    p.add_argument('-b', '--boot-timeout', type=int, default=150)
    p.add_argument('-e', '--env', action='append', default=[])
    p.add_argument('-r', '--run-dir')
    p.add_argument('-k', '--kernel')
    p.add_argument('-I', '--initrd')
    p.add_argument('-i', '--interactive', action='store_true')
    p.add_argument('-q', '--quiet', action='store_true')
    p.add_argument('command', nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.command and args.command[0] == '--':
        args.command = args.command[1:]
    if not re.match(r'^[a-z0-9-]+$', args.flavour):
        die("bad flavour '%s'" % args.flavour)
    flavour_row(args.flavour)
    if not args.interactive and not args.command:
        die('no command given')
    try:
        tries = int(os.environ.get('WQ61_BOOT_TRIES', '1'))
    except ValueError:
        tries = 0
    if tries < 1:
        die('WQ61_BOOT_TRIES must be a positive number')
    preset = read_preset(args.preset)
    args.paths = flavour_paths(args.flavour)
    for what, path in (('the checkout', TOP), ('WQ61_CACHE', args.paths['cache'])):
        d = hidden_in_guest(path)
        if d:
            die('%s is %s, under %s, which the guest mounts a tmpfs over, so it '
                'would not see it: move it elsewhere' % (what, path, d))

    if not args.run_dir:
        runs = os.path.join(args.paths['cache'], 'runs')
        os.makedirs(runs, exist_ok=True)
        args.run_dir = os.path.join(runs, '%s-%s-%d' % (time.strftime('%Y%m%d-%H%M%S'),
                                                        args.flavour, os.getpid()))
    args.run_dir = os.path.abspath(args.run_dir)
    os.makedirs(args.run_dir, exist_ok=True)
    for f in os.listdir(args.run_dir):
        if f in ('monitor.sock', 'rc', 'output', 'dmesg', 'console.log', 'cmd', 'env',
                 'interactive', 'scan.txt', 'verdict', 'boots', 'stall-info.txt',
                 'qemu.log', 'expected-messages') or f.startswith('console.log.lost-'):
            os.unlink(os.path.join(args.run_dir, f))
    with open(os.path.join(args.run_dir, 'cmd'), 'w') as f:
        # One word per argument: callers pass words, never pre-quoted text.
        f.write(shlex.join(args.command) + '\n')
    with open(os.path.join(args.run_dir, 'env'), 'w') as f:
        f.write(guest_env(args, preset[4]))
    argv = qemu_argv(args, preset)
    log('booting %s kernel, preset %s, run dir %s' % (args.flavour, args.preset, args.run_dir))

    if args.interactive:
        open(os.path.join(args.run_dir, 'interactive'), 'w').close()
        with open(os.path.join(args.run_dir, 'console.log'), 'wb') as con:
            q = subprocess.Popen(argv + ['-serial', 'mon:stdio'], stdout=subprocess.PIPE,
                                 preexec_fn=die_with_runner)
            for chunk in iter(lambda: q.stdout.read1(65536), b''):
                con.write(chunk)
                sys.stdout.buffer.write(chunk)
                sys.stdout.buffer.flush()
            return q.wait()

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    deadline = time.time() + args.timeout
    rundir = args.run_dir
    boots = open(os.path.join(rundir, 'boots'), 'w')
    try:
        for n in range(1, tries + 1):
            kind, why = boot_once(argv + ['-serial', 'stdio'], args, deadline)
            if kind is None:
                boots.write('boot %d: ran\n' % n)
                break
            boots.write('boot %d: lost: %s\n' % (n, why))
            boots.flush()
            if kind == 'boot' and n < tries and time.time() < deadline:
                log('guest lost while booting (%s); booting again (%d/%d)' % (why, n + 1, tries))
                os.rename(os.path.join(rundir, 'console.log'),
                          os.path.join(rundir, 'console.log.lost-%d' % n))
                for f in ('rc', 'monitor.sock'):
                    if os.path.exists(os.path.join(rundir, f)):
                        os.unlink(os.path.join(rundir, f))
                continue
            rc = verdict(rundir, 'lost: ' + why)
            if os.path.exists(os.path.join(rundir, 'rc')):
                os.rename(os.path.join(rundir, 'rc'), os.path.join(rundir, 'rc.late'))
            log('GUEST LOST (%s); console: %s/console.log' % (why, rundir))
            scan(rundir)
            with open(os.path.join(rundir, 'scan.txt')) as f:
                sys.stderr.write(f.read())
            return rc
    except Interrupted as e:
        log('interrupted (%s): guest stopped' % e)
        return verdict(rundir, 'interrupted')
    finally:
        boots.close()
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)

    try:
        with open(os.path.join(rundir, 'rc')) as f:
            status = int(f.read().strip())
    except (OSError, ValueError):
        why = 'QEMU exited before the command finished (see qemu.log, console.log)'
        log('GUEST LOST (%s)' % why)
        scan(rundir)
        return verdict(rundir, 'lost: ' + why)
    if not scan(rundir):
        with open(os.path.join(rundir, 'scan.txt')) as f:
            sys.stderr.write(f.read())
        log('kernel log has unexpected splats: failing the run')
        return verdict(rundir, 'splat')
    log('guest command exited %d (%ds)' % (status, time.time() - T0))
    return verdict(rundir, 'passed' if status == 0 else 'failed %d' % status)


if __name__ == '__main__':
    sys.exit(main())
