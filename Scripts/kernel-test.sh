#!/usr/bin/env bash
# End-to-end tests through a real Linux kernel (README, "Tests through a real kernel").
#
# This machine has no /dev/uinput; a stock Debian kernel booted under QEMU does. The script
# fetches and caches that kernel with its evdev and uinput modules, builds an initramfs holding
# busybox, `strokes`, the guest driver `strokes-e2e`, evemu's tools, their libraries and the
# recordings, boots it, and reads the verdict from QEMU's exit status (isa-debug-exit) and the
# guest's "E2E RESULT" line. Exit 0 when every scenario passed. Bounded by a timeout; never hangs.
#
# Environment: STROKES_E2E_CONFIGURATION (release | debug, default release: the guest runs under
# TCG emulation, where a debug daemon cannot keep up with a 10-finger recording's pace),
# STROKES_E2E_TIMEOUT (seconds, default 1200), STROKES_E2E_CACHE (default .build/kernel).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh
ensure_packages qemu-system-x86 busybox-static cpio xz-utils evemu-tools

configuration=${STROKES_E2E_CONFIGURATION:-release}
timeout_s=${STROKES_E2E_TIMEOUT:-1200}
cache=${STROKES_E2E_CACHE:-.build/kernel}
mkdir -p "$cache"

# The kernel: the image package the meta package points at today (its name changes with every
# security update, so it is resolved, never hard-coded), unpacked once into the cache.
resolve() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }
pkg=$(resolve)
if [[ -z $pkg ]]; then
    apt-get update -qq
    pkg=$(resolve)
fi
[[ -n $pkg ]] || { echo "kernel-test: cannot resolve linux-image-amd64" >&2; exit 1; }
kdir=$cache/$pkg
if [[ ! -f $kdir/vmlinux || ! -f $kdir/evdev.ko || ! -f $kdir/uinput.ko ]]; then
    echo "kernel-test: fetching $pkg" >&2
    rm -rf "$kdir" && mkdir -p "$kdir/unpacked"
    (cd "$kdir" && apt-get download -qq "$pkg" 2>/dev/null) || (cd "$kdir" && apt-get download "$pkg")
    dpkg-deb --fsys-tarfile "$kdir"/"$pkg"_*.deb |
        tar -x -C "$kdir/unpacked" --wildcards './boot/vmlinuz-*' '*/drivers/input/misc/uinput.ko*' '*/drivers/input/evdev.ko*'
    for m in evdev uinput; do
        ko=$(find "$kdir/unpacked" -name "$m.ko*" | head -1)
        case $ko in
            *.xz) xz -dc "$ko" >"$kdir/$m.ko" ;;
            *.zst) zstd -dcq "$ko" >"$kdir/$m.ko" ;;
            *) cp "$ko" "$kdir/$m.ko" ;;
        esac
    done
    vmlinuz=$(find "$kdir/unpacked/boot" -name 'vmlinuz-*' | head -1)
    # Boot the uncompressed ELF: about twice as fast under TCG as letting the kernel unpack itself.
    offset=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().find(b"\xfd7zXZ\x00"))' "$vmlinuz")
    if ((offset >= 0)); then
        tail -c +$((offset + 1)) "$vmlinuz" | xz -dcq >"$kdir/vmlinux" 2>/dev/null || true
    fi
    if [[ $(head -c 4 "$kdir/vmlinux" 2>/dev/null | od -An -c | tr -d ' ') != '177ELF' ]]; then
        cp "$vmlinuz" "$kdir/vmlinux"
    fi
    rm -rf "$kdir/unpacked" "$kdir"/*.deb
fi

# `strokes` as the install builds it (README, "Install as a service": the Swift runtime linked in,
# each function in its own section for the linker script that places the daemon's code together,
# in its own scratch directory so the other release builds keep theirs): the idle scenario once
# caught only what that build did (tasks on libdispatch, a wake-up a second). The guest driver
# is an ordinary build.
echo "kernel-test: building strokes (--static-swift-stdlib) and strokes-e2e ($configuration)" >&2
source Scripts/installed-build.sh
static=("${installed_build[@]}" --scratch-path "${STROKES_E2E_STATIC_SCRATCH:-.build/static}")
build() {  # PRODUCT [swift build options...]
    local product=$1 out
    shift
    # A failed build must stop here: the binaries of an earlier build would otherwise be tested.
    if ! out=$(swift build -c "$configuration" --product "$product" "$@" 2>&1); then
        echo "$out" | grep -E 'error' >&2
        echo "kernel-test: FAIL (building $product)" >&2
        exit 1
    fi
    echo "$out" | grep -E 'error|warning: |Compiling|Build' | grep -vE '^\[[0-9]+/[0-9]+\] Compiling' || true
}
build strokes "${static[@]}"
build strokes-e2e
bin=$(swift build -c "$configuration" --show-bin-path)
strokes_bin=$(swift build -c "$configuration" "${static[@]}" --show-bin-path)/strokes
[[ -x $strokes_bin && -x $bin/strokes-e2e ]] || { echo "kernel-test: build failed" >&2; exit 1; }

# The initramfs: binaries and their whole ldd closure at the same absolute paths.
root=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$root" "$log"' EXIT
mkdir -p "$root"/{bin,proc,sys,dev,tmp,run,fixtures,lib/modules,usr/local/bin,usr/bin}
cp /bin/busybox "$root/bin/busybox"
cp "$strokes_bin" "$bin/strokes-e2e" "$root/usr/local/bin/"
cp /usr/bin/evemu-device /usr/bin/evemu-play "$root/usr/bin/"
for exe in "$strokes_bin" "$bin/strokes-e2e" /usr/bin/evemu-device /usr/bin/evemu-play; do
    ldd "$exe" | grep -oE '/[^ ]+' | while read -r lib; do
        [[ -e $root$lib ]] || cp --parents -L "$lib" "$root"
    done
done
cp "$kdir/evdev.ko" "$kdir/uinput.ko" "$root/lib/modules/"
for f in 01-wacom-dth2242-touchscreen-10finger 03-atmel-maxtouch-touchscreen-4finger-drag \
    05-nexus4-touch_dev-mt-only-4finger 09-cypress-ps2-semi-mt-touchpad-3finger-press \
    11-synaptics-ps2-clickpad-2finger-vert-scroll 18-wacom-dth2242-pen-buttons; do
    cp "Tests/ReplayTests/Fixtures/$f.evemu" "$root/fixtures/"
done
cp KernelTests/guest-init.sh "$root/init"
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet) >"$cache/initrd.cpio"
echo "kernel-test: initramfs $(du -h "$cache/initrd.cpio" | cut -f1), kernel $pkg" >&2

accel=(-accel tcg -cpu max)
# KVM only where it is real hardware virtualisation (a nested software hypervisor crawls).
if grep -qwE 'vmx|svm' /proc/cpuinfo && [[ -w /dev/kvm ]]; then accel=(-accel kvm -cpu host); fi

set +e
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 "${accel[@]}" -smp 1 -m 1024 -nographic -no-reboot \
    -nodefaults -serial stdio -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -kernel "$kdir/vmlinux" -initrd "$cache/initrd.cpio" \
    -append 'console=ttyS0 quiet panic=-1 rdinit=/init' </dev/null | tr -d '\r' | tee "$log"
status=${PIPESTATUS[0]}
set -e

# Both must agree: QEMU's status 1 is the guest's byte 0, and the guest printed its verdict.
if [[ $status -eq 1 ]] && grep -q '^E2E RESULT PASS' "$log"; then
    echo "kernel-test: pass"
    exit 0
fi
case $status in
    124 | 137) why="timed out after ${timeout_s} s" ;;
    3) why="the guest reported failure" ;;
    *) why="QEMU exited with $status" ;;
esac
echo "kernel-test: FAIL ($why)"
exit 1
