#!/bin/bash
# Unpack Debian's linux-source-6.1 once into $WQ61_CACHE/git as a pristine
# git tree (tag "pristine"), commit the test-kernel fixups (fixups/series)
# on top of it as tag "base", and keep two worktrees: src-baseline (base,
# detached) and src-patched (branch wq61, where patches/ gets applied onto
# base). Users apply patches/ to Debian's tree; fixups/ only makes our test
# kernels boot reliably (fixups/README.md).
. "$(dirname "$0")/../common.sh"

[ -f "$WQ61_TARBALL" ] || die "$WQ61_TARBALL missing: run scripts/build/deps.sh (apt-get install linux-source-6.1)"
if ! git -C "$WQ61_GIT" rev-parse -q --verify pristine >/dev/null 2>&1; then
	log "unpacking $(basename "$WQ61_TARBALL") into $WQ61_GIT"
	rm -rf "$WQ61_GIT" "$(src_of baseline)" "$(src_of patched)"
	mkdir -p "$WQ61_GIT"
	tar -C "$WQ61_GIT" --strip-components=1 -xJf "$WQ61_TARBALL"
	cd "$WQ61_GIT"
	git init -q -b pristine-branch
	git config user.name wq61; git config user.email wq61@localhost
	git config gc.auto 0
	log "committing the pristine tree"
	git add -A -f .
	ver=$(make -s kernelversion 2>/dev/null || echo 6.1)
	pkg=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo unknown)
	git commit -q -m "Debian linux-source-6.1 ($ver, package $pkg), pristine"
	git tag pristine
	# The main tree is only a repository; keep its files out of the way.
	git checkout -q --detach
	git worktree add -q --detach "$(src_of baseline)" pristine
	git worktree add -q -B wq61 "$(src_of patched)" pristine
	log "pristine tree ready: $ver"
fi

# The base of both 6.1 flavours: pristine + fixups/, one commit per fixup,
# made without a worktree (a temporary index), so that changing fixups/
# rewrites nothing but the files they touch.
fixups_hash=$( { cat "$WQ61_TOP/fixups/series" 2>/dev/null
	fixups_list | while read -r p; do cat "$WQ61_TOP/fixups/$p"; done; } | sha1sum | cut -d' ' -f1)
if [ "$(cat "$WQ61_CACHE/base.fixups" 2>/dev/null)" != "$fixups_hash" ] ||
   ! git -C "$WQ61_GIT" rev-parse -q --verify base >/dev/null; then
	tmp=$(mktemp -d)
	export GIT_INDEX_FILE=$tmp/index
	head=$(git -C "$WQ61_GIT" rev-parse pristine)
	git -C "$WQ61_GIT" read-tree "$head"
	while read -r p; do
		f=$WQ61_TOP/fixups/$p
		[ -f "$f" ] || die "fixups/series lists $p, which does not exist"
		git -C "$WQ61_GIT" apply --cached "$f" 2>"$tmp/err" || { cat "$tmp/err" >&2; die "fixup does not apply: $p"; }
		git mailinfo "$tmp/msg" "$tmp/patch" < "$f" > "$tmp/info"
		subj=$(sed -n 's/^Subject: //p' "$tmp/info")
		head=$(printf '%s\n\n%s\n' "$subj" "$(cat "$tmp/msg")" |
			git -C "$WQ61_GIT" commit-tree "$(git -C "$WQ61_GIT" write-tree)" -p "$head")
	done < <(fixups_list)
	unset GIT_INDEX_FILE
	rm -rf "$tmp"
	git -C "$WQ61_GIT" tag -f base "$head" >/dev/null
	echo "$fixups_hash" > "$WQ61_CACHE/base.fixups"
	log "base = pristine + $(fixups_list | wc -l) test-kernel fixup(s)"
fi
# The baseline worktree follows base (only the fixups' files change).
if [ "$(git -C "$(src_of baseline)" rev-parse HEAD)" != "$(git -C "$WQ61_GIT" rev-parse base)" ]; then
	git -C "$(src_of baseline)" checkout -q -f --detach base
fi
