/* Checking a mapping's page size after the fact, from smaps and pagemap. */

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/pagecheck.h"

/* ---- Constants -------------------------------------------------------- */

#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_PFN_MASK ((1ull << 55) - 1)
#define PAGEMAP_BATCH 4096

/* ---- Private Types ---------------------------------------------------- */

struct smaps_entry {
	int found;
	uint64_t size_kib, rss_kib, kernel_page_kib, anon_huge_kib, hugetlb_kib;
};

struct pagemap_facts {
	int readable;
	int pfns_visible;        /* PFNs read as zero without CAP_SYS_ADMIN */
	uint64_t pages, present;
	uint64_t chunks, contiguous_chunks;   /* chunks of the asked page size */
};

/* ---- Private Functions ------------------------------------------------ */

static void read_smaps(uintptr_t start, struct smaps_entry *e)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[512];
	int inside = 0;

	memset(e, 0, sizeof *e);
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		uintptr_t lo, hi;
		unsigned long long kib;
		char name[64];

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2) {
			if (inside)
				break;
			inside = lo == start;
			e->found |= inside;
			continue;
		}
		if (!inside || sscanf(line, "%63[^:]: %llu kB", name, &kib) != 2)
			continue;
		if (!strcmp(name, "Size"))
			e->size_kib = kib;
		else if (!strcmp(name, "Rss"))
			e->rss_kib = kib;
		else if (!strcmp(name, "KernelPageSize"))
			e->kernel_page_kib = kib;
		else if (!strcmp(name, "AnonHugePages"))
			e->anon_huge_kib = kib;
		else if (!strcmp(name, "Private_Hugetlb") || !strcmp(name, "Shared_Hugetlb"))
			e->hugetlb_kib += kib;
	}
	fclose(f);
}

/* Every 4 KiB page resident, and (where PFNs are visible) each chunk of the
   asked page size physically contiguous from an aligned frame: what a real
   large page must be. */
static void read_pagemap(const void *base, size_t bytes, unsigned page_shift,
			 struct pagemap_facts *pm)
{
	uint64_t per_chunk = (1ull << page_shift) / 4096;
	uint64_t *entries = malloc(PAGEMAP_BATCH * sizeof *entries);
	uint64_t first_page = (uintptr_t)base / 4096, i = 0, chunk_start_pfn = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC), chunk_ok = 1;

	memset(pm, 0, sizeof *pm);
	pm->pages = bytes / 4096;
	pm->chunks = bytes >> page_shift;
	if (fd < 0 || !entries)
		goto out;
	pm->readable = 1;
	while (i < pm->pages) {
		uint64_t batch = pm->pages - i < PAGEMAP_BATCH ? pm->pages - i : PAGEMAP_BATCH, k;
		ssize_t got = pread(fd, entries, batch * 8, (off_t)((first_page + i) * 8));

		if (got != (ssize_t)(batch * 8)) {
			pm->readable = 0;
			break;
		}
		for (k = 0; k < batch; k++, i++) {
			uint64_t pfn = entries[k] & PAGEMAP_PFN_MASK;

			if (entries[k] & PAGEMAP_PRESENT)
				pm->present++;
			if (pfn)
				pm->pfns_visible = 1;
			if (i % per_chunk == 0) {
				chunk_start_pfn = pfn;
				chunk_ok = pfn && pfn % per_chunk == 0;
			} else if (pfn != chunk_start_pfn + i % per_chunk) {
				chunk_ok = 0;
			}
			if (i % per_chunk == per_chunk - 1 && chunk_ok)
				pm->contiguous_chunks++;
		}
	}
out:
	if (fd >= 0)
		close(fd);
	free(entries);
}

static const char *size_name(unsigned page_shift)
{
	return page_shift == 30 ? "1 GiB" : page_shift == 21 ? "2 MiB" : "4 KiB";
}

/* ---- Public Functions ------------------------------------------------- */

void page_check(const void *base, size_t bytes, unsigned page_shift,
		enum page_backing backing, struct page_check *out)
{
	struct smaps_entry e;
	struct pagemap_facts pm;
	uint64_t kib = bytes / 1024, asked_kib = (1ull << page_shift) / 1024, good_kib;
	char pagemap_text[64] = "";
	size_t used;

	read_smaps((uintptr_t)base, &e);
	if (!e.found || e.size_kib != kib) {
		out->ok = 0;
		out->percent = 0;
		snprintf(out->text, sizeof out->text,
			 "unverified: /proc/self/smaps has no single region for this buffer");
		return;
	}
	if (backing == BACKING_4K) {
		good_kib = e.kernel_page_kib == 4 && !e.anon_huge_kib ? e.rss_kib : 0;
		if (e.anon_huge_kib)
			snprintf(out->text, sizeof out->text,
				 "kernel gave 2 MiB THP pages for %llu%% despite MADV_NOHUGEPAGE",
				 (unsigned long long)(e.anon_huge_kib * 100 / kib));
		else
			snprintf(out->text, sizeof out->text, "kernel gave 4 KiB pages for %llu%%",
				 (unsigned long long)(good_kib * 100 / kib));
	} else {
		const char *how = backing == BACKING_THP ? "THP" : "hugetlb";

		good_kib = backing == BACKING_THP ? e.anon_huge_kib
			 : e.kernel_page_kib == asked_kib ? e.hugetlb_kib : 0;
		if (good_kib == 0)
			snprintf(out->text, sizeof out->text, "kernel gave 4 KiB pages: %s refused", how);
		else
			snprintf(out->text, sizeof out->text, "kernel gave %s pages for %llu%% (%s)%s",
				 size_name(page_shift), (unsigned long long)(good_kib * 100 / kib), how,
				 good_kib == kib ? "" : ", the rest 4 KiB");
	}
	out->percent = (unsigned)(good_kib * 100 / kib);
	out->ok = good_kib == kib;

	read_pagemap(base, bytes, page_shift, &pm);
	if (pm.readable && pm.pfns_visible && page_shift > 12)
		snprintf(pagemap_text, sizeof pagemap_text, "; pagemap: %llu of %llu contiguous",
			 (unsigned long long)pm.contiguous_chunks, (unsigned long long)pm.chunks);
	else if (pm.readable)
		snprintf(pagemap_text, sizeof pagemap_text, "; pagemap: %llu of %llu present",
			 (unsigned long long)pm.present, (unsigned long long)pm.pages);
	if (pm.readable && pm.present != pm.pages)
		out->ok = 0;
	if (pm.readable && pm.pfns_visible && page_shift > 12 && pm.contiguous_chunks != pm.chunks)
		out->ok = 0;

	used = strlen(out->text);
	snprintf(out->text + used, sizeof out->text - used, "%s", pagemap_text);
}
