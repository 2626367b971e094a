/* The card's machine line from the SMBIOS structures the platform read
 * (contract in machine_line.h): the project's wording of a machine, kept
 * out of lib/smbios, which only reads the tables.
 */

#include "lib/fmt.h"
#include "run/machine_line.h"

void machine_line(const struct smbios_info *s, char *buf, size_t size, size_t width)
{
	char text[256], total[24];
	struct mp_text t = { text, sizeof text, 0 };
	size_t installed = 0;
	const struct smbios_memdev *first = 0;
	uint32_t speed = 0;
	int same_speed = 1;

	if (!size)
		return;
	if (!s->present) {
		/* The reason's words before its bracket: the path and the
		   error behind it stay in system.json's machine.smbios_missing. */
		size_t n = 0;

		while (s->why[n] && (s->why[n] != ' ' || s->why[n + 1] != '('))
			n++;
		mp_append(&t, "machine  no SMBIOS: %.*s", (int)n, s->why);
	} else {
		for (size_t i = 0; i < s->nmem; i++) {
			const struct smbios_memdev *m = &s->mem[i];
			uint32_t v = m->configured_mts ? m->configured_mts : m->speed_mts;
			if (!m->installed)
				continue;
			if (!first) {
				first = m;
				speed = v;
			} else if (v != speed) {
				same_speed = 0;
			}
			installed++;
		}
		mp_append(&t, "machine  %s %s",
			  s->sys_manufacturer[0] ? s->sys_manufacturer : "?",
			  s->sys_product[0] ? s->sys_product : "?");
		if (installed) {
			mp_format_bytes(total, sizeof total, s->mem_total_bytes);
			mp_append(&t, ", %zu DIMM%s %s %s", installed, installed == 1 ? "" : "s",
				  total, first->type);
			if (speed && same_speed)
				mp_append(&t, " %u MT/s", (unsigned)speed);
		} else {
			mp_append(&t, ", no memory device listed");
		}
	}
	if (width + 1 < sizeof text && mp_strlen(text) > width)
		text[width] = '\0';
	mp_strlcpy(buf, text, size);
}
