/* The ACPI MADT (signature "APIC", ACPI 6.5 section 5.2.12) as far as
 * memprobe needs it: the ACPI processor UID of an AArch64 CPU, which the
 * CPU's GICC entry ties to its MPIDR affinity. The SRAT names an AArch64
 * CPU by that UID alone (lib/srat.h); x86's SRAT entries carry the APIC ID
 * itself, so nothing here reads x86's entries. A pure parser of the
 * table's bytes.
 */
#ifndef MEMPROBE_MADT_H
#define MEMPROBE_MADT_H

#include <stddef.h>
#include <stdint.h>

/* An MPIDR value as one 32-bit CPU id: Aff2, Aff1 and Aff0 (bits 23:0) in
   the low 24 bits, Aff3 (bits 39:32) above them. The one packing: the
   AArch64 CPU's own id (arch/aarch64/cpu.c, cpu_table_id) and the GICC
   entries' are compared in it. */
static inline uint32_t madt_mpidr_id(uint64_t mpidr)
{
	return (uint32_t)(mpidr & 0xffffff) | (uint32_t)((mpidr >> 32) & 0xff) << 24;
}

/* Looks through the table at `table` (`available` bytes readable there)
   for the GICC entry whose MPIDR packs to cpu_id: 1 with *uid its ACPI
   processor UID; 0 when no entry names it; -1 with why[] naming the fault
   of a corrupt table (signature, length, checksum, an entry that overruns
   it or is shorter than the GICC layout's MPIDR). */
int madt_gicc_uid(const uint8_t *table, size_t available, uint32_t cpu_id, uint32_t *uid,
		  char *why, size_t why_len);

#endif
