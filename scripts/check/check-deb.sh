#!/bin/bash
# make check-deb [DEB_CONFIG=lean|full]: the packages of "make deb", tested
# as an administrator would get them, without installing anything on the
# host: their metadata (dpkg-deb -I), then the package's own vmlinuz and
# modules (dpkg-deb -x) booted in QEMU on preset big, the test modules built
# against the package's linux-headers, drgn reading the -dbg package's
# vmlinux, and the whole in-guest suite run there. TAP on stdout, results
# in $WQ61_CACHE/deb-CONFIG/check/ (results.txt, the guest's run dir).
. "$(dirname "$0")/../common.sh"
variant=${DEB_CONFIG:-lean}
case $variant in
full) release_tag=-wq61;;
lean) release_tag=-wq61-lean;;
*) die "DEB_CONFIG must be full or lean, not '$variant'";;
esac
"$WQ61_TOP/scripts/build/deps.sh" deb
dst=$WQ61_CACHE/deb-$variant
[ -f "$dst/release" ] || DEB_CONFIG=$variant "$WQ61_TOP/scripts/build/build-deb.sh"
release=$(cat "$dst/release")
[ "${release%"$release_tag"}" != "$release" ] || die "$dst/release is $release, not a $variant build"
kver=${release%"$release_tag"}
pkgver=${WQ61_DEB_VERSION:-$kver-wq61-1}
res=$dst/check
rm -rf "$res"; mkdir -p "$res"
results=$res/results.txt
: > "$results"
n=0
tap() { # ok|not-ok WHAT [WHY]
	n=$((n + 1))
	if [ "$1" = ok ]; then echo "ok $n $2"; echo "PASS deb/$2" >> "$results"
	else echo "not ok $n $2${3:+ # $3}"; echo "FAIL deb/$2${3:+ ($3)}" >> "$results"; fi
}

# 1. What dpkg would see.
echo "TAP version 13"
for pkg in "linux-image-$release" "linux-image-$release-dbg" "linux-headers-$release"; do
	deb=$(ls "$dst/${pkg}_"*.deb 2>/dev/null | head -1)
	if [ -z "$deb" ]; then tap not-ok "$pkg/present" "no ${pkg}_*.deb in $dst"; continue; fi
	tap ok "$pkg/present"
	got=$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')
	want="Package: $pkg Version: $pkgver Architecture: amd64 "
	if [ "$got" = "$want" ]; then tap ok "$pkg/metadata"; else tap not-ok "$pkg/metadata" "got '$got', want '$want'"; fi
done
image=$(ls "$dst/linux-image-${release}_"*.deb | head -1)
# The image package must say what it is and install the kernel where
# Debian's tools (update-initramfs, grub) look for it.
dpkg-deb -c "$image" > "$res/image.list"
if grep -q " \./boot/vmlinuz-$release\$" "$res/image.list"; then tap ok "image/boot-vmlinuz"
else tap not-ok "image/boot-vmlinuz" "no ./boot/vmlinuz-$release in $image"; fi

# 2. Unpacked, not installed.
root=$res/root
mkdir -p "$root"
for deb in "$dst"/linux-image-"$release"_*.deb "$dst"/linux-image-"$release"-dbg_*.deb \
	   "$dst"/linux-headers-"$release"_*.deb; do
	dpkg-deb -x "$deb" "$root"
done
kernel=$root/boot/vmlinuz-$release
moddir=$root/lib/modules/$release
headers=$root/usr/src/linux-headers-$release
vmlinux=$root/usr/lib/debug/lib/modules/$release/vmlinux
for f in "$kernel" "$moddir/modules.dep" "$headers/Makefile" "$vmlinux"; do
	[ -e "$f" ] || die "the packages lack ${f#"$root"}"
done
# What the guest sees as /lib/modules/R/build (scripts/guest/guest-init.sh): the
# release, and the -dbg package's vmlinux where drgn's default search finds
# it (tools/workqueue/*.py run without -s). Not in the unpacked headers: a
# vmlinux there makes module builds want BTF tools the package lacks.
view=$res/build
mkdir -p "$view/include/config"
cp "$headers/include/config/kernel.release" "$view/include/config/"
ln -sfn "$vmlinux" "$view/vmlinux"

# 3. The test modules, built against the package's headers as an
# administrator would build a module of their own.
mods=$res/modules
mkdir -p "$mods"
cp -a "$WQ61_TOP/tests/modules/." "$mods/"
if make -s -C "$headers" M="$mods" modules > "$res/modules.log" 2>&1; then
	tap ok "headers/build-test-modules"
else
	tap not-ok "headers/build-test-modules" "see $res/modules.log"
	cat "$res/modules.log" >&2
fi

# 4. An initramfs that loads the package's virtio/9p modules (Debian builds
# them as modules) and hands over to the host's root, as the test kernels'
# built-in 9p does: a static busybox, the modules in dependency order.
ird=$res/initramfs
mkdir -p "$ird"/{bin,dev,proc,sys,newroot,lib/modules}
cp /bin/busybox "$ird/bin/busybox"
mknod -m 600 "$ird/dev/console" c 5 1
# load order: depth first through modules.dep, each module after its deps
python3 - "$moddir" 9p 9pnet_virtio virtio_pci > "$ird/modules.load" <<'EOF'
import os, sys
moddir, want = sys.argv[1], sys.argv[2:]
deps = {}
with open(os.path.join(moddir, 'modules.dep')) as f:
    for line in f:
        mod, _, rest = line.partition(':')
        deps[mod] = rest.split()
by_name = {os.path.basename(m).split('.')[0].replace('-', '_'): m for m in deps}
order = []
def visit(m):
    if m in order:
        return
    for d in deps[m]:
        visit(d)
    order.append(m)
for w in want:
    if w not in by_name:
        sys.exit('initramfs: module %s is not in %s/modules.dep' % (w, moddir))
    visit(by_name[w])
print('\n'.join(order))
EOF
while read -r m; do
	mkdir -p "$ird/lib/modules/$(dirname "$m")"
	cp "$moddir/$m" "$ird/lib/modules/$m"
done < "$ird/modules.load"
cat > "$ird/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules.load); do
	insmod "/lib/modules/$m" || echo "initramfs: insmod $m failed"
done
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose /dev/root /newroot ||
	{ echo "initramfs: cannot mount the 9p root"; exec sh; }
init=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^init=//p' | tail -1)
echo "initramfs: $(wc -l < /modules.load) modules loaded, switching to $init"
umount /dev /proc
exec switch_root /newroot "${init:-/sbin/init}"
EOF
chmod +x "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$res/initramfs.img"

# 5. The in-guest suite on the package's kernel.
# The guest gets an hour, not make check's 40 min: the suite took 38.6 min
# here alone on 2 cores (2026-12-07), drgn reading the -dbg package's
# 600 MB vmlinux is what takes longer than on the test kernel.
"$WQ61_TOP/scripts/guest/vm.py" -q -f "deb-$variant" -p big -r "$res/big" -t "${WQ61_GUEST_TIMEOUT:-3600}" \
	-k "$kernel" -I "$res/initramfs.img" \
	-e WQ61_BUILD="$view" -e WQ61_VMLINUX="$vmlinux" -e WQ61_MODULES="$mods" \
	-e WQ61_SRC="$WQ61_CACHE/src-deb" \
	-- "$WQ61_TOP/tests/run-in-guest.sh" || true
# The guest's rows by scripts/report/results.py's rules (its verdict, every test,
# LOST for what never reported); the summary is counted from results.txt.
rrc=0
rows=$("$WQ61_TOP/scripts/report/results.py" run "$res/big" "deb-$variant/big") || rrc=$?
[ $rrc -ne 130 ] || die "interrupted"
[ $rrc -eq 0 ] || die "scripts/report/results.py failed on $res/big"
echo "$rows" >> "$results"
n=$((n + 1))
case $(head -1 <<< "$rows") in
PASS*) echo "ok $n big/guest";;
*) echo "not ok $n big/guest # $(head -1 <<< "$rows")";;
esac
rc=0; sum=$("$WQ61_TOP/scripts/report/results.py" summary "$results" --label "check-deb ($release): ") || rc=$?
echo "$sum" | sed 's/^/# /'
log "$(tail -1 <<< "$sum") ($results)"
exit $rc
