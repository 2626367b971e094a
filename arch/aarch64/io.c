/* arch/io.h for AArch64, which has no I/O ports: a read gives all ones,
 * as the header promises. Nothing on this architecture's path uses it:
 * the ACPI PM timer does not exist on Arm (hardware-reduced ACPI), and the
 * harness speaks semihosting (arch/aarch64/harness.c).
 */

#include "arch/io.h"

uint32_t io_read32(uint16_t port)
{
	(void)port;
	return 0xffffffffu;
}
