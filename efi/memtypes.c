/* The memory types of the app's buffers: arch/memtype.h reads the registers
 * and names what they make of a range; this file gives it the guard
 * (efi/describe.c writes its facts into system.json). */

#include "efi/memtypes.h"
#include "efi/fw.h"
#include "efi/guarded.h"
#include "arch/memtype.h"

void memtypes_init(void)
{
	memtype_read(&fw_cpu, guarded_run);
}

void memtypes_describe(uint64_t base, uint64_t bytes, unsigned attr_index, char *buf, size_t size)
{
	memtype_describe(base, bytes, attr_index, buf, size);
}

int memtypes_write_back(uint64_t base, uint64_t bytes, unsigned attr_index)
{
	return memtype_write_back(base, bytes, attr_index);
}
