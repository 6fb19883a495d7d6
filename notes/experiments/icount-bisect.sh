#!/bin/bash
# icount per queue+execute at series prefixes (diagnostic, not part of the repo)
src=$HOME/.cache/wq61/src-patched
cd /work/main
for c in 7022fb4:0021 3132d5c:0020 d530b3b:0019 ab2edba:0018 954a9b6:0017 c7c4fc8:0016 352d2aa:0012; do
	commit=${c%%:*} name=${c##*:}
	git -C $src checkout -q $commit || exit 1
	t0=$(date +%s)
	make -s -C $src O=$src/.build CC="ccache gcc" HOSTCC="ccache gcc" LOCALVERSION=-wq61-patched -j3 bzImage > /tmp/bisect-build-$name.log 2>&1 || { echo "$name: build failed"; continue; }
	scripts/build/build-modules.sh patched > /dev/null 2>&1
	echo "$name: built in $(( $(date +%s) - t0 ))s"
	scripts/guest/vm.py -q -f patched -p bench1 -t 1200 -- notes/experiments/icount-guest.sh > /dev/null 2>&1
	d=$(ls -td $HOME/.cache/wq61/runs/*patched* | head -1)
	grep -a "^ICOUNT" $d/output | sed "s/^/$name /"
done
git -C $src checkout -q wq61
echo done
