/* The firmware's memory map, read afresh whenever asked; the decisions made
 * from it (what to map, where a buffer goes) are lib/efimap.h's, pure code
 * the host tests run on adversarial maps.
 */
#ifndef MEMPROBE_MEMMAP_H
#define MEMPROBE_MEMMAP_H

#include <efi.h>
#include "lib/efimap.h"

/* The unit of the memory map and of AllocatePages. */
#define EFI_PAGE_BYTES EFIMAP_PAGE_BYTES

/* The memory map as it is now, read into one buffer the app reuses and grows
   to whatever size GetMemoryMap reports (each allocation changes the map),
   so no descriptor is ever cut off; NULL with a message printed when the
   firmware will not give it. */
const struct efimap *memmap_now(void);

#endif
