#!/bin/bash
# Build one flavour: scripts/build.sh baseline|patched
# Config: tinyconfig + config/*.config (merge_config.sh, olddefconfig), in
# the flavour's O= directory; ccache; incremental on rebuilds.
. "$(dirname "$0")/common.sh"
flavour=${1:-patched}
check_flavour "$flavour"
src=$(src_of "$flavour")
out=$(out_of "$flavour")

"$WQ61_TOP/scripts/prepare-tree.sh"
[ "$flavour" = patched ] && "$WQ61_TOP/scripts/apply-series.sh"
mkdir -p "$out"

# The flavour is part of the release string, so a guest knows what it runs.
KMAKE=(make -s -C "$src" O="$out" CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION=-wq61-$flavour)

# config/*.config for both flavours, config/FLAVOUR/*.config (symbols that
# only the series adds) for one.
shopt -s nullglob
frags=("$WQ61_TOP"/config/*.config "$WQ61_TOP/config/$flavour"/*.config)
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
if ! "${KMAKE[@]}" -j"$WQ61_JOBS" bzImage modules > "$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	die "$flavour: kernel build failed (full log: $out/build.log)"
fi
# Out-of-tree test modules are built against this tree.
"${KMAKE[@]}" modules_prepare >/dev/null 2>&1
log "$flavour: built $(cat "$out/include/config/kernel.release") in $(( $(date +%s) - start ))s"
