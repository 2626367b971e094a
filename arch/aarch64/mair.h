/* The app's MAIR: the memory types its translation tables select by index
 * (AttrIndx), loaded with the tables (arch/aarch64/paging.c) and described
 * by arch/aarch64/memtype.c.
 */
#ifndef MEMPROBE_AARCH64_MAIR_H
#define MEMPROBE_AARCH64_MAIR_H

/* Index 0: Normal memory, inner and outer write-back non-transient, read-
   and write-allocate (0xff), for RAM and every probe buffer. Index 1:
   Device-nGnRnE (0x00), for MMIO: no gathering, reordering or early write
   acknowledgement, so a register access is exactly the one the code makes. */
#define MAIR_INDEX_WB 0
#define MAIR_INDEX_DEVICE 1
#define MAIR_ATTR_WB 0xffull
#define MAIR_ATTR_DEVICE 0x00ull
#define MAIR_APP ((MAIR_ATTR_WB << (8 * MAIR_INDEX_WB)) | (MAIR_ATTR_DEVICE << (8 * MAIR_INDEX_DEVICE)))

#endif
