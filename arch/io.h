/* The platform's legacy I/O ports, where the architecture has them (x86 in
 * and out): the QEMU debug ports and the ACPI PM timer. An architecture
 * without port I/O implements these as no-ops reading all ones, and its
 * platform must not rely on them.
 */
#ifndef MEMPROBE_ARCH_IO_H
#define MEMPROBE_ARCH_IO_H

#include <stdint.h>

void io_write8(uint16_t port, uint8_t value);
uint32_t io_read32(uint16_t port);

#endif
