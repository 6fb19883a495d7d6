#!/bin/bash
# The series under the configs users have: the objects it touches compile
# with W=1 and without warnings that pristine 6.1 does not have itself,
# under Debian's own amd64 config and under variants of the test config
# that switch off what the series' code paths depend on.
#   scripts/check/check-configs.sh SRC-TREE   (the series applied, e.g. by
#                                        check-series.sh)
# Prints TAP: the plan first, then "ok N config-NAME # what" or
# "not ok N config-NAME # why" per config, details as "#" lines.
# One O= directory ($WQ61_CACHE/build-configs) serves every config in
# turn: switching configs recompiles only what depends on them (ccache).
. "$(dirname "$0")/../common.sh"
src=$1
[ -f "$src/Makefile" ] || die "usage: check-configs.sh SRC-TREE"
objs=(kernel/workqueue.o kernel/sched/core.o)
out=$WQ61_CACHE/build-configs
pout=$WQ61_CACHE/build-configs-pristine
mkdir -p "$out"
debian=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
[ -f "$(out_of patched)/.config" ] || "$WQ61_TOP/scripts/build/build.sh" patched

# NAME: how the config is made from the patched test config (or Debian's),
# and the line(s) its .config must then hold.
configs=(debian nosmp nonuma preempt-none preempt-full noreport nokunit)
make_config() { # NAME DIR
	local cfg=$2/.config
	case $1 in
	debian) xz -dc "$debian" > "$cfg"
		# Debian's signing certificates are not in the source package.
		"$src/scripts/config" --file "$cfg" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --set-str MODULE_SIG_KEY "certs/signing_key.pem";;
	*) cp "$(out_of patched)/.config" "$cfg";;
	esac
	case $1 in
	nosmp) "$src/scripts/config" --file "$cfg" --disable SMP;;
	nonuma) "$src/scripts/config" --file "$cfg" --disable NUMA;;
	preempt-none) "$src/scripts/config" --file "$cfg" --enable PREEMPT_NONE --disable PREEMPT_VOLUNTARY --disable PREEMPT;;
	preempt-full) "$src/scripts/config" --file "$cfg" --enable PREEMPT --disable PREEMPT_VOLUNTARY --disable PREEMPT_NONE;;
	noreport) "$src/scripts/config" --file "$cfg" --disable WQ_CPU_INTENSIVE_REPORT;;
	nokunit) "$src/scripts/config" --file "$cfg" --disable KUNIT;;
	esac
}
want() { # NAME: lines the resulting .config must hold
	case $1 in
	debian) echo "CONFIG_SECURITY_APPARMOR=y";;	# (a symbol only Debian's config sets)
	nosmp) echo "# CONFIG_SMP is not set";;
	nonuma) echo "# CONFIG_NUMA is not set";;
	preempt-none) echo "CONFIG_PREEMPT_NONE=y";;
	preempt-full) echo "CONFIG_PREEMPT=y";;
	noreport) echo "# CONFIG_WQ_CPU_INTENSIVE_REPORT is not set";;
	nokunit) echo "# CONFIG_KUNIT is not set";;
	esac
}
# compile TREE OUT: the objects, W=1; the warnings (without line numbers,
# which the series shifts) go to OUT/warnings.txt.
compile() {
	make -s -C "$1" O="$2" CC="ccache gcc" HOSTCC="ccache gcc" olddefconfig >/dev/null 2>&1 &&
	make -C "$1" O="$2" CC="ccache gcc" HOSTCC="ccache gcc" -j"$WQ61_JOBS" W=1 \
		prepare "${objs[@]}" > "$2/compile.log" 2>&1 || return 1
	{ grep 'warning:' "$2/compile.log" || true; } | sed -E "s|$1/||g; s/:[0-9]+:[0-9]+:/:/" | sort -u > "$2/warnings.txt"
}

echo "1..${#configs[@]}"
n=0
for name in "${configs[@]}"; do
	n=$((n + 1))
	if [ "$name" = debian ] && [ ! -f "$debian" ]; then
		echo "not ok $n config-$name # $debian missing (package linux-config-6.1)"; continue
	fi
	make_config "$name" "$out"
	t=$(date +%s)
	if ! compile "$src" "$out"; then
		echo "not ok $n config-$name # does not build"; { grep -m10 -E 'error|Error' "$out/compile.log" || tail -5 "$out/compile.log"; } | sed 's/^/#     /'
		continue
	fi
	if ! grep -qxF "$(want "$name")" "$out/.config"; then
		echo "not ok $n config-$name # olddefconfig did not keep '$(want "$name")'"; continue
	fi
	new=0
	if [ -s "$out/warnings.txt" ]; then
		# Warnings 6.1 has without the series are not ours to fix.
		mkdir -p "$pout"; make_config "$name" "$pout"
		compile "$(src_of baseline)" "$pout" || true
		new=$(comm -23 "$out/warnings.txt" "$pout/warnings.txt" | wc -l)
	fi
	if [ "$new" -gt 0 ]; then
		echo "not ok $n config-$name # $new new W=1 warning(s)"
		comm -23 "$out/warnings.txt" "$pout/warnings.txt" | head -10 | sed 's/^/#     /'
	else
		echo "ok $n config-$name # ${objs[*]} W=1, no new warnings ($(wc -l < "$out/warnings.txt") also in 6.1; $(( $(date +%s) - t ))s)"
	fi
done
