/* The ACPI table frame (see acpi_table.h). Offsets from ACPI 6.5, 5.2.6. */

#include "lib/acpi_table.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

#define HEADER_BYTES 36
#define LENGTH_AT 4
#define CHECKSUM_AT 9
/* A real SRAT or MADT of a few thousand CPUs is well under this: a larger
   length field is corruption, and reading it would walk through arbitrary
   memory. */
#define TABLE_MAX_BYTES (16u << 20)

/* ---- Private Functions ------------------------------------------------ */

static int refuse(const char *signature, char *why, size_t why_len, const char *text, size_t at)
{
	mp_snprintf(why, why_len, "%s: %s (at byte %llu)", signature, text, (unsigned long long)at);
	return -1;
}

/* ---- Public Functions ------------------------------------------------- */

int acpi_entries_open(struct acpi_entries *w, const uint8_t *table, size_t available,
		      const char *signature, size_t first_entry, char *why, size_t why_len)
{
	char words[24];
	uint32_t length;
	uint8_t sum = 0;

	*w = (struct acpi_entries){ table, 0, first_entry, signature, why, why_len };
	if (available < HEADER_BYTES || mp_strncmp((const char *)table, signature, 4) != 0) {
		mp_snprintf(words, sizeof words, "no %s signature", signature);
		return refuse(signature, why, why_len, words, 0);
	}
	length = acpi_get32(table + LENGTH_AT);
	if (length < first_entry || length > available || length > TABLE_MAX_BYTES)
		return refuse(signature, why, why_len, "length field out of range", LENGTH_AT);
	for (uint32_t i = 0; i < length; i++)
		sum = (uint8_t)(sum + table[i]);
	if (sum)
		return refuse(signature, why, why_len, "checksum does not add up to zero",
			      CHECKSUM_AT);
	w->length = length;
	return 0;
}

int acpi_next_entry(struct acpi_entries *w, const uint8_t **entry)
{
	const uint8_t *e = w->table + w->at;

	if (w->at >= w->length)
		return 0;
	if (w->length - w->at < 2)
		return refuse(w->signature, w->why, w->why_len,
			      "entry header cut off by the table's end", w->at);
	if (e[1] < 2 || e[1] > w->length - w->at)
		return refuse(w->signature, w->why, w->why_len,
			      "entry length zero or past the table's end", w->at);
	w->at += e[1];
	*entry = e;
	return 1;
}

int acpi_refuse_entry(struct acpi_entries *w, const uint8_t *entry, const char *text)
{
	return refuse(w->signature, w->why, w->why_len, text, (size_t)(entry - w->table));
}
