/* The run folder in memory (see memfiles.h). Each file is one pool
 * buffer that doubles as it grows; nothing is ever moved to or from a
 * volume.
 */

#include <efi.h>
#include <efilib.h>

#include "efi/memfiles.h"
#include "efi/fw.h"
#include "lib/fmt.h"

// ---- Constants --------------------------------------------------------------

/* A new file's first buffer: most result files are a few KiB. */
#define FIRST_CAP (16u << 10)
#define NAME_MAX 64

// ---- Private Data -----------------------------------------------------------

static struct held {
	char name[NAME_MAX];      /* "" for a free slot */
	char *data;
	size_t len, cap;
	int cut;                  /* a write was refused: every later one is */
} held[MEMFILES_COUNT_MAX];
static size_t total;            /* bytes of every held buffer's capacity */

// ---- Private Functions ------------------------------------------------------

static struct held *at(int h)
{
	return h >= 0 && h < MEMFILES_COUNT_MAX && held[h].name[0] ? &held[h] : NULL;
}

static int slot_named(const char *name)
{
	for (int i = 0; i < MEMFILES_COUNT_MAX; i++)
		if (held[i].name[0] && mp_strcmp(held[i].name, name) == 0)
			return i;
	return -1;
}

static void release(struct held *f)
{
	if (f->data)
		uefi_call_wrapper(fw_bs->FreePool, 1, f->data);
	total -= f->cap;
	f->data = NULL;
	f->len = f->cap = 0;
}

/* Room for `need` bytes in all: the buffer doubled (within the bounds) and
   the bytes so far copied over. 0, or -1 with why. */
static int grow(struct held *f, size_t need, const char **why)
{
	size_t cap = f->cap ? f->cap : FIRST_CAP;
	char *bigger;

	if (need > MEMFILES_FILE_MAX) {
		*why = "over the in-memory bound for one file";
		return -1;
	}
	while (cap < need)
		cap *= 2;
	if (cap > MEMFILES_FILE_MAX)
		cap = MEMFILES_FILE_MAX;
	if (total - f->cap + cap > MEMFILES_TOTAL_MAX) {
		*why = "over the in-memory bound for the run's files";
		return -1;
	}
	if (uefi_call_wrapper(fw_bs->AllocatePool, 3, EfiLoaderData, cap, (void **)&bigger) !=
	    EFI_SUCCESS) {
		*why = "the firmware has no memory left for it";
		return -1;
	}
	if (f->len)
		mp_memcpy(bigger, f->data, f->len);
	if (f->data)
		uefi_call_wrapper(fw_bs->FreePool, 1, f->data);
	total += cap - f->cap;
	f->data = bigger;
	f->cap = cap;
	return 0;
}

// ---- Public Functions -------------------------------------------------------

int memfiles_open(const char *name)
{
	int h = slot_named(name);

	if (mp_strlen(name) >= NAME_MAX || !name[0])
		return -1;
	if (h >= 0) {
		held[h].len = 0;
		held[h].cut = 0;
		return h;
	}
	for (h = 0; h < MEMFILES_COUNT_MAX; h++)
		if (!held[h].name[0]) {
			mp_strlcpy(held[h].name, name, NAME_MAX);
			return h;
		}
	return -1;
}

int memfiles_write(int h, const char *data, size_t len, const char **why)
{
	struct held *f = at(h);

	if (!f) {
		*why = "no such file";
		return -1;
	}
	/* A later, smaller write could fit again: refused too, or the file
	   would have a hole in its middle. */
	if (f->cut) {
		*why = NULL;
		return -1;
	}
	if (f->len + len > f->cap && grow(f, f->len + len, why) != 0) {
		f->cut = 1;
		return -1;
	}
	mp_memcpy(f->data + f->len, data, len);
	f->len += len;
	return 0;
}

long memfiles_read(int h, uint64_t offset, char *buf, size_t len)
{
	struct held *f = at(h);

	if (!f)
		return -1;
	if (offset >= f->len)
		return 0;
	if (len > f->len - offset)
		len = f->len - (size_t)offset;
	mp_memcpy(buf, f->data + offset, len);
	return (long)len;
}

const char *memfiles_name(int h)
{
	struct held *f = at(h);

	return f ? f->name : NULL;
}

int memfiles_rename(int h, const char *new_name)
{
	struct held *f = at(h);

	if (!f || !new_name[0] || mp_strlen(new_name) >= NAME_MAX || slot_named(new_name) >= 0)
		return -1;
	mp_strlcpy(f->name, new_name, NAME_MAX);
	return 0;
}

int memfiles_delete(int h)
{
	struct held *f = at(h);

	if (!f)
		return -1;
	release(f);
	f->name[0] = '\0';
	f->cut = 0;
	return 0;
}

const char *memfiles_find(const char *name, size_t *len)
{
	int h = slot_named(name);

	if (h < 0)
		return NULL;
	*len = held[h].len;
	/* An empty file has no buffer: "" stands for its (no) bytes. */
	return held[h].data ? held[h].data : "";
}
