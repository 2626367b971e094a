/* The platform's legacy I/O ports, where the architecture has them (x86's
 * in instruction): the ACPI PM timer is read through them. An architecture
 * without port I/O implements it as a read of all ones, and its platform
 * must not rely on it. (The QEMU harness's ports are arch/harness.h's.)
 */
#ifndef MEMPROBE_ARCH_IO_H
#define MEMPROBE_ARCH_IO_H

#include <stdint.h>

uint32_t io_read32(uint16_t port);

#endif
