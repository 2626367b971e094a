/* End actions and the verdict. */

#include "efi/end.h"
#include "efi/fw.h"
#include "arch/x86_64/cpu.h"
#include "probes/platform.h"

#define DEBUG_EXIT_PORT 0xf4
#define VERDICT_SUCCESS 0x10
#define VERDICT_FAILURE 0x11

static void wait_for_key(void)
{
	UINTN index;
	EFI_INPUT_KEY key;

	plat_console("memprobe: press any key to return to the firmware\n");
	uefi_call_wrapper(fw_st->ConIn->Reset, 2, fw_st->ConIn, FALSE);
	uefi_call_wrapper(fw_bs->WaitForEvent, 3, 1, &fw_st->ConIn->WaitForKey, &index);
	uefi_call_wrapper(fw_st->ConIn->ReadKeyStroke, 2, fw_st->ConIn, &key);
}

EFI_STATUS end_run(enum end_action action, int ok)
{
	EFI_STATUS status = ok ? EFI_SUCCESS : EFI_ABORTED;

	plat_console(ok ? "memprobe: verdict: success\n" : "memprobe: verdict: FAILURE\n");
	if (action == END_DEFAULT)
		action = fw_under_qemu ? END_OFF : END_WAIT;
	if (fw_under_qemu)
		outb(DEBUG_EXIT_PORT, ok ? VERDICT_SUCCESS : VERDICT_FAILURE);

	switch (action) {
	case END_OFF:
		plat_console("memprobe: powering off\n");
		uefi_call_wrapper(fw_rt->ResetSystem, 4, EfiResetShutdown, status, 0, NULL);
		break;
	case END_REBOOT:
		plat_console("memprobe: rebooting\n");
		uefi_call_wrapper(fw_rt->ResetSystem, 4, EfiResetCold, status, 0, NULL);
		break;
	case END_WAIT:
		wait_for_key();
		break;
	case END_RETURN:
		break;
	}
	/* ResetSystem does not return; reaching here means return was chosen or
	   the reset failed, and returning is the one way left that never hangs. */
	plat_console("memprobe: returning to the firmware\n");
	return status;
}
