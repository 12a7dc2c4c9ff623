#!/bin/sh
# kioskvm guest, stage 2: PID 1 right after switch_root (the host's dash, from the shared root).
#
# Starts systemd-udevd and its coldplug in the background, then becomes the agent (exec keeps PID 1).
# Why not let the agent do it all: under TCG Python's start-up (imports read over 9p) and udev's
# coldplug take 1-3 s each, and they overlap nicely on the guest's two CPUs; the agent waits for the
# coldplug's end marker and runs `udevadm settle` before it reports ready. Measured: ready ~2 s sooner.
#
# Recipe order (shared/vm/README.md): udevd --daemon, trigger subsystems, trigger devices, settle.

mkdir -p /run/kioskvm
case " $(cat /proc/cmdline) " in
    *" kioskvm.udev=0 "*) ;;
    *)
        (
            read -r t0 _ < /proc/uptime
            /usr/lib/systemd/systemd-udevd --daemon \
                && udevadm trigger --type=subsystems --action=add \
                && udevadm trigger --type=devices --action=add
            rc=$?
            read -r t1 _ < /proc/uptime
            echo "$rc $t0 $t1" > /run/kioskvm/coldplug.tmp
            mv /run/kioskvm/coldplug.tmp /run/kioskvm/coldplug
        ) </dev/null &
        ;;
esac

# -I -S: no site module, no user paths: less to read over 9p at start-up, nothing host-specific.
exec /usr/bin/python3 -I -S -u /usr/lib/kioskvm/agent.py
