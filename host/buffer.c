/* Probe buffers with a page size this program chose, on Linux.
 *
 * 4 KiB: an anonymous mapping with MADV_NOHUGEPAGE, so THP cannot quietly
 * turn it into 2 MiB pages. 2 MiB: hugetlb pages when some are reserved,
 * else a 2 MiB-aligned anonymous mapping with MADV_HUGEPAGE. 1 GiB: hugetlb
 * only, since THP never gives 1 GiB pages. Every page is touched (by a
 * thread per CPU), then smaps and pagemap say what the kernel actually gave.
 * Code buffers are the same buffers, made read and execute only while
 * their code runs (plat_code_seal).
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

/* ---- Private Types ---------------------------------------------------- */

struct mapping {
	void *start;              /* the whole reservation, guards included */
	size_t length;
};

struct touch_share {
	char *base;
	size_t bytes;
	int stopped;              /* a stop request ended it before its end */
};

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

/* A read would map the shared zero page; only a write makes the kernel give
   each page its own frame, at the size it decides now. */
static void *touch_share(void *arg)
{
	struct touch_share *share = arg;
	volatile char *p = share->base;
	size_t off;

	for (off = 0; off < share->bytes; off += SMALL_PAGE) {
		if (off % TOUCH_CHUNK == 0 && plat_stop_signal()) {
			share->stopped = 1;
			break;
		}
		p[off] = 0;
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
   buffer is incomplete: 0 when every page was touched, -1 when stopped. */
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
	uint64_t page = 1ull << page_shift, usable = usable_memory() & ~(page - 1);
	uint64_t hugetlb = page_shift > 12 ? hugetlb_free_bytes(page_shift) : 0;

	if (page_shift == PAGE_SHIFT_4K)
		return (size_t)usable;
	if (page_shift == PAGE_SHIFT_2M && thp_allowed() && usable > hugetlb)
		return (size_t)usable;
	return (size_t)hugetlb;
}

int plat_buffer_get(struct plat_buffer *b, size_t bytes, unsigned page_shift,
		    char *why, size_t why_len)
{
	size_t page = (size_t)1 << page_shift;
	struct mapping *m = malloc(sizeof *m);
	enum page_backing backing;
	struct page_check check;
	void *base = NULL;
	int saved_errno = 0;

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
		free(m);
		return -1;
	}
	if (!m) {
		snprintf(why, why_len, "out of memory for the buffer's bookkeeping");
		return -1;
	}
	bytes = (bytes + page - 1) & ~(page - 1);
	if (page_shift == PAGE_SHIFT_4K) {
		backing = BACKING_4K;
	} else if (hugetlb_free_bytes(page_shift) >= bytes) {
		backing = BACKING_HUGETLB;
	} else if (page_shift == PAGE_SHIFT_2M && thp_allowed()) {
		backing = BACKING_THP;
	} else {
		uint64_t reserved, free_pages;

		host_hugetlb_pages(page_shift, &reserved, &free_pages);
		snprintf(why, why_len,
			 "no %s pages for %zu MiB: %llu hugetlb pages of that size reserved, %llu free%s",
			 page_shift == PAGE_SHIFT_1G ? "1 GiB" : "2 MiB", bytes >> 20,
			 (unsigned long long)reserved, (unsigned long long)free_pages,
			 page_shift == PAGE_SHIFT_1G ? " (THP never gives 1 GiB pages)"
						     : ", and THP is disabled");
		free(m);
		return -1;
	}
	if (backing != BACKING_HUGETLB && bytes > usable_memory()) {
		struct host_memory_room r;

		host_memory_room(&r);
		snprintf(why, why_len, "too little memory: %zu MiB asked, %llu MiB usable now (7/8 "
			 "of %s)", bytes >> 20, (unsigned long long)(r.bytes >> 20), r.how);
		free(m);
		return -1;
	}

	if (backing == BACKING_HUGETLB)
		base = map_hugetlb(bytes, page_shift, m);
	else
		base = map_anonymous(bytes, backing == BACKING_THP ? page : SMALL_PAGE,
				     backing == BACKING_THP ? MADV_HUGEPAGE : MADV_NOHUGEPAGE, m);
	if (!base) {
		saved_errno = errno;
		snprintf(why, why_len, "mmap of %zu MiB failed: %s", bytes >> 20, strerror(saved_errno));
		free(m);
		return -1;
	}
	if (touch_pages(base, bytes, page) != 0) {
		snprintf(why, why_len, "not made: %s asked the run to stop while its %zu MiB were "
			 "faulted in", plat_stop_signal(), bytes >> 20);
		munmap(m->start, m->length);
		free(m);
		return -1;
	}
	page_check(base, bytes, page_shift, backing, &check);

	/* Memory without a single page of the asked size is not a buffer of
	   that page size: hand it back rather than let rows carry a false
	   label. A partial result is kept, and its text says how partial. */
	if (backing != BACKING_4K && check.percent == 0) {
		snprintf(why, why_len, "%s", check.text);
		munmap(m->start, m->length);
		free(m);
		return -1;
	}
	b->base = base;
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

void plat_buffer_put(struct plat_buffer *b)
{
	struct mapping *m = b->plat_private;

	if (!m)
		return;
	munmap(m->start, m->length);
	free(m);
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
