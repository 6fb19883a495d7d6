#!/bin/bash
# The threshold's BogoMIPS scaling on a really slow clock, and a threshold
# given at boot surviving it. lpj=4000000 at HZ=250 makes the guest believe it
# runs at 2000 BogoMIPS (under 4000): the default 10 ms must become
# 10000 * 4000 / 2000 = 20000 us, and wq61 says so in the log (mainline only
# pr_debug()s it). Booted again with workqueue.cpu_intensive_thresh_us=10000,
# the user's value stays, unscaled and without a log line.
# After that boot, pwqs replaced by an attribute change must still be
# released (mainline 6.6 forgot to start the release thread: A6).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/lib/boot.sh"
lpj=4000000
cfg=$(. "$top/scripts/common.sh"; out_of "$WQ61_FLAVOUR")/.config
hz=$(sed -n 's/^CONFIG_HZ=//p' "$cfg")
bogo=$(( lpj / (500000 / hz) ))
want=$(( bogo < 4000 ? 10000 * 4000 / bogo : 10000 ))
[ "$want" -gt 1000000 ] && want=1000000
echo "HZ=$hz lpj=$lpj: $bogo BogoMIPS, want the default scaled to $want us"
[ "$want" != 10000 ] || { echo "FAIL: lpj=$lpj does not make a slow clock at HZ=$hz"; exit 1; }

# guest NAME APPEND: boot small with APPEND, print the guest's key=value lines
guest() {
	boot_guest "slow-clock-$1" small "$2" slow-clock.sh
	[ "$v" = passed ] || { echo "FAIL: guest $1: ${v:-no verdict} ($dir/console.log)"; exit 1; }
	grep -E '^(thresh|bogomips|scaled_line|release)=' "$dir/output"
}

out=$(guest scaled "lpj=$lpj")
echo "$out" | sed 's/^/  lpj only: /'
[ "$(key thresh "$out")" != missing ] || { [ "$WQ61_FLAVOUR" = baseline ] && { echo "SKIP: no cpu_intensive_thresh_us in baseline"; exit 4; }; echo "FAIL: no cpu_intensive_thresh_us"; exit 1; }
[ "$(key bogomips "$out")" = "$bogo" ] || { echo "FAIL: guest ran at $(key bogomips "$out") BogoMIPS, want $bogo"; exit 1; }
[ "$(key thresh "$out")" = "$want" ] || { echo "FAIL: threshold $(key thresh "$out"), want $want"; exit 1; }
if [ "$WQ61_FLAVOUR" != mainline ]; then
	line="workqueue: $bogo BogoMIPS, scaling cpu_intensive_thresh_us up to $want"
	[ "$(key scaled_line "$out")" = "$line" ] || { echo "FAIL: log line '$(key scaled_line "$out")', want '$line'"; exit 1; }
fi

out=$(guest user "lpj=$lpj workqueue.cpu_intensive_thresh_us=10000")
echo "$out" | sed 's/^/  lpj and thresh 10000: /'
[ "$(key thresh "$out")" = 10000 ] || { echo "FAIL: threshold set at boot became $(key thresh "$out"), want 10000"; exit 1; }
[ -z "$(key scaled_line "$out")" ] || { echo "FAIL: scaled a threshold the user set: $(key scaled_line "$out")"; exit 1; }
# and after that boot, replaced pwqs are still released (mainline's A6)
case $(key release "$out") in
ok*) ;;
*) echo "FAIL: after a boot with cpu_intensive_thresh_us=, replaced pwqs: $(key release "$out")"; exit 1;;
esac
echo "slow clock: default scaled to $want us; a threshold set at boot stays; old pwqs released after such a boot"
