#!/bin/bash
# Apply patches/series with "git am" onto branch wq61 of the kernel tree.
# The series is applied in a scratch worktree first; the build worktree is
# then moved to the result with "git reset --hard", which rewrites only the
# files whose content changed, so make rebuilds only what the change touches.
. "$(dirname "$0")/../common.sh"
"$WQ61_TOP/scripts/tree/prepare-tree.sh"

PATCHES=$WQ61_TOP/patches
stamp=$WQ61_CACHE/series.applied
# The base (fixups) is part of what was applied.
want="$(series_hash)-$(git -C "$WQ61_GIT" rev-parse base)"
head=$(git -C "$(src_of patched)" rev-parse HEAD)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want $head" ]; then
	log "series unchanged, nothing to apply"
	exit 0
fi

# The series is applied in a scratch worktree reset to base.
scratch=$WQ61_CACHE/am-scratch
scratch_at "$scratch" base
n=0
while read -r p; do
	[ -f "$PATCHES/$p" ] || die "patches/series lists $p, which does not exist"
	if ! git -C "$scratch" am -q --whitespace=nowarn "$PATCHES/$p" >/dev/null 2>"$WQ61_CACHE/am.err"; then
		cat "$WQ61_CACHE/am.err" >&2
		git -C "$scratch" am --abort >/dev/null 2>&1 || true
		die "patch does not apply: $p"
	fi
	n=$((n + 1))
done < <(series_list)
new=$(git -C "$scratch" rev-parse HEAD)
if [ -n "$(git -C "$(src_of patched)" status --porcelain --untracked-files=no)" ]; then
	die "uncommitted changes in $(src_of patched); commit and 'make export' them, or discard them"
fi
# Commits made on wq61 since the last apply/export are not in patches/
# yet: refuse to throw them away.
cur=$(git -C "$(src_of patched)" rev-parse HEAD)
if [ -f "$stamp" ] && [ "$cur" != "$(cut -d' ' -f2 "$stamp")" ] &&
   [ "$cur" != "$(git -C "$WQ61_GIT" rev-parse base)" ] && [ -z "${WQ61_FORCE_IMPORT:-}" ]; then
	die "branch wq61 has commits not exported to patches/ ('make export' first, or WQ61_FORCE_IMPORT=1 to drop them)"
fi
git -C "$(src_of patched)" reset -q --hard "$new"
echo "$want $new" > "$stamp"
log "applied $n patch(es) with git am; wq61 is at $(git -C "$(src_of patched)" log -1 --format='%h %s')"
