/* Reading the Secure Boot variables (see secure_boot.h). */

#include "efi/fw.h"
#include "efi/secure_boot.h"

/* ---- Constants -------------------------------------------------------- */

/* EFI_GLOBAL_VARIABLE (UEFI spec, "Globally Defined Variables"). */
static EFI_GUID global_variable_guid = {
	0x8be4df61, 0x93ca, 0x11d2, { 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c }
};

/* ---- Private Functions ------------------------------------------------ */

/* One byte of a global variable; -1 when it is absent or unreadable. */
static int read_byte(CHAR16 *name)
{
	UINT8 value = 0;
	UINTN size = sizeof value;
	EFI_STATUS s = uefi_call_wrapper(fw_rt->GetVariable, 5, name, &global_variable_guid,
					 NULL, &size, &value);

	return s == EFI_SUCCESS && size == 1 ? value : -1;
}

/* ---- Public Functions ------------------------------------------------- */

const struct secure_boot *secure_boot_state(void)
{
	static struct secure_boot sb;
	static int read;
	int secure, setup;

	if (read)
		return &sb;
	secure = read_byte(L"SecureBoot");
	setup = read_byte(L"SetupMode");
	sb.variable_present = secure >= 0;
	sb.secure_boot = secure == 1;
	sb.setup_mode = setup == 1;
	sb.enforced = sb.secure_boot && !sb.setup_mode;
	read = 1;
	return &sb;
}

const char *secure_boot_words(const struct secure_boot *sb)
{
	if (!sb->variable_present)
		return "not supported by this firmware (no SecureBoot variable)";
	if (sb->setup_mode)
		return "off (setup mode: no platform key enrolled)";
	return sb->enforced ? "on" : "off";
}
