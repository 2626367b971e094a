# The machine's identity on bare metal: the SMBIOS tables QEMU builds from
# -smbios options (system, baseboard, memory devices) read through the EFI
# configuration table into system.json's `machine` and the card's machine
# line; and, with the UUID all ones, the id falls back to the MAC of the
# NIC (QEMU's user network, virtio-net).
cd "$(dirname "$0")/../.."
. tests/qemu/lib.bash

uuid=5b0e3c6a-1f2d-4e8a-9c7b-0123456789ab
boot machine --cpu max --mem 512M \
	--smbios "type=1,manufacturer=Acme Servers,product=RackOne R1,version=v2,serial=SN-000123,uuid=$uuid,sku=SKU-9,family=Racks" \
	--smbios "type=2,manufacturer=Acme Boards,product=AB-550,version=rev3,serial=BRD-77" \
	--smbios "type=17,loc_pfx=SLOT,bank=CH-A,manufacturer=Hynix,serial=DIMMSER1,part=HMA82GR7,speed=3200" \
	--args "profile=quick probes=latency pages=4k max_size=64K"
run=$(run_folder)
check "machine: success" test "$BOOT_RC" -eq 0
check "machine: system.json's machine holds the -smbios identity" python3 - "$run/system.json" "$uuid" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))['machine']
assert m['smbios'] is True and m['smbios_source'].startswith('EFI configuration table'), m
assert m['id'] == sys.argv[2] and m['id_from'] == 'smbios_uuid', m
s = m['system']
assert (s['manufacturer'], s['product'], s['version'], s['serial'], s['sku'], s['family']) == \
	('Acme Servers', 'RackOne R1', 'v2', 'SN-000123', 'SKU-9', 'Racks'), s
assert s['uuid'] == sys.argv[2] and s['uuid_state'] == 'set', s
b = m['baseboard']
assert (b['manufacturer'], b['product'], b['version'], b['serial']) == \
	('Acme Boards', 'AB-550', 'rev3', 'BRD-77'), b
d = [x for x in m['memory_devices'] if x['installed']]
assert d and sum(x['size_bytes'] for x in d) == 512 << 20 == m['memory_installed_bytes'], m
assert all(x['manufacturer'] == 'Hynix' and x['part_number'] == 'HMA82GR7' and
	   x['speed_mts'] == 3200 and x['locator'].startswith('SLOT') for x in d), d
PY
check "machine: the card's machine line names the product and the memory" python3 - "$run/summary.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split('\n')
m = [l for l in lines if l.startswith('machine  ')]
assert len(m) == 1 and m[0].startswith('machine  Acme Servers RackOne R1, 1 DIMM 512 MiB'), m
assert '3200 MT/s' in m[0] and len(m[0]) <= 80 and len(lines) - 1 <= 30, m
PY

boot machine-mac --cpu max --mem 512M --net restrict=on \
	--smbios "type=1,manufacturer=Acme Servers,product=NoId,uuid=ffffffff-ffff-ffff-ffff-ffffffffffff" \
	--args "profile=quick probes=latency pages=4k max_size=64K"
run=$(run_folder)
check "machine (all-ones UUID): success" test "$BOOT_RC" -eq 0
check "machine (all-ones UUID): the id is the NIC's MAC" python3 - "$run/system.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))['machine']
assert m['system']['uuid_state'] == 'all ones (not set)' and m['system']['uuid'] == '', m
assert m['id_from'] == 'mac' and m['mac'] == '52:54:00:12:34:56', m
assert m['id'] == 'mac-525400123456', m
PY
