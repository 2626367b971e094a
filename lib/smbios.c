/* SMBIOS entry point and structure table parsing (see smbios.h).
 *
 * Field offsets are those of the DMTF's SMBIOS Reference Specification
 * (DSP0134); a field is read only when the structure's formatted length
 * covers it, so a table of an older version (or a truncated structure)
 * reads as "not given" rather than as the next structure's bytes.
 */

#include "lib/smbios.h"
#include "lib/fmt.h"
#include "lib/json.h"

/* ---- Constants -------------------------------------------------------- */

#define EP2_BYTES 0x1f
#define EP3_BYTES 0x18
#define HEADER_BYTES 4
#define TYPE_SYSTEM 1
#define TYPE_BOARD 2
#define TYPE_MEMDEV 17
#define TYPE_END 127

/* ---- Private Functions ------------------------------------------------ */

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static void say(char *why, size_t size, const char *text)
{
	if (why && size)
		mp_strlcpy(why, text, size);
}

static int sums_to_zero(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

/* One structure: its formatted area and its string set, both inside the
   table. */
struct structure {
	const uint8_t *p;
	size_t length;            /* the formatted area */
	const uint8_t *strings;   /* the string set */
	size_t strings_len;       /* up to, not including, its double NUL */
	unsigned *bad_strings;
};

static int has(const struct structure *s, size_t offset, size_t bytes)
{
	return offset + bytes <= s->length;
}

static unsigned byte_at(const struct structure *s, size_t offset)
{
	return has(s, offset, 1) ? s->p[offset] : 0;
}

static uint32_t word_at(const struct structure *s, size_t offset, uint32_t absent)
{
	return has(s, offset, 2) ? get16(s->p + offset) : absent;
}

static uint32_t dword_at(const struct structure *s, size_t offset, uint32_t absent)
{
	return has(s, offset, 4) ? get32(s->p + offset) : absent;
}

/* String number n (1-based) of the set, printable ASCII only (anything
   else becomes '?'), trailing blanks cut; "" for 0, for a field the
   structure does not have, and for a number past the set (counted). */
static void string_at(const struct structure *s, size_t offset, char *out, size_t size)
{
	unsigned n = byte_at(s, offset);
	size_t i = 0, len = 0, k;

	out[0] = '\0';
	if (!n)
		return;
	for (unsigned at = 1; at < n; at++) {
		while (i < s->strings_len && s->strings[i])
			i++;
		if (i >= s->strings_len) {
			(*s->bad_strings)++;
			return;
		}
		i++;
	}
	if (i >= s->strings_len) {
		(*s->bad_strings)++;
		return;
	}
	for (k = i; k < s->strings_len && s->strings[k] && len + 1 < size; k++) {
		uint8_t c = s->strings[k];
		out[len++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	while (len && out[len - 1] == ' ')
		len--;
	out[len] = '\0';
}

static void read_system(const struct structure *s, struct smbios_info *out)
{
	int zeros = 1, ones = 1;

	out->have_system = 1;
	string_at(s, 0x04, out->sys_manufacturer, sizeof out->sys_manufacturer);
	string_at(s, 0x05, out->sys_product, sizeof out->sys_product);
	string_at(s, 0x06, out->sys_version, sizeof out->sys_version);
	string_at(s, 0x07, out->sys_serial, sizeof out->sys_serial);
	string_at(s, 0x19, out->sys_sku, sizeof out->sys_sku);
	string_at(s, 0x1a, out->sys_family, sizeof out->sys_family);
	if (!has(s, 0x08, 16)) {
		out->uuid_state = SMBIOS_UUID_ABSENT;
		return;
	}
	mp_memcpy(out->uuid, s->p + 0x08, 16);
	for (int i = 0; i < 16; i++) {
		zeros &= out->uuid[i] == 0x00;
		ones &= out->uuid[i] == 0xff;
	}
	out->uuid_state = zeros ? SMBIOS_UUID_UNSET : ones ? SMBIOS_UUID_ALL_ONES : SMBIOS_UUID_OK;
}

static void read_board(const struct structure *s, struct smbios_info *out)
{
	out->have_board = 1;
	string_at(s, 0x04, out->board_manufacturer, sizeof out->board_manufacturer);
	string_at(s, 0x05, out->board_product, sizeof out->board_product);
	string_at(s, 0x06, out->board_version, sizeof out->board_version);
	string_at(s, 0x07, out->board_serial, sizeof out->board_serial);
}

/* Size: 0 none installed, 0xffff unknown, bit 15 set: KiB units, else
   MiB; 0x7fff: the extended size (MiB, bits 30:0) holds it. */
static void memdev_size(const struct structure *s, struct smbios_memdev *m)
{
	uint32_t size = word_at(s, 0x0c, 0xffff);

	if (size == 0) {
		m->installed = 0;
		return;
	}
	m->installed = 1;
	if (size == 0xffff)
		return;
	m->size_known = 1;
	if (size == 0x7fff) {
		uint32_t ext = dword_at(s, 0x1c, 0);
		if (!ext) {
			m->size_known = 0;
			return;
		}
		m->size_bytes = (uint64_t)(ext & 0x7fffffff) << 20;
	} else if (size & 0x8000) {
		m->size_bytes = (uint64_t)(size & 0x7fff) << 10;
	} else {
		m->size_bytes = (uint64_t)size << 20;
	}
}

/* A speed field: 0 unknown; 0xffff: the 32-bit extended field holds it. */
static uint32_t memdev_speed(const struct structure *s, size_t offset, size_t ext_offset)
{
	uint32_t v = word_at(s, offset, 0);

	if (v == 0xffff)
		v = dword_at(s, ext_offset, 0) & 0x7fffffff;
	return v;
}

static void read_memdev(const struct structure *s, struct smbios_info *out)
{
	struct smbios_memdev *m;

	if (out->nmem >= SMBIOS_MEMDEV_MAX) {
		out->mem_dropped++;
		return;
	}
	m = &out->mem[out->nmem++];
	memdev_size(s, m);
	string_at(s, 0x10, m->locator, sizeof m->locator);
	string_at(s, 0x11, m->bank, sizeof m->bank);
	m->type_code = byte_at(s, 0x12);
	m->type = smbios_memory_type(m->type_code);
	m->speed_mts = memdev_speed(s, 0x15, 0x54);
	string_at(s, 0x17, m->manufacturer, sizeof m->manufacturer);
	string_at(s, 0x18, m->serial, sizeof m->serial);
	string_at(s, 0x1a, m->part_number, sizeof m->part_number);
	m->configured_mts = memdev_speed(s, 0x20, 0x58);
	if (m->installed && m->size_known)
		out->mem_total_bytes += m->size_bytes;
}

static void hex_byte(char *p, uint8_t b)
{
	static const char digits[] = "0123456789abcdef";

	p[0] = digits[b >> 4];
	p[1] = digits[b & 15];
}

static void string_or_null(struct json *j, const char *key, const char *v)
{
	json_string(j, key, v);
}

/* ---- Public Functions ------------------------------------------------- */

const char *smbios_memory_type(unsigned code)
{
	static const char *const names[] = {
		[0x01] = "Other", [0x02] = "Unknown", [0x03] = "DRAM", [0x04] = "EDRAM",
		[0x05] = "VRAM", [0x06] = "SRAM", [0x07] = "RAM", [0x08] = "ROM",
		[0x09] = "Flash", [0x0a] = "EEPROM", [0x0b] = "FEPROM", [0x0c] = "EPROM",
		[0x0d] = "CDRAM", [0x0e] = "3DRAM", [0x0f] = "SDRAM", [0x10] = "SGRAM",
		[0x11] = "RDRAM", [0x12] = "DDR", [0x13] = "DDR2", [0x14] = "DDR2 FB-DIMM",
		[0x18] = "DDR3", [0x19] = "FBD2", [0x1a] = "DDR4", [0x1b] = "LPDDR",
		[0x1c] = "LPDDR2", [0x1d] = "LPDDR3", [0x1e] = "LPDDR4",
		[0x1f] = "Logical non-volatile device", [0x20] = "HBM", [0x21] = "HBM2",
		[0x22] = "DDR5", [0x23] = "LPDDR5", [0x24] = "HBM3",
	};

	if (code < sizeof names / sizeof *names && names[code])
		return names[code];
	return "unknown";
}

int smbios_entry_parse(const uint8_t *ep, size_t len, struct smbios_entry *out, char *why,
		       size_t why_size)
{
	mp_memset(out, 0, sizeof *out);
	if (!ep || len < 5) {
		say(why, why_size, "entry point too short");
		return -1;
	}
	if (mp_strncmp((const char *)ep, "_SM3_", 5) == 0) {
		unsigned n = len > 6 ? ep[6] : 0;
		if (len < EP3_BYTES || n < EP3_BYTES || n > len) {
			say(why, why_size, "SMBIOS 3 entry point: length field too short or past the data");
			return -1;
		}
		if (!sums_to_zero(ep, n)) {
			say(why, why_size, "SMBIOS 3 entry point: bad checksum");
			return -1;
		}
		out->v3 = 1;
		out->major = ep[7];
		out->minor = ep[8];
		out->table_bytes = get32(ep + 0x0c);
		out->table_address = get64(ep + 0x10);
	} else if (mp_strncmp((const char *)ep, "_SM_", 4) == 0) {
		unsigned n = len > 5 ? ep[5] : 0;
		/* Some firmware says 0x1e (a misreading of 2.1's length). */
		if (len < EP2_BYTES || n < 0x1e || n > len) {
			say(why, why_size, "SMBIOS 2 entry point: length field too short or past the data");
			return -1;
		}
		if (!sums_to_zero(ep, n)) {
			say(why, why_size, "SMBIOS 2 entry point: bad checksum");
			return -1;
		}
		if (mp_strncmp((const char *)ep + 0x10, "_DMI_", 5) != 0 ||
		    !sums_to_zero(ep + 0x10, 15)) {
			say(why, why_size, "SMBIOS 2 entry point: bad _DMI_ anchor or checksum");
			return -1;
		}
		out->major = ep[6];
		out->minor = ep[7];
		out->table_bytes = get16(ep + 0x16);
		out->table_address = get32(ep + 0x18);
	} else {
		say(why, why_size, "no _SM_ or _SM3_ anchor");
		return -1;
	}
	if (!out->table_address || !out->table_bytes) {
		say(why, why_size, "entry point gives no structure table");
		return -1;
	}
	if (why && why_size)
		why[0] = '\0';
	return 0;
}

void smbios_absent(struct smbios_info *out, const char *source, const char *why)
{
	mp_memset(out, 0, sizeof *out);
	mp_strlcpy(out->source, source ? source : "", sizeof out->source);
	mp_strlcpy(out->why, why ? why : "no SMBIOS tables", sizeof out->why);
}

int smbios_parse(const uint8_t *table, size_t len, unsigned major, unsigned minor,
		 const char *source, struct smbios_info *out)
{
	size_t at = 0;

	smbios_absent(out, source, "");
	out->major = major;
	out->minor = minor;
	if (!table || len < HEADER_BYTES) {
		mp_strlcpy(out->why, "structure table empty or shorter than one header",
			   sizeof out->why);
		return -1;
	}
	while (at + HEADER_BYTES <= len) {
		struct structure s = { table + at, table[at + 1], 0, 0, &out->bad_strings };
		unsigned type = table[at];
		size_t end;

		if (s.length < HEADER_BYTES) {
			mp_snprintf(out->stopped, sizeof out->stopped,
				    "structure %u (type %u) has length %zu, under its header's 4",
				    out->structures, type, s.length);
			break;
		}
		if (at + s.length > len) {
			mp_snprintf(out->stopped, sizeof out->stopped,
				    "structure %u (type %u) runs past the table's end",
				    out->structures, type);
			break;
		}
		/* The string set ends in two NULs; an empty one is just two. */
		end = at + s.length;
		s.strings = table + end;
		while (end + 1 < len && !(table[end] == 0 && table[end + 1] == 0))
			end++;
		if (end + 1 >= len) {
			mp_snprintf(out->stopped, sizeof out->stopped,
				    "structure %u (type %u): strings not ended before the table's end",
				    out->structures, type);
			break;
		}
		s.strings_len = (size_t)(table + end - s.strings);
		out->structures++;
		if (type == TYPE_SYSTEM && !out->have_system)
			read_system(&s, out);
		else if (type == TYPE_BOARD && !out->have_board)
			read_board(&s, out);
		else if (type == TYPE_MEMDEV)
			read_memdev(&s, out);
		at = end + 2;
		if (type == TYPE_END)
			break;
	}
	if (!out->structures) {
		mp_snprintf(out->why, sizeof out->why, "no structure could be read: %s",
			    out->stopped[0] ? out->stopped : "table too short");
		return -1;
	}
	out->present = 1;
	return 0;
}

void smbios_uuid_text(const struct smbios_info *s, char *buf, size_t size)
{
	/* The printed order of the table's bytes: from 2.6 on the first
	   three fields (4, 2 and 2 bytes) are little-endian. */
	static const uint8_t swapped[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	int le = s->major > 2 || (s->major == 2 && s->minor >= 6);
	char text[37];
	size_t n = 0;

	if (!size)
		return;
	buf[0] = '\0';
	if (!s->present || s->uuid_state != SMBIOS_UUID_OK)
		return;
	for (int i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			text[n++] = '-';
		hex_byte(text + n, s->uuid[le ? swapped[i] : i]);
		n += 2;
	}
	text[n] = '\0';
	mp_strlcpy(buf, text, size);
}

void smbios_machine_id(const struct smbios_info *s, const uint8_t *mac, char *buf,
		       size_t size)
{
	char text[40];

	smbios_uuid_text(s, text, sizeof text);
	if (!text[0] && mac) {
		int zero = 1;
		for (int i = 0; i < 6; i++)
			zero &= mac[i] == 0;
		if (!zero) {
			mp_strlcpy(text, "mac-", sizeof text);
			for (int i = 0; i < 6; i++)
				hex_byte(text + 4 + 2 * i, mac[i]);
			text[16] = '\0';
		}
	}
	if (!text[0])
		mp_strlcpy(text, "unknown", sizeof text);
	mp_strlcpy(buf, text, size);
}

void smbios_json(struct json *j, const struct smbios_info *s, const uint8_t *mac)
{
	char text[64];

	json_object_begin(j, "machine");
	smbios_machine_id(s, mac, text, sizeof text);
	json_string(j, "id", text);
	json_string(j, "id_from", text[0] == 'm' ? "mac" : mp_strcmp(text, "unknown") == 0
		    ? "nothing: no SMBIOS UUID and no MAC" : "smbios_uuid");
	if (mac) {
		mp_snprintf(text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1],
			    mac[2], mac[3], mac[4], mac[5]);
		json_string(j, "mac", text);
	}
	json_string(j, "smbios_source", s->source);
	json_bool(j, "smbios", s->present);
	if (!s->present) {
		json_string(j, "smbios_missing", s->why);
		json_object_end(j);
		return;
	}
	mp_snprintf(text, sizeof text, "%u.%u", s->major, s->minor);
	json_string(j, "smbios_version", text);
	json_u64(j, "structures", s->structures);
	if (s->stopped[0])
		json_string(j, "table_stopped", s->stopped);
	if (s->bad_strings)
		json_u64(j, "bad_string_references", s->bad_strings);
	json_object_begin(j, "system");
	if (s->have_system) {
		string_or_null(j, "manufacturer", s->sys_manufacturer);
		string_or_null(j, "product", s->sys_product);
		string_or_null(j, "version", s->sys_version);
		string_or_null(j, "serial", s->sys_serial);
		string_or_null(j, "sku", s->sys_sku);
		string_or_null(j, "family", s->sys_family);
		smbios_uuid_text(s, text, sizeof text);
		json_string(j, "uuid", text);
		json_string(j, "uuid_state", s->uuid_state == SMBIOS_UUID_OK ? "set"
			    : s->uuid_state == SMBIOS_UUID_UNSET ? "all zeros (not present)"
			    : s->uuid_state == SMBIOS_UUID_ALL_ONES ? "all ones (not set)"
			    : "absent");
	}
	json_object_end(j);
	json_object_begin(j, "baseboard");
	if (s->have_board) {
		string_or_null(j, "manufacturer", s->board_manufacturer);
		string_or_null(j, "product", s->board_product);
		string_or_null(j, "version", s->board_version);
		string_or_null(j, "serial", s->board_serial);
	}
	json_object_end(j);
	json_u64(j, "memory_installed_bytes", s->mem_total_bytes);
	json_array_begin(j, "memory_devices");
	for (size_t i = 0; i < s->nmem; i++) {
		const struct smbios_memdev *m = &s->mem[i];
		json_object_begin(j, 0);
		json_string(j, "locator", m->locator);
		json_string(j, "bank", m->bank);
		json_bool(j, "installed", m->installed);
		if (m->installed && m->size_known)
			json_u64(j, "size_bytes", m->size_bytes);
		json_string(j, "type", m->type);
		json_u64(j, "speed_mts", m->speed_mts);
		json_u64(j, "configured_speed_mts", m->configured_mts);
		json_string(j, "manufacturer", m->manufacturer);
		json_string(j, "part_number", m->part_number);
		json_string(j, "serial", m->serial);
		json_object_end(j);
	}
	json_array_end(j);
	if (s->mem_dropped)
		json_u64(j, "memory_devices_not_listed", s->mem_dropped);
	json_object_end(j);
}
