/* The machine's identity from its SMBIOS tables: the entry point (2.1
 * "_SM_" or 3.0 "_SM3_"), then the structure table's type 1 (system),
 * type 2 (baseboard) and type 17 (memory device) structures.
 *
 * Pure and defensive: every read is bounds-checked against the length the
 * caller gives, a structure whose header or strings run past the table
 * ends the walk (what came before it is kept), a field the structure's
 * length does not cover reads as absent, and a string is cut to printable
 * ASCII. Nothing here reads memory it was not handed.
 */
#ifndef MEMPROBE_LIB_SMBIOS_H
#define MEMPROBE_LIB_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

struct json;

#define SMBIOS_TEXT 64          /* a string's room, NUL included */
#define SMBIOS_MEMDEV_MAX 64    /* type 17 structures kept; more are counted */

/* An entry point, parsed. */
struct smbios_entry {
	unsigned major, minor;    /* the SMBIOS version it announces */
	int v3;                   /* "_SM3_": table_bytes is a maximum */
	uint64_t table_address;   /* physical address of the structure table */
	uint32_t table_bytes;     /* its length (3.0: its maximum length) */
};

/* The entry point at ep (len bytes readable): 0, or -1 with why filled. */
int smbios_entry_parse(const uint8_t *ep, size_t len, struct smbios_entry *out, char *why,
		       size_t why_size);

enum smbios_uuid_state {
	SMBIOS_UUID_ABSENT,       /* no type 1, or one too short to hold it */
	SMBIOS_UUID_OK,
	SMBIOS_UUID_UNSET,        /* all zeros: "not present" */
	SMBIOS_UUID_ALL_ONES,     /* all 0xff: "present but not set" */
};

struct smbios_memdev {
	char locator[SMBIOS_TEXT];       /* "DIMM 0" */
	char bank[SMBIOS_TEXT];          /* "BANK 0" */
	char manufacturer[SMBIOS_TEXT];
	char part_number[SMBIOS_TEXT];
	char serial[SMBIOS_TEXT];
	int installed;            /* 0: an empty slot (size 0) */
	int size_known;           /* 0: the table says "unknown" */
	uint64_t size_bytes;
	uint32_t speed_mts;       /* the part's maximum rated speed, MT/s; 0: unknown */
	uint32_t configured_mts;  /* the speed it runs at, MT/s; 0: unknown */
	unsigned type_code;       /* SMBIOS memory type; 0: not given */
	const char *type;         /* its name ("DDR4"), never NULL */
};

struct smbios_info {
	int present;              /* a structure table was walked */
	unsigned major, minor;
	char source[64];          /* where it came from */
	char why[160];            /* when not present: why; else "" */
	/* type 1 */
	int have_system;
	char sys_manufacturer[SMBIOS_TEXT], sys_product[SMBIOS_TEXT];
	char sys_version[SMBIOS_TEXT], sys_serial[SMBIOS_TEXT];
	char sys_sku[SMBIOS_TEXT], sys_family[SMBIOS_TEXT];
	enum smbios_uuid_state uuid_state;
	uint8_t uuid[16];         /* as stored in the table */
	/* type 2 (the first one) */
	int have_board;
	char board_manufacturer[SMBIOS_TEXT], board_product[SMBIOS_TEXT];
	char board_version[SMBIOS_TEXT], board_serial[SMBIOS_TEXT];
	/* type 17 */
	struct smbios_memdev mem[SMBIOS_MEMDEV_MAX];
	size_t nmem;              /* kept */
	size_t mem_dropped;       /* beyond SMBIOS_MEMDEV_MAX */
	uint64_t mem_total_bytes; /* the installed devices' known sizes */
	/* the walk */
	unsigned structures;      /* structures walked */
	unsigned bad_strings;     /* string references past a structure's strings */
	char stopped[96];         /* why the walk ended before type 127 or the
	                             table's end; "" when it did not */
};

/* Walks the structure table (len bytes) as SMBIOS major.minor. Always
   fills out; returns 0 when it was walked (out->present), -1 when the
   table is empty or unusable (out->why says why). source is copied. */
int smbios_parse(const uint8_t *table, size_t len, unsigned major, unsigned minor,
		 const char *source, struct smbios_info *out);

/* Marks out as absent, with the reason. */
void smbios_absent(struct smbios_info *out, const char *source, const char *why);

/* The UUID as text (36 characters): from SMBIOS 2.6 on its first three
   fields are little-endian in the table, as dmidecode and Linux show it.
   "" when it is absent, unset or all ones. */
void smbios_uuid_text(const struct smbios_info *s, char *buf, size_t size);

/* The machine's id for upload paths and fleets: the UUID in lower case,
   else the MAC (6 bytes; NULL: none known) as "mac-001122334455", else
   "unknown". buf holds at least 40 bytes. */
void smbios_machine_id(const struct smbios_info *s, const uint8_t *mac, char *buf,
		       size_t size);

/* system.json's `machine` object (docs/OUTPUT.md). mac as above. */
void smbios_json(struct json *j, const struct smbios_info *s, const uint8_t *mac);

/* The name of a memory type code; "unknown" for those not defined. */
const char *smbios_memory_type(unsigned code);

#endif
