/* The machine's identity on bare metal: the SMBIOS tables the firmware
 * publishes in its configuration table (SMBIOS3 preferred, for its 64-bit
 * address and newer fields), and the MAC of the NIC that booted the app
 * (its device path's MAC node, else the NIC nearest that path, else the
 * first NIC the firmware has).
 */

#include <efi.h>
#include <efilib.h>

#include "efi/fw.h"
#include "lib/fmt.h"
#include "lib/smbios.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

static EFI_GUID smbios_guid = { 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };
static EFI_GUID smbios3_guid = { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } };
static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID device_path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;

#define EP2_BYTES 0x1f
#define EP3_BYTES 0x18
/* 3.x gives only a maximum; no real table comes near this. */
#define TABLE_MAX (1u << 20)
#define PATH_NODES_MAX 64
#define DP_MESSAGING 3
#define DP_MAC 11
#define DP_END 0x7f

/* ---- Private Data ----------------------------------------------------- */

static uint8_t mac[6];
static int mac_state;            /* 1: found, -1: none */

/* ---- Private Functions ------------------------------------------------ */

static const uint8_t *config_table(const EFI_GUID *g)
{
	for (UINTN i = 0; i < fw_st->NumberOfTableEntries; i++)
		if (CompareGuid(&fw_st->ConfigurationTable[i].VendorGuid, (EFI_GUID *)g) == 0)
			return fw_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

/* The MAC node of a device path, walked node by node with every length
   checked (a zero length would loop). */
static int path_mac(const uint8_t *p)
{
	for (int n = 0; p && n < PATH_NODES_MAX; n++) {
		unsigned type = p[0], sub = p[1], len = p[2] | p[3] << 8;
		if (type == DP_END || len < 4)
			return -1;
		if (type == DP_MESSAGING && sub == DP_MAC && len >= 4 + 6) {
			mp_memcpy(mac, p + 4, 6);
			return 0;
		}
		p += len;
	}
	return -1;
}

static int snp_mac(EFI_HANDLE h)
{
	EFI_SIMPLE_NETWORK *snp;

	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, h, &snp_guid, (void **)&snp) != EFI_SUCCESS ||
	    !snp || !snp->Mode || snp->Mode->HwAddressSize < 6)
		return -1;
	mp_memcpy(mac, snp->Mode->CurrentAddress.Addr, 6);
	return 0;
}

static int nonzero(const uint8_t *m)
{
	for (int i = 0; i < 6; i++)
		if (m[i])
			return 1;
	return 0;
}

static void read_mac(void)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_DEVICE_PATH *dp = NULL, *walk;
	EFI_HANDLE h, *handles = NULL;
	UINTN count = 0;

	mac_state = -1;
	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, fw_image, &loaded_image_guid,
			      (void **)&li) == EFI_SUCCESS && li &&
	    uefi_call_wrapper(fw_bs->HandleProtocol, 3, li->DeviceHandle, &device_path_guid,
			      (void **)&dp) == EFI_SUCCESS && dp) {
		if (path_mac((const uint8_t *)dp) == 0 && nonzero(mac)) {
			mac_state = 1;
			return;
		}
		walk = dp;
		if (uefi_call_wrapper(fw_bs->LocateDevicePath, 3, &snp_guid, &walk, &h) == EFI_SUCCESS &&
		    snp_mac(h) == 0 && nonzero(mac)) {
			mac_state = 1;
			return;
		}
	}
	if (uefi_call_wrapper(fw_bs->LocateHandleBuffer, 5, ByProtocol, &snp_guid, NULL, &count,
			      &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < count && mac_state < 0; i++)
		if (snp_mac(handles[i]) == 0 && nonzero(mac))
			mac_state = 1;
	uefi_call_wrapper(fw_bs->FreePool, 1, handles);
}

/* ---- Public Functions ------------------------------------------------- */

void plat_smbios_read(struct smbios_info *info)
{
	const uint8_t *ep3 = config_table(&smbios3_guid), *ep2 = config_table(&smbios_guid);
	struct smbios_entry e;
	char why[160], why3[96] = "";
	const char *source = "EFI configuration table, SMBIOS3 entry point";
	uint32_t bytes;

	if (!ep3 && !ep2) {
		smbios_absent(info, "EFI configuration table",
			      "the firmware publishes no SMBIOS or SMBIOS3 entry point");
		return;
	}
	if (!ep3 || smbios_entry_parse(ep3, EP3_BYTES, &e, why3, sizeof why3) != 0) {
		source = "EFI configuration table, SMBIOS 2 entry point";
		if (!ep2 || smbios_entry_parse(ep2, EP2_BYTES, &e, why, sizeof why) != 0) {
			char text[160];
			mp_snprintf(text, sizeof text, "entry point unusable: %s%s%s",
				    ep2 ? why : "", ep2 && why3[0] ? "; " : "", why3);
			smbios_absent(info, "EFI configuration table", text);
			return;
		}
	}
	bytes = e.table_bytes > TABLE_MAX ? TABLE_MAX : e.table_bytes;
	smbios_parse((const uint8_t *)(uintptr_t)e.table_address, bytes, e.major, e.minor, source,
		     info);
}

int plat_mac_read(uint8_t out[6])
{
	read_mac();
	if (mac_state > 0)
		mp_memcpy(out, mac, sizeof mac);
	return mac_state > 0;
}
