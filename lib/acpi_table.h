/* The frame every ACPI description table shares (ACPI 6.5 section 5.2.6):
 * the header's signature, length and checksum, and the list of
 * type-and-length entries after a table's fixed part (the SRAT's and the
 * MADT's). Pure, over the table's bytes, so the host tests and the fuzz
 * targets feed it anything.
 */
#ifndef MEMPROBE_ACPI_TABLE_H
#define MEMPROBE_ACPI_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* A table being read entry by entry. */
struct acpi_entries {
	const uint8_t *table;
	uint32_t length;          /* the header's length field, checked */
	size_t at;                /* the next entry's offset */
	const char *signature;    /* for the refusals' words */
	char *why;
	size_t why_len;
};

static inline uint32_t acpi_get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t acpi_get64(const uint8_t *p)
{
	return acpi_get32(p) | (uint64_t)acpi_get32(p + 4) << 32;
}

/* 0 when `available` bytes at table hold a whole table of this 4-letter
   signature whose entries start at first_entry: the length field at least
   that, within available and a sane bound, the bytes summing to zero;
   w is then ready for acpi_next_entry. -1 with why[] naming the fault
   ("SRAT: checksum does not add up to zero (at byte 9)"): nothing of a
   corrupt table is to be used. */
int acpi_entries_open(struct acpi_entries *w, const uint8_t *table, size_t available,
		      const char *signature, size_t first_entry, char *why, size_t why_len);

/* 1 with *entry at the next entry (its type at [0], its length, at least
   2 and within the table, at [1]); 0 past the last; -1 with why[] for an
   entry whose header or length runs past the table's end or is under 2
   (which would loop for ever). */
int acpi_next_entry(struct acpi_entries *w, const uint8_t **entry);

/* Refuses the entry at *entry (shorter than its type's layout, say):
   -1, with why[] naming it and where it stands. */
int acpi_refuse_entry(struct acpi_entries *w, const uint8_t *entry, const char *text);

#endif
