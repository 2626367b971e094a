#!/usr/bin/env bash
# Boots a memprobe image headless in QEMU with OVMF and turns the app's verdict
# into this script's exit status. docs/BUILD.md describes the harness.
#
#   qemu-run.sh --image IMG [--out DIR] [--cpu MODEL] [--mem SIZE]
#               [--args "key=value ..."] [--timeout S] [--workdir DIR]
#               [--readonly] [--quiet] [--vars FILE] [--help]
#
# Exit status: 0 the app reported success, 1 it reported failure, 2 bad use,
# 3 QEMU ended without a verdict (crash, triple fault, firmware reset),
# 124 the guest was still running at the timeout and was killed.
set -euo pipefail

image= out= cpu= mem=1G args= timeout_s=${QEMU_TIMEOUT:-600} workdir= readonly=0 quiet=0 vars=
while [[ $# -gt 0 ]]; do
	case $1 in
	--image) image=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--args) args=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--workdir) workdir=$2; shift 2 ;;
	--readonly) readonly=1; shift ;;
	--quiet) quiet=1; shift ;;
	--vars) vars=$2; shift 2 ;;
	--help|-h) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) echo "qemu-run: unknown option $1" >&2; exit 2 ;;
	esac
done
[[ -n $image && -f $image ]] || { echo "qemu-run: --image must name a built image" >&2; exit 2; }

ovmf_code=/usr/share/OVMF/OVMF_CODE_4M.fd
ovmf_vars=/usr/share/OVMF/OVMF_VARS_4M.fd
workdir=${workdir:-$(dirname "$image")/run}
mkdir -p "$workdir"
rm -f "$workdir"/{disk.img,vars.fd,debugcon.log,serial.log}

# The guest writes its results onto a copy: the build's image stays as built.
cp "$image" "$workdir/disk.img"
# A fresh VARS file each run: a boot entry or variable one run leaves behind
# must not steer the next. --vars continues from an earlier run's variables,
# for the test that a reboot by memprobe does not loop.
cp "${vars:-$ovmf_vars}" "$workdir/vars.fd"

# With arguments, the app is started from the firmware's built-in shell by a
# startup.nsh, exactly as a person would type it, so they arrive as real load
# options. Without BOOTX64.EFI the firmware falls through to that shell.
if [[ -n $args ]]; then
	mmove -i "$workdir/disk.img" ::/EFI/BOOT/BOOTX64.EFI ::/EFI/BOOT/memprobe.efi
	printf 'FS0:\r\n\\EFI\\BOOT\\memprobe.efi %s\r\n' "$args" > "$workdir/startup.nsh"
	mcopy -o -i "$workdir/disk.img" "$workdir/startup.nsh" ::/startup.nsh
fi
runs_before=$(mdir -b -i "$workdir/disk.img" ::/memprobe 2>/dev/null | sort || true)

# KVM only when it can really run the firmware. On some hosts /dev/kvm opens
# and then QEMU aborts on the first MSR the firmware touches; on others KVM
# hits an "emulation failure" in the firmware's first instructions, and QEMU
# then pauses the guest instead of exiting, so a guest that merely stays
# alive proves nothing. KVM counts as working only when the guest is alive
# after a few seconds and QEMU reported no KVM error.
kvm_works() {
	[[ -r /dev/kvm && -w /dev/kvm ]] || return 1
	cp "$ovmf_vars" "$workdir/kvm-vars.fd"
	local rc
	# The status is echoed from inside the subshell so that the shell which
	# reports a crashing QEMU ("Aborted") is the one writing to /dev/null.
	rc=$( (timeout 4 qemu-system-x86_64 -enable-kvm -cpu host -machine q35 -m 128M \
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

disk_opts="if=none,id=stick,format=raw,file=$workdir/disk.img"
[[ $readonly -eq 1 ]] && disk_opts+=",readonly=on"

qemu=(qemu-system-x86_64 "${accel[@]}" -cpu "$cpu" -machine q35 -m "$mem"
	-display none -nodefaults -no-reboot -net none
	-drive if=pflash,format=raw,readonly=on,file="$ovmf_code"
	-drive if=pflash,format=raw,file="$workdir/vars.fd"
	-drive "$disk_opts" -device qemu-xhci,id=xhci -device usb-storage,bus=xhci.0,drive=stick
	-serial file:"$workdir/serial.log"
	-debugcon file:"$workdir/debugcon.log" -global isa-debugcon.iobase=0x402
	-device isa-debug-exit,iobase=0xf4,iosize=4)

: > "$workdir/debugcon.log"
if [[ $quiet -eq 0 ]]; then
	tail -n +1 -f "$workdir/debugcon.log" &
	tail_pid=$!
fi
rc=0
timeout --foreground "$timeout_s" "${qemu[@]}" || rc=$?
if [[ $quiet -eq 0 ]]; then
	sleep 0.2
	kill "$tail_pid" 2>/dev/null || true
	wait "$tail_pid" 2>/dev/null || true
fi

# isa-debug-exit turns the app's byte v into status (v << 1) | 1: the app
# writes 0x10 for success and 0x11 for failure, so 33 and 35 are the only
# verdicts. 0 means QEMU stopped for another reason and proves nothing.
case $rc in
33) verdict=0; echo "qemu-run: verdict: success" ;;
35) verdict=1; echo "qemu-run: verdict: failure (the app reported a failure)" ;;
124) verdict=124; echo "qemu-run: TIMEOUT: the guest was still running after ${timeout_s}s and was killed" ;;
*) verdict=3; echo "qemu-run: NO VERDICT: QEMU exited with status $rc before the app reported one (see $workdir/serial.log)" ;;
esac

# Bring back every run folder this boot created; never overwrite one in OUT.
if [[ -n $out ]]; then
	mkdir -p "$out"
	runs_after=$(mdir -b -i "$workdir/disk.img" ::/memprobe 2>/dev/null | sort || true)
	for run in $(comm -13 <(echo "$runs_before") <(echo "$runs_after")); do
		name=$(basename "$run")
		dest=$out/$name
		n=${name#run-}
		while [[ -e $dest ]]; do
			n=$(printf '%04d' $((10#$n + 1)))
			dest=$out/run-$n
		done
		mcopy -s -i "$workdir/disk.img" "::/memprobe/$name" "$dest"
		echo "qemu-run: results in $dest"
	done
fi
exit "$verdict"
