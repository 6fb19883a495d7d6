#!/bin/bash
# Build one flavour: scripts/build/build.sh FLAVOUR (default patched; the list,
# with each flavour's source and config: config/flavours).
# Config: tinyconfig + config/*.config (merge_config.sh, olddefconfig), in
# the flavour's O= directory; ccache; incremental on rebuilds.
. "$(dirname "$0")/../common.sh"
flavour=${1:-patched}
check_flavour "$flavour"
src=$(src_of "$flavour")
out=$(out_of "$flavour")
source=$(flavour_field "$flavour" source)

if [ "$source" = mainline ]; then
	"$WQ61_TOP/scripts/build/deps.sh" mainline
	if [ ! -f "$src/Makefile" ]; then
		log "unpacking $(basename "$WQ61_MAINLINE_TARBALL") into $src"
		rm -rf "$src"; mkdir -p "$src"
		tar -C "$src" --strip-components=1 -xJf "$WQ61_MAINLINE_TARBALL"
	fi
	# Committed as unpacked (tag "mainline"), like 6.1's pristine tree, so
	# that a change to it, by hand or by a tool, shows in git status/diff.
	if [ ! -d "$src/.git" ]; then
		log "committing the mainline tree"
		git -C "$src" init -q -b mainline-branch
		git -C "$src" config user.name wq61; git -C "$src" config user.email wq61@localhost
		git -C "$src" config gc.auto 0
		echo /.build/ >> "$src/.git/info/exclude"
		git -C "$src" add -A -f -- . ':(exclude).build'
		ver=$(make -s -C "$src" kernelversion 2>/dev/null || echo 6.12)
		git -C "$src" commit -q -m "Debian linux-source-6.12 ($ver), as unpacked"
		git -C "$src" tag mainline
	fi
else
	"$WQ61_TOP/scripts/tree/prepare-tree.sh"
	case $source in wq61|naive) "$WQ61_TOP/scripts/tree/apply-series.sh";; esac
	if [ "$flavour" != patched ] && [ "$source" != base ]; then
		# Same source as patched (branch wq61), own worktree and O= dir.
		if ! git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
			rm -rf "$src"; git -C "$WQ61_GIT" worktree prune
			git -C "$WQ61_GIT" worktree add -q --detach "$src" wq61
		fi
		git -C "$src" checkout -q -f --detach wq61
	fi
	if [ "$source" = naive ]; then
		[ -f "${WQ61_NAIVE_DIFF:-}" ] || die "$flavour: WQ61_NAIVE_DIFF must name a tests/naive/*.diff"
		git -C "$src" apply "$WQ61_NAIVE_DIFF" || die "$flavour: $WQ61_NAIVE_DIFF does not apply"
		log "$flavour: wq61 with $(basename "$WQ61_NAIVE_DIFF") on top"
	fi
fi
mkdir -p "$out"

# The flavour is part of the release string, so a guest knows what it runs.
KMAKE=(make -s -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION=-wq61-$flavour)

# config/*.config for every flavour, then config/DIR/*.config for each DIR
# config/flavours names for it (patched: symbols the series adds;
# mainline: 6.12's names and symbols; patched-kasan, patched-kcsan: the
# sanitizer).
shopt -s nullglob
frags=("$WQ61_TOP"/config/*.config)
for d in $(flavour_field "$flavour" config); do
	[ -d "$WQ61_TOP/config/$d" ] || die "config/flavours: $flavour wants config/$d, which is missing"
	frags+=("$WQ61_TOP/config/$d"/*.config)
done
shopt -u nullglob
fhash=$(cat "${frags[@]}" | sha1sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.wq61-config" 2>/dev/null)" != "$fhash" ]; then
	log "$flavour: configuring (tinyconfig + ${frags[*]##*/})"
	"${KMAKE[@]}" tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null)
	"${KMAKE[@]}" olddefconfig >/dev/null
	# Every option a fragment asks for must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue;; esac
		sym=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -qx "$sym=.*" "$out/.config" && { echo "  $sym wanted n, got $(grep "^$sym=" "$out/.config")" >&2; bad=1; }
		else
			grep -qxF "$line" "$out/.config" || { echo "  $line not set (got: $(grep -E "^(# )?$sym[= ]" "$out/.config" || echo nothing))" >&2; bad=1; }
		fi
	done < <(cat "${frags[@]}")
	[ $bad -eq 0 ] || die "$flavour: config fragments not honoured (dependencies missing?)"
	echo "$fhash" > "$out/.wq61-config"
fi

log "$flavour: building bzImage, modules and vmlinux ($WQ61_JOBS jobs, ccache) in $out"
start=$(date +%s)
run_build "$out" "$WQ61_CACHE/objects-$flavour" "${KMAKE[@]}" -j"$WQ61_JOBS" bzImage modules ||
	die "$flavour: kernel build failed (full log: $out/build.log)"
# Out-of-tree test modules are built against this tree.
"${KMAKE[@]}" modules_prepare >/dev/null 2>&1
log "$flavour: built $(cat "$out/include/config/kernel.release") in $(( $(date +%s) - start ))s"
