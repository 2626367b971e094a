/* Named files in memory, bounded (see memfs.h). */

#include "lib/memfs.h"
#include "lib/fmt.h"

/* ---- Constants -------------------------------------------------------- */

/* A new file's first buffer: most result files are a few KiB. */
#define FIRST_CAP (16u << 10)

/* ---- Private Functions ------------------------------------------------ */

static struct memfs_file *at(const struct memfs *fs, int h)
{
	return h >= 0 && (unsigned)h < fs->count && fs->slots[h].name[0] ? &fs->slots[h] : NULL;
}

static void release(struct memfs *fs, struct memfs_file *f)
{
	if (f->data)
		fs->release(f->data);
	fs->total -= f->cap;
	f->data = NULL;
	f->len = f->cap = 0;
}

/* Room for `more` bytes after the file's: the buffer doubled (within the
   bounds) and the bytes so far copied over. 0, or -1 with why. The bound
   is checked as file_max - len (len never exceeds it), so a huge `more`
   cannot wrap round to a small need. */
static int grow(struct memfs *fs, struct memfs_file *f, size_t more, const char **why)
{
	size_t cap = f->cap ? f->cap : FIRST_CAP, need = f->len + more;
	char *bigger;

	if (more > fs->file_max - f->len) {
		*why = "over the in-memory bound for one file";
		return -1;
	}
	while (cap < need)
		cap *= 2;
	if (cap > fs->file_max)
		cap = fs->file_max;
	if (fs->total - f->cap + cap > fs->total_max) {
		*why = "over the in-memory bound for all the files";
		return -1;
	}
	bigger = fs->alloc(cap);
	if (!bigger) {
		*why = "no memory left for it";
		return -1;
	}
	if (f->len)
		mp_memcpy(bigger, f->data, f->len);
	if (f->data)
		fs->release(f->data);
	fs->total += cap - f->cap;
	f->data = bigger;
	f->cap = cap;
	return 0;
}

/* ---- Public Functions ------------------------------------------------- */

int memfs_find(const struct memfs *fs, const char *name)
{
	for (unsigned i = 0; i < fs->count; i++)
		if (fs->slots[i].name[0] && mp_strcmp(fs->slots[i].name, name) == 0)
			return (int)i;
	return -1;
}

int memfs_open(struct memfs *fs, const char *name)
{
	int h;

	if (!name[0] || mp_strlen(name) >= MEMFS_NAME_MAX)
		return -1;
	h = memfs_find(fs, name);
	if (h >= 0) {
		fs->slots[h].len = 0;
		fs->slots[h].cut = 0;
		return h;
	}
	for (unsigned i = 0; i < fs->count; i++)
		if (!fs->slots[i].name[0]) {
			mp_strlcpy(fs->slots[i].name, name, MEMFS_NAME_MAX);
			return (int)i;
		}
	return -1;
}

int memfs_write(struct memfs *fs, int h, const void *data, size_t len, const char **why)
{
	struct memfs_file *f = at(fs, h);

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
	if (len > f->cap - f->len && grow(fs, f, len, why) != 0) {
		f->cut = 1;
		return -1;
	}
	if (len)
		mp_memcpy(f->data + f->len, data, len);
	f->len += len;
	return 0;
}

long memfs_read(const struct memfs *fs, int h, uint64_t offset, void *buf, size_t len)
{
	const struct memfs_file *f = at(fs, h);

	if (!f)
		return -1;
	if (offset >= f->len)
		return 0;
	if (len > f->len - offset)
		len = f->len - (size_t)offset;
	mp_memcpy(buf, f->data + offset, len);
	return (long)len;
}

const char *memfs_name(const struct memfs *fs, int h)
{
	const struct memfs_file *f = at(fs, h);

	return f ? f->name : NULL;
}

int memfs_rename(struct memfs *fs, int h, const char *new_name)
{
	struct memfs_file *f = at(fs, h);

	if (!f || !new_name[0] || mp_strlen(new_name) >= MEMFS_NAME_MAX ||
	    memfs_find(fs, new_name) >= 0)
		return -1;
	mp_strlcpy(f->name, new_name, MEMFS_NAME_MAX);
	return 0;
}

int memfs_delete(struct memfs *fs, int h)
{
	struct memfs_file *f = at(fs, h);

	if (!f)
		return -1;
	release(fs, f);
	f->name[0] = '\0';
	f->cut = 0;
	return 0;
}

int memfs_cut(struct memfs *fs, int h, size_t len)
{
	struct memfs_file *f = at(fs, h);

	if (!f)
		return -1;
	if (len < f->len)
		f->len = len;
	return 0;
}

const char *memfs_data(const struct memfs *fs, int h, size_t *len)
{
	const struct memfs_file *f = at(fs, h);

	if (!f)
		return NULL;
	*len = f->len;
	return f->data ? f->data : "";
}
