/* The ACPI System Resource Affinity Table (SRAT, ACPI 6.5 section 5.2.16)
 * as plain data: which proximity domain each memory range and the boot
 * processor belong to. A pure parser of the table's bytes, so the host tests
 * feed it synthetic and corrupt tables.
 */
#ifndef MEMPROBE_SRAT_H
#define MEMPROBE_SRAT_H

#include <stddef.h>
#include <stdint.h>

/* Memory ranges and domains kept; a table with more says so (the dropped
   counts) rather than being read in part silently. */
#define SRAT_MEMORY_MAX 256
#define SRAT_DOMAINS_MAX 64

struct srat_memory {
	uint64_t base, length;
	uint32_t domain;
	int hot_pluggable, non_volatile;
};

struct srat {
	struct srat_memory memory[SRAT_MEMORY_MAX];   /* enabled ranges, table order */
	size_t memory_count, memory_dropped;
	uint32_t domains[SRAT_DOMAINS_MAX];           /* with memory, ascending */
	size_t domain_count, domains_dropped;
	int cpu_found;            /* the processor asked about is listed, enabled */
	uint32_t cpu_domain;      /* its domain */
	size_t cpus;              /* enabled processor entries (APIC, x2APIC, GICC) */
};

/* The processor to look up, by the ids the SRAT's entries name one with:
   APIC and x2APIC affinity entries by its CPU id, the APIC ID (the x2APIC
   ID where the CPU has one); GICC affinity entries (AArch64) by its ACPI
   processor UID, which only the MADT ties to the CPU (lib/madt.h). */
struct srat_cpu {
	uint32_t cpu_id;
	uint32_t acpi_uid;
	int have_uid;             /* 0: the UID is unknown, no GICC entry matches */
};

/* Parses the table at `table` (`available` bytes readable there) and looks
   up the processor cpu names. Disabled entries are skipped. 0, or -1 with
   why[] naming the fault (signature, length, checksum, an entry that
   overruns the table): nothing of a corrupt table is used. */
int srat_parse(const uint8_t *table, size_t available, const struct srat_cpu *cpu,
	       struct srat *out, char *why, size_t why_len);

/* The domain of the range holding addr; -1 when no range of the table does. */
int64_t srat_domain_of(const struct srat *s, uint64_t addr);

/* Whether domain is one the table gives memory to. */
int srat_has_domain(const struct srat *s, uint32_t domain);

#endif
