#!/bin/bash
# Unpack Debian's linux-source-6.1 once into $WQ61_CACHE/git as a pristine
# git tree (tag "pristine") with two worktrees: src-baseline (pristine,
# detached) and src-patched (branch wq61, where patches/ gets applied).
. "$(dirname "$0")/common.sh"

[ -f "$WQ61_TARBALL" ] || die "$WQ61_TARBALL missing: run scripts/deps.sh (apt-get install linux-source-6.1)"
if ! git -C "$WQ61_GIT" rev-parse -q --verify pristine >/dev/null 2>&1; then
	log "unpacking $(basename "$WQ61_TARBALL") into $WQ61_GIT"
	rm -rf "$WQ61_GIT" "$WQ61_SRC_baseline" "$WQ61_SRC_patched"
	mkdir -p "$WQ61_GIT"
	tar -C "$WQ61_GIT" --strip-components=1 -xJf "$WQ61_TARBALL"
	cd "$WQ61_GIT"
	git init -q -b pristine-branch
	git config user.name wq61; git config user.email wq61@localhost
	git config gc.auto 0
	log "committing the pristine tree"
	git add -A -f .
	ver=$(make -s kernelversion 2>/dev/null || echo 6.1)
	git commit -q -m "Debian linux-source-6.1 ($ver), pristine"
	git tag pristine
	# The main tree is only a repository; keep its files out of the way.
	git checkout -q --detach
	git worktree add -q --detach "$WQ61_SRC_baseline" pristine
	git worktree add -q -B wq61 "$WQ61_SRC_patched" pristine
	log "pristine tree ready: $ver"
fi
