#!/bin/bash
# Affinity scopes, cache_shard (issue 25): each L3 cut into shards of at
# most workqueue.cache_shard_size whole cores, spread evenly. The shards
# the kernel built (wq_pod_types[], read with drgn) equal the ones the
# guest's sysfs topology gives by the rule (lib/wq_pods.py, independent of
# the kernel's code), CPU 0's shard is the preset's EXPECT_SHARD0, and with
# the scope strict every item starts in the issuer's shard. On the llc16
# preset (one L3 of 16 cores) that is two shards of 8; on big it is the
# L3 itself (2 cores, fewer than 8).
#
# Expected: skipped on baseline and mainline 6.12 (no such scope: mainline
# has it from 7.1); passes on patched.
. "$(dirname "$0")/lib.sh"
wq61_needs "$SHARD_SIZE"
[ -e "$SHARD_SIZE" ] || skip "no workqueue.cache_shard_size: not in this kernel"
pods=$(dirname "$0")/lib/wq_pods.py
affn_load
wq=$WQ_SYSFS/wq61_affn
M=${WQ61_AFFN_ITEMS:-100}
make_tmp

sysfs_pods "$tmp/sysfs"
drgn -q -k -s "$WQ61_VMLINUX" "$pods" kernel > "$tmp/kernel" 2> "$tmp/drgn.err" || {
	cat "$tmp/drgn.err"; fail "drgn could not read wq_pod_types[]"; }
size=$(cat "$SHARD_SIZE")
note "cache_shard_size=$size"
grep -E '^cache(_shard)? pods ' "$tmp/sysfs" | sed 's/^/sysfs:  /'
grep -E '^cache(_shard)? pods ' "$tmp/kernel" | sed 's/^/kernel: /'
grep '^cache_shard ' "$tmp/sysfs" > "$tmp/want"
grep '^cache_shard ' "$tmp/kernel" > "$tmp/got"
[ -s "$tmp/got" ] || fail "the kernel has no cache_shard pods"
diff -u "$tmp/want" "$tmp/got" > "$tmp/diff" || {
	cat "$tmp/diff"; fail "cache_shard pods differ from the rule applied to sysfs (- sysfs, + kernel)"; }

shard_of() { pod_of cache_shard "$1"; }
if [ -n "${EXPECT_SHARD0:-}" ]; then
	[ "$(shard_of 0)" = "$EXPECT_SHARD0" ] ||
		fail "CPU 0's shard is $(shard_of 0), preset $WQ61_PRESET wants $EXPECT_SHARD0"
	note "CPU 0's shard $EXPECT_SHARD0, as the preset says"
else
	note "preset $WQ61_PRESET gives no EXPECT_SHARD0: not compared"
fi

keep $wq/affinity_scope $wq/affinity_strict
set_attr $wq/affinity_scope cache_shard
[ "$(cat $wq/affinity_scope)" = cache_shard ] ||
	fail "affinity_scope reads '$(cat $wq/affinity_scope)' after writing cache_shard"
set_attr $wq/affinity_strict 1
n=$(nproc)
issuers=$(printf '%s\n' 0 $((n / 2 - 1)) $((n / 2)) $((n - 1)) | sort -nu | xargs)
affn_starts "strict cache_shard" shard_of "$issuers" "$M" 1000
[ "$IN" -eq "$TOTAL" ] ||
	fail "strict cache_shard: $((TOTAL - IN)) of $TOTAL items started outside their issuer's shard"
note "strict cache_shard: every item started in its issuer's shard"
