/* memprobe's UEFI entry: take the machine, say what it is, run the probes,
 * leave by the configured end action.
 */

#include "efi/fw.h"
#include "efi/end.h"
#include "arch/x86_64/cpuinfo.h"
#include "probes/fmt.h"
#include "probes/platform.h"

extern const char memprobe_version[], memprobe_build_id[];

static void banner(void)
{
	struct cpuinfo ci;
	char vendor[64], line[256];

	cpuinfo_read(&ci);
	fw_ascii(vendor, sizeof vendor, fw_st->FirmwareVendor);
	mp_snprintf(line, sizeof line,
		    "memprobe %s (build %s)\n"
		    "firmware: %s, revision 0x%08x, UEFI %u.%u\n"
		    "cpu: %s, %s (family %u model %u stepping %u)\n",
		    memprobe_version, memprobe_build_id, vendor,
		    (unsigned)fw_st->FirmwareRevision,
		    (unsigned)(fw_st->Hdr.Revision >> 16),
		    (unsigned)(fw_st->Hdr.Revision & 0xffff) / 10,
		    ci.vendor, ci.brand[0] ? ci.brand : "(no brand string)",
		    ci.family, ci.model, ci.stepping);
	plat_console(line);
}

/* gnu-efi's crt0 calls efi_main with the System V convention (see
   docs/BUILD.md), so this is deliberately not marked EFIAPI. */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	int ok;

	fw_init(image, st);
	banner();
	ok = 1;
	return end_run(END_DEFAULT, ok);
}
