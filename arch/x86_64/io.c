/* arch/io.h for x86-64: the in instruction. */

#include "arch/io.h"
#include "arch/x86_64/cpu.h"

uint32_t io_read32(uint16_t port) { return inl(port); }
