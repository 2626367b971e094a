#!/usr/bin/env bash
# Boots a memprobe image headless in QEMU with OVMF and turns the app's verdict
# into this script's exit status. docs/BUILD.md describes the harness.
#
#   qemu-run.sh --image IMG [--out DIR] [--cpu MODEL] [--mem SIZE] [--smp N]
#               [--args "key=value ..."] [--timeout S] [--workdir DIR]
#               [--readonly] [--quiet] [--vars FILE]
#               [--firmware plain|snakeoil|ms] [--numa N] [--nmi-every S]
#               [--arch x86_64|aarch64] [--el2] [--smbios SPEC]...
#               [--net USER-NETDEV-OPTS] [--pxe TFTP-DIR] [--help]
#
# --smbios SPEC is passed as QEMU's -smbios SPEC (repeatable): the machine
# identity the guest's firmware publishes ("type=1,uuid=...,serial=...",
# "type=17,..."). --net OPTS gives the guest a virtio NIC on QEMU's user
# network with -netdev user,OPTS (the host's loopback is 10.0.2.2 there);
# without it the guest has no network.
#
# --pxe DIR netboots instead of booting a stick: no disk at all, the NIC
# first in the boot order, QEMU's user network serving DIR by TFTP with
# BOOTX64.EFI (BOOTAA64.EFI) there as the DHCP answer's boot file. DIR
# holds the app under that name and, for its configuration, memprobe.cfg
# (which the app reads from the boot server; --args has no way in, so it
# is refused). --image is not needed; --out has no stick to copy from:
# the run's files leave by upload.url or not at all. --net adds its OPTS
# to the same netdev.
#
# --arch aarch64 boots an AArch64 image (BOOTAA64.EFI) in qemu-system-aarch64
# -M virt -cpu max with AAVMF (Debian's qemu-efi-aarch64). The virt machine
# has no debugcon and no isa-debug-exit: the app's log and verdict come
# through semihosting (-semihosting-config; arch/aarch64/harness.c), its
# SYS_EXIT status the same 33/35 as isa-debug-exit's. Only the plain
# firmware; KVM only on an AArch64 host where it really works. --el2 turns
# on the virt machine's virtualization extensions, so the firmware, and the
# app, run at EL2 instead of EL1.
#
# --numa N (N >= 2) splits --mem evenly over N NUMA nodes (a memory backend
# per node) and the CPUs evenly over the nodes: one each (-smp N) unless
# --smp gives a multiple of N. The firmware's ACPI SRAT then lists N
# proximity domains; the boot CPU sits in node 0. Default 1: no -numa.
#
# --smp N: N CPUs (QEMU's -smp; without it, QEMU's default of one).
# --firmware: plain (default) is OVMF without Secure Boot; snakeoil boots
# OVMF with Debian's snakeoil test keys enrolled and ms with Microsoft's, both
# with Secure Boot enforced (SMM, a secure flash). There the built-in shell is
# refused too, so --args reach the app through \EFI\BOOT\memprobe.cfg.
#
# --nmi-every S (or NMI_EVERY_S=S in the environment) injects an NMI every S
# seconds through QEMU's monitor (its `nmi` command), the first at the moment the app
# prints its "disturbances:" line: before that the firmware has no NMI
# handler and would stop with an exception dump. The count injected is
# written to WORKDIR/nmi-injected.
#
# Exit status: 0 the app reported success, 1 it reported failure, 2 bad use,
# 3 QEMU ended without a verdict (crash, triple fault, firmware reset),
# 4 the firmware refused the image (Secure Boot: not signed by a key in db),
# 5 shim started but refused the app (grubx64.efi: not signed by a key in
# db or in shim's MOK list), 124 the guest was still running at the timeout
# and was killed.
set -euo pipefail
. "$(dirname "$0")/esp.bash"

image= out= cpu= mem=1G smp= args= timeout_s=${QEMU_TIMEOUT:-600} workdir= readonly=0 quiet=0 vars= firmware=plain numa=1
nmi_every=${NMI_EVERY_S:-}
arch=x86_64 el2=0
smbios_flags=() net_opts= pxe_dir=
while [[ $# -gt 0 ]]; do
	case $1 in
	--image) image=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--args) args=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--workdir) workdir=$2; shift 2 ;;
	--readonly) readonly=1; shift ;;
	--quiet) quiet=1; shift ;;
	--vars) vars=$2; shift 2 ;;
	--firmware) firmware=$2; shift 2 ;;
	--numa) numa=${2:-1}; shift 2 ;;
	--nmi-every) nmi_every=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--smbios) smbios_flags+=(-smbios "$2"); shift 2 ;;
	--net) net_opts=$2; shift 2 ;;
	--pxe) pxe_dir=$2; shift 2 ;;
	--el2) el2=1; shift ;;
	--help|-h) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "qemu-run: unknown option $1" >&2; exit 2 ;;
	esac
done
if [[ -n $pxe_dir ]]; then
	[[ -d $pxe_dir ]] || { echo "qemu-run: --pxe $pxe_dir: not a folder" >&2; exit 2; }
	[[ -z $args ]] || { echo "qemu-run: --pxe: --args cannot reach a netbooted app: write them into $pxe_dir/memprobe.cfg" >&2; exit 2; }
	[[ -z $out && $readonly == 0 ]] || { echo "qemu-run: --pxe boots no stick: --out and --readonly have nothing to act on" >&2; exit 2; }
else
	[[ -n $image && -f $image ]] || { echo "qemu-run: --image must name a built image" >&2; exit 2; }
fi
[[ -z $smp || $smp =~ ^[1-9][0-9]*$ ]] || { echo "qemu-run: --smp $smp: a CPU count, 1 or more" >&2; exit 2; }
[[ -z $nmi_every || $nmi_every =~ ^[0-9]+(\.[0-9]+)?$ && $nmi_every != 0 ]] ||
	{ echo "qemu-run: --nmi-every / NMI_EVERY_S: '$nmi_every' is not a positive number of seconds" >&2; exit 2; }

# The firmware, in one place: its CODE and VARS files and the machine flags
# it needs. Secure Boot firmware keeps its variables (db among them) behind
# SMM, so the machine has SMM on and a flash only SMM may write.
machine=q35 sb_flags=()
# The architecture: its QEMU, machine and boot file name here, its harness
# channel (log and verdict; arch/harness.h) where QEMU's line is made.
case $arch in
x86_64) qemu_bin=qemu-system-x86_64 boot_name=BOOTX64.EFI ;;
aarch64) qemu_bin=qemu-system-aarch64 boot_name=BOOTAA64.EFI machine=virt
	[[ $el2 == 1 ]] && machine=virt,virtualization=on
	[[ $firmware == plain ]] || { echo "qemu-run: --arch aarch64 boots the plain firmware only" >&2; exit 2; } ;;
*) echo "qemu-run: --arch $arch: the choices are x86_64 and aarch64" >&2; exit 2 ;;
esac
[[ $el2 == 0 || $arch == aarch64 ]] || { echo "qemu-run: --el2 is for --arch aarch64" >&2; exit 2; }
case $firmware in
plain) ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
	[[ $arch == aarch64 ]] && ovmf_code=/usr/share/AAVMF/AAVMF_CODE.fd ovmf_vars=/usr/share/AAVMF/AAVMF_VARS.fd ;;
snakeoil|ms)
	ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.$firmware.fd
	ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.$firmware.fd
	machine=q35,smm=on
	sb_flags=(-global driver=cfi.pflash01,property=secure,value=on) ;;
*) echo "qemu-run: --firmware $firmware: the choices are plain, snakeoil and ms" >&2; exit 2 ;;
esac
for f in "$ovmf_code" "$ovmf_vars"; do
	[[ -f $f ]] || { echo "qemu-run: --firmware $firmware needs $f (Debian package $([[ $arch == aarch64 ]] && echo qemu-efi-aarch64 || echo ovmf))" >&2; exit 2; }
done
workdir=${workdir:-$(dirname "${image:-$pxe_dir/x}")/run}
mkdir -p "$workdir"
rm -f "$workdir"/{disk.img,vars.fd,debugcon.log,serial.log,monitor.sock,nmi-injected}

if [[ -z $pxe_dir ]]; then
	# The guest writes its results onto a copy: the build's image stays as built.
	cp "$image" "$workdir/disk.img"
	# mtools reaches the FAT volume inside the disk: the ESP of a GPT image
	# (scripts/esp.bash), or the whole file for an unpartitioned one.
	fs=$(esp "$workdir/disk.img")
fi
# A fresh VARS file each run: a boot entry or variable one run leaves behind
# must not steer the next. --vars continues from an earlier run's variables,
# for the test that a reboot by memprobe does not loop.
cp "${vars:-$ovmf_vars}" "$workdir/vars.fd"

# With arguments, the app is started from the firmware's built-in shell by a
# startup.nsh, exactly as a person would type it, so they arrive as real load
# options. Without BOOTX64.EFI the firmware falls through to that shell.
# With a NIC (--net) the firmware would try PXE and HTTP boot (minutes of
# timeouts) before its shell: the arguments go into the configuration file
# instead and the stick boots first (bootindex below); the NIC, second in
# the order, is still connected by OVMF, which connects only the devices
# of QEMU's boot order when there is one.
if [[ -n $pxe_dir ]]; then
	:   # nothing to prepare: DIR is the caller's
elif [[ -n $args && $firmware == plain && -z $net_opts ]]; then
	mmove -i "$fs" "::/EFI/BOOT/$boot_name" ::/EFI/BOOT/memprobe.efi
	printf 'FS0:\r\n\\EFI\\BOOT\\memprobe.efi %s\r\n' "$args" > "$workdir/startup.nsh"
	mcopy -o -i "$fs" "$workdir/startup.nsh" ::/startup.nsh
elif [[ -n $args ]]; then
	# Secure Boot firmware refuses its own shell: the arguments go into the
	# configuration file beside the app instead, replacing the same keys.
	mtype -i "$fs" ::/EFI/BOOT/memprobe.cfg > "$workdir/image.cfg" 2>/dev/null || : > "$workdir/image.cfg"
	python3 - "$workdir/image.cfg" "$args" > "$workdir/memprobe.cfg" <<'PY'
import sys
words = sys.argv[2].split()
keys = {w.split("=", 1)[0].strip() for w in words}
for line in open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines():
    if line.split("#", 1)[0].split("=", 1)[0].strip() not in keys:
        print(line)
for w in words:
    k, _, v = w.partition("=")
    print(f"{k} = {v}")
PY
	mcopy -o -i "$fs" "$workdir/memprobe.cfg" ::/EFI/BOOT/memprobe.cfg
fi
[[ -n $pxe_dir ]] || runs_before=$(mdir -b -i "$fs" ::/memprobe 2>/dev/null | sort || true)

# KVM only when it can really run the firmware. On some hosts /dev/kvm opens
# and then QEMU aborts on the first MSR the firmware touches; on others KVM
# hits an "emulation failure" in the firmware's first instructions, and QEMU
# then pauses the guest instead of exiting, so a guest that merely stays
# alive proves nothing. KVM counts as working only when the guest is alive
# after a few seconds and QEMU reported no KVM error.
kvm_works() {
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	# An AArch64 guest under KVM needs an AArch64 host.
	[[ $arch == x86_64 || $(uname -m) == aarch64 ]] || return 1
	cp "$ovmf_vars" "$workdir/kvm-vars.fd"
	local rc
	# The status is echoed from inside the subshell so that the shell which
	# reports a crashing QEMU ("Aborted") is the one writing to /dev/null.
	rc=$( (timeout 4 "$qemu_bin" -enable-kvm -cpu host -machine "$machine" "${sb_flags[@]}" -m 128M \
		-display none -nodefaults -no-reboot \
		-drive if=pflash,format=raw,readonly=on,file="$ovmf_code" \
		-drive if=pflash,format=raw,file="$workdir/kvm-vars.fd" \
		>"$workdir/kvm-probe.log" 2>&1; echo $?) 2>/dev/null )
	rm -f "$workdir/kvm-vars.fd"
	if grep -qiE 'KVM internal error|emulation failure|KVM: entry failed' \
		"$workdir/kvm-probe.log"; then
		rm -f "$workdir/kvm-probe.log"
		return 1
	fi
	rm -f "$workdir/kvm-probe.log"
	[[ $rc -eq 124 ]]
}

if [[ -z $cpu ]]; then
	if kvm_works; then
		accel=(-enable-kvm) cpu=host
		echo "qemu-run: KVM works here: -enable-kvm -cpu host"
	else
		accel=(-accel tcg) cpu=max
		echo "qemu-run: KVM unusable here: TCG with -cpu max (functional run, not a timing one)"
	fi
else
	accel=(-accel tcg)
	[[ $cpu == host ]] && accel=(-enable-kvm)
	echo "qemu-run: -cpu $cpu (${accel[*]})"
fi

# NUMA: -m stays the total; each node gets its share through a RAM backend.
numa_flags=()
if [[ ! $numa =~ ^[0-9]+$ || $numa -lt 1 || $numa -gt 8 ]]; then
	echo "qemu-run: --numa $numa: a node count from 1 to 8" >&2; exit 2
elif [[ $numa -gt 1 ]]; then
	mem_mib=$(numfmt --from=iec "${mem%B}" 2>/dev/null) || { echo "qemu-run: --mem $mem: not a size" >&2; exit 2; }
	mem_mib=$((mem_mib / 1048576))
	if (( mem_mib % numa )); then
		echo "qemu-run: --mem $mem does not split evenly over $numa NUMA nodes" >&2; exit 2
	fi
	# Without --smp, one CPU a node; with it, its CPUs shared out evenly
	# (a count that does not divide would leave a node's CPUs undefined).
	: "${smp:=$numa}"
	if (( smp % numa )); then
		echo "qemu-run: --smp $smp does not split evenly over $numa NUMA nodes" >&2; exit 2
	fi
	per_node=$((smp / numa))
	for ((node = 0; node < numa; node++)); do
		numa_flags+=(-object "memory-backend-ram,id=numa$node,size=$((mem_mib / numa))M"
			-numa "node,nodeid=$node,cpus=$((node * per_node))-$(((node + 1) * per_node - 1)),memdev=numa$node")
	done
	echo "qemu-run: $numa NUMA nodes of $((mem_mib / numa)) MiB, $per_node CPU(s) each"
fi

disk_opts="if=none,id=stick,format=raw,file=$workdir/disk.img"
[[ $readonly -eq 1 ]] && disk_opts+=",readonly=on"

if [[ $arch == aarch64 ]]; then
	channel=(-semihosting-config enable=on,target=native,chardev=hostlog
		-chardev file,id=hostlog,path="$workdir/debugcon.log")
else
	channel=(-debugcon file:"$workdir/debugcon.log" -global isa-debugcon.iobase=0x402
		-device isa-debug-exit,iobase=0xf4,iosize=4)
fi
qemu=("$qemu_bin" "${accel[@]}" -cpu "$cpu" -machine "$machine" "${sb_flags[@]}" -m "$mem" "${numa_flags[@]}"
	-display none -nodefaults -no-reboot -net none
	-drive if=pflash,format=raw,readonly=on,file="$ovmf_code"
	-drive if=pflash,format=raw,file="$workdir/vars.fd"
	-serial file:"$workdir/serial.log"
	"${channel[@]}" -pidfile "$workdir/qemu.pid")
[[ -n $pxe_dir ]] ||
	qemu+=(-drive "$disk_opts" -device qemu-xhci,id=xhci -device "usb-storage,bus=xhci.0,drive=stick${net_opts:+,bootindex=0}")
[[ -n $smp ]] && qemu+=(-smp "$smp")
qemu+=("${smbios_flags[@]}")
# --net: a NIC on QEMU's user network (the guest reaches the host's
# loopback as 10.0.2.2) instead of none; OPTS are -netdev user's own.
# --pxe: the same NIC serves DIR by TFTP and boots first.
nic_boot=1
if [[ -n $pxe_dir ]]; then
	net_opts="tftp=$(realpath "$pxe_dir"),bootfile=$boot_name${net_opts:+,$net_opts}"
	nic_boot=0
fi
if [[ -n $net_opts ]]; then
	kept=()
	for ((i = 0; i < ${#qemu[@]}; i++)); do
		if [[ ${qemu[i]} == -net && ${qemu[i+1]:-} == none ]]; then
			i=$((i + 1))
		else
			kept+=("${qemu[i]}")
		fi
	done
	qemu=("${kept[@]}" -netdev "user,id=n0${net_opts:+,$net_opts}" -device virtio-net-pci,netdev=n0,romfile=,bootindex=$nic_boot)
fi
[[ -n $nmi_every ]] && qemu+=(-monitor unix:"$workdir/monitor.sock",server=on,wait=off)

# Injects an NMI every $nmi_every s once the app has its NMI handlers, and
# counts them into nmi-injected; it ends when QEMU closes the monitor.
inject_nmis() {
	python3 - "$workdir" "$nmi_every" <<'PY'
import os, socket, sys, time
work, every = sys.argv[1], float(sys.argv[2])
log, sock_path = os.path.join(work, "debugcon.log"), os.path.join(work, "monitor.sock")
def app_ready():
    try:
        with open(log, "rb") as f:
            return b"\ndisturbances: NMIs " in f.read()
    except OSError:
        return False
while not app_ready():
    time.sleep(0.05)
s = socket.socket(socket.AF_UNIX)
s.connect(sock_path)
s.setblocking(False)
injected = 0
while True:
    try:
        try:
            s.recv(65536)   # the monitor's prompts, so its output never backs up
        except BlockingIOError:
            pass
        s.sendall(b"nmi\n")
    except OSError:
        break
    injected += 1
    with open(os.path.join(work, "nmi-injected"), "w") as f:
        f.write(f"{injected}\n")
    time.sleep(every)
PY
}

# Under Secure Boot an image the firmware (or shim) refuses never starts:
# edk2's boot manager prints "BdsDxe: failed to load Boot0001 ...: Access
# Denied" and falls through to its menu; shim shows "Verification failed:
# (0x1A) Security Violation" and waits for a key. Either would sit there
# until the timeout. Watch the firmware console while the app has said
# nothing, and stop QEMU at the first refusal.
watch_refusal() {
	local serial=$workdir/serial.log
	while sleep 1; do
		[[ -s $workdir/debugcon.log ]] && return 0   # the app runs: its verdict decides
		[[ -f $serial ]] || continue
		if grep -aq 'Verification failed: (0x[0-9A-Fa-f]*) ' "$serial"; then
			echo shim > "$workdir/refused"
		elif grep -aqE 'failed to (load|start) Boot[0-9A-F]{4} .*: (Access Denied|Security Violation)' "$serial"; then
			echo firmware > "$workdir/refused"
		else
			continue
		fi
		sleep 2   # the rest of the message onto the console
		kill "$(cat "$workdir/qemu.pid")" 2>/dev/null || true
		return 0
	done
}
rm -f "$workdir/refused" "$workdir/qemu.pid"

: > "$workdir/debugcon.log"
if [[ $quiet -eq 0 ]]; then
	tail -n +1 -f "$workdir/debugcon.log" &
	tail_pid=$!
fi
rc=0
if [[ $firmware != plain ]]; then
	watch_refusal &
	watch_pid=$!
fi
if [[ -n $nmi_every ]]; then
	inject_nmis &
	inject_pid=$!
	echo "qemu-run: injecting an NMI every ${nmi_every}s once the app is ready"
fi
timeout --foreground "$timeout_s" "${qemu[@]}" || rc=$?
if [[ -n $nmi_every ]]; then
	kill "$inject_pid" 2>/dev/null || true
	wait "$inject_pid" 2>/dev/null || true
	echo "qemu-run: NMIs injected: $(cat "$workdir/nmi-injected" 2>/dev/null || echo 0)"
fi
if [[ $firmware != plain ]]; then
	kill "$watch_pid" 2>/dev/null || true
	wait "$watch_pid" 2>/dev/null || true
	[[ -s $workdir/refused ]] && rc=refused-$(cat "$workdir/refused")
fi
if [[ $quiet -eq 0 ]]; then
	sleep 0.2
	kill "$tail_pid" 2>/dev/null || true
	wait "$tail_pid" 2>/dev/null || true
fi

# isa-debug-exit turns the app's byte v into status (v << 1) | 1: the app
# writes 0x10 for success and 0x11 for failure, so 33 and 35 are the only
# verdicts (on AArch64 the app's semihosting SYS_EXIT gives the same two).
# 0 means QEMU stopped for another reason and proves nothing.
case $rc in
33) verdict=0; echo "qemu-run: verdict: success" ;;
35) verdict=1; echo "qemu-run: verdict: failure (the app reported a failure)" ;;
refused-firmware) verdict=4
	echo "qemu-run: REFUSED: the firmware refused the image (Secure Boot): $(grep -aoE 'failed to (load|start) Boot[0-9A-F]{4} .*: (Access Denied|Security Violation)' "$workdir/serial.log" | head -n 1)"
	echo "qemu-run: the app never started; sign it (make sign, make run SECURE_BOOT=snakeoil) or boot without Secure Boot (--firmware plain)" ;;
refused-shim) verdict=5
	echo "qemu-run: REFUSED: shim started but refused the app (Secure Boot): $(grep -aoE 'Verification failed: \(0x[0-9A-Fa-f]*\) [A-Za-z ]*[a-z]' "$workdir/serial.log" | head -n 1)"
	echo "qemu-run: grubx64.efi is not signed by a key in db or in shim's MOK list; enrol its key with MokManager (docs/BUILD.md, \"Secure Boot\")" ;;
124) verdict=124; echo "qemu-run: TIMEOUT: the guest was still running after ${timeout_s}s and was killed" ;;
*) verdict=3; echo "qemu-run: NO VERDICT: QEMU exited with status $rc before the app reported one (see $workdir/serial.log)" ;;
esac

# Bring back every run folder this boot created; never overwrite one in OUT.
if [[ -n $out ]]; then
	mkdir -p "$out"
	runs_after=$(mdir -b -i "$fs" ::/memprobe 2>/dev/null | sort || true)
	for run in $(comm -13 <(echo "$runs_before") <(echo "$runs_after")); do
		name=$(basename "$run")
		dest=$out/$name
		n=${name#run-}
		while [[ -e $dest ]]; do
			n=$(printf '%04d' $((10#$n + 1)))
			dest=$out/run-$n
		done
		mcopy -s -i "$fs" "::/memprobe/$name" "$dest"
		echo "qemu-run: results in $dest"
	done
fi
exit "$verdict"
