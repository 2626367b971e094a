/* The status words of arch/paging.h for AArch64. */

#include "arch/paging.h"

const char *pt_status_name(enum pt_status status)
{
	switch (status) {
	case PT_OK: return "ok";
	case PT_ERR_CONFIG: return "unsupported translation configuration";
	case PT_ERR_NOMEM: return "out of translation-table memory";
	case PT_ERR_TABLE_ADDR: return "table unaligned or beyond the physical address range";
	case PT_ERR_NOT_CONSECUTIVE: return "translation-table pool gave pages out of order";
	case PT_ERR_BEYOND_PHYS: return "range beyond the physical address range";
	case PT_ERR_BEYOND_VA: return "range beyond the 48-bit identity map";
	case PT_ERR_PAGE_SIZE: return "page size not 4 KiB, 16 KiB, 64 KiB, 2 MiB, 32 MiB, 512 MiB or 1 GiB";
	case PT_ERR_NO_1G: return "1 GiB blocks not offered (no 4 KiB granule)";
	case PT_ERR_NO_GRANULE: return "the page size's translation granule is not offered by this CPU";
	case PT_ERR_ALIGN: return "base or length not a non-zero multiple of the page size";
	case PT_ERR_MISMATCH: return "pages not mapped as asked";
	}
	return "unknown translation-table status";
}
