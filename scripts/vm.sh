#!/bin/bash
# Boot a built kernel in QEMU and run a command in it.
#
#   scripts/vm.sh [options] -- COMMAND...
#     -f, --flavour F     patched (default) or baseline
#     -p, --preset P      topology preset from tests/topology/P.conf (default big)
#     -a, --append ARGS   extra kernel command-line arguments
#     -t, --timeout S     kill the guest after S seconds (default 900)
#     -e, --env K=V       export K=V in the guest (repeatable)
#     -r, --run-dir DIR   where console log, output, dmesg and rc go
#     -i, --interactive   a shell on the console instead of COMMAND
#     -q, --quiet         do not echo the console
#     -b, --boot-timeout S  a guest not up after S s (default 150), or silent
#                         for $WQ61_BOOT_SILENCE s (default 30) while booting,
#                         is lost; it is booted again up to $WQ61_BOOT_TRIES
#                         times (default 8) before the run reports it lost
#
# The host root is shared read-only over 9p; the run directory is mounted
# read-write at /mnt/results ($WQ61_RESULTS) in the guest. Exit status:
# COMMAND's own, or 124 if the guest was lost (timeout, no exit status),
# or 125 if the kernel log shows an unexpected splat (BUG, WARNING, lockdep,
# stalls ...; tests list deliberate ones in $WQ61_RESULTS/expected-messages).
. "$(dirname "$0")/common.sh"

flavour=patched preset=${WQ61_PRESET:-big} append="" timeout=900 interactive=0 quiet=0
boot_timeout=150 boot_silence=${WQ61_BOOT_SILENCE:-30} boot_tries=${WQ61_BOOT_TRIES:-8}
rundir="" envs=()
while [ $# -gt 0 ]; do
	case "$1" in
	-f|--flavour) flavour=$2; shift 2;;
	-p|--preset) preset=$2; shift 2;;
	-a|--append) append="$append $2"; shift 2;;
	-t|--timeout) timeout=$2; shift 2;;
	-b|--boot-timeout) boot_timeout=$2; shift 2;;
	-e|--env) envs+=("$2"); shift 2;;
	-r|--run-dir) rundir=$2; shift 2;;
	-i|--interactive) interactive=1; shift;;
	-q|--quiet) quiet=1; shift;;
	--) shift; break;;
	*) break;;
	esac
done
check_flavour "$flavour"
out=$(out_of "$flavour")
kernel=$out/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no $flavour kernel at $kernel: run scripts/build.sh $flavour"
conf=$WQ61_TOP/tests/topology/$preset.conf
[ -f "$conf" ] || die "unknown preset '$preset' (have: $(cd "$WQ61_TOP/tests/topology" && ls *.conf | sed 's/\.conf//' | xargs))"
. "$conf"
[ $interactive -eq 1 ] || [ $# -gt 0 ] || die "no command given"

if [ -z "$rundir" ]; then
	mkdir -p "$WQ61_RUNS"
	rundir=$(mktemp -d "$WQ61_RUNS/$(date +%Y%m%d-%H%M%S)-$flavour-XXXX")
fi
mkdir -p "$rundir"
rm -f "$rundir"/{monitor.sock,rc,output,dmesg,console.log,cmd,env,interactive,boot-stalled,scan.txt} "$rundir"/console.log.lost-*
printf '%s\n' "$*" > "$rundir/cmd"
{
	echo "export WQ61_TOP='$WQ61_TOP' WQ61_FLAVOUR='$flavour' WQ61_PRESET='$preset'"
	echo "export WQ61_BUILD='$out' WQ61_VMLINUX='$out/vmlinux'"
	echo "export WQ61_MODULES='$WQ61_CACHE/modules-$flavour' WQ61_SRC='$(src_of "$flavour")'"
	for v in NR_CPUS SMT0 LLC0 NODE0 NODES; do
		n=EXPECT_$v; echo "export EXPECT_$v='${!n}'"
	done
	for e in "${envs[@]}"; do printf 'export %q\n' "$e"; done
} > "$rundir/env"
[ $interactive -eq 1 ] && touch "$rundir/interactive"

accel=tcg
if [ "${WQ61_KVM:-0}" = 1 ]; then accel=kvm; fi
# unknown_nmi_panic: a stalled guest gets an NMI from the boot watchdog and
# dies with a backtrace on the console, which says where it was stuck.
cmdline="console=ttyS0,115200 panic=-1 unknown_nmi_panic rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro init=$WQ61_TOP/scripts/guest-init.sh $append"
qemu=(qemu-system-x86_64 -machine q35,accel=$accel -cpu "$QEMU_CPU" -smp "$QEMU_SMP"
      -m "$QEMU_MEM" "${QEMU_NUMA[@]}" -kernel "$kernel" -append "$cmdline"
      -display none -no-reboot -vga none -nic none
      -monitor unix:"$rundir/monitor.sock",server=on,wait=off
      -fsdev local,id=root,path=/,readonly=on,security_model=none,multidevs=remap
      -device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
      -fsdev local,id=res,path="$rundir",security_model=none
      -device virtio-9p-pci,fsdev=res,mount_tag=results)

log "booting $flavour kernel, preset $preset ($accel), run dir $rundir"
if [ $interactive -eq 1 ]; then
	"${qemu[@]}" -serial mon:stdio | tee "$rundir/console.log"
else
	# A guest lost while booting (the early-boot stalls seen under TCG on
	# stock 6.1 too, see README) is booted again, up to $boot_tries times;
	# each lost console is kept as console.log.lost-N.
	for ((try = 1; try <= boot_tries; try++)); do
		# Boot watchdog: a guest whose userspace is not up in time, or whose
		# console stays silent for $boot_silence s before that (a normal boot
		# never pauses that long; the early-boot stalls seen under TCG do), is
		# lost.
		(
			last=-1 quiet_s=0 why=""
			for ((i = 0; i < boot_timeout; i++)); do
				sleep 1
				grep -q 'wq61-guest: up' "$rundir/console.log" 2>/dev/null && exit 0
				[ -f "$rundir/rc" ] && exit 0
				size=$(stat -c %s "$rundir/console.log" 2>/dev/null || echo 0)
				if [ "$size" = "$last" ]; then quiet_s=$((quiet_s + 1)); else quiet_s=0 last=$size; fi
				if [ $quiet_s -ge "$boot_silence" ]; then
					why="boot watchdog: console silent for ${boot_silence}s before userspace came up"
					break
				fi
			done
			# (It may have come up while we looked: then let it be.)
			grep -q 'wq61-guest: up' "$rundir/console.log" 2>/dev/null && exit 0
			echo "${why:-boot watchdog: userspace not up after ${boot_timeout}s}" > "$rundir/boot-stalled"
			# Save CPU 0's local APIC state (pending/in-service vectors)
			# and registers, then NMI the guest for a kernel backtrace.
			python3 - "$rundir/monitor.sock" "$rundir/stall-info.txt" <<-'PY' || true
	import socket, sys, time
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(0.5)
	def cmd(c):
	    s.sendall(c.encode() + b"\n"); out = b""; end = time.time() + 2
	    while time.time() < end:
	        try:
	            out += s.recv(65536)
	        except socket.timeout:
	            pass
	    return out.decode(errors="replace")
	import re
	info = cmd("info lapic 0") + cmd("info registers -a") + cmd("info irq")
	info = re.sub(r"\(qemu\) [^\n]*\n?", "", info)     # the monitor's echo
	open(sys.argv[2], "w").write(re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", info))
	s.sendall(b"nmi\n"); time.sleep(1)
	PY
			sleep 10
			pkill -f -- "fsdev local,id=res,path=$rundir," 2>/dev/null
		) &
		watchdog=$!
		if [ $quiet -eq 1 ]; then
			timeout --foreground -k 10 "$timeout" "${qemu[@]}" -serial file:"$rundir/console.log" </dev/null
		else
			timeout --foreground -k 10 "$timeout" "${qemu[@]}" -serial stdio </dev/null | tee "$rundir/console.log"
		fi
		qrc=${PIPESTATUS[0]}
		kill $watchdog 2>/dev/null || true
		wait $watchdog 2>/dev/null || true
		if [ ! -f "$rundir/rc" ] && [ -f "$rundir/boot-stalled" ] && [ $try -lt $boot_tries ]; then
			log "guest lost while booting ($(cat "$rundir/boot-stalled")); booting again ($((try + 1))/$boot_tries)"
			tail -3 "$rundir/console.log" 2>/dev/null | sed 's/^/    /' >&2
			mv "$rundir/console.log" "$rundir/console.log.lost-$try"
			rm -f "$rundir/boot-stalled" "$rundir/monitor.sock"
			continue
		fi
		break
	done
	if [ ! -f "$rundir/rc" ]; then
		[ "$qrc" = 124 ] && why="timed out after ${timeout}s" || why="qemu exited $qrc"
		[ -f "$rundir/boot-stalled" ] && why=$(cat "$rundir/boot-stalled")
		log "GUEST LOST ($why) before the command finished; console: $rundir/console.log"
		tail -5 "$rundir/console.log" 2>/dev/null | sed 's/^/    /' >&2
		"$WQ61_TOP/scripts/scan-log.py" --expected "$rundir/expected-messages" "$rundir/console.log" >&2 || true
		exit 124
	fi
fi
rc=$(cat "$rundir/rc" 2>/dev/null || echo 124)
if ! "$WQ61_TOP/scripts/scan-log.py" --expected "$rundir/expected-messages" \
		"$rundir/dmesg" "$rundir/console.log" > "$rundir/scan.txt"; then
	cat "$rundir/scan.txt" >&2
	log "kernel log has unexpected splats: failing the run"
	exit 125
fi
log "guest command exited $rc ($(( $(date +%s) - T0 ))s)"
exit "$rc"
