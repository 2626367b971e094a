/* The firmware console, and under QEMU the harness's log beside it
 * (arch/harness.h: x86 debugcon, AArch64 semihosting).
 *
 * The firmware console speaks UCS-2 with CR LF line ends and, when mirrored
 * to serial, adds terminal escapes; the harness's log receives the same text
 * byte for byte, so a harness gets a clean log to assert on.
 */

#include "efi/fw.h"
#include "arch/harness.h"
#include "core/platform.h"

/* The firmware's screen returns to a line's start on CR; under QEMU the
   harness's log is a log, and gets whole lines. */
int plat_console_redraws(void)
{
	return !fw_under_qemu;
}

void plat_console(const char *text)
{
	CHAR16 chunk[130];
	size_t n = 0;

	if (fw_under_qemu)
		harness_log(text);
	for (; *text; text++) {
		unsigned char c = (unsigned char)*text;

		if (c == '\n')
			chunk[n++] = L'\r';
		chunk[n++] = (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' || c == '\r' ? c
			     : L'?';
		if (n >= 126) {
			chunk[n] = 0;
			uefi_call_wrapper(fw_st->ConOut->OutputString, 2, fw_st->ConOut, chunk);
			n = 0;
		}
	}
	if (n) {
		chunk[n] = 0;
		uefi_call_wrapper(fw_st->ConOut->OutputString, 2, fw_st->ConOut, chunk);
	}
}
