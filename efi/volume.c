/* Boot volume access through the loaded image's device. */

#include "efi/volume.h"
#include "efi/fw.h"
#include "lib/fmt.h"

#define PATH_MAX_CHARS 256
#define OPTIONS_MAX 2048

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID file_system_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

static EFI_FILE_HANDLE root;
static char error[160];
static char app_dir[PATH_MAX_CHARS];
static char options[OPTIONS_MAX];

const char *volume_error(void) { return error; }
EFI_FILE_HANDLE volume_root(void) { return root; }
const char *volume_app_dir(void) { return app_dir; }
const char *volume_load_options(void) { return options; }

void volume_wide(CHAR16 *dst, size_t count, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < count; i++)
		dst[i] = (unsigned char)src[i];
	dst[i] = 0;
}

/* The file path nodes of the image's device path, joined, minus the last
   component: the folder the app was loaded from. */
static void learn_app_dir(EFI_DEVICE_PATH *node)
{
	size_t n = 0, last_sep = 0;

	for (; node && !IsDevicePathEnd(node); node = NextDevicePathNode(node)) {
		if (DevicePathType(node) != MEDIA_DEVICE_PATH ||
		    DevicePathSubType(node) != MEDIA_FILEPATH_DP)
			continue;
		const CHAR16 *name = ((FILEPATH_DEVICE_PATH *)node)->PathName;
		if (n && app_dir[n - 1] != '\\' && name[0] != '\\' && n + 1 < PATH_MAX_CHARS)
			app_dir[n++] = '\\';
		for (; *name && n + 1 < PATH_MAX_CHARS; name++)
			app_dir[n++] = *name == '/' ? '\\' : (char)*name;
	}
	for (size_t i = 0; i < n; i++)
		if (app_dir[i] == '\\')
			last_sep = i;
	app_dir[last_sep] = 0;
	if (!app_dir[0])
		mp_strlcpy(app_dir, "\\", sizeof app_dir);
}

/* A shell passes the command line, image path first; firmware boot entries
   may pass binary data. Only printable UCS-2 text counts as options. */
static void learn_options(const EFI_LOADED_IMAGE *li)
{
	const CHAR16 *w = li->LoadOptions;
	size_t chars = li->LoadOptionsSize / sizeof(CHAR16), n = 0, i = 0;

	options[0] = 0;
	if (!w || !chars)
		return;
	for (size_t k = 0; k < chars && w[k]; k++)
		if (w[k] < 0x20 || w[k] > 0x7e)
			if (w[k] != '\t')
				return;
	/* The shell's argv[0] is the image path; a boot entry's options may
	   start with a key directly. A first word without '=' is the path. */
	while (i < chars && w[i] == ' ')
		i++;
	size_t word = i;
	int has_equals = 0;
	while (word < chars && w[word] && w[word] != ' ')
		has_equals |= w[word++] == '=';
	if (!has_equals)
		i = word;
	while (i < chars && w[i] == ' ')
		i++;
	for (; i < chars && w[i] && n + 1 < OPTIONS_MAX; i++)
		options[n++] = (char)w[i];
	options[n] = 0;
}

int volume_open(void)
{
	EFI_LOADED_IMAGE *li;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_STATUS s;

	s = uefi_call_wrapper(fw_bs->HandleProtocol, 3, fw_image, &loaded_image_guid, (void **)&li);
	if (s != EFI_SUCCESS) {
		mp_snprintf(error, sizeof error, "no loaded-image protocol: %s", fw_status_text(s));
		return -1;
	}
	learn_app_dir(li->FilePath);
	learn_options(li);
	s = uefi_call_wrapper(fw_bs->HandleProtocol, 3, li->DeviceHandle, &file_system_guid, (void **)&fs);
	if (s != EFI_SUCCESS) {
		mp_snprintf(error, sizeof error, "the boot device has no file system: %s", fw_status_text(s));
		return -1;
	}
	s = uefi_call_wrapper(fs->OpenVolume, 2, fs, &root);
	if (s != EFI_SUCCESS) {
		mp_snprintf(error, sizeof error, "cannot open the boot volume: %s", fw_status_text(s));
		root = NULL;
		return -1;
	}
	return 0;
}

int volume_read(const CHAR16 *path, char *buf, size_t max, size_t *len)
{
	EFI_FILE_HANDLE f;
	UINTN size = max;
	EFI_STATUS s;

	if (!root)
		return -1;
	s = uefi_call_wrapper(root->Open, 5, root, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);
	if (s == EFI_NOT_FOUND)
		return 1;
	if (s != EFI_SUCCESS) {
		mp_snprintf(error, sizeof error, "cannot open: %s", fw_status_text(s));
		return -1;
	}
	s = uefi_call_wrapper(f->Read, 3, f, &size, buf);
	if (s == EFI_SUCCESS && size == max) {
		char extra;
		UINTN one = 1;
		if (uefi_call_wrapper(f->Read, 3, f, &one, &extra) == EFI_SUCCESS && one) {
			uefi_call_wrapper(f->Close, 1, f);
			mp_snprintf(error, sizeof error, "longer than %llu bytes", (unsigned long long)max);
			return -1;
		}
	}
	uefi_call_wrapper(f->Close, 1, f);
	if (s != EFI_SUCCESS) {
		mp_snprintf(error, sizeof error, "cannot read: %s", fw_status_text(s));
		return -1;
	}
	*len = size;
	return 0;
}
