#!/bin/busybox sh
# kioskvm guest, stage 1: PID 1 inside the initramfs (busybox only).
#
# Loads the kernel modules, mounts the host's root read-only over 9p with a RAM upper layer
# (overlayfs), the extras share above it and the read-write job share at the same path it has on the
# host, then switch_root's into that tree and execs the agent (agent.py, PID 1 from then on), which
# starts udevd and serves commands from the host. See shared/vm/README.md for the recipe.
#
# Any failure powers the VM off at once: QEMU then exits (-no-reboot) and the host reports the boot
# failure with the tail of the console log, instead of waiting for a timeout.

/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s /bin
export PATH=/bin

say() {
    # /proc moves to /newroot/proc half-way through
    if [ -r /proc/uptime ]; then read -r up _ < /proc/uptime; else read -r up _ < /newroot/proc/uptime; fi
    echo "kioskvm-init: [$up] $*"
}
die() {
    echo "kioskvm-init: FATAL: $*"
    poweroff -f
    sleep 10
}

mount -t sysfs sysfs /sys || die "mount sysfs"
mount -t devtmpfs devtmpfs /dev || die "mount devtmpfs"

JOB=
REPO=
HOSTCACHE=loose     # Guest(host_cache=...): see guest.py for the measurements behind the default
ROOT=host           # kioskvm.root=disk: the root is the ext4 image on virtio-blk (disk.py), not the host's
INIT=agent          # kioskvm.init=systemd: systemd is PID 1 (the agent a unit of its own), else the agent
PAYLOAD=            # kioskvm.payload=PATH: the second disk (vdb), read-only at PATH
for arg in $(cat /proc/cmdline); do
    case "$arg" in
        kioskvm.job=*) JOB="${arg#kioskvm.job=}" ;;
        kioskvm.repo=*) REPO="${arg#kioskvm.repo=}" ;;
        kioskvm.hostcache=*) HOSTCACHE="${arg#kioskvm.hostcache=}" ;;
        kioskvm.root=*) ROOT="${arg#kioskvm.root=}" ;;
        kioskvm.init=*) INIT="${arg#kioskvm.init=}" ;;
        kioskvm.payload=*) PAYLOAD="${arg#kioskvm.payload=}" ;;
        kioskvm.trace=1) set -x ;;
    esac
done
[ -n "$JOB" ] || die "no kioskvm.job= on the kernel command line"
say "stage 1 start"

# Dependency order, as modprobe --show-depends printed it at build time.
while read -r m; do
    insmod "/lib/modules/$m" || die "insmod $m"
done < /modules.list

say "modules loaded"
O=trans=virtio,version=9p2000.L,msize=512000
# wait_for DEVICE: virtio-blk's disks appear in devtmpfs a moment after the module is loaded.
wait_for() {
    n=0
    while [ ! -b "$1" ]; do
        n=$((n + 1)); [ "$n" -le 100 ] || die "no $1 after 10 s"
        sleep 0.1
    done
}
if [ "$ROOT" = disk ]; then
    wait_for /dev/vda
    mount -t ext4 -o rw,noatime /dev/vda /newroot || die "mount /dev/vda (the root disk)"
else
    mkdir -p /mnt/host /mnt/extras /mnt/rw
    mount -t 9p -o "$O,ro,cache=$HOSTCACHE" hostroot /mnt/host || die "mount 9p hostroot"
    # The extras must be their own share: overlayfs refuses a lowerdir nested inside another lowerdir.
    mount -t 9p -o "$O,ro,cache=$HOSTCACHE" extras /mnt/extras || die "mount 9p extras"
    mount -t tmpfs -o mode=755 tmpfs /mnt/rw || die "mount tmpfs"
    mkdir -p /mnt/rw/upper /mnt/rw/work
    mount -t overlay -o lowerdir=/mnt/extras:/mnt/host,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work \
        overlay /newroot || die "mount overlay"
fi

for d in proc sys dev; do
    mount --move "/$d" "/newroot/$d" || die "move /$d"
done
# Fresh /tmp and /run, as on a booted system (the host's are not the guest's business). systemd mounts its
# own /run, and a disk's /tmp is its own.
if [ "$INIT" != systemd ]; then
    mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /newroot/tmp || die "mount /tmp"
    mount -t tmpfs -o mode=755,nosuid,nodev tmpfs /newroot/run || die "mount /run"
fi
# A repository under /tmp or /run (a CI clone in /tmp) would vanish under those fresh mounts: lay it back
# from the host's root, writable in RAM like the rest of the root.
case "$ROOT:$REPO" in
    host:/tmp/*|host:/run/*)
        mkdir -p /mnt/rw/repo-upper /mnt/rw/repo-work "/newroot$REPO" || die "mkdir $REPO"
        mount -t overlay -o "lowerdir=/mnt/host$REPO,upperdir=/mnt/rw/repo-upper,workdir=/mnt/rw/repo-work" \
            overlay "/newroot$REPO" || die "overlay $REPO"
        ;;
esac
# The payload after /tmp's mount, which would hide a payload under /tmp (a CI clone's build folder).
# (/dev has moved into the new root by now.)
if [ -n "$PAYLOAD" ]; then
    wait_for /newroot/dev/vdb
    mkdir -p "/newroot$PAYLOAD" || die "mkdir $PAYLOAD"
    mount -t ext4 -o ro /newroot/dev/vdb "/newroot$PAYLOAD" || die "mount /dev/vdb (the payload) at $PAYLOAD"
fi
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /newroot/dev/shm

# The job folder at the host's path, so a path in it means the same file on both sides.
# cache=none: the guest's writes reach the host file before write() returns, and host writes are seen.
mkdir -p "/newroot$JOB" || die "mkdir $JOB"
mount -t 9p -o "$O,cache=none" job "/newroot$JOB" || die "mount 9p job"
if [ "$ROOT" = disk ]; then
    # The bed's agent, stage 2, services and helpers: the host put them in the job folder (disk.bed_files).
    mkdir -p /newroot/usr/lib/kioskvm
    mount --bind "/newroot$JOB/kioskvm" /newroot/usr/lib/kioskvm || die "bind $JOB/kioskvm"
fi

if [ "$ROOT" = host ]; then
    # Keep the raw layers reachable for debugging.
    mkdir -p /newroot/run/kioskvm/host /newroot/run/kioskvm/extras /newroot/run/kioskvm/rw
    mount --move /mnt/host /newroot/run/kioskvm/host
    mount --move /mnt/extras /newroot/run/kioskvm/extras
    mount --move /mnt/rw /newroot/run/kioskvm/rw
fi

say "stage 1 done"
if [ "$INIT" = systemd ]; then
    exec switch_root /newroot /lib/systemd/systemd
    die "switch_root to systemd failed"
fi
# switch_root, not chroot: `udevadm trigger` refuses to run inside a chroot (recipe).
exec switch_root /newroot /bin/sh /usr/lib/kioskvm/stage2.sh
die "switch_root failed"
