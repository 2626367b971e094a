/* End actions and the verdict. */

#include "efi/end.h"
#include "efi/disturb.h"
#include "efi/fw.h"
#include "arch/harness.h"
#include "core/platform.h"

/* A non-volatile variable marks a reboot as memprobe's own: the boot after
   it finds the mark, clears it and returns to the firmware, which moves on
   to its next boot option. Without it a stick left in the machine with
   end=reboot would reboot forever. */
static EFI_GUID memprobe_guid = { 0x6d656d70, 0x726f, 0x6265, { 0x8a, 0x2f, 0x4e, 0x31, 0x0c, 0x5a, 0x77, 0x19 } };
static CHAR16 reboot_mark[] = L"MemprobeRebooted";
#define MARK_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

static int reboot_mark_set(void)
{
	UINT8 one = 1;

	return uefi_call_wrapper(fw_rt->SetVariable, 5, reboot_mark, &memprobe_guid,
				 MARK_ATTRIBUTES, sizeof one, &one) != EFI_SUCCESS;
}

int end_after_own_reboot(void)
{
	UINT8 value;
	UINTN size = sizeof value;

	if (uefi_call_wrapper(fw_rt->GetVariable, 5, reboot_mark, &memprobe_guid, NULL,
			      &size, &value) != EFI_SUCCESS)
		return 0;
	uefi_call_wrapper(fw_rt->SetVariable, 5, reboot_mark, &memprobe_guid, MARK_ATTRIBUTES, 0, NULL);
	plat_console("memprobe: this boot follows memprobe's own reboot (end=reboot): not running "
		     "again; returning to the firmware\n");
	return 1;
}

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
	/* Powering off under QEMU is where a harness waits for the verdict;
	   any other end action chosen under QEMU is carried out as asked. */
	if (fw_under_qemu && action == END_OFF)
		harness_verdict(ok);

	switch (action) {
	case END_OFF:
		plat_console("memprobe: powering off\n");
		uefi_call_wrapper(fw_rt->ResetSystem, 4, EfiResetShutdown, status, 0, NULL);
		break;
	case END_REBOOT:
		if (reboot_mark_set()) {
			plat_console("memprobe: cannot mark the reboot as memprobe's own, so rebooting "
				     "could loop: returning to the firmware instead\n");
			break;
		}
		plat_console("memprobe: rebooting (the next boot of memprobe will not run again)\n");
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
	disturb_release();
	plat_console("memprobe: returning to the firmware\n");
	return status;
}
