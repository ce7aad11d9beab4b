#!/bin/busybox sh
# /init of the QEMU guest that Scripts/kernel-test.sh boots: a Debian kernel, busybox, the
# strokes binaries and their libraries. Loads evdev and uinput, runs strokes-e2e, and reports
# its result through QEMU's isa-debug-exit device, then powers off.
/bin/busybox --install -s /bin
export PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
# The Debian kernel does not mount devtmpfs by itself; uinput's nodes appear there.
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
# Loopback: some libraries make their wake-up sockets on 127.0.0.1.
ip link set lo up
for m in evdev uinput; do
    insmod /lib/modules/$m.ko || echo "E2E FAIL insmod $m"
done
echo "E2E guest: kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) cpu, $(awk '/MemTotal/ {print $2 " kB"}' /proc/meminfo)"
strokes-e2e --strokes /usr/local/bin/strokes --fixtures /fixtures
rc=$?
# isa-debug-exit turns the byte B written to port 0xf4 into QEMU's exit status 2B+1:
# 0 → 1 (pass), 1 → 3 (fail).
if [ $rc -eq 0 ]; then byte='\000'; else byte='\001'; fi
printf "$byte" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
echo o > /proc/sysrq-trigger
sleep 30
