/* upload.url on bare metal: EFI_HTTP_PROTOCOL through the HTTP service
 * binding of the NIC that booted the app (else the first NIC that has
 * one), its IPv4 address from DHCP through EFI_IP4_CONFIG2_PROTOCOL.
 *
 * The HTTP protocol's types are written here from the UEFI specification
 * (2.x, "EFI HTTP Protocol"): gnu-efi has no header for them. Where the
 * firmware has no HTTP stack, or it refuses the request, that is said
 * plainly at start-up and the run goes on with the volume and the console.
 * docs/BUILD.md, "Results over the network", says what Debian's OVMF does.
 */

#include <efi.h>
#include <efilib.h>

#include "efi/files.h"
#include "efi/fw.h"
#include "lib/fmt.h"
#include "lib/url.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

static EFI_GUID http_sb_guid = { 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } };
static EFI_GUID http_guid = { 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } };
static EFI_GUID ip4_config2_guid = { 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } };
static EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;
static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID device_path_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

#define DHCP_WAIT_MS 20000
#define HTTP_WAIT_MS 15000
/* The read-back buffer: one byte more than the largest file, as
   files_read_named needs to tell a whole file from a longer one. The
   largest is the in-memory bound, so every file held can be sent. */
#define READ_MAX (FILES_MEMORY_FILE_MAX + 1)
/* The status a response token ends with for a 4xx or 5xx answer. */
#define HTTP_ERROR_STATUS EFIERR(35)

/* ---- The specification's types ---------------------------------------- */

enum { HTTP_V10, HTTP_V11 };
enum { HTTP_GET, HTTP_POST, HTTP_PATCH, HTTP_OPTIONS, HTTP_CONNECT, HTTP_HEAD, HTTP_PUT };

struct http_v4_node {
	BOOLEAN use_default_address;
	EFI_IPv4_ADDRESS local_address, local_subnet;
	UINT16 local_port;
};

struct http_config {
	UINT32 version;           /* enum: HTTP_V11 */
	UINT32 timeout_ms;
	BOOLEAN local_is_ipv6;
	void *node;               /* struct http_v4_node * */
};

struct http_request { UINT32 method; CHAR16 *url; };
struct http_response { UINT32 status; };   /* EFI_HTTP_STATUS_CODE */
struct http_header { CHAR8 *name, *value; };

struct http_message {
	void *data;               /* struct http_request * or struct http_response * */
	UINTN header_count;
	struct http_header *headers;
	UINTN body_length;
	void *body;
};

struct http_token {
	EFI_EVENT event;
	EFI_STATUS status;
	struct http_message *message;
};

struct http_protocol {
	EFI_STATUS (EFIAPI *get_mode_data)(struct http_protocol *, struct http_config *);
	EFI_STATUS (EFIAPI *configure)(struct http_protocol *, struct http_config *);
	EFI_STATUS (EFIAPI *request)(struct http_protocol *, struct http_token *);
	EFI_STATUS (EFIAPI *cancel)(struct http_protocol *, struct http_token *);
	EFI_STATUS (EFIAPI *response)(struct http_protocol *, struct http_token *);
	EFI_STATUS (EFIAPI *poll)(struct http_protocol *);
};

/* EFI_IP4_CONFIG2_PROTOCOL: only what is used. */
enum { IP4C2_INTERFACE_INFO, IP4C2_POLICY };
enum { IP4C2_POLICY_STATIC, IP4C2_POLICY_DHCP };
struct ip4_config2 {
	EFI_STATUS (EFIAPI *set_data)(struct ip4_config2 *, UINT32, UINTN, void *);
	EFI_STATUS (EFIAPI *get_data)(struct ip4_config2 *, UINT32, UINTN *, void *);
	void *register_notify, *unregister_notify;
};
struct ip4_interface_info {
	CHAR16 name[32];
	UINT8 if_type;
	UINT32 hw_address_size;
	EFI_MAC_ADDRESS hw_address;
	EFI_IPv4_ADDRESS station, subnet;
	UINT32 route_table_size;
	void *route_table;
};

/* EFI_HTTP_STATUS_CODE's 2xx members: 200 OK is 3 ... 206 is 9. */
static const unsigned status_numbers[] = {
	0, 100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307,
	400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416,
	417, 500, 501, 502, 503, 504, 505, 308, 429,
};

/* ---- Private Data ----------------------------------------------------- */

static EFI_HANDLE nic;
static EFI_SERVICE_BINDING *http_sb;
static int dhcp_waited;         /* a request got past EFI_NO_MAPPING once */

/* ---- Private Functions ------------------------------------------------ */

static unsigned status_number(UINT32 code)
{
	return code < sizeof status_numbers / sizeof *status_numbers ? status_numbers[code] : 0;
}

/* The NIC handle with an HTTP service binding: the one nearest the boot
   device's path, else the first; with none, the NICs' controllers are
   connected (OVMF connects only the boot order's devices) and the search
   is made once more. */
static int find_nic(char *why, size_t size)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_DEVICE_PATH *dp = NULL;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	for (int pass = 0; pass < 2; pass++) {
		if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, fw_image, &loaded_image_guid,
				      (void **)&li) == EFI_SUCCESS && li &&
		    uefi_call_wrapper(fw_bs->HandleProtocol, 3, li->DeviceHandle, &device_path_guid,
				      (void **)&dp) == EFI_SUCCESS && dp &&
		    uefi_call_wrapper(fw_bs->LocateDevicePath, 3, &http_sb_guid, &dp, &nic) ==
		    EFI_SUCCESS)
			break;
		nic = NULL;
		if (uefi_call_wrapper(fw_bs->LocateHandleBuffer, 5, ByProtocol, &http_sb_guid, NULL,
				      &count, &handles) == EFI_SUCCESS && count) {
			nic = handles[0];
			uefi_call_wrapper(fw_bs->FreePool, 1, handles);
			break;
		}
		if (pass == 0 && uefi_call_wrapper(fw_bs->LocateHandleBuffer, 5, ByProtocol, &snp_guid,
						   NULL, &count, &handles) == EFI_SUCCESS) {
			for (UINTN i = 0; i < count; i++)
				uefi_call_wrapper(fw_bs->ConnectController, 4, handles[i], NULL, NULL, TRUE);
			uefi_call_wrapper(fw_bs->FreePool, 1, handles);
		}
	}
	if (!nic) {
		mp_snprintf(why, size, "the firmware has no HTTP service binding on any NIC (no HttpDxe, "
			    "or no NIC)");
		return -1;
	}
	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, nic, &http_sb_guid, (void **)&http_sb) !=
	    EFI_SUCCESS) {
		mp_snprintf(why, size, "the NIC's HTTP service binding cannot be opened");
		return -1;
	}
	return 0;
}

/* DHCP for the NIC through Ip4Config2: OVMF's policy is static (no
   address) until asked; a PXE boot's DHCP is the PXE driver's own and
   leaves it so. The address itself is waited for by retrying HTTP's
   Configure while it says EFI_NO_MAPPING (http_send): Ip4Config2's
   interface info was seen to stay 0.0.0.0 here while TCP already had
   the address. */
static int dhcp_on(char *why, size_t size)
{
	struct ip4_config2 *cfg;
	UINT32 policy = IP4C2_POLICY_DHCP, was = 99;
	UINTN n = sizeof was;
	EFI_STATUS s;

	if (uefi_call_wrapper(fw_bs->HandleProtocol, 3, nic, &ip4_config2_guid, (void **)&cfg) !=
	    EFI_SUCCESS) {
		mp_snprintf(why, size, "the NIC has no EFI_IP4_CONFIG2_PROTOCOL");
		return -1;
	}
	if (uefi_call_wrapper(cfg->get_data, 4, cfg, IP4C2_POLICY, &n, &was) == EFI_SUCCESS &&
	    was == IP4C2_POLICY_DHCP)
		return 0;
	s = uefi_call_wrapper(cfg->set_data, 4, cfg, IP4C2_POLICY, sizeof policy, &policy);
	if (s != EFI_SUCCESS) {
		mp_snprintf(why, size, "Ip4Config2 refused the DHCP policy: %s", fw_status_text(s));
		return -1;
	}
	return 0;
}

static void EFIAPI flag_set(EFI_EVENT e, void *ctx)
{
	(void)e;
	*(volatile int *)ctx = 1;
}

/* Runs one token to its end: the call, then Poll until its event is
   signalled or the wait runs out (then it is cancelled). */
static EFI_STATUS run_token(struct http_protocol *h, int response, struct http_token *t)
{
	volatile int done = 0;
	EFI_EVENT deadline;
	EFI_STATUS s;

	s = uefi_call_wrapper(fw_bs->CreateEvent, 5, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, flag_set,
			      (void *)&done, &t->event);
	if (s != EFI_SUCCESS)
		return s;
	/* The wait is the firmware's timer's, in 100 ns units: Poll itself
	   is slow under an emulator, so counting loops would not bound it. */
	s = uefi_call_wrapper(fw_bs->CreateEvent, 5, EVT_TIMER, 0, NULL, NULL, &deadline);
	if (s != EFI_SUCCESS) {
		uefi_call_wrapper(fw_bs->CloseEvent, 1, t->event);
		return s;
	}
	uefi_call_wrapper(fw_bs->SetTimer, 3, deadline, TimerRelative, (UINT64)HTTP_WAIT_MS * 10000);
	t->status = EFI_NOT_READY;
	if (response)
		s = uefi_call_wrapper(h->response, 2, h, t);
	else
		s = uefi_call_wrapper(h->request, 2, h, t);
	while (s == EFI_SUCCESS && !done) {
		uefi_call_wrapper(h->poll, 1, h);
		if (!done && uefi_call_wrapper(fw_bs->CheckEvent, 1, deadline) == EFI_SUCCESS) {
			uefi_call_wrapper(h->cancel, 2, h, t);
			s = EFI_TIMEOUT;
		}
	}
	uefi_call_wrapper(fw_bs->CloseEvent, 1, deadline);
	uefi_call_wrapper(fw_bs->CloseEvent, 1, t->event);
	return s == EFI_SUCCESS ? t->status : s;
}

/* One request on a fresh child: 0 and the HTTP status, or -1 with why. */
static int http_send(UINT32 method, const char *url, const char *host, void *body, UINTN len,
		     unsigned *status, char *why, size_t size)
{
	static CHAR16 url16[512];
	static char length[24];
	struct http_v4_node node = { TRUE, { { 0 } }, { { 0 } }, 0 };
	struct http_config config = { HTTP_V11, HTTP_WAIT_MS, FALSE, &node };
	struct http_header headers[3] = {
		{ (CHAR8 *)"Host", (CHAR8 *)host },
		{ (CHAR8 *)"Content-Length", (CHAR8 *)length },
		{ (CHAR8 *)"Content-Type", (CHAR8 *)"application/octet-stream" },
	};
	struct http_request req = { method, url16 };
	struct http_response resp = { 0 };
	struct http_message msg = { &req, 3, headers, len, body };
	/* No body buffer: with one, HttpDxe waits for a body that a 201 with
	   no content never sends, and the response times out. */
	struct http_message answer = { &resp, 0, NULL, 0, NULL };
	struct http_token t = { 0 };
	struct http_protocol *h = NULL;
	EFI_HANDLE child = NULL;
	EFI_STATUS s;
	size_t i;
	int rc = -1;

	for (i = 0; url[i] && i + 1 < sizeof url16 / sizeof *url16; i++)
		url16[i] = (CHAR16)url[i];
	url16[i] = 0;
	mp_snprintf(length, sizeof length, "%llu", (unsigned long long)len);
	s = uefi_call_wrapper(http_sb->CreateChild, 2, http_sb, &child);
	if (s != EFI_SUCCESS) {
		mp_snprintf(why, size, "HTTP CreateChild: %s", fw_status_text(s));
		return -1;
	}
	s = uefi_call_wrapper(fw_bs->HandleProtocol, 3, child, &http_guid, (void **)&h);
	for (unsigned waited = 0; s == EFI_SUCCESS; waited += 100) {
		s = uefi_call_wrapper(h->configure, 2, h, &config);
		if (s != EFI_NO_MAPPING || waited >= DHCP_WAIT_MS)
			break;
		uefi_call_wrapper(fw_bs->Stall, 1, 100000);
		s = EFI_SUCCESS;
	}
	if (s != EFI_SUCCESS) {
		mp_snprintf(why, size, "HTTP Configure: %s%s", fw_status_text(s),
			    s == EFI_NO_MAPPING ? " (no IPv4 address from DHCP)" : "");
		goto out;
	}
	t.message = &msg;
	s = run_token(h, 0, &t);
	if (s == EFI_NO_MAPPING) {
		/* DHCP not done: the caller waits and asks a fresh child. */
		mp_snprintf(why, size, "HTTP Request: EFI_NO_MAPPING (no IPv4 address from DHCP)");
		rc = -2;
		goto out;
	}
	if (s != EFI_SUCCESS) {
		mp_snprintf(why, size, "HTTP Request (%s): %s (0x%llx)", method == HTTP_PUT ? "PUT" : "other",
			    fw_status_text(s), (unsigned long long)s);
		goto out;
	}
	t.message = &answer;
	s = run_token(h, 1, &t);
	if (s != EFI_SUCCESS && s != HTTP_ERROR_STATUS) {
		mp_snprintf(why, size, "HTTP Response: %s (0x%llx)", fw_status_text(s), (unsigned long long)s);
		goto out;
	}
	*status = status_number(resp.status);
	mp_snprintf(why, size, "HTTP status %u", *status);
	rc = 0;
	if (answer.headers)
		uefi_call_wrapper(fw_bs->FreePool, 1, answer.headers);
out:
	uefi_call_wrapper(http_sb->DestroyChild, 2, http_sb, child);
	return rc;
}

/* ---- Public Functions ------------------------------------------------- */

int plat_upload_open(const char *url, char *why, size_t why_size)
{
	char text[160];

	if (!files_held()) {
		mp_snprintf(why, why_size, "no run folder to send from (%s)", plat_run_folder());
		return -1;
	}
	if (find_nic(text, sizeof text) != 0) {
		mp_snprintf(why, why_size, "upload.url %s: %s", url, text);
		return -1;
	}
	if (dhcp_on(text, sizeof text) != 0) {
		mp_snprintf(why, why_size, "upload.url %s: %s", url, text);
		return -1;
	}
	return 0;
}

/* The run folder's number ("run-NNNN" in plat_run_folder's text), or "0"
   where the files are held in memory. */
static void run_number(char *buf, size_t size)
{
	const char *at = plat_run_folder();
	size_t n = 0;

	for (; *at; at++)
		if (at[0] == 'r' && at[1] == 'u' && at[2] == 'n' && at[3] == '-' &&
		    at[4] >= '0' && at[4] <= '9')
			break;
	for (at += *at ? 4 : 0; n + 1 < size && *at >= '0' && *at <= '9'; at++)
		buf[n++] = *at;
	if (!n && size > 1)
		buf[n++] = '0';
	buf[n] = 0;
}

/* run-<firmware time>-<run folder's number>-<8 hex digits>: the firmware's
   clock has one-second resolution and is often unset, or the same on every
   machine of a batch booted together, so the folder's number and the cycle
   counter's low bits at this moment (which differ from boot to boot) keep
   two runs' server folders apart. */
void plat_upload_run_name(char *buf, size_t size)
{
	uint64_t ticks = plat_ticks();
	uint32_t mixed = (uint32_t)(ticks ^ ticks >> 32) * 2654435761u;
	char stamp[32] = "run", number[8];
	EFI_TIME t;

	if (uefi_call_wrapper(fw_rt->GetTime, 2, &t, NULL) == EFI_SUCCESS)
		mp_snprintf(stamp, sizeof stamp, "run-%04u%02u%02uT%02u%02u%02u", t.Year, t.Month,
			    t.Day, t.Hour, t.Minute, t.Second);
	run_number(number, sizeof number);
	mp_snprintf(buf, size, "%s-%s-%08x", stamp, number, (unsigned)mixed);
}

int plat_upload_put(const char *file_url, const char *name, char *why, size_t why_size)
{
	static char *buf;
	struct url u;
	char host[URL_HOST_MAX + 8];
	unsigned status = 0;
	long len;

	if (url_parse(file_url, &u, why, why_size) != 0)
		return -1;
	if (!buf && uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, READ_MAX,
				      (void **)&buf) != EFI_SUCCESS) {
		buf = NULL;
		mp_strlcpy(why, "no memory for the file's copy", why_size);
		return -1;
	}
	len = files_read_named(name, buf, READ_MAX);
	if (len == -2)
		return 1;
	if (len < 0) {
		mp_snprintf(why, why_size, "reading %s back failed (or it is over %u MiB)", name,
			    FILES_MEMORY_FILE_MAX >> 20);
		return -1;
	}
	mp_snprintf(host, sizeof host, "%s:%u", u.host, u.port);
	/* Until the first DHCP answer the stack has no address: wait for it
	   once, bounded, then take what comes. */
	for (unsigned waited = 0;; waited += 250) {
		int rc = http_send(HTTP_PUT, file_url, host, buf, (UINTN)len, &status, why, why_size);
		if (rc == 0)
			break;
		if (rc != -2 || waited >= DHCP_WAIT_MS || dhcp_waited)
			return -1;
		uefi_call_wrapper(fw_bs->Stall, 1, 250000);
	}
	dhcp_waited = 1;
	if (status >= 200 && status < 300)
		return 0;
	mp_snprintf(why, why_size, "PUT %s: HTTP status %u", u.path, status);
	return -1;
}
