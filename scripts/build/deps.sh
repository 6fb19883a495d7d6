#!/bin/bash
# Install, with apt-get, whatever the workbench needs and the machine lacks.
. "$(dirname "$0")/../common.sh"

pkgs=(linux-source-6.1 linux-config-6.1 build-essential flex bison bc libelf-dev libssl-dev
      cpio kmod ccache quilt qemu-system-x86 python3 python3-drgn
      gnuplot-nox perl git rsync python3-ply python3-git)
# The mainline flavour's source only when it is asked for (150 MB).
[ "${1:-}" = mainline ] && pkgs+=(linux-source-6.12)
# Debian packages (make deb, make check-deb): bindeb-pkg's tools, pahole
# for Debian's BTF, a static busybox for the guest's initramfs.
[ "${1:-}" = deb ] && pkgs+=(dpkg-dev fakeroot dwarves busybox-static xz-utils)
# make bench's dm-crypt reads (bench/crypt-in-guest.sh; the guest's root is
# the host's, so fio is run from there).
[ "${1:-}" = bench ] && pkgs+=(fio)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root or install them"
log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
log "packages installed"
