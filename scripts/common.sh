# Common settings for every wq61 script; source it, do not run it.
# Everything heavy lives outside the checkout, under $WQ61_CACHE.
set -euo pipefail

WQ61_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export WQ61_CACHE=${WQ61_CACHE:-$HOME/.cache/wq61}
WQ61_TARBALL=${WQ61_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
WQ61_JOBS=${WQ61_JOBS:-$(( $(nproc) + 1 ))}

# One git repository holds the pristine tree (tag "pristine"), the base of
# the test kernels (tag "base" = pristine + fixups/) and the patched branch
# "wq61" (base + patches/). The flavours (config/flavours: each kernel's
# family, source and config) each have a worktree $WQ61_CACHE/src-FLAVOUR
# and an O= directory .build inside it, so that every flavour compiles
# each file with the same relative paths: with the settings below, ccache
# serves the second flavour's build from the first's objects (only the
# files the series changes are compiled twice).
WQ61_GIT=$WQ61_CACHE/git
# The reference: Debian's linux-source-6.12 (both patch sets merged
# upstream), unpacked as is; built with the same fragments.
WQ61_MAINLINE_TARBALL=${WQ61_MAINLINE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}

export CCACHE_DIR=${CCACHE_DIR:-$WQ61_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Paths under the cache are hashed relative to the build directory, and the
# build directory itself is not hashed (it only names DW_AT_comp_dir in the
# debug info, which nothing here reads).
export CCACHE_BASEDIR=$WQ61_CACHE CCACHE_NOHASHDIR=1
# Kernel objects embed no per-build timestamps except init/version.c;
# fixing these keeps ccache hits across rebuilds of the same source.
export KBUILD_BUILD_USER=wq61 KBUILD_BUILD_HOST=localhost
export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2023-01-01}

# Where a flavour's worktree, O= build directory and test modules are
# (scripts/guest/vm.py asks these too).
src_of() { echo "$WQ61_CACHE/src-$1"; }
out_of() { echo "$WQ61_CACHE/src-$1/.build"; }
modules_of() { echo "$WQ61_CACHE/modules-$1"; }

# flavour_field FLAVOUR family|source|config: a field of config/flavours
# (config: the directories, space-separated, empty for "-"); fails for a
# flavour the table does not have.
flavour_field() {
	awk -v f="$1" -v k="$2" '
		/^[[:space:]]*(#|$)/ { next }
		$1 == f {
			if (k == "family") print $2
			else if (k == "source") print $3
			else { for (i = 4; i <= NF; i++) if ($i != "-") printf "%s%s", (n++ ? " " : ""), $i; print "" }
			found = 1; exit
		}
		END { exit !found }' "$WQ61_TOP/config/flavours"
}
# The flavours build.sh builds: every one of the table but the packages.
flavours() {
	awk '!/^[[:space:]]*(#|$)/ && $3 != "package" { print $1 }' "$WQ61_TOP/config/flavours"
}
# is_sanitizer FLAVOUR: its config turns KASAN or KCSAN on, so its log
# holds reports of 6.1's own that are sorted (sanitizer_reports.py), not
# taken as splats.
is_sanitizer() {
	local d
	for d in $(flavour_field "$1" config); do
		grep -qsE '^CONFIG_K[AC]SAN=y' "$WQ61_TOP/config/$d"/*.config && return 0
	done
	return 1
}
# make check-sanitizers' flavours: the series' kernel with a sanitizer.
sanitizers() {
	local f
	for f in $(flavours); do
		if [ "$(flavour_field "$f" source)" = wq61 ] && is_sanitizer "$f"; then
			echo "$f"
		fi
	done
}
check_flavour() {
	# not grep -q: under pipefail, a grep that quits at the first match
	# can kill flavours() with SIGPIPE and fail the pipeline anyway
	flavours | grep -xF -- "$1" > /dev/null ||
		die "unknown flavour '$1' ($(flavours | paste -sd'|'))"
}

T0=${T0:-$(date +%s)}
export T0
log() { printf '[wq61 %4ds] %s\n' $(( $(date +%s) - T0 )) "$*" >&2; }
die() { printf '[wq61] error: %s\n' "$*" >&2; exit 1; }

# The patch file names listed in patches/series, in order.
series_list() {
	[ -f "$WQ61_TOP/patches/series" ] || return 0
	awk '!/^[[:space:]]*#/ && NF {print $1}' "$WQ61_TOP/patches/series"
}
# The test-kernel fixups (fixups/series), in order.
fixups_list() {
	[ -f "$WQ61_TOP/fixups/series" ] || return 0
	awk '!/^[[:space:]]*#/ && NF {print $1}' "$WQ61_TOP/fixups/series"
}
# A hash of patches/series and every patch it lists: "has the series changed?"
series_hash() {
	{ cat "$WQ61_TOP/patches/series" 2>/dev/null
	  series_list | while read -r p; do cat "$WQ61_TOP/patches/$p" 2>/dev/null; done
	} | sha1sum | cut -d' ' -f1
}

# scratch_at DIR REF: a persistent detached worktree DIR of the kernel
# repository, reset to REF. Resetting touches only the files that differ,
# far cheaper than a fresh 75k-file checkout, and unchanged files keep
# their timestamps, so builds from it stay incremental.
scratch_at() {
	if ! git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$1"; git -C "$WQ61_GIT" worktree prune
		git -C "$WQ61_GIT" worktree add -q --detach "$1" "$2"
	fi
	git -C "$1" am --abort >/dev/null 2>&1 || true
	git -C "$1" checkout -q -f --detach "$2"
	git -C "$1" clean -q -fdx
}

# run_build OUT COUNT-FILE MAKE...: run the make command MAKE with its
# output in OUT/build.log, saying meanwhile how far it got (progress);
# returns 1 after the log's tail if it fails. COUNT-FILE then holds the
# objects OUT has: the next build's estimate. A signal to the script stops
# the make too.
run_build() {
	local out=$1 count=$2 start mk brc=0
	shift 2
	start=$(date +%s)
	touch "$out/.wq61-build-start"
	"$@" > "$out/build.log" 2>&1 & mk=$!
	# shellcheck disable=SC2064 # the PID now: mk is local
	trap "kill $mk 2>/dev/null" EXIT
	progress "$out" "$start" "$mk" "$count"
	wait "$mk" || brc=$?
	trap - EXIT
	if [ $brc -ne 0 ]; then
		tail -40 "$out/build.log" >&2
		return 1
	fi
	find "$out" -name '*.o' | wc -l > "$count"
}

# progress OUT START PID COUNT-FILE: while make (PID) runs, say how far
# it got: objects compiled since START and an estimate of the total (what
# the last complete build in OUT had: COUNT-FILE; for a first build the
# test kernel's, $WQ61_CACHE/objects-patched). A bar on a terminal, a
# line every 30 s in logs.
progress() {
	local out=$1 start=$2 pid=$3 est="" tty=0 every=30 n el t=0
	[ -t 2 ] && tty=1 every=2
	est=$(cat "$4" 2>/dev/null || cat "$WQ61_CACHE/objects-patched" 2>/dev/null || true)
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1; t=$((t + 1))
		[ $((t % every)) -eq 0 ] || continue
		n=$(find "$out" -name '*.o' -newer "$out/.wq61-build-start" 2>/dev/null | wc -l)
		el=$(( $(date +%s) - start ))
		if [ -n "$est" ] && [ "$est" -gt 0 ]; then
			pct=$(( n * 100 / est )); [ $pct -gt 99 ] && pct=99
			msg=$(printf '%dm%02ds, %d of ~%d objects (%d%%)' $((el / 60)) $((el % 60)) "$n" "$est" $pct)
		else
			msg=$(printf '%dm%02ds, %d objects (no earlier build to estimate from)' $((el / 60)) $((el % 60)) "$n")
		fi
		if [ $tty = 1 ]; then
			bar=$(printf '%*s' $(( ${pct:-0} / 4 )) '' | tr ' ' '#')
			printf '\r  [%-25s] %s ' "$bar" "$msg" >&2
		else
			log "  building: $msg"
		fi
	done
	[ $tty = 1 ] && printf '\n' >&2
	return 0
}
