#!/bin/bash
# make check-series: the series applies with git am and with quilt
# (--fuzz=0), every patch passes checkpatch.pl --strict, and every prefix
# of the series compiles the objects the series touches (bisectability),
# and the whole series compiles under other configs (check-configs.sh).
# Prints TAP: "ok N ID # what" / "not ok N ID # why", details and notes as
# "#" lines, the plan last, then "# N passed, N failed".
. "$(dirname "$0")/../common.sh"
"$WQ61_TOP/scripts/tree/prepare-tree.sh"
P=$WQ61_TOP/patches
mapfile -t series < <(series_list)

# Which Debian source the series is checked against: Debian updates
# linux-source-6.1 with point releases, and the pristine tree is unpacked
# once per cache (README, "When Debian moves").
pkg=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo "not installed")
made=$(git -C "$WQ61_GIT" log -1 --format=%s pristine)
echo "TAP version 13"
echo "# note series checked on: $made; installed package linux-source-6.1 $pkg"
case $made in
*"package $pkg)"*) ;;
*"package "*) echo "# note the pristine tree is not the installed package: remove $WQ61_GIT (and the src-* worktrees) to check against it";;
esac
# ok|ko ID [WHAT]: a TAP result; ID has no spaces (it names the row of
# results.txt), WHAT follows as its comment.
n=0 fails=0 passes=0
ok() { n=$((n + 1)) passes=$((passes + 1)); echo "ok $n $1${2:+ # $2}"; }
ko() { n=$((n + 1)) fails=$((fails + 1)); echo "not ok $n $1${2:+ # $2}"; }
[ ${#series[@]} -gt 0 ] || log "patches/series is empty"

# A worktree of its own (src-patched and its build stay untouched), kept
# between runs so that the builds below stay incremental. The series is
# checked on pristine: what users apply it to (the test-kernel fixups are
# not theirs).
scratch=$WQ61_CACHE/check-series
scratch_at "$scratch" pristine

# 1. git am
am_ok=1
for p in "${series[@]}"; do
	if ! git -C "$scratch" am -q "$P/$p" >/dev/null 2>&1; then
		git -C "$scratch" am --abort >/dev/null 2>&1; am_ok=0; ko git-am "does not apply: $p"; break
	fi
done
[ $am_ok = 1 ] && ok git-am "${#series[@]} patches"
am_head=$(git -C "$scratch" rev-parse HEAD)

# 2. quilt, on a fresh pristine checkout; the result must equal git am's.
git -C "$scratch" checkout -q --detach pristine
quilt_ok=1
(cd "$scratch" && QUILT_PATCHES=$P QUILT_SERIES=series quilt push -a -q --fuzz=0 >/dev/null 2>"$WQ61_CACHE/quilt.err") || quilt_ok=0
rm -rf "$scratch/.pc"
if [ $quilt_ok = 1 ] || [ ${#series[@]} -eq 0 ]; then
	# Stage everything (quilt creates files git does not track yet) and
	# compare the tree with git am's result.
	git -C "$scratch" add -A -f	# Debian's .gitignore ignores the top level
	if [ $am_ok = 1 ] && ! git -C "$scratch" diff --cached --quiet "$am_head"; then
		ko quilt-push "-a --fuzz=0: result differs from git am"
		git -C "$scratch" diff --cached --stat "$am_head" | sed "s/^/#     /"
	else
		ok quilt-push "-a --fuzz=0"
	fi
else
	ko quilt-push "-a --fuzz=0: $(tail -2 "$WQ61_CACHE/quilt.err" | tr '\n' ' ')"
fi
git -C "$scratch" reset -q --hard
git -C "$scratch" clean -fdq

# 3. checkpatch --strict
# patches/checkpatch.ignore: "<patch> <TYPE>  # why" for checkpatch false
# positives; each entry is reported, never silently dropped.
ignore_for() { sed -n "s|^$1[[:space:]]\+\([A-Z_]\+\).*|\1|p" "$P/checkpatch.ignore" 2>/dev/null | paste -sd, -; }
for p in "${series[@]}"; do
	ign=$(ignore_for "$p")
	[ -z "$ign" ] || echo "# note checkpatch: $p: ignoring $ign (see patches/checkpatch.ignore)"
	# checkpatch runs spdxcheck.py with "python3": Debian's, which has ply/git.
	if out=$(PATH=/usr/bin:$PATH perl "$(src_of baseline)/scripts/checkpatch.pl" --strict -q --no-summary \
			--root="$(src_of baseline)" ${ign:+--ignore "$ign"} "$P/$p" 2>&1); then
		ok "checkpatch-${p%%-*}" "--strict: $p"
	else
		ko "checkpatch-${p%%-*}" "--strict: $p"; echo "$out" | sed 's/^/#     /' | head -40
	fi
done

# 4. every prefix compiles what the series touches, plus python syntax.
# Built in the scratch worktree with its own O= directory (config copied
# from the patched build), so src-patched and its build stay untouched.
out=$WQ61_CACHE/build-series
if [ $am_ok = 1 ] && [ ${#series[@]} -gt 0 ]; then
	[ -f "$(out_of patched)/.config" ] || "$WQ61_TOP/scripts/build/build.sh" patched
	# Objects the full build produces; a .c file that is #included (like
	# kernel/workqueue_kunit.c) has no object of its own.
	mapfile -t objs < <(cat "${series[@]/#/$P/}" | sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' | sort -u |
		while read -r o; do [ -f "$(out_of patched)/$o" ] && echo "$o"; done)
	mapfile -t commits < <(git -C "$scratch" rev-list --reverse pristine.."$am_head")
	mkdir -p "$out"
	cp "$(out_of patched)/.config" "$out/.config"
	kmake() { make -s -C "$scratch" O="$out" CC="ccache gcc" LOCALVERSION=-wq61-patched \
		-j"$WQ61_JOBS" "$@"; }
	i=0
	for c in "${commits[@]}"; do
		i=$((i + 1))
		git -C "$scratch" checkout -q --detach "$c"
		subj=$(git -C "$scratch" log -1 --format=%s "$c")
		log "series prefix $i/${#commits[@]}: $subj"
		id=$(printf 'builds-at-%02d' "$i")
		if [ ${#objs[@]} -gt 0 ] && ! kmake olddefconfig prepare "${objs[@]}" > "$WQ61_CACHE/bisect.log" 2>&1; then
			ko "$id" "$i/${#commits[@]}: $subj"; tail -15 "$WQ61_CACHE/bisect.log" | sed 's/^/#     /'
		elif grep -q 'warning:' "$WQ61_CACHE/bisect.log"; then
			ko "$id" "warnings at $i/${#commits[@]}: $subj"; grep -m5 'warning:' "$WQ61_CACHE/bisect.log" | sed 's/^/#     /'
		else
			ok "$id" "$i/${#commits[@]} (${objs[*]:-nothing to compile}): $subj"
		fi
		for py in $(git -C "$scratch" diff-tree --no-commit-id --name-only -r "$c" | grep '\.py$'); do
			[ -f "$scratch/$py" ] || continue
			id=$(printf 'python-syntax-%02d-%s' "$i" "$(basename "$py")")
			if python3 -m py_compile "$scratch/$py"; then ok "$id" "$py"; else ko "$id" "$py"; fi
		done
	done
fi
# 5. the whole series under other configs (Debian's, !SMP, ...).
if [ $am_ok = 1 ]; then
	git -C "$scratch" checkout -q --detach "$am_head"
	# Its TAP, numbered on from ours; configs it planned and never
	# reported (it died) fail here.
	planned=0 got=0
	while IFS= read -r line; do
		if [[ $line =~ ^(ok|not\ ok)\ [0-9]+\ ([^ ]+)(\ \#\ (.*))?$ ]]; then
			got=$((got + 1))
			if [ "${BASH_REMATCH[1]}" = ok ]; then
				ok "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]}"
			else
				ko "${BASH_REMATCH[2]}" "${BASH_REMATCH[4]}"
			fi
		elif [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
			planned=${BASH_REMATCH[1]}
		else
			echo "$line"
		fi
	done < <("$WQ61_TOP/scripts/check/check-configs.sh" "$scratch")
	[ "$got" -eq "$planned" ] && [ "$planned" -gt 0 ] ||
		ko configs "check-configs.sh reported $got of $planned configs"
fi
echo "1..$n"
echo "# $passes passed, $fails failed"
[ $fails -eq 0 ]
