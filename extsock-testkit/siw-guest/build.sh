#!/usr/bin/env bash
# Builds the extsock siw guest: Debian's kernel, a siw.ko compiled for it, and an initramfs
# holding busybox, rdma-core's tools and guest-init.sh as /init. Idempotent: when the image
# is up to date it says so and exits in about a second. Needs root (apt-get, chroot).
#
#   extsock-testkit/siw-guest/build.sh          build, or confirm the image is current
#   SIWGUEST_REBUILD=1 .../build.sh             rebuild siw.ko and the initramfs
#   SIWGUEST_NEW_KERNEL=1 .../build.sh          pick Debian's current kernel again
#
# Everything lands in ${SIWVM_CACHE:-~/.cache/extsock-siw-guest}; see README.md.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${SIWVM_CACHE:-$HOME/.cache/extsock-siw-guest}"
IMAGE="$CACHE/image"
T0=$SECONDS

say() { printf '[siw-guest build %4ds] %s\n' $((SECONDS - T0)) "$*"; }
die() { printf 'siw-guest build FAILED: %s\n' "$*" >&2; exit 1; }
trap 'printf "siw-guest build FAILED (exit %s) at line %s: %s\n" "$?" "$LINENO" "$BASH_COMMAND" >&2' ERR

[ "$(id -u)" = 0 ] || die "must run as root (it installs Debian packages and checks the image in a chroot)"
command -v apt-get >/dev/null || die "needs a Debian host with apt-get"
mkdir -p "$CACHE" "$IMAGE"

# One build at a time per cache.
exec 9>"$CACHE/build.lock"
flock -w 3600 9 || die "another build holds $CACHE/build.lock"

export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0
apt_update() {
  [ $APT_UPDATED = 1 ] && return 0
  say "apt-get update"
  apt-get update -q >"$CACHE/apt-update.log" 2>&1 || { cat "$CACHE/apt-update.log" >&2; die "apt-get update failed"; }
  APT_UPDATED=1
}
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
apt_install() {
  local missing=() p
  for p in "$@"; do installed "${p%%=*}" || missing+=("$p"); done
  [ ${#missing[@]} = 0 ] && return 0
  apt_update
  say "apt-get install ${missing[*]}"
  apt-get install -y -q --no-install-recommends "${missing[@]}" >"$CACHE/apt-install.log" 2>&1 \
    || { tail -30 "$CACHE/apt-install.log" >&2; die "apt-get install ${missing[*]} failed"; }
}

# --------------------------------------------------------------------------- host packages
# qemu runs the guest; the rest builds siw.ko and the initramfs. The guest's user space is
# copied from the host's own rdma-core, iproute2, socat, tcpdump and busybox packages.
HOST_PACKAGES=(qemu-system-x86 busybox-static gcc make libelf-dev cpio xz-utils gzip kmod
  rdma-core ibverbs-providers ibverbs-utils rdmacm-utils iproute2 socat tcpdump coreutils)
apt_install "${HOST_PACKAGES[@]}"

# --------------------------------------------------------------------------- kernel choice
# The first build picks the ABI that Debian's linux-image-amd64 points at and records it, so
# that later builds stay on the kernel the image was made from.
if [ -s "$CACHE/kernel-release" ] && [ -z "${SIWGUEST_NEW_KERNEL:-}" ]; then
  read -r KREL KVER <"$CACHE/kernel-release" || true
  [[ "$KREL" == *-amd64 && -n "$KVER" ]] || die "$CACHE/kernel-release is damaged ('$(cat "$CACHE/kernel-release")'): delete it, or build with SIWGUEST_NEW_KERNEL=1"
else
  pick() { apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9][^ ]*\)$/\1/p' | head -1; }
  KREL=$(pick)
  [ -n "$KREL" ] || { apt_update; KREL=$(pick); }
  [ -n "$KREL" ] || die "cannot tell which kernel linux-image-amd64 stands for (apt-cache depends linux-image-amd64)"
  KVER=$(apt-cache policy "linux-image-$KREL" | sed -n 's/^ *Candidate: //p')
  [ -n "$KVER" ] && [ "$KVER" != "(none)" ] || die "no candidate version for linux-image-$KREL"
fi
KSERIES=$(echo "$KREL" | cut -d. -f1-2)   # 6.1
say "guest kernel $KREL, Debian version $KVER"

# Headers and source of exactly that version: Debian builds its kernel without siw
# (CONFIG_RDMA_SIW is not set), so siw.ko is compiled from linux-source against the headers.
KPACKAGES=("linux-headers-$KREL=$KVER" "linux-source-$KSERIES=$KVER")
for p in "${KPACKAGES[@]}"; do
  name=${p%%=*}
  if installed "$name" && [ "$(dpkg-query -W -f='${Version}' "$name")" != "$KVER" ]; then
    die "$name is installed at $(dpkg-query -W -f='${Version}' "$name"), not $KVER: the module would not match the kernel (SIWGUEST_NEW_KERNEL=1 picks again)"
  fi
done
apt_install "${KPACKAGES[@]}"
echo "$KREL $KVER" >"$CACHE/kernel-release"
HEADERS="/usr/src/linux-headers-$KREL"
[ -f "$HEADERS/Makefile" ] || die "$HEADERS/Makefile is missing although linux-headers-$KREL is installed"
SOURCE_TAR=$(ls /usr/src/linux-source-"$KSERIES".tar.* 2>/dev/null | head -1)
[ -n "$SOURCE_TAR" ] || die "linux-source-$KSERIES is installed but /usr/src/linux-source-$KSERIES.tar.* is not there"

# --------------------------------------------------------------------------- up to date?
busybox_version=$(dpkg-query -W -f='${Version}' busybox-static)
inputs() {
  sha256sum "$HERE/build.sh" "$HERE/guest-init.sh" | cut -d' ' -f1
  echo "kernel $KREL $KVER"
  local p; for p in "${HOST_PACKAGES[@]}"; do echo "$p $(dpkg-query -W -f='${Version}' "$p")"; done
}
STAMP=$(inputs | sha256sum | cut -d' ' -f1)
if [ -z "${SIWGUEST_REBUILD:-}" ] && [ -f "$IMAGE/vmlinuz" ] && [ -f "$IMAGE/initramfs.cpio.gz" ] \
   && [ "$(cat "$IMAGE/stamp" 2>/dev/null)" = "$STAMP" ]; then
  say "up to date: $IMAGE ($(du -sh "$IMAGE/initramfs.cpio.gz" | cut -f1) initramfs)"
  exit 0
fi

# --------------------------------------------------------------------------- kernel image
KDIR="$CACHE/kernel-$KREL"           # the image package, unpacked
KDEB="$CACHE/debs/linux-image-${KREL}_${KVER}_amd64.deb"
if [ ! -f "$KDIR/boot/vmlinuz-$KREL" ]; then
  if [ ! -f "$KDEB" ]; then
    mkdir -p "$CACHE/debs"
    say "apt-get download linux-image-$KREL=$KVER"
    (cd "$CACHE/debs" && apt-get download "linux-image-$KREL=$KVER") >"$CACHE/apt-download.log" 2>&1 \
      || { apt_update; (cd "$CACHE/debs" && apt-get download "linux-image-$KREL=$KVER") >"$CACHE/apt-download.log" 2>&1; } \
      || { tail "$CACHE/apt-download.log" >&2; die "cannot download linux-image-$KREL=$KVER"; }
    mv "$CACHE/debs"/linux-image-"$KREL"_*.deb "$KDEB" 2>/dev/null || true
    [ -f "$KDEB" ] || die "apt-get download left no linux-image-$KREL package in $CACHE/debs"
  fi
  say "unpacking the kernel image"
  rm -rf "$KDIR.tmp"; mkdir -p "$KDIR.tmp"
  dpkg-deb -x "$KDEB" "$KDIR.tmp"
  rm -rf "$KDIR"; mv "$KDIR.tmp" "$KDIR"
fi
MODDIR="$KDIR/lib/modules/$KREL"
[ -d "$MODDIR/kernel" ] || die "the kernel image package has no modules in lib/modules/$KREL"

# --------------------------------------------------------------------------- siw.ko
SIWDIR="$CACHE/siw-$KVER"
if [ -n "${SIWGUEST_REBUILD:-}" ] || [ ! -f "$SIWDIR/siw.ko" ]; then
  say "extracting drivers/infiniband/sw/siw from $(basename "$SOURCE_TAR")"
  rm -rf "$SIWDIR" "$CACHE/siw-src.tmp"; mkdir -p "$CACHE/siw-src.tmp"
  tar -xf "$SOURCE_TAR" -C "$CACHE/siw-src.tmp" --wildcards "linux-source-$KSERIES/drivers/infiniband/sw/siw/*" \
    || die "cannot extract the siw sources from $SOURCE_TAR"
  mv "$CACHE/siw-src.tmp/linux-source-$KSERIES/drivers/infiniband/sw/siw" "$SIWDIR"
  rm -rf "$CACHE/siw-src.tmp"
  say "compiling siw.ko against $HEADERS"
  nice -n 10 make -C "$HEADERS" M="$SIWDIR" CONFIG_RDMA_SIW=m modules >"$SIWDIR/make.log" 2>&1 \
    || { tail -40 "$SIWDIR/make.log" >&2; die "compiling siw.ko failed (log: $SIWDIR/make.log)"; }
  [ -f "$SIWDIR/siw.ko" ] || die "make finished but left no siw.ko (log: $SIWDIR/make.log)"
fi
vermagic=$(modinfo -F vermagic "$SIWDIR/siw.ko")
case "$vermagic" in "$KREL "*) ;; *) die "siw.ko has vermagic '$vermagic', the kernel is $KREL";; esac

# --------------------------------------------------------------------------- root file system
ROOT="$CACHE/rootfs"
say "assembling the root file system"
rm -rf "$ROOT"; mkdir -p "$ROOT"
mkdir -p "$ROOT"/usr/{bin,sbin,lib/x86_64-linux-gnu,lib64} "$ROOT"/{proc,sys,dev,tmp,run,root,etc,var/log}
for d in bin sbin lib lib64; do ln -s "usr/$d" "$ROOT/$d"; done

# A file from the host, at the same path (symbolic links followed).
put() { mkdir -p "$ROOT$(dirname "$1")"; cp -L "$1" "$ROOT$1"; }
# An executable or library and every shared library it loads, as the host's loader finds them.
put_elf() {
  local f=$1 libs
  put "$f"
  libs=$(ldd "$f" 2>&1) || die "ldd $f: $libs"
  if echo "$libs" | grep -q 'not found'; then die "$f: $(echo "$libs" | grep 'not found')"; fi
  local lib
  for lib in $(echo "$libs" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'); do
    [ -e "$ROOT$lib" ] || put "$lib"
  done
}
TOOLS=(rping ucmatose rdma_server rdma_client ibv_devices ibv_devinfo rdma ip socat tcpdump stdbuf)
for t in "${TOOLS[@]}"; do
  p=$(command -v "$t" || PATH=/usr/sbin:/sbin:$PATH command -v "$t") || die "$t is not on this host"
  p=$(readlink -f "$p")
  case "$p" in /usr/bin/*|/usr/sbin/*) ;; *) p=/usr/bin/$t;; esac
  put_elf "$p"
done
# Loaded at run time, so ldd does not name them: glibc dlopen()s libgcc_s for pthread_exit
# (rping's threads), stdbuf preloads libstdbuf, libibverbs dlopen()s the siw provider that
# its .driver file names.
put_elf /lib/x86_64-linux-gnu/libgcc_s.so.1
# A JDK shared in by boot.sh (SIWGUEST_SHARES) loads these from the guest's own /usr/lib.
for lib in libdl.so.2 libpthread.so.0 librt.so.1 libm.so.6 libz.so.1; do
  put_elf "/lib/x86_64-linux-gnu/$lib"
done
put_elf /usr/libexec/coreutils/libstdbuf.so
provider=$(ls /usr/lib/x86_64-linux-gnu/libibverbs/libsiw-rdmav*.so 2>/dev/null | head -1)
[ -n "$provider" ] || die "rdma-core's siw provider (libsiw-rdmav*.so, package ibverbs-providers) is missing"
put_elf "$provider"
put /etc/libibverbs.d/siw.driver

# busybox for everything else (a real tool of the same name wins).
cp /bin/busybox "$ROOT/usr/bin/busybox"
for applet in $(/bin/busybox --list-full); do
  case "$applet" in */*) ;; *) continue;; esac
  [ -e "$ROOT/$applet" ] || [ -L "$ROOT/$applet" ] || ln -s /usr/bin/busybox "$ROOT/$applet"
done
[ -x "$ROOT/bin/sh" ] || die "busybox gave no /bin/sh"

printf 'root:x:0:0:root:/root:/bin/sh\ntcpdump:x:0:0:tcpdump:/:/bin/sh\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\ntcpdump:x:0:\n' >"$ROOT/etc/group"
printf '127.0.0.1 localhost\n10.0.2.15 siw-guest\n' >"$ROOT/etc/hosts"
printf 'include /etc/ld.so.conf.d/*.conf\n' >"$ROOT/etc/ld.so.conf"
put /etc/ld.so.conf.d/x86_64-linux-gnu.conf
ldconfig -r "$ROOT"

# Kernel modules: siw and the closure of what it and the guest's network card need.
mkdir -p "$MODDIR/extra"
if ! cmp -s "$SIWDIR/siw.ko" "$MODDIR/extra/siw.ko" || [ ! -f "$MODDIR/modules.dep.siw" ]; then
  cp "$SIWDIR/siw.ko" "$MODDIR/extra/siw.ko"
  rm -f "$MODDIR/modules.dep.siw"
  depmod -b "$KDIR" "$KREL" || die "depmod on the unpacked kernel failed"
  touch "$MODDIR/modules.dep.siw"   # the unpacked kernel's index includes this siw.ko
fi
MODULES=(crc32c_generic virtio_pci virtio_net siw ib_uverbs rdma_ucm 9pnet_virtio 9p)
deps=""
for m in "${MODULES[@]}"; do   # one at a time: modprobe takes further words as module parameters
  d=$(modprobe -d "$KDIR" -S "$KREL" --show-depends "$m" 2>&1) || die "resolving the guest's module $m failed: $d"
  deps="$deps$d"$'\n'
done
for ko in $(echo "$deps" | awk '$1 == "insmod" {print $2}'); do
  rel=${ko#"$MODDIR/"}
  mkdir -p "$ROOT/lib/modules/$KREL/$(dirname "$rel")"
  cp "$ko" "$ROOT/lib/modules/$KREL/$rel"
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
  [ -f "$MODDIR/$f" ] && cp "$MODDIR/$f" "$ROOT/lib/modules/$KREL/"
done
depmod -b "$ROOT" "$KREL" || die "depmod in the root file system failed"
echo "$deps" | sed 's/^/  /' >"$CACHE/modules.txt"

install -m 0755 "$HERE/guest-init.sh" "$ROOT/init"

# Every program and library must load inside the root file system alone.
bad=""
for f in "$ROOT"/usr/bin/* "$ROOT"/usr/sbin/* "$ROOT"/usr/lib/x86_64-linux-gnu/libibverbs/*.so; do
  [ -f "$f" ] && [ ! -L "$f" ] && [ "$f" != "$ROOT/usr/bin/busybox" ] || continue   # busybox is static
  [ "$(head -c 4 "$f" | tail -c 3)" = ELF ] || continue
  out=$(chroot "$ROOT" /lib64/ld-linux-x86-64.so.2 --list "${f#"$ROOT"}" 2>&1) || bad="$bad\n${f#"$ROOT"}: $out"
  case "$out" in *"not found"*) bad="$bad\n${f#"$ROOT"}: $out";; esac
done
[ -z "$bad" ] || die "programs in the guest miss libraries:$(printf "$bad")"
chroot "$ROOT" /usr/bin/rping -h >/dev/null 2>&1 || [ $? -lt 126 ] || die "rping does not start inside the root file system"

say "packing the initramfs"
(cd "$ROOT" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$IMAGE/initramfs.cpio.gz.tmp"
cp "$KDIR/boot/vmlinuz-$KREL" "$IMAGE/vmlinuz.tmp"
mv "$IMAGE/vmlinuz.tmp" "$IMAGE/vmlinuz"
mv "$IMAGE/initramfs.cpio.gz.tmp" "$IMAGE/initramfs.cpio.gz"
{
  echo "extsock siw guest, built $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel $KREL (linux-image $KVER); siw.ko from linux-source-$KSERIES $KVER, vermagic $vermagic"
  echo "busybox-static $busybox_version"
  for p in "${HOST_PACKAGES[@]}"; do echo "$p $(dpkg-query -W -f='${Version}' "$p")"; done
  echo "modules:"; cat "$CACHE/modules.txt"
} >"$IMAGE/MANIFEST"
echo "$STAMP" >"$IMAGE/stamp"
say "built: $IMAGE/vmlinuz, $IMAGE/initramfs.cpio.gz ($(du -sh "$IMAGE/initramfs.cpio.gz" | cut -f1))"
