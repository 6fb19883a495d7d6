#!/bin/bash
# Build tests/modules/*.c against a flavour's build tree into
# $WQ61_CACHE/modules-FLAVOUR (a path the guest sees; the checkout stays clean).
. "$(dirname "$0")/../common.sh"
flavour=${1:-patched}
check_flavour "$flavour"
out=$(out_of "$flavour")
dst=$(modules_of "$flavour")
[ -f "$out/Module.symvers" ] || die "$flavour kernel not built (scripts/build/build.sh $flavour)"
mkdir -p "$dst"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '*.mod*' --exclude '.*.cmd' \
	--exclude Module.symvers --exclude modules.order "$WQ61_TOP/tests/modules/" "$dst/" 2>/dev/null ||
	cp -a "$WQ61_TOP/tests/modules/." "$dst/"
if ! make -s -C "$out" M="$dst" CC="ccache gcc" modules > "$dst/build.log" 2>&1; then
	cat "$dst/build.log" >&2
	die "$flavour: test modules failed to build"
fi
log "$flavour: test modules built in $dst ($(cd "$dst" && ls *.ko | xargs))"
