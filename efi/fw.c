/* Firmware globals and small conversions. */

#include "efi/fw.h"
#include "lib/fmt.h"

EFI_SYSTEM_TABLE *fw_st;
EFI_BOOT_SERVICES *fw_bs;
EFI_RUNTIME_SERVICES *fw_rt;
EFI_HANDLE fw_image;
int fw_under_qemu;
struct cpuinfo fw_cpu;

static int vendor_is_edk2(void)
{
	char vendor[64];

	fw_ascii(vendor, sizeof vendor, fw_st->FirmwareVendor);
	return mp_strncmp(vendor, "EDK II", 6) == 0;
}

void fw_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	fw_image = image;
	fw_st = st;
	fw_bs = st->BootServices;
	fw_rt = st->RuntimeServices;
	/* The firmware's watchdog resets the machine after five minutes of a
	   boot application; a full sweep runs longer than that. */
	uefi_call_wrapper(fw_bs->SetWatchdogTimer, 4, 0, 0, 0, NULL);

	cpuinfo_read(&fw_cpu);
	fw_under_qemu = vendor_is_edk2() &&
		(mp_strcmp(fw_cpu.hypervisor_id, "TCGTCGTCGTCG") == 0 ||
		 mp_strncmp(fw_cpu.hypervisor_id, "KVMKVMKVM", 9) == 0);
}

void fw_ascii(char *dst, size_t size, const CHAR16 *src)
{
	size_t i = 0;

	if (!size)
		return;
	for (; src && src[i] && i + 1 < size; i++)
		dst[i] = (src[i] >= 0x20 && src[i] < 0x7f) ? (char)src[i] : '?';
	dst[i] = 0;
}

const char *fw_status_text(EFI_STATUS s)
{
	switch (s) {
	case EFI_SUCCESS:           return "EFI_SUCCESS";
	case EFI_LOAD_ERROR:        return "EFI_LOAD_ERROR";
	case EFI_INVALID_PARAMETER: return "EFI_INVALID_PARAMETER";
	case EFI_UNSUPPORTED:       return "EFI_UNSUPPORTED";
	case EFI_BUFFER_TOO_SMALL:  return "EFI_BUFFER_TOO_SMALL";
	case EFI_NOT_READY:         return "EFI_NOT_READY";
	case EFI_DEVICE_ERROR:      return "EFI_DEVICE_ERROR";
	case EFI_WRITE_PROTECTED:   return "EFI_WRITE_PROTECTED (read-only volume)";
	case EFI_OUT_OF_RESOURCES:  return "EFI_OUT_OF_RESOURCES";
	case EFI_VOLUME_CORRUPTED:  return "EFI_VOLUME_CORRUPTED";
	case EFI_VOLUME_FULL:       return "EFI_VOLUME_FULL (no space left)";
	case EFI_NO_MEDIA:          return "EFI_NO_MEDIA";
	case EFI_NOT_FOUND:         return "EFI_NOT_FOUND";
	case EFI_ACCESS_DENIED:     return "EFI_ACCESS_DENIED";
	case EFI_ALREADY_STARTED:   return "EFI_ALREADY_STARTED";
	case EFI_TIMEOUT:           return "EFI_TIMEOUT";
	case EFI_NO_MAPPING:        return "EFI_NO_MAPPING";
	case EFI_ABORTED:           return "EFI_ABORTED";
	case EFIERR(35):            return "EFI_HTTP_ERROR";
	case EFIERR(100):           return "EFI_NETWORK_UNREACHABLE";
	case EFIERR(101):           return "EFI_HOST_UNREACHABLE";
	case EFIERR(104):           return "EFI_CONNECTION_FIN";
	case EFIERR(105):           return "EFI_CONNECTION_RESET";
	case EFIERR(106):           return "EFI_CONNECTION_REFUSED";
	default:                    return "an unexpected EFI status";
	}
}
