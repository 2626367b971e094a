/* The MADT's GICC entries (see madt.h). Offsets from ACPI 6.5, 5.2.12. */

#include "lib/madt.h"
#include "lib/acpi_table.h"

/* ---- Constants -------------------------------------------------------- */

#define FIRST_ENTRY 44           /* header, local interrupt controller address, flags */
#define TYPE_GICC 0x0b
#define GICC_UID_AT 8
#define GICC_MPIDR_AT 68
/* ACPI 5.1's GICC, the shortest that holds the MPIDR; later revisions
   append fields (80 bytes in 6.0, 82 in 6.3). */
#define GICC_MIN_BYTES 76

/* ---- Public Functions ------------------------------------------------- */

int madt_gicc_uid(const uint8_t *table, size_t available, uint32_t cpu_id, uint32_t *uid,
		  char *why, size_t why_len)
{
	struct acpi_entries w;
	const uint8_t *e;
	int more;

	if (acpi_entries_open(&w, table, available, "APIC", FIRST_ENTRY, why, why_len))
		return -1;
	while ((more = acpi_next_entry(&w, &e)) > 0) {
		if (e[0] != TYPE_GICC)
			continue;
		if (e[1] < GICC_MIN_BYTES)
			return acpi_refuse_entry(&w, e, "GICC entry shorter than its layout");
		if (madt_mpidr_id(acpi_get64(e + GICC_MPIDR_AT)) == cpu_id) {
			*uid = acpi_get32(e + GICC_UID_AT);
			return 1;
		}
	}
	return more;
}
