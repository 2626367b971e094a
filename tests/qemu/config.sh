# Bad configuration never starts a run: each error names its source (file
# and line, or the load options) and the key, the verdict is a failure, and
# nothing on the volume is touched.
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

CFG='\\EFI\\BOOT\\memprobe\.cfg'

# cfg_case NAME: prints the config text of a case.
cfg_case() {
	case $1 in
	unknown) printf 'profile = quick\nlatency.sizes = 4K\n' ;;
	bad-number) printf 'trials = three\n' ;;
	bad-unit) printf 'profile = quick\n\nmax_size = 8 parsecs\n' ;;
	empty) printf 'pages =\n' ;;
	overlong) printf 'probes = %0230d\n' 0 ;;
	garbage) printf 'trials = 3\n\001\002\377\376\n' ;;
	duplicate) printf 'trials = 3\ntrials = 4\n' ;;
	impossible) printf 'min_size = 64K\nmax_size = 16K\n' ;;
	esac
}

# What the console must say after "memprobe: configuration error: ".
declare -A EXPECT=(
	[unknown]="$CFG:2: key 'latency\.sizes': unknown key"
	[bad-number]="$CFG:1: key 'trials': bad number 'three'"
	[bad-unit]="$CFG:3: key 'max_size': bad unit"
	[empty]="$CFG:1: key 'pages': empty value"
	[overlong]="$CFG:1: overlong line"
	[garbage]="$CFG:2: binary garbage: byte 0x01"
	[duplicate]="$CFG:2: key 'trials': duplicate key \(first given on line 1\)"
	[impossible]="$CFG.*(min_size|max_size)"
)

for name in unknown bad-number bad-unit empty overlong garbage duplicate impossible; do
	img=$(image_with "cfg-$name" "$(cfg_case "$name")")
	boot "cfg-$name" --image "$img" --cpu max --mem 256M
	check "config $name: message names the source and the key" log_has "^memprobe: configuration error: ${EXPECT[$name]}"
	check "config $name: the run does not start" log_has '^memprobe: the run does not start'
	check "config $name: the verdict is a failure" test "$BOOT_RC" -eq 1
	check "config $name: the earlier run is intact" earlier_run_intact
	check "config $name: no new run folder" test "$(runs_on_disk)" -eq 1
done

# Load options override the file; a bad one names the load options.
img=$(image_with cfg-override "$(printf 'profile = quick\nprobes = cost\ncost.reps = 1000\n')")
boot cfg-override --image "$img" --cpu max --mem 256M --args "probes=latency max_size=16K"
check "override: load options win over the file" log_has '^== latency =='
check "override: the file's probe did not run" test "$(grep -c '^== cost ==' "$LOG")" -eq 0
check "override: success" test "$BOOT_RC" -eq 0
check "override: the new run is run-0002 beside the intact run-0001" earlier_run_intact
check "override: two run folders on the disk" test "$(runs_on_disk)" -eq 2

boot cfg-bad-option --cpu max --mem 256M --args "profile=quick trials=-1"
check "bad load option: names the load options and the key" log_has "^memprobe: configuration error: load options: key 'trials'"
check "bad load option: failure" test "$BOOT_RC" -eq 1
