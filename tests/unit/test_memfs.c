/* Files held in memory (lib/memfs.c), as a netbooted run keeps its run
 * folder for upload.url: contents whole across growth, each bound refused
 * and the file kept as far as it got, a cut file never written again, an
 * allocator that fails, names, renames that never overwrite, and deletes
 * that give the memory back. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lib/memfs.h"

static size_t live;             /* allocations not yet freed */
static int fail_next;           /* the next allocation fails */

static void *counted_alloc(size_t bytes)
{
	if (fail_next) {
		fail_next = 0;
		return NULL;
	}
	live++;
	return malloc(bytes);
}

static void counted_free(void *p)
{
	live--;
	free(p);
}

static struct memfs make(struct memfs_file *slots, unsigned count, size_t file_max,
			 size_t total_max)
{
	memset(slots, 0, count * sizeof *slots);
	return (struct memfs){ slots, count, file_max, total_max, 0, counted_alloc, counted_free };
}

/* The file's bytes equal want[0..n). */
static int holds(const struct memfs *fs, int h, const char *want, size_t n)
{
	size_t len;
	const char *data = memfs_data(fs, h, &len);

	return data && len == n && memcmp(data, want, n) == 0;
}

static void growth_keeps_every_byte(void)
{
	struct memfs_file slots[4];
	struct memfs fs = make(slots, 4, 1 << 20, 4 << 20);
	static char want[200000];
	const char *why = "";
	int h = memfs_open(&fs, "results.csv"), ok = 1;
	char back[100];

	for (size_t i = 0; i < sizeof want; i++)
		want[i] = (char)(i * 7 + i / 251);
	/* Writes of odd sizes across several doublings (16 KiB ... 256 KiB). */
	for (size_t at = 0; at < sizeof want; at += 777)
		ok &= memfs_write(&fs, h, want + at, at + 777 > sizeof want ? sizeof want - at : 777,
				  &why) == 0;
	CHECK(ok && holds(&fs, h, want, sizeof want), "200000 bytes in 777-byte writes, whole (%s)", why);
	CHECK(fs.total == 256 << 10 && fs.total <= fs.total_max,
	      "capacity doubled to 256 KiB, counted (%zu)", fs.total);
	CHECK(memfs_read(&fs, h, 150000, back, sizeof back) == 100 &&
	      memcmp(back, want + 150000, 100) == 0, "read from an offset");
	CHECK(memfs_read(&fs, h, sizeof want - 10, back, sizeof back) == 10 &&
	      memfs_read(&fs, h, sizeof want, back, sizeof back) == 0, "a read at the end is short, past it 0");
	CHECK(memfs_delete(&fs, h) == 0 && live == 0 && fs.total == 0,
	      "delete frees the buffer (%zu live) and the count", live);
}

static void file_bound(void)
{
	struct memfs_file slots[2];
	struct memfs fs = make(slots, 2, 40000, 1 << 20);
	static char bytes[30000];
	const char *why = NULL;
	int h = memfs_open(&fs, "report.html");

	memset(bytes, 'r', sizeof bytes);
	CHECK(memfs_write(&fs, h, bytes, 30000, &why) == 0, "30000 bytes within a 40000-byte bound");
	CHECK(memfs_write(&fs, h, bytes, 20000, &why) == -1 && why && strstr(why, "one file"),
	      "20000 more: refused, the bound for one file named (%s)", why ? why : "NULL");
	CHECK(holds(&fs, h, bytes, 30000), "the file keeps what it had, no part of the refused write");
	why = "unchanged";
	CHECK(memfs_write(&fs, h, "x", 1, &why) == -1 && why == NULL,
	      "a cut file takes no later write, even one that fits, and says nothing again");
	CHECK(holds(&fs, h, bytes, 30000), "still 30000 bytes: no hole, no tail");
	CHECK(memfs_open(&fs, "report.html") == h && holds(&fs, h, "", 0) &&
	      memfs_write(&fs, h, "new", 3, &why) == 0 && holds(&fs, h, "new", 3),
	      "opened again: emptied and writable");
	memfs_delete(&fs, h);
	h = memfs_open(&fs, "wrap.csv");
	why = NULL;
	CHECK(memfs_write(&fs, h, "0123456789", 10, &why) == 0 &&
	      memfs_write(&fs, h, bytes, (size_t)-1, &why) == -1 && why && strstr(why, "one file") &&
	      holds(&fs, h, "0123456789", 10),
	      "a length that would wrap past the bound is refused as over it, the file kept");
	memfs_delete(&fs, h);
	CHECK(live == 0, "nothing left allocated");
}

static void total_bound(void)
{
	struct memfs_file slots[4];
	/* Two 16 KiB first buffers fit in 40 KiB; a third file's does not. */
	struct memfs fs = make(slots, 4, 1 << 20, 40 << 10);
	const char *why = NULL;
	int a = memfs_open(&fs, "a.svg"), b = memfs_open(&fs, "b.svg"), c = memfs_open(&fs, "c.svg");

	CHECK(memfs_write(&fs, a, "aa", 2, &why) == 0 && memfs_write(&fs, b, "bb", 2, &why) == 0,
	      "two files within the run's bound");
	CHECK(memfs_write(&fs, c, "cc", 2, &why) == -1 && why && strstr(why, "all the files"),
	      "a third is refused, the bound for all named (%s)", why ? why : "NULL");
	CHECK(holds(&fs, a, "aa", 2) && holds(&fs, b, "bb", 2) && holds(&fs, c, "", 0),
	      "the others are untouched, the third empty");
	memfs_delete(&fs, b);
	CHECK(memfs_open(&fs, "d.svg") >= 0 && fs.total == 16 << 10,
	      "a delete gives its room back (%zu held)", fs.total);
	memfs_delete(&fs, a);
	memfs_delete(&fs, c);
}

static void allocator_fails(void)
{
	struct memfs_file slots[1];
	struct memfs fs = make(slots, 1, 1 << 20, 1 << 20);
	const char *why = NULL;
	int h = memfs_open(&fs, "system.json");

	fail_next = 1;
	CHECK(memfs_write(&fs, h, "{}", 2, &why) == -1 && why && strstr(why, "no memory"),
	      "an allocator with nothing left: refused, said (%s)", why ? why : "NULL");
	CHECK(fs.total == 0 && holds(&fs, h, "", 0), "nothing counted, the file empty");
	memfs_delete(&fs, h);
}

static void names(void)
{
	struct memfs_file slots[2];
	struct memfs fs = make(slots, 2, 1 << 20, 1 << 20);
	char long_name[MEMFS_NAME_MAX + 1];
	const char *why;
	int a, b;

	memset(long_name, 'n', MEMFS_NAME_MAX);
	long_name[MEMFS_NAME_MAX] = '\0';
	CHECK(memfs_open(&fs, "") == -1 && memfs_open(&fs, long_name) == -1,
	      "an empty name and one of %d characters are refused", MEMFS_NAME_MAX);
	a = memfs_open(&fs, "report.txt.draft");
	b = memfs_open(&fs, "report.txt");
	CHECK(a >= 0 && b >= 0 && a != b && memfs_open(&fs, "third") == -1,
	      "two slots: two files, a third refused");
	memfs_write(&fs, a, "draft", 5, &why);
	CHECK(memfs_rename(&fs, a, "report.txt") == -1 && strcmp(memfs_name(&fs, a), "report.txt.draft") == 0,
	      "a rename onto a held name is refused, the name kept");
	CHECK(memfs_delete(&fs, b) == 0 && memfs_rename(&fs, a, "report.txt") == 0 &&
	      memfs_find(&fs, "report.txt") == a && memfs_find(&fs, "report.txt.draft") == -1 &&
	      holds(&fs, a, "draft", 5), "after the delete the rename goes, the bytes with it");
	CHECK(memfs_name(&fs, b) == NULL && memfs_read(&fs, b, 0, long_name, 1) == -1 &&
	      memfs_delete(&fs, b) == -1 && memfs_write(&fs, -1, "x", 1, &why) == -1 &&
	      memfs_name(&fs, 7) == NULL, "a freed, negative or out-of-range handle is refused");
	memfs_delete(&fs, a);
	CHECK(live == 0, "nothing left allocated");
}

/* A cut keeps the first bytes and the next write goes after them. */
static void cut(void)
{
	struct memfs_file slots[1];
	struct memfs fs = make(slots, 1, 1 << 20, 1 << 20);
	const char *why;
	int h = memfs_open(&fs, "report.html");

	memfs_write(&fs, h, "<p>a</p></html>", 15, &why);
	CHECK(memfs_cut(&fs, h, 8) == 0 && memfs_write(&fs, h, "<p>b</p></html>", 15, &why) == 0 &&
	      holds(&fs, h, "<p>a</p><p>b</p></html>", 23), "a cut tail is written over");
	CHECK(memfs_cut(&fs, h, 100) == 0 && holds(&fs, h, "<p>a</p><p>b</p></html>", 23) &&
	      memfs_cut(&fs, 5, 1) == -1, "a cut past the end changes nothing; a bad handle is refused");
	memfs_delete(&fs, h);
}

int main(void)
{
	growth_keeps_every_byte();
	file_bound();
	total_bound();
	allocator_fails();
	names();
	cut();
	return check_summary();
}
