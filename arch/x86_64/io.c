/* arch/io.h for x86-64: the in and out instructions. */

#include "arch/io.h"
#include "arch/x86_64/cpu.h"

void io_write8(uint16_t port, uint8_t value) { outb(port, value); }
uint32_t io_read32(uint16_t port) { return inl(port); }
