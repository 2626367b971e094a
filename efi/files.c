/* The run folder on the boot volume: \memprobe\run-NNNN, a new number each
 * run, created before anything is written so an earlier run is never
 * touched. When the volume is read-only or full, the run carries on, on the
 * console, and says once, plainly, that files were not (all) written.
 * With no volume at all (a netbooted machine) and upload.url set, the run
 * folder is kept in memory instead (lib/memfs.c, from the firmware's
 * pool), bounded, for the upload.
 */

#include "efi/files.h"
#include "efi/fw.h"
#include "efi/volume.h"
#include "lib/fmt.h"
#include "lib/memfs.h"
#include "core/platform.h"
#include "results/results.h"
#include "results/upload.h"

#define MAX_FILES 8
#define MAX_RUNS 9999

static EFI_FILE_HANDLE run_dir;
static EFI_FILE_HANDLE files[MAX_FILES];
/* Bytes written whole to each file so far. */
static UINT64 written[MAX_FILES];
static char folder[200];
/* Each open file's name, for upload.url once it is closed. */
static char names[MAX_FILES][64];
static int write_failure_reported;
/* No volume: every plat_file_* works on the files held in memory, whose
   handles are the store's own. */
static int in_memory;

/* The held files' memory: the firmware's pool, NULL when it has none. */
static void *pool_alloc(size_t bytes)
{
	void *p;

	if (uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, bytes, &p) != EFI_SUCCESS)
		return NULL;
	return p;
}

static void pool_free(void *p)
{
	uefi_call_wrapper(fw_bs->FreePool, 1, p);
}

static struct memfs_file held[FILES_MEMORY_COUNT];
static struct memfs store = { held, FILES_MEMORY_COUNT, FILES_MEMORY_FILE_MAX,
			      FILES_MEMORY_TOTAL_MAX, 0, pool_alloc, pool_free };

const char *plat_run_folder(void) { return folder; }

/* In memory, the files are saved only once the server has them: a run
   whose uploads failed lost its results, and its verdict says so. */
int plat_files_complete(void)
{
	if (in_memory)
		return !write_failure_reported && upload_delivered();
	return run_dir && !write_failure_reported;
}

static EFI_STATUS open_dir(EFI_FILE_HANDLE parent, const char *name, int create,
			   EFI_FILE_HANDLE *out)
{
	CHAR16 wide[32];
	UINT64 mode = EFI_FILE_MODE_READ | (create ? EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE : 0);

	volume_wide(wide, 32, name);
	return uefi_call_wrapper(parent->Open, 5, parent, out, wide, mode,
				 create ? EFI_FILE_DIRECTORY : 0);
}

static void no_files(const char *why, EFI_STATUS s)
{
	mp_snprintf(folder, sizeof folder, "none: %s%s%s: no result file is written, "
		    "results are on the console only", why, s ? ": " : "", s ? fw_status_text(s) : "");
	plat_console("memprobe: ");
	plat_console(folder);
	plat_console("\n");
}

/* The volume's free room, from EFI_FILE_SYSTEM_INFO; UINT64_MAX when the
   firmware will not say. */
static uint64_t volume_room(void)
{
	static EFI_GUID fs_info = EFI_FILE_SYSTEM_INFO_ID;
	static UINT8 info[sizeof(EFI_FILE_SYSTEM_INFO) + 512] __attribute__((aligned(8)));
	UINTN size = sizeof info;

	if (uefi_call_wrapper(volume_root()->GetInfo, 4, volume_root(), &fs_info, &size,
			      info) != EFI_SUCCESS)
		return UINT64_MAX;
	return ((EFI_FILE_SYSTEM_INFO *)info)->FreeSpace;
}

/* The volume's free room, said when it is less than a run's files take. */
static void say_room(uint64_t run_bytes)
{
	uint64_t room = volume_room();

	if (room < run_bytes && room != UINT64_MAX)
		report_printf("memprobe: the boot volume has %llu KiB free, and this run's files "
			      "take about %llu KiB: a file that does not fit is named when it is "
			      "cut\n", (unsigned long long)(room / 1024),
			      (unsigned long long)(run_bytes / 1024));
}

uint64_t plat_files_room(void)
{
	if (in_memory)
		return store.total < store.total_max ? store.total_max - store.total : 0;
	return run_dir ? volume_room() : 0;
}

/* No volume, and files to send: the run folder in memory, said with its
   bounds. */
static void files_in_memory(void)
{
	in_memory = 1;
	mp_snprintf(folder, sizeof folder, "in memory (no boot volume: %s), for upload.url; "
		    "at most %u MiB a file and %u MiB in all", volume_error(),
		    FILES_MEMORY_FILE_MAX >> 20, FILES_MEMORY_TOTAL_MAX >> 20);
	plat_console("memprobe: result files: ");
	plat_console(folder);
	plat_console("\n");
}

/* The first free number; Open without CREATE probes for existence, so an
   existing folder is never opened for writing. */
void files_init(uint64_t run_bytes, int for_upload)
{
	EFI_FILE_HANDLE base, probe;
	EFI_STATUS s;
	char name[16];

	if (!volume_root()) {
		if (for_upload)
			files_in_memory();
		else
			no_files(volume_error(), 0);
		return;
	}
	s = open_dir(volume_root(), "memprobe", 1, &base);
	if (s != EFI_SUCCESS) {
		no_files("cannot create \\memprobe on the boot volume", s);
		return;
	}
	for (int n = 1; n <= MAX_RUNS; n++) {
		mp_snprintf(name, sizeof name, "run-%04d", n);
		s = open_dir(base, name, 0, &probe);
		if (s == EFI_SUCCESS) {
			uefi_call_wrapper(probe->Close, 1, probe);
			continue;
		}
		if (s != EFI_NOT_FOUND)
			break;
		s = open_dir(base, name, 1, &run_dir);
		if (s == EFI_SUCCESS)
			mp_snprintf(folder, sizeof folder, "\\memprobe\\%s on the boot volume", name);
		break;
	}
	uefi_call_wrapper(base->Close, 1, base);
	if (!run_dir)
		no_files("cannot create a run folder in \\memprobe", s);
	else
		say_room(run_bytes);
}

static void report_write_failure(const char *name, EFI_STATUS s)
{
	char line[200];

	if (write_failure_reported++)
		return;
	mp_snprintf(line, sizeof line, "memprobe: writing %s failed: %s: each file cut or given up "
		    "is named, the least valuable first; results continue on the console\n", name,
		    fw_status_text(s));
	plat_console(line);
}

/* A held file that a write could not grow: said once per file, by name,
   since later files may still fit; it is sent as far as it got. */
static void report_cut(int h, const char *why)
{
	char line[240];
	size_t len = 0;

	write_failure_reported++;
	if (!why || !memfs_data(&store, h, &len))
		return;
	mp_snprintf(line, sizeof line, "memprobe: %s is cut at %llu bytes: %s (%u MiB a file, "
		    "%u MiB in all): it is incomplete, later files may still be whole\n",
		    memfs_name(&store, h), (unsigned long long)len, why,
		    FILES_MEMORY_FILE_MAX >> 20, FILES_MEMORY_TOTAL_MAX >> 20);
	plat_console(line);
}

/* plat_file_open in memory: the store's handle, or -1 said on the console
   (every slot taken), which makes the run's files incomplete. */
static int memory_open(const char *name)
{
	int h = memfs_open(&store, name);

	if (h < 0) {
		write_failure_reported++;
		plat_console("memprobe: no room in memory for another result file: ");
		plat_console(name);
		plat_console(" is not kept\n");
	}
	return h;
}

/* plat_file_write in memory: 0, or -1 with the cut said (report_cut). */
static int memory_write(int h, const char *data, size_t len)
{
	const char *why;
	size_t held = 0;

	if (memfs_write(&store, h, data, len, &why) == 0)
		return 0;
	report_cut(h, why);
	/* As on a volume: a file that got nothing whole is no file. */
	if (memfs_data(&store, h, &held) && !held)
		memfs_delete(&store, h);
	return -1;
}

/* The open file behind a handle, or NULL for -1, a closed or bad handle. */
static EFI_FILE_HANDLE file_at(int h)
{
	return h >= 0 && h < MAX_FILES ? files[h] : NULL;
}

int plat_file_open(const char *name)
{
	CHAR16 wide[64];
	EFI_STATUS s;
	int h;

	if (in_memory)
		return memory_open(name);
	if (!run_dir)
		return -1;
	for (h = 0; h < MAX_FILES && files[h]; h++)
		;
	if (h == MAX_FILES)
		return -1;
	volume_wide(wide, 64, name);
	s = uefi_call_wrapper(run_dir->Open, 5, run_dir, &files[h], wide,
			      EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);
	if (s != EFI_SUCCESS) {
		files[h] = NULL;
		report_write_failure(name, s);
		return -1;
	}
	written[h] = 0;
	mp_strlcpy(names[h], name, sizeof names[h]);
	return h;
}

int plat_file_write(int h, const char *data, size_t len)
{
	EFI_FILE_HANDLE f = file_at(h);
	UINTN size = len;
	EFI_STATUS s;

	if (in_memory)
		return memory_write(h, data, len);
	if (!f)
		return -1;
	s = uefi_call_wrapper(f->Write, 3, f, &size, (void *)data);
	if (s != EFI_SUCCESS || size != len) {
		report_write_failure("a result file", s ? s : EFI_VOLUME_FULL);
		/* A file that got nothing whole is no file (an empty
		   system.json would parse as nothing): as the console says,
		   it was not written. */
		if (!written[h])
			plat_file_delete(h);
		return -1;
	}
	written[h] += len;
	return 0;
}

int plat_file_flush(int h)
{
	EFI_FILE_HANDLE f = file_at(h);
	EFI_STATUS s;

	/* Held in memory, the bytes are where they will be sent from. */
	if (in_memory)
		return memfs_name(&store, h) ? 0 : -1;
	if (!f)
		return -1;
	s = uefi_call_wrapper(f->Flush, 1, f);
	if (s != EFI_SUCCESS) {
		report_write_failure("a result file", s);
		return -1;
	}
	return 0;
}

void plat_file_close(int h)
{
	EFI_FILE_HANDLE f = file_at(h);

	if (in_memory) {
		upload_file_closed(memfs_name(&store, h));
		return;
	}
	if (!f)
		return;
	uefi_call_wrapper(f->Close, 1, f);
	files[h] = NULL;
	upload_file_closed(names[h]);
}

int files_held(void)
{
	return run_dir != NULL || in_memory;
}

int files_kept(void)
{
	return !in_memory || upload_delivered();
}

/* files_read_named in memory: the same answers, from the held copy. */
static long memory_read_named(const char *name, char *buf, unsigned long max)
{
	size_t len;
	const char *data = memfs_data(&store, memfs_find(&store, name), &len);

	if (!data)
		return -2;
	if (len >= max)
		return -1;
	mp_memcpy(buf, data, len);
	return (long)len;
}

long files_read_named(const char *name, char *buf, unsigned long max)
{
	EFI_FILE_HANDLE f;
	CHAR16 wide[64];
	UINTN size = max;
	EFI_STATUS s;

	if (in_memory)
		return memory_read_named(name, buf, max);
	if (!run_dir)
		return -1;
	volume_wide(wide, 64, name);
	s = uefi_call_wrapper(run_dir->Open, 5, run_dir, &f, wide, EFI_FILE_MODE_READ, 0);
	if (s == EFI_NOT_FOUND)
		return -2;
	if (s != EFI_SUCCESS)
		return -1;
	s = uefi_call_wrapper(f->Read, 3, f, &size, buf);
	uefi_call_wrapper(f->Close, 1, f);
	return s == EFI_SUCCESS && size < max ? (long)size : -1;
}

long plat_file_read(int h, uint64_t offset, char *buf, size_t len)
{
	EFI_FILE_HANDLE f = file_at(h);
	UINTN size = len;

	if (in_memory)
		return memfs_read(&store, h, offset, buf, len);
	if (!f || uefi_call_wrapper(f->SetPosition, 2, f, offset) != EFI_SUCCESS ||
	    uefi_call_wrapper(f->Read, 3, f, &size, buf) != EFI_SUCCESS)
		return -1;
	return (long)size;
}

/* SetInfo with the file's own EFI_FILE_INFO under a new FileName: the FAT
   driver renames the entry and keeps the handle open. The driver refuses
   a name that exists (EFI_ACCESS_DENIED). */
int plat_file_rename(int h, const char *new_name)
{
	static EFI_GUID info_id = EFI_FILE_INFO_ID;
	static UINT64 info_buf[64];   /* the fixed part (80 bytes) and a name */
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)info_buf;
	EFI_FILE_HANDLE f = file_at(h);
	UINTN size = sizeof info_buf, name_len = mp_strlen(new_name);

	if (in_memory)
		return memfs_rename(&store, h, new_name);
	if (!f || name_len >= 64)
		return -1;
	if (uefi_call_wrapper(f->GetInfo, 4, f, &info_id, &size, info) != EFI_SUCCESS)
		return -1;
	volume_wide(info->FileName, 64, new_name);
	info->Size = SIZE_OF_EFI_FILE_INFO + 2 * (name_len + 1);
	if (uefi_call_wrapper(f->SetInfo, 4, f, &info_id, (UINTN)info->Size, info) != EFI_SUCCESS)
		return -1;
	mp_strlcpy(names[h], new_name, sizeof names[h]);
	return 0;
}

int plat_file_cut(int h, uint64_t size)
{
	static EFI_GUID info_id = EFI_FILE_INFO_ID;
	static UINT64 info_buf[64];   /* the fixed part (80 bytes) and a name */
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)info_buf;
	EFI_FILE_HANDLE f = file_at(h);
	UINTN info_size = sizeof info_buf;

	if (in_memory)
		return memfs_cut(&store, h, (size_t)size);
	if (!f || size > written[h])
		return -1;
	if (uefi_call_wrapper(f->GetInfo, 4, f, &info_id, &info_size, info) != EFI_SUCCESS)
		return -1;
	info->FileSize = size;
	if (uefi_call_wrapper(f->SetInfo, 4, f, &info_id, (UINTN)info->Size, info) != EFI_SUCCESS ||
	    uefi_call_wrapper(f->SetPosition, 2, f, size) != EFI_SUCCESS)
		return -1;
	written[h] = size;
	return 0;
}

int plat_file_delete(int h)
{
	EFI_FILE_HANDLE f = file_at(h);
	EFI_STATUS s;

	if (in_memory)
		return memfs_delete(&store, h);
	if (!f)
		return -1;
	s = uefi_call_wrapper(f->Delete, 1, f);
	files[h] = NULL;
	return s == EFI_SUCCESS ? 0 : -1;
}
