/* The hardware timers the firmware's ACPI tables describe. */
#ifndef MEMPROBE_ACPI_H
#define MEMPROBE_ACPI_H

#include <stdint.h>

struct acpi_pm_timer {
	uint16_t port;     /* I/O port of the PM timer, 0 when there is none */
	int bits;          /* 24 or 32 (FADT flag TMR_VAL_EXT) */
};

/* The ACPI table with this 4-character signature ("SRAT", "HPET") through
   the firmware's RSDP, or NULL when it has none. Its length field is the
   caller's to check. */
const uint8_t *acpi_find_table(const char *signature);

/* Finds the FADT through the ACPI 2.0 RSDP of the firmware's configuration
   table (falling back to the 1.0 RSDP) and reads the PM timer block from it.
   0, or -1 when no usable I/O-port PM timer is described. */
int acpi_find_pm_timer(struct acpi_pm_timer *t);

struct acpi_hpet {
	uint64_t base;     /* physical address of its register block, 0 when none */
};

/* Reads the HPET table's register block address (system memory space only).
   0, or -1 when no usable HPET is described. */
int acpi_find_hpet(struct acpi_hpet *h);

#endif
