/* Files from the boot server (see netboot.h). The PXE base code that
 * loaded the app keeps its DHCP answers in its Mode: the boot file's name
 * and the server (BOOTP's file and siaddr fields) come from there, so the
 * file is asked of the same server, by the same NIC, as the app was.
 */

#include <efi.h>
#include <efilib.h>

#include "efi/netboot.h"
#include "efi/fw.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

static EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;
static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID device_path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* TFTP's error code for "file not found" (RFC 1350). */
#define TFTP_FILE_NOT_FOUND 1
#define PATH_MAX_CHARS 160

/* ---- Private Functions ------------------------------------------------ */

/* The PXE base code of the device the app was loaded from: on that handle,
   or on the nearest handle up its device path. NULL when the app was not
   netbooted. */
static EFI_PXE_BASE_CODE_PROTOCOL *boot_pxe(void)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_DEVICE_PATH *dp = NULL;
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;
	EFI_HANDLE h;

	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, fw_image, &loaded_image_guid,
			      (void **)&li) != EFI_SUCCESS || !li)
		return NULL;
	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, li->DeviceHandle, &pxe_guid,
			      (void **)&pxe) == EFI_SUCCESS)
		return pxe;
	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, li->DeviceHandle, &device_path_guid,
			      (void **)&dp) != EFI_SUCCESS || !dp ||
	    uefi_call_wrapper(fw_bs->LocateDevicePath, 3, &pxe_guid, &dp, &h) != EFI_SUCCESS ||
	    uefi_call_wrapper(fw_bs->HandleProtocol, 3, h, &pxe_guid, (void **)&pxe) != EFI_SUCCESS)
		return NULL;
	return pxe;
}

/* The DHCP answer that named the boot file: the DHCP server's, else a
   proxy DHCP server's, else the boot server's reply (PXE's order). */
static const EFI_PXE_BASE_CODE_DHCPV4_PACKET *boot_answer(const EFI_PXE_BASE_CODE_MODE *m)
{
	const struct { BOOLEAN got; const EFI_PXE_BASE_CODE_PACKET *p; } answers[] = {
		{ m->DhcpAckReceived, &m->DhcpAck },
		{ m->ProxyOfferReceived, &m->ProxyOffer },
		{ m->PxeReplyReceived, &m->PxeReply },
	};

	for (size_t i = 0; i < sizeof answers / sizeof *answers; i++)
		if (answers[i].got && answers[i].p->Dhcpv4.BootpBootFile[0])
			return &answers[i].p->Dhcpv4;
	return NULL;
}

/* The boot file's folder ("" or "pxe/") followed by name. The field is not
   always terminated: at most its 128 bytes are read. */
static void path_beside(const UINT8 *boot_file, const char *name, char *path, size_t size)
{
	size_t dir = 0, n = 0;

	while (n < 128 && boot_file[n]) {
		if (boot_file[n] == '/' || boot_file[n] == '\\')
			dir = n + 1;
		n++;
	}
	if (dir >= size)
		dir = size - 1;
	mp_memcpy(path, boot_file, dir);
	mp_strlcpy(path + dir, name, size - dir);
}

/* ---- Public Functions ------------------------------------------------- */

enum netboot_read_result netboot_read(const char *name, char *buf, size_t max, size_t *len,
				      struct netboot_where *w)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = boot_pxe();
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *answer;
	static char path[PATH_MAX_CHARS];
	EFI_IP_ADDRESS server;
	UINT64 size = max;
	EFI_STATUS s;

	w->url[0] = w->why[0] = '\0';
	if (!pxe || !pxe->Mode) {
		mp_strlcpy(w->why, "the app was not netbooted (no PXE base code on its boot device)",
			   sizeof w->why);
		return NETBOOT_NO_SERVER;
	}
	if (!pxe->Mode->Started || pxe->Mode->UsingIpv6) {
		mp_strlcpy(w->why, pxe->Mode->Started ? "the PXE boot was over IPv6 (only IPv4 is "
			   "read here)" : "the PXE base code is stopped", sizeof w->why);
		return NETBOOT_NO_SERVER;
	}
	answer = boot_answer(pxe->Mode);
	if (!answer) {
		mp_strlcpy(w->why, "no DHCP answer named a boot file", sizeof w->why);
		return NETBOOT_NO_SERVER;
	}
	mp_memset(&server, 0, sizeof server);
	mp_memcpy(server.v4.Addr, answer->BootpSiAddr, 4);
	path_beside(answer->BootpBootFile, name, path, sizeof path);
	mp_snprintf(w->url, sizeof w->url, "tftp://%u.%u.%u.%u/%s", server.v4.Addr[0],
		    server.v4.Addr[1], server.v4.Addr[2], server.v4.Addr[3], path);
	s = uefi_call_wrapper(pxe->Mtftp, 10, pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, FALSE,
			      &size, NULL, &server, (UINT8 *)path, NULL, FALSE);
	if (s == EFI_SUCCESS) {
		*len = (size_t)size;
		return NETBOOT_READ_OK;
	}
	if (s == EFI_NOT_FOUND || (s == EFI_TFTP_ERROR && pxe->Mode->TftpErrorReceived &&
				   pxe->Mode->TftpError.ErrorCode == TFTP_FILE_NOT_FOUND)) {
		mp_strlcpy(w->why, "the server has no such file", sizeof w->why);
		return NETBOOT_NOT_FOUND;
	}
	/* Debian's OVMF (2022.11) answers a TFTP error packet with
	   EFI_TFTP_ERROR and keeps no copy of it in the Mode, so "not found"
	   cannot be told from a refusal: taken as no file, and said so. */
	if (s == EFI_TFTP_ERROR && !pxe->Mode->TftpErrorReceived) {
		mp_strlcpy(w->why, "the server answered with a TFTP error, which the firmware did not "
			   "keep: taken as no such file", sizeof w->why);
		return NETBOOT_NOT_FOUND;
	}
	if (s == EFI_BUFFER_TOO_SMALL)
		mp_snprintf(w->why, sizeof w->why, "longer than %llu bytes", (unsigned long long)max);
	else if (s == EFI_TFTP_ERROR && pxe->Mode->TftpErrorReceived)
		mp_snprintf(w->why, sizeof w->why, "TFTP error %u: %.100s",
			    pxe->Mode->TftpError.ErrorCode, pxe->Mode->TftpError.ErrorString);
	else
		mp_snprintf(w->why, sizeof w->why, "TFTP read: %s (0x%llx)", fw_status_text(s),
			    (unsigned long long)s);
	return NETBOOT_READ_FAILED;
}
