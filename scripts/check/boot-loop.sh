#!/bin/bash
# make boot-loop: boot the same kernel N times, P guests at a time, and
# count the boots lost (early-boot stalls and any other hang). Every boot
# counts: the runner does not retry (WQ61_BOOT_TRIES=1).
#   scripts/check/boot-loop.sh [FLAVOUR] [N] [P] [PRESET]   (patched 100 2 big)
. "$(dirname "$0")/../common.sh"
flavour=${1:-patched} n=${2:-100} par=${3:-2} preset=${4:-big}
"$WQ61_TOP/scripts/build/build.sh" "$flavour" >&2
dir=$WQ61_CACHE/boot-loop-$flavour
rm -rf "$dir"; mkdir -p "$dir"
export WQ61_BOOT_TRIES=1
one() {
	"$WQ61_TOP/scripts/guest/vm.py" -q -f "$flavour" -p "$preset" -t 600 -r "$dir/$1" -- true >/dev/null 2>&1
	echo "boot $1: $(cat "$dir/$1/verdict" 2>/dev/null || echo 'no verdict')" >> "$dir/verdicts"
}
t0=$(date +%s)
for ((i = 1; i <= n; i += par)); do
	for ((j = i; j < i + par && j <= n; j++)); do one $j & done
	wait
	lost=$(grep -vc ': passed$' "$dir/verdicts" || true)
	log "boot-loop $flavour/$preset: $(wc -l < "$dir/verdicts") of $n booted, $lost not passed"
done
sort -n -k2 "$dir/verdicts" | grep -v ': passed$' || true
lost=$(grep -vc ': passed$' "$dir/verdicts" || true)
echo "$n boots of $flavour/$preset, $par at a time, $(( ($(date +%s) - t0) / 60 )) min: $((n - lost)) passed, $lost lost or failed"
[ "$lost" -eq 0 ]
