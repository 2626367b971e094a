/* The card's machine line: what SMBIOS says of the machine, in one line
 * of the card's width.
 */
#ifndef MEMPROBE_RUN_MACHINE_LINE_H
#define MEMPROBE_RUN_MACHINE_LINE_H

#include <stddef.h>
#include "lib/smbios.h"

/* The card's one line, at most width characters: "machine  QEMU Standard
   PC (Q35 + ICH9, 2009), 2 DIMMs 80 GiB DDR4 3200 MT/s" or why there is
   none ("machine  no SMBIOS: ..."). */
void machine_line(const struct smbios_info *s, char *buf, size_t size, size_t width);

#endif
