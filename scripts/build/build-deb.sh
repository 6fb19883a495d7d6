#!/bin/bash
# make deb [DEB_CONFIG=full|lean]: Debian packages of Debian's 6.1 with the
# series, built the way an administrator would build them ("make
# bindeb-pkg"), into $WQ61_CACHE/deb-CONFIG/ (linux-image-R, -dbg,
# linux-headers-R, linux-libc-dev; R = 6.1.N-wq61, 6.1.N-wq61-lean).
#
# Source: pristine linux-source-6.1 + patches/ (not fixups/: those exist
# for the test kernels only), in its own worktree $WQ61_CACHE/src-deb.
# Config: Debian's config.amd64_none_amd64 (package linux-config-6.1) +
# config/deb/wq61.config (the series' own options), olddefconfig.
# DEB_CONFIG=lean also leaves out every module config/deb/lean.keep does
# not name: the same built-in kernel, only the modules a QEMU guest loads.
. "$(dirname "$0")/../common.sh"
variant=${DEB_CONFIG:-full}
# The lean packages are for tests: gzip, not xz (dpkg-deb's xz takes
# ~10 min on one core for the -dbg package's 600 MB vmlinux).
case $variant in
full) release_tag=-wq61 compress=xz;;
lean) release_tag=-wq61-lean compress=gzip;;
*) die "DEB_CONFIG must be full or lean, not '$variant'";;
esac
"$WQ61_TOP/scripts/build/deps.sh" deb
"$WQ61_TOP/scripts/tree/prepare-tree.sh"

DEB_CONFIG_XZ=${WQ61_DEB_CONFIG_XZ:-/usr/src/linux-config-6.1/config.amd64_none_amd64.xz}
[ -f "$DEB_CONFIG_XZ" ] || die "$DEB_CONFIG_XZ missing (apt-get install linux-config-6.1)"
src=$WQ61_CACHE/src-deb
dst=$WQ61_CACHE/deb-$variant
out=$dst/build
mkdir -p "$out"

# The source: pristine + the series, re-applied only when the series
# changed (a re-apply touches workqueue.h, which nearly everything includes).
want="$(series_hash)-$(git -C "$WQ61_GIT" rev-parse pristine)"
if [ "$(cat "$WQ61_CACHE/deb.applied" 2>/dev/null)" != "$want" ] ||
   ! git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	scratch_at "$src" pristine
	while read -r p; do
		git -C "$src" am -q --whitespace=nowarn "$WQ61_TOP/patches/$p" >/dev/null 2>"$dst/am.err" ||
			{ cat "$dst/am.err" >&2; die "patch does not apply to pristine 6.1: $p"; }
	done < <(series_list)
	echo "$want" > "$WQ61_CACHE/deb.applied"
	log "deb: pristine + $(series_list | wc -l) patches in $src"
fi

kver=$(make -s -C "$src" kernelversion)
release=$kver$release_tag
pkgver=${WQ61_DEB_VERSION:-$kver-wq61-1}
KMAKE=(make -s -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION="$release_tag"
       KDEB_PKGVERSION="$pkgver" KDEB_SOURCENAME=linux-wq61 KDEB_CHANGELOG_DIST=bookworm
       KDEB_COMPRESS="$compress")

# The config: Debian's, the series' options, and for lean the module cut.
frags=("$WQ61_TOP/config/deb/wq61.config")
# (not "[ lean ] && cat": under pipefail its false would end the script)
cfg_id=$( { cat "$DEB_CONFIG_XZ" "${frags[@]}"; if [ "$variant" = lean ]; then cat "$WQ61_TOP/config/deb/lean.keep"; fi; } |
	sha1sum | cut -d' ' -f1)
if [ "$(cat "$out/.wq61-config" 2>/dev/null)" != "$cfg_id" ] || [ ! -f "$out/.config" ]; then
	log "deb-$variant: configuring ($(basename "$DEB_CONFIG_XZ") + ${frags[*]##*/}$([ "$variant" = lean ] && echo ", modules but lean.keep off"))"
	xz -dc "$DEB_CONFIG_XZ" > "$out/.config"
	if [ "$variant" = lean ]; then
		# Every module off but those named (one symbol per line, # comments).
		keep=$(sed 's/#.*//' "$WQ61_TOP/config/deb/lean.keep" | awk 'NF {print $1}' | paste -sd'|')
		sed -E -i "/^CONFIG_($keep)=m\$/! s/^(CONFIG_[A-Za-z0-9_]+)=m\$/# \\1 is not set/" "$out/.config"
	fi
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null)
	"${KMAKE[@]}" olddefconfig >/dev/null
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue;; esac
		grep -qxF "$line" "$out/.config" || { echo "  $line not set" >&2; bad=1; }
	done < <(cat "${frags[@]}")
	if [ "$variant" = lean ]; then
		while read -r sym; do
			grep -qx "CONFIG_$sym=[my]" "$out/.config" || { echo "  lean.keep: CONFIG_$sym is off" >&2; bad=1; }
		done < <(sed 's/#.*//' "$WQ61_TOP/config/deb/lean.keep" | awk 'NF {print $1}')
	fi
	[ $bad -eq 0 ] || die "deb-$variant: config not as asked"
	echo "$cfg_id" > "$out/.wq61-config"
	log "deb-$variant: $(grep -c '=y$' "$out/.config") options built in, $(grep -c '=m$' "$out/.config") modules"
fi

log "deb-$variant: building $release ($WQ61_JOBS jobs, ccache) in $out"
start=$(date +%s)
run_build "$out" "$WQ61_CACHE/objects-deb-$variant" "${KMAKE[@]}" -j"$WQ61_JOBS" all ||
	die "deb-$variant: kernel build failed (full log: $out/build.log)"
log "deb-$variant: kernel built in $(( $(date +%s) - start ))s; packaging"
rm -f "$dst"/*.deb "$dst"/*.buildinfo "$dst"/*.changes
# bindeb-pkg writes the packages next to the build directory, i.e. into $dst.
if ! "${KMAKE[@]}" -j"$WQ61_JOBS" bindeb-pkg > "$out/package.log" 2>&1; then
	tail -40 "$out/package.log" >&2
	die "deb-$variant: packaging failed (full log: $out/package.log)"
fi
echo "$release" > "$dst/release"
log "deb-$variant: done in $(( $(date +%s) - start ))s: $(cd "$dst" && ls ./*.deb | sed 's|^\./||' | xargs)"
