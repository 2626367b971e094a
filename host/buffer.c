/* Probe buffers with a page size this program chose, on Linux.
 *
 * 4 KiB: an anonymous mapping with MADV_NOHUGEPAGE, so THP cannot quietly
 * turn it into 2 MiB pages. 2 MiB: hugetlb pages when some are reserved,
 * else a 2 MiB-aligned anonymous mapping with MADV_HUGEPAGE. 1 GiB: hugetlb
 * only, since THP never gives 1 GiB pages. Every page is touched (by a
 * thread per CPU), then smaps and pagemap say what the kernel actually gave.
 * Code buffers are the same buffers, made read and execute only while
 * their code runs (plat_code_seal). A large buffer handed back stays
 * mapped for the next one of its page size (kept buffers, below).
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arch/cpu.h"
#include "arch/paging.h"
#include "host/host.h"
#include "host/pagecheck.h"
#include "lib/fmt.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

#define SMALL_PAGE 4096u
#define THP_POLICY "/sys/kernel/mm/transparent_hugepage/enabled"
#define TOUCHERS_MAX 16u          /* threads that fault a buffer in */
#define TOUCH_SHARE_MIN (64u << 20) /* below this, one thread does it all */
/* Between two chunks of this size a toucher asks whether the run was asked
   to stop: on a VM's first-touch faults (about 0.4 GB/s a thread) that is
   about 5 ms, where a whole 8 GiB buffer takes 10-20 s. One 2 MiB page is
   one chunk. 16 MiB chunks took 0.5 s to notice a SIGINT with the machine's
   two cores nine times over-committed (Zen 5 VM, load average 16). */
#define TOUCH_CHUNK (2u << 20)
/* Linux's number for it, where older headers lack the name; an older
   kernel answers EINVAL, and the pages are touched instead. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
/* A buffer handed back of at least this size is kept for the next get of
   its page size; smaller ones cost little to fault in again. */
#define KEEP_MIN (64u << 20)
#define KEPT_SLOTS 3u             /* one per page size: 4 KiB, 2 MiB, 1 GiB */

/* ---- Private Types ---------------------------------------------------- */

struct mapping {
	void *start;              /* the whole reservation, guards included */
	size_t length;
	char *body;               /* the pages a buffer may use */
	size_t capacity;          /* their bytes; a kept mapping's buffer may use fewer */
	unsigned page_shift;
	enum page_backing backing;
};

struct touch_share {
	char *base;
	size_t bytes;
	int populate;             /* try MADV_POPULATE_WRITE first (4 KiB pages) */
	int stopped;              /* a stop request ended it before its end */
};

/* ---- Private Data ----------------------------------------------------- */

/* Mappings handed back and kept, one per page size (kept_slot); NULL where
   none is. */
static struct mapping *kept[KEPT_SLOTS];

/* ---- Private Functions ------------------------------------------------ */

/* What a buffer may take now: MemAvailable or the memory cgroup's room,
   the smaller, less a margin (host_memory_room). */
static uint64_t usable_memory(void)
{
	struct host_memory_room r;

	host_memory_room(&r);
	return r.bytes;
}

static int thp_allowed(void)
{
	char policy[32];

	return host_read_policy(THP_POLICY, policy, sizeof policy) == 0 &&
	       strcmp(policy, "never") != 0;
}

static uint64_t hugetlb_free_bytes(unsigned page_shift)
{
	uint64_t reserved, free_pages;

	host_hugetlb_pages(page_shift, &reserved, &free_pages);
	return free_pages << page_shift;
}

/* ---- Kept buffers ----------------------------------------------------- */

/* Under a hypervisor that backs guest memory on first touch and takes
   freed memory back a few seconds later, faulting a buffer in costs the
   host's faults, not the kernel's zeroing: on the Zen 5 VM 4 GiB of 2 MiB
   pages took 6.4 s the first time, 0.23 s when mapped again at once, and
   2.2 s again five seconds after the unmap. The full profile maps the
   same large buffers probe after probe (8 GiB of 2 MiB pages for tlb,
   4 GiB for ifetch, 2 GiB at memory's point three times), so a large
   buffer handed back stays mapped, one per page size, and the next get
   of that page size that fits in it takes it: the same frames, its pages
   checked again by page_check like new ones. Nothing measured depends on
   fresh frames: every probe writes what it reads before timing. Kept
   memory counts as free for every size check and is unmapped first
   whenever a get needs the room. */

/* The slot of a page size (one of the three plat_buffer_get maps). */
static unsigned kept_slot(unsigned page_shift)
{
	return page_shift == PAGE_SHIFT_4K ? 0u : page_shift == PAGE_SHIFT_2M ? 1u : 2u;
}

static void mapping_free(struct mapping *m)
{
	munmap(m->start, m->length);
	free(m);
}

static void kept_release(unsigned slot)
{
	if (kept[slot])
		mapping_free(kept[slot]);
	kept[slot] = NULL;
}

static void kept_release_all(void)
{
	for (unsigned slot = 0; slot < KEPT_SLOTS; slot++)
		kept_release(slot);
}

/* Bytes kept in mappings that are not hugetlb's (charged as anonymous
   memory, so missing from MemAvailable and the cgroup's room). */
static uint64_t kept_anonymous_bytes(void)
{
	uint64_t sum = 0;

	for (unsigned slot = 0; slot < KEPT_SLOTS; slot++)
		if (kept[slot] && kept[slot]->backing != BACKING_HUGETLB)
			sum += kept[slot]->capacity;
	return sum;
}

/* Hugetlb pages of this size that a get could have: the free ones and a
   kept hugetlb mapping's. */
static uint64_t hugetlb_room(unsigned page_shift)
{
	const struct mapping *k = kept[kept_slot(page_shift)];

	return hugetlb_free_bytes(page_shift) +
	       (k && k->backing == BACKING_HUGETLB ? k->capacity : 0);
}

/* The kept mapping of this page size when it holds bytes, made ready for
   a buffer of bytes: its first bytes read and write, the rest no access,
   so that smaps shows the buffer as one region of exactly its size (the
   rest joins the guard after it). NULL when there is none that fits, and
   then a kept one too small is unmapped, since this get's buffer will
   replace it. */
static struct mapping *kept_take(size_t bytes, unsigned page_shift)
{
	unsigned slot = kept_slot(page_shift);
	struct mapping *m = kept[slot];

	if (!m)
		return NULL;
	if (m->capacity < bytes || mprotect(m->body, bytes, PROT_READ | PROT_WRITE) != 0 ||
	    (m->capacity > bytes &&
	     mprotect(m->body + bytes, m->capacity - bytes, PROT_NONE) != 0)) {
		kept_release(slot);
		return NULL;
	}
	kept[slot] = NULL;
	return m;
}

/* Keeps m for the next get of its page size when it is large and keeping
   it leaves at least as much room as the kept mappings hold (so that a
   run near its memory limit keeps nothing); else unmaps it. Of two
   mappings of one page size the larger stays. */
static void kept_offer(struct mapping *m)
{
	unsigned slot = kept_slot(m->page_shift);
	uint64_t held = kept_anonymous_bytes() + (m->backing == BACKING_HUGETLB ? 0 : m->capacity);

	if (m->capacity < KEEP_MIN || usable_memory() < held ||
	    (kept[slot] && kept[slot]->capacity >= m->capacity)) {
		mapping_free(m);
		return;
	}
	kept_release(slot);
	kept[slot] = m;
}

/* A read would map the shared zero page; only a write makes the kernel give
   each page its own frame, at the size it decides now. With populate, each
   chunk is faulted in by MADV_POPULATE_WRITE (Linux 5.14), the kernel's
   own loop over the same write faults, and then still written a page at a
   time: on the Zen 5 VM the host had not backed the pages the guest kernel
   populated, and the first pass over them paid for it (2 GiB: populated in
   0.7-2.9 s, then 2.6-2.8 s for a first read pass that took 0.07 s the
   second time; a loader of the loaded probe read 0.6 GB/s in its first
   window, then 30). Writing each page after populating took 2.7-3.3 s and
   left the first pass at 0.08-0.10 s; touching alone took 6.0 s. Where
   the kernel refuses populate, the pages are only touched. */
static void *touch_share(void *arg)
{
	struct touch_share *share = arg;
	volatile char *p = share->base;
	size_t off, len;

	for (off = 0; off < share->bytes; off += len) {
		len = share->bytes - off < TOUCH_CHUNK ? share->bytes - off : TOUCH_CHUNK;
		if (plat_stop_signal()) {
			share->stopped = 1;
			break;
		}
		if (share->populate &&
		    madvise(share->base + off, len, MADV_POPULATE_WRITE) != 0)
			share->populate = 0;
		for (size_t page = 0; page < len; page += SMALL_PAGE)
			p[off + page] = 0;
	}
	return NULL;
}

/* How many threads fault a buffer in: one per CPU this process may run on,
   and none idle on a share under TOUCH_SHARE_MIN. */
static unsigned toucher_count(size_t bytes, size_t page)
{
	cpu_set_t mask;
	size_t by_size = bytes / TOUCH_SHARE_MIN, pages = bytes / page;
	unsigned n = sched_getaffinity(0, sizeof mask, &mask) == 0 ? (unsigned)CPU_COUNT(&mask) : 1;

	if (n > TOUCHERS_MAX)
		n = TOUCHERS_MAX;
	if (by_size < n)
		n = by_size ? (unsigned)by_size : 1;
	if (pages < n)
		n = pages ? (unsigned)pages : 1;
	return n;
}

/* Fault every page in before anything is timed, split over the CPUs in
   whole pages. Under a hypervisor that backs guest memory on first touch
   (and takes freed memory back), the faults, not the kernel's zeroing, are
   most of a large buffer's cost: 8 GiB took about 20 s from one thread on
   a KVM guest and half that from two. Nothing is measured meanwhile, so
   the other CPUs are free. A thread that cannot start leaves its share to
   the caller, so every page is touched whatever happens; but a stop
   request (SIGINT) ends every share at its next chunk, and then the
   buffer is incomplete: 0 when every page was touched, -1 when stopped.
   Small pages are populated by the kernel and then touched (touch_share):
   on the Zen 5 VM 2 GiB of them took 3.0-5.0 s so from one thread, with
   nothing left for the first pass to pay, against 6.0-6.9 s touched alone;
   huge pages, one fault each, took as long either way (2.5-3.7 s), and
   are touched. */
static int touch_pages(void *base, size_t bytes, size_t page)
{
	struct touch_share share[TOUCHERS_MAX];
	pthread_t thread[TOUCHERS_MAX];
	int started[TOUCHERS_MAX];
	unsigned n = toucher_count(bytes, page), i;
	size_t pages = bytes / page, done = 0;

	for (i = 0; i < n; i++) {
		size_t take = pages / n + (i < pages % n);

		share[i].base = (char *)base + done * page;
		share[i].bytes = take * page;
		share[i].stopped = 0;
		share[i].populate = page == SMALL_PAGE;
		done += take;
		started[i] = i > 0 && pthread_create(&thread[i], NULL, touch_share, &share[i]) == 0;
	}
	for (i = 0; i < n; i++)
		if (!started[i])
			touch_share(&share[i]);
	for (i = 1; i < n; i++)
		if (started[i])
			pthread_join(thread[i], NULL);
	for (i = 0; i < n; i++)
		if (share[i].stopped)
			return -1;
	return 0;
}

static void *map_hugetlb(size_t bytes, unsigned page_shift, struct mapping *m)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (int)(page_shift << MAP_HUGE_SHIFT),
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	m->start = p;
	m->length = bytes;
	return p;
}

/* The body sits inside a PROT_NONE reservation with at least one page of it
   on each side. Besides catching overruns, the guards keep the kernel from
   merging the body with a neighbouring mapping of the same flags, which
   would make smaps describe the two together. */
static void *map_anonymous(size_t bytes, size_t align, int advice, struct mapping *m)
{
	size_t length = bytes + align + 2 * SMALL_PAGE;
	char *start = mmap(NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	uintptr_t body;

	if (start == MAP_FAILED)
		return NULL;
	body = ((uintptr_t)start + SMALL_PAGE + align - 1) & ~(uintptr_t)(align - 1);
	if (mprotect((void *)body, bytes, PROT_READ | PROT_WRITE) != 0 ||
	    madvise((void *)body, bytes, advice) != 0) {
		munmap(start, length);
		return NULL;
	}
	m->start = start;
	m->length = length;
	return (void *)body;
}

/* ---- Public Functions ------------------------------------------------- */

/* The Linux build is x86-64's (docs/LAYOUT.md). */
int plat_page_size_architected(unsigned page_shift, char *why, size_t why_len)
{
	return pt_page_size_architected(page_shift, why, why_len);
}

size_t plat_buffer_max(unsigned page_shift)
{
	uint64_t page = 1ull << page_shift;
	uint64_t usable = (usable_memory() + kept_anonymous_bytes()) & ~(page - 1);
	uint64_t hugetlb = page_shift > 12 ? hugetlb_room(page_shift) : 0;

	if (page_shift == PAGE_SHIFT_4K)
		return (size_t)usable;
	if (page_shift == PAGE_SHIFT_2M && thp_allowed() && usable > hugetlb)
		return (size_t)usable;
	return (size_t)hugetlb;
}

/* Which pages a new mapping of bytes (rounded to its pages) gets: 0, or -1
   with why[] when this page size cannot be had. */
static int choose_backing(size_t bytes, unsigned page_shift, enum page_backing *backing,
			  char *why, size_t why_len)
{
	uint64_t reserved, free_pages;

	if (page_shift == PAGE_SHIFT_4K) {
		*backing = BACKING_4K;
		return 0;
	}
	if (hugetlb_free_bytes(page_shift) >= bytes) {
		*backing = BACKING_HUGETLB;
		return 0;
	}
	if (page_shift == PAGE_SHIFT_2M && thp_allowed()) {
		*backing = BACKING_THP;
		return 0;
	}
	host_hugetlb_pages(page_shift, &reserved, &free_pages);
	snprintf(why, why_len,
		 "no %s pages for %zu MiB: %llu hugetlb pages of that size reserved, %llu free%s",
		 page_shift == PAGE_SHIFT_1G ? "1 GiB" : "2 MiB", bytes >> 20,
		 (unsigned long long)reserved, (unsigned long long)free_pages,
		 page_shift == PAGE_SHIFT_1G ? " (THP never gives 1 GiB pages)"
					     : ", and THP is disabled");
	return -1;
}

/* A new mapping of bytes (rounded to its pages), not yet touched; the
   kept mappings are unmapped first when the room is short. NULL with why[]
   on failure. */
static struct mapping *map_fresh(size_t bytes, unsigned page_shift, char *why, size_t why_len)
{
	size_t page = (size_t)1 << page_shift;
	struct mapping *m;
	enum page_backing backing;
	void *base;

	if ((page_shift == PAGE_SHIFT_4K || hugetlb_free_bytes(page_shift) < bytes) &&
	    bytes > usable_memory())
		kept_release_all();
	if (choose_backing(bytes, page_shift, &backing, why, why_len) != 0)
		return NULL;
	if (backing != BACKING_HUGETLB && bytes > usable_memory()) {
		struct host_memory_room r;

		host_memory_room(&r);
		snprintf(why, why_len, "too little memory: %zu MiB asked, %llu MiB usable now (7/8 "
			 "of %s)", bytes >> 20, (unsigned long long)(r.bytes >> 20), r.how);
		return NULL;
	}
	m = malloc(sizeof *m);
	if (!m) {
		snprintf(why, why_len, "out of memory for the buffer's bookkeeping");
		return NULL;
	}
	if (backing == BACKING_HUGETLB)
		base = map_hugetlb(bytes, page_shift, m);
	else
		base = map_anonymous(bytes, backing == BACKING_THP ? page : SMALL_PAGE,
				     backing == BACKING_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE, m);
	if (!base) {
		snprintf(why, why_len, "mmap of %zu MiB failed: %s", bytes >> 20, strerror(errno));
		free(m);
		return NULL;
	}
	m->body = base;
	m->capacity = bytes;
	m->page_shift = page_shift;
	m->backing = backing;
	return m;
}

int plat_buffer_get(struct plat_buffer *b, size_t bytes, unsigned page_shift,
		    char *why, size_t why_len)
{
	size_t page = (size_t)1 << page_shift;
	struct page_check check;
	struct mapping *m;

	if (why_len)
		why[0] = '\0';   /* a buffer had says nothing */
	/* AArch64's granules and blocks: Linux on x86-64 has none of them, and
	   no hugetlb size would say so by name. */
	if (page_shift != PAGE_SHIFT_4K && page_shift != PAGE_SHIFT_2M &&
	    page_shift != PAGE_SHIFT_1G) {
		char size[16];

		mp_format_bytes(size, sizeof size, page);
		snprintf(why, why_len, "%s pages do not exist on x86-64 Linux (4 KiB pages, "
			 "2 MiB and 1 GiB huge pages do)", size);
		return -1;
	}
	bytes = (bytes + page - 1) & ~(page - 1);
	m = kept_take(bytes, page_shift);
	if (!m)
		m = map_fresh(bytes, page_shift, why, why_len);
	if (!m)
		return -1;
	if (touch_pages(m->body, bytes, page) != 0) {
		snprintf(why, why_len, "not made: %s asked the run to stop while its %zu MiB were "
			 "faulted in", plat_stop_signal(), bytes >> 20);
		mapping_free(m);
		return -1;
	}
	page_check(m->body, bytes, page_shift, m->backing, &check);

	/* Memory without a single page of the asked size is not a buffer of
	   that page size: hand it back rather than let rows carry a false
	   label. A partial result is kept, and its text says how partial. */
	if (m->backing != BACKING_4K && check.percent == 0) {
		snprintf(why, why_len, "%s", check.text);
		mapping_free(m);
		return -1;
	}
	b->base = m->body;
	b->bytes = bytes;
	b->page_shift = page_shift;
	snprintf(b->verified, sizeof b->verified, "%s", check.text);
	b->verified_ok = check.ok;
	/* A page of the asked size is one physical run; a partial result
	   vouches for no more than 4 KiB. */
	b->contiguous_bytes = check.ok ? (uint64_t)page : 4096u;
	b->plat_private = m;
	return 0;
}

/* The mapping is kept for the next buffer of its page size where that
   pays (kept_offer), else unmapped. */
void plat_buffer_put(struct plat_buffer *b)
{
	struct mapping *m = b->plat_private;

	if (!m)
		return;
	kept_offer(m);
	b->plat_private = NULL;
	b->base = NULL;
	b->bytes = 0;
}

void plat_data_flush(void *base, size_t bytes)
{
	cpu_data_flush(base, bytes);
}

/* ---- Code buffers ----------------------------------------------------- */

/* Says once in b->verified how code in it is mapped. */
static void note_code_mapping(struct plat_buffer *b, const char *text)
{
	size_t len = strlen(b->verified);

	if (!strstr(b->verified, text))
		snprintf(b->verified + len, sizeof b->verified - len, "%s", text);
}

unsigned plat_code_isa(void)
{
	return cpu_isa();
}

/* mprotect over the whole buffer keeps its pages as they were (a 2 MiB
   page changes its protection whole), so the page check made when it was
   mapped still stands. __builtin___clear_cache is what Linux asks of user
   code after writing code (a no-op on x86-64; the cache maintenance
   system calls or instructions elsewhere). */
int plat_code_seal(struct plat_buffer *b, char *why, size_t why_len)
{
	if (why_len)
		why[0] = '\0';
	__builtin___clear_cache((char *)b->base, (char *)b->base + b->bytes);
	if (mprotect(b->base, b->bytes, PROT_READ | PROT_EXEC) != 0) {
		snprintf(why, why_len, "mprotect to read and execute failed: %s", strerror(errno));
		return -1;
	}
	note_code_mapping(b, "; code R-X while run (W^X)");
	return 0;
}

int plat_code_unseal(struct plat_buffer *b, char *why, size_t why_len)
{
	if (why_len)
		why[0] = '\0';
	if (mprotect(b->base, b->bytes, PROT_READ | PROT_WRITE) != 0) {
		snprintf(why, why_len, "mprotect back to read and write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}
