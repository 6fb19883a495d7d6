#!/bin/bash
# Developer loop, kernel -> repo: write the commits base..wq61 of the
# kernel tree as patches/NNNN-subject.patch plus patches/series.
# Output is stable: no signature, zeroed commit hashes, fixed abbrev.
. "$(dirname "$0")/../common.sh"
src=$(src_of patched)
[ -d "$src" ] || die "no kernel tree yet: make prepare"
[ -z "$(git -C "$src" status --porcelain --untracked-files=no)" ] ||
	die "uncommitted changes in $src: commit them first"
P=$WQ61_TOP/patches
mkdir -p "$P"
rm -f "$P"/*.patch
git -C "$src" -c core.abbrev=12 -c diff.noprefix=false format-patch -q \
	--no-signature --zero-commit --no-binary \
	--subject-prefix=PATCH -o "$P" base..HEAD
( echo "# The wq61 series, in order; applied with git am onto Debian's 6.1."
  cd "$P" && ls *.patch 2>/dev/null ) > "$P/series"
# The tree now matches patches/: record it so apply-series.sh knows.
want="$(series_hash)-$(git -C "$WQ61_GIT" rev-parse base)"
echo "$want $(git -C "$src" rev-parse HEAD)" > "$WQ61_CACHE/series.applied"
log "exported $(series_list | wc -l) patch(es) to patches/"
