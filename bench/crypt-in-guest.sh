#!/bin/bash
# Runs inside one guest boot (preset vm16: each vCPU a socket, so each L3
# is one CPU): dm-crypt reads with fio, issue 25 section 2. A dm-crypt
# target (aes-xts-plain64, a random key) over /dev/ram0 (brd, whose
# unwritten pages read as zeroes: no memory is spent on data), read with
# direct I/O by fio: one job on CPU 0, and four jobs on CPUs 0-3. dm-crypt
# decrypts a read in a work item of its unbound kcryptd workqueue, queued
# on the CPU the read completed on, so the scope decides where decryption
# can run. Rows "config,metric,flavour,run,value" appended to
# $WQ61_RESULTS/crypt.csv:
#   mib_s      fio's read bandwidth (MiB/s)
#   cpus_busy  CPUs busy for at least a tenth of the run (/proc/stat)
#   top_share  the busiest CPU's part of all CPUs' busy time (%)
# and in $WQ61_RESULTS/crypt-scope the default affinity scope in effect
# ("-" where the kernel has no scopes).
#   WQ61_CRYPT_RUNS (default 3) runs of each configuration;
#   WQ61_CRYPT_SECONDS (default 10) each run's length.
set -u
. "$WQ61_TOP/tests/guest/lib.sh"
csv=$WQ61_RESULTS/crypt.csv
runs=${WQ61_CRYPT_RUNS:-3}
secs=${WQ61_CRYPT_SECONDS:-10}
command -v fio > /dev/null || fail "no fio (make bench installs it)"
command -v dmsetup > /dev/null || fail "no dmsetup"
[ -b /dev/ram0 ] || fail "no /dev/ram0 (brd)"

scope=/sys/module/workqueue/parameters/default_affinity_scope
if [ -r $scope ]; then cat $scope; else echo -; fi > "$WQ61_RESULTS/crypt-scope"
echo "default affinity scope: $(cat "$WQ61_RESULTS/crypt-scope")"

# no udev in the guest: libdevmapper makes /dev/mapper/NAME itself
export DM_DISABLE_UDEV=1
sectors=$(blockdev --getsz /dev/ram0) || fail "cannot size /dev/ram0"
key=$(od -An -tx1 -N64 /dev/urandom | tr -d ' \n')
dmsetup create wq61crypt --table "0 $sectors crypt aes-xts-plain64 $key 0 /dev/ram0 0" ||
	fail "cannot set up dm-crypt"
on_exit 'dmsetup remove wq61crypt'
dev=/dev/mapper/wq61crypt
[ -b $dev ] || fail "no $dev"
echo "dm-crypt: $((sectors / 2048)) MiB, $(dmsetup table wq61crypt | awk '{print $4}')"

# busy and total jiffies per CPU: "cpuN busy total" lines
cpu_times() {
	awk '/^cpu[0-9]/ { t = 0; for (i = 2; i <= NF; i++) t += $i;
		print $1, t - $5 - $6, t }' /proc/stat
}
# crypt CFG JOBS CPUS DEPTH BS RUN: JOBS fio jobs, one per CPU of CPUS
crypt() {
	local cfg=$1 jobs=$2 cpus=$3 depth=$4 bs=$5 r=$6 out
	cpu_times > /tmp/cpu.before
	out=$(fio --name=read --filename=$dev --rw=read --bs="$bs" \
		--cpus_allowed="$cpus" --cpus_allowed_policy=split \
		--direct=1 --ioengine=libaio --iodepth="$depth" --numjobs="$jobs" \
		--thread --time_based --runtime="$secs" --group_reporting \
		--output-format=json 2>&1) || { echo "$out"; fail "fio failed ($cfg)"; }
	cpu_times > /tmp/cpu.after
	python3 - "$cfg" "$WQ61_FLAVOUR" "$r" /tmp/cpu.before /tmp/cpu.after "$out" >> "$csv" <<'PY' ||
import json, sys
cfg, flavour, run, before, after, out = sys.argv[1:]
# fio may print notes before its JSON
res = json.loads(out[out.index('{'):])
mib_s = res['jobs'][0]['read']['bw'] / 1024
def times(path):
    return {c: (int(b), int(t)) for c, b, t in (l.split() for l in open(path))}
b, a = times(before), times(after)
busy = {c: a[c][0] - b[c][0] for c in a if c in b}
span = max(a[c][1] - b[c][1] for c in busy)
nbusy = sum(1 for v in busy.values() if span and v >= span / 10)
top = 100 * max(busy.values()) / max(1, sum(busy.values()))
for metric, v in (('mib_s', f'{mib_s:.1f}'), ('cpus_busy', nbusy), ('top_share', f'{top:.1f}')):
    print(f'{cfg},{metric},{flavour},{run},{v}')
PY
		fail "cannot read fio's result ($cfg)"
	echo "$cfg run $r: $(grep "^$cfg,.*,$r," "$csv" | cut -d, -f2,5 | tr '\n' ' ')"
}
for ((r = 0; r < runs; r++)); do
	crypt 1job:qd32:64k 1 0 32 64k "$r"
	crypt 4jobs:qd8:64k 4 0-3 8 64k "$r"
done
