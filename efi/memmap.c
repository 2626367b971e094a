/* Reading the firmware's memory map. */

#include "efi/memmap.h"
#include "efi/fw.h"
#include "lib/fmt.h"
#include "core/platform.h"

struct memmap_buffer {
	UINT8 *buf;
	UINTN capacity;           /* bytes allocated */
	struct efimap view;
};

/* A map that grows between the size query and the read (the buffer's own
   allocation adds descriptors) is retried with room to spare; a firmware
   that keeps growing it is refused loudly rather than read in part. */
static int memmap_read(struct memmap_buffer *m)
{
	EFI_STATUS s = EFI_SUCCESS;
	UINTN size = 0;
	char line[160];

	for (int attempt = 0; attempt < 4; attempt++) {
		UINTN key, desc_size;
		UINT32 version;

		size = m->capacity;
		s = uefi_call_wrapper(fw_bs->GetMemoryMap, 5, &size,
				      (EFI_MEMORY_DESCRIPTOR *)m->buf, &key, &desc_size, &version);
		/* A stride shorter than a descriptor would read each entry over
		   the next (and 0 would divide by zero): refuse the map. */
		if (s == EFI_SUCCESS && desc_size < sizeof(struct efimap_desc)) {
			mp_snprintf(line, sizeof line, "memprobe: the firmware memory map's "
				    "descriptor size %llu is below the %llu bytes UEFI defines\n",
				    (unsigned long long)desc_size,
				    (unsigned long long)sizeof(struct efimap_desc));
			plat_console(line);
			return -1;
		}
		if (s == EFI_SUCCESS) {
			m->view.buf = m->buf;
			m->view.desc_size = desc_size;
			m->view.count = size / desc_size;
			return 0;
		}
		if (s != EFI_BUFFER_TOO_SMALL)
			break;
		/* Allocating the buffer adds descriptors of its own: leave room. */
		if (m->buf)
			uefi_call_wrapper(fw_bs->FreePool, 1, m->buf);
		m->capacity = size + 16 * desc_size;
		m->buf = NULL;
		s = uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, m->capacity,
				      (void **)&m->buf);
		if (s != EFI_SUCCESS) {
			m->capacity = 0;
			break;
		}
	}
	mp_snprintf(line, sizeof line, "memprobe: cannot read the firmware memory map "
		    "(%llu bytes asked): %s\n", (unsigned long long)size, fw_status_text(s));
	plat_console(line);
	return -1;
}

const struct efimap *memmap_now(void)
{
	static struct memmap_buffer current;

	return memmap_read(&current) == 0 ? &current.view : NULL;
}
