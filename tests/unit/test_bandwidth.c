/* The bandwidth probe: the x86 kernel-set choice from CPUID and XCR0 (pure,
 * for CPUs and firmware states this machine is not), every kernel this
 * machine can run doing what its name says, and the probe through the real
 * host platform: a row per variant, size and page size, with gb_per_s and
 * bytes_per_cycle that agree with ns and cycles. No timing thresholds: this
 * machine's caches are not the test's to know.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "arch/stream.h"
#include "arch/x86_64/stream.h"
#include "host/host.h"
#include "probes/bandwidth_gang.h"
#include "core/config.h"
#include "results/emit.h"
#include "core/platform.h"
#include "core/probe.h"
#include "results/report_table.h"
#include "results/results.h"
#include "probes/bandwidth_settings.h"
#include "probes/sweep.h"

#define SSE2 (1u << X86_SET_SSE2)
#define AVX2 (1u << X86_SET_AVX2)
#define AVX512 (1u << X86_SET_AVX512)

/* CPUID bits (SDM vol. 2, CPUID). */
#define L1_ECX_XSAVE (1u << 26)
#define L1_ECX_AVX   (1u << 28)
#define L1_EDX_SSE2  (1u << 26)
#define L7_EBX_AVX2  (1u << 5)
#define L7_EBX_AVX512F (1u << 16)

#define XCR0_AVX_ON (XCR0_X87 | XCR0_SSE | XCR0_AVX)
#define XCR0_ALL_ON (XCR0_AVX_ON | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

static void test_set_choice(void)
{
	unsigned all = x86_stream_sets_offered(L1_ECX_XSAVE | L1_ECX_AVX, L1_EDX_SSE2,
					       L7_EBX_AVX2 | L7_EBX_AVX512F);

	CHECK(all == (SSE2 | AVX2 | AVX512), "a CPU with XSAVE, AVX, AVX2, AVX-512F offers all three");
	CHECK(x86_stream_sets_offered(L1_ECX_AVX, L1_EDX_SSE2, L7_EBX_AVX2 | L7_EBX_AVX512F) == SSE2,
	      "without XSAVE no VEX or EVEX set is offered: nothing could enable their state");
	CHECK(x86_stream_sets_offered(L1_ECX_XSAVE, L1_EDX_SSE2, L7_EBX_AVX2) == SSE2,
	      "AVX2's bit without AVX's: not offered");
	CHECK(x86_stream_sets_offered(L1_ECX_XSAVE | L1_ECX_AVX, L1_EDX_SSE2, 0) == SSE2,
	      "no leaf 7 bits (QEMU's qemu64): SSE2 only");

	CHECK(x86_stream_sets_enabled(all, 0, 0) == SSE2,
	      "OVMF's state (CR4.OSXSAVE clear): SSE2 runs, AVX2 and AVX-512 not");
	CHECK(x86_stream_sets_enabled(all, 1, XCR0_X87 | XCR0_SSE) == SSE2,
	      "OSXSAVE on but XCR0 = x87|SSE: still SSE2 only");
	CHECK(x86_stream_sets_enabled(all, 1, XCR0_AVX_ON) == (SSE2 | AVX2),
	      "XCR0 with AVX: AVX2 runs, AVX-512 not");
	CHECK(x86_stream_sets_enabled(all, 1, XCR0_AVX_ON | XCR0_OPMASK | XCR0_ZMM_HI256) ==
	      (SSE2 | AVX2), "two of AVX-512's three components are not enough");
	CHECK(x86_stream_sets_enabled(all, 1, XCR0_ALL_ON) == all, "everything on: all three run");
	CHECK(x86_stream_sets_enabled(SSE2 | AVX2, 1, XCR0_ALL_ON) == (SSE2 | AVX2),
	      "never a set the CPU does not offer, whatever XCR0 says");

	CHECK(x86_stream_xcr0_wanted(XCR0_X87 | XCR0_SSE, 0x2e7) == XCR0_ALL_ON,
	      "OVMF's x87|SSE and a CPU supporting x87..Hi16_ZMM, PKRU: AVX and AVX-512 added, PKRU not");
	CHECK(x86_stream_xcr0_wanted(XCR0_X87 | XCR0_SSE, 0x7) == XCR0_AVX_ON,
	      "no AVX-512 state supported: AVX only");
	CHECK(x86_stream_xcr0_wanted(XCR0_X87 | XCR0_SSE, 0x67) == XCR0_AVX_ON,
	      "a part of AVX-512's state is never written (XSETBV would #GP)");
	CHECK(x86_stream_xcr0_wanted(XCR0_X87 | XCR0_SSE, 0x3) == (XCR0_X87 | XCR0_SSE),
	      "no AVX state supported: XCR0 unchanged");
	CHECK(x86_stream_xcr0_wanted(XCR0_SSE | (1ull << 9), 0x2e7) == (XCR0_ALL_ON | (1ull << 9)),
	      "bits already on stay on, and x87 (which XCR0 must hold) is set");
}

/* Each kernel this machine can run: write stores all ones, copy copies the
   source exactly and only into the destination, read changes nothing, and
   no kernel touches a byte past its range or runs for zero passes. */
static void test_kernels(void)
{
	enum { BYTES = 8192, GUARD = 512 };
	static unsigned char src[BYTES + GUARD] __attribute__((aligned(64)));
	static unsigned char dst[BYTES + GUARD] __attribute__((aligned(64)));
	unsigned usable = stream_sets_enabled();

	CHECK(stream_set_count == X86_SET_COUNT && (usable & SSE2),
	      "three sets; SSE2 runs on every x86-64 Linux");
	for (unsigned s = 0; s < stream_set_count; s++) {
		const struct stream_kernels *k = &stream_sets[s];
		int ok_write = 1, ok_copy = 1, ok_read = 1, ok_nt = 1, ok_zero = 1;

		if (!(usable & (1u << s))) {
			printf("# %s cannot run on this machine: its kernels are not run here\n",
			       k->name);
			continue;
		}
		CHECK(k->block_bytes == 8 * k->vector_bytes && BYTES % k->block_bytes == 0,
		      "%s: a block is 8 vectors of %u bytes", k->name, k->vector_bytes);
		for (unsigned i = 0; i < sizeof src; i++)
			src[i] = (unsigned char)(i * 7 + 1);
		memset(dst, 0x11, sizeof dst);
		k->op[STREAM_WRITE](dst, NULL, BYTES, 2);
		for (unsigned i = 0; i < sizeof dst; i++)
			ok_write &= dst[i] == (i < BYTES ? 0xff : 0x11);
		memset(dst, 0x11, sizeof dst);
		k->op[STREAM_WRITE_NT](dst, NULL, BYTES, 1);
		for (unsigned i = 0; i < sizeof dst; i++)
			ok_nt &= dst[i] == (i < BYTES ? 0xff : 0x11);
		memset(dst, 0x11, sizeof dst);
		k->op[STREAM_COPY](dst, src, BYTES, 3);
		for (unsigned i = 0; i < sizeof dst; i++)
			ok_copy &= dst[i] == (i < BYTES ? src[i] : 0x11);
		k->op[STREAM_READ](NULL, src, BYTES, 4);
		for (unsigned i = 0; i < sizeof src; i++)
			ok_read &= src[i] == (unsigned char)(i * 7 + 1);
		memset(dst, 0x11, sizeof dst);
		k->op[STREAM_WRITE](dst, NULL, BYTES, 0);
		k->op[STREAM_WRITE](dst, NULL, 0, 5);
		for (unsigned i = 0; i < sizeof dst; i++)
			ok_zero &= dst[i] == 0x11;
		CHECK(ok_write, "%s: write stores all ones over its range and nothing past it", k->name);
		CHECK(ok_nt, "%s: the non-temporal write does the same", k->name);
		CHECK(ok_copy, "%s: copy copies the source exactly, nothing past its range", k->name);
		CHECK(ok_read, "%s: read leaves the source as it was", k->name);
		CHECK(ok_zero, "%s: zero passes or zero bytes touch nothing", k->name);
	}
}

/* ---- The probe through the host platform ------------------------------ */

#define MAX_ROWS 256

struct row {
	char variant[32];
	unsigned long long page_size, working_set;
	double ns, cycles, gb_per_s, bytes_per_cycle;
	unsigned trials;
	int is_bandwidth;
};

static struct row rows[MAX_ROWS];
static int row_count;

/* Every row as emit hands it on (the same fields results.csv gets;
   test_columns and test_csvread hold the file's round trip). */
static void keep_row(const struct result_row *in)
{
	struct row *r = &rows[row_count];

	if (row_count == MAX_ROWS)
		return;
	row_count++;
	snprintf(r->variant, sizeof r->variant, "%s", in->variant);
	r->is_bandwidth = !strcmp(in->probe, "bandwidth");
	r->page_size = in->page_shift ? 1ull << in->page_shift : 0;
	r->working_set = in->working_set_bytes;
	r->ns = in->ns;
	r->cycles = in->cycles;
	r->gb_per_s = in->gb_per_s.given ? in->gb_per_s.value : 0;
	r->bytes_per_cycle = in->bytes_per_cycle.given ? in->bytes_per_cycle.value : 0;
	r->trials = in->trials;
}

static int count(const char *variant, unsigned long long ws)
{
	int n = 0;

	for (int i = 0; i < row_count; i++)
		n += !strcmp(rows[i].variant, variant) && rows[i].working_set == ws;
	return n;
}

/* One run of the probe in the run folder, its rows kept from scratch. */
static int run_probe(const struct config *c)
{
	int rc;

	row_count = 0;
	results_open();
	emit_set_row_sink(keep_row);
	rc = probe_bandwidth(c);
	emit_set_row_sink(NULL);
	results_probe_done();
	results_close();
	return rc;
}

static const unsigned long long sizes_kib[] = { 4, 6, 8, 12, 16 };
#define SIZES (sizeof sizes_kib / sizeof *sizes_kib)

/* The quick profile's bandwidth probe alone, on 4 KiB pages over 4 to
   16 KiB (sizes_kib), with three short trials a size. */
static void small_config(struct config *c)
{
	config_defaults(c, PROFILE_QUICK);
	c->probes = PROBE_BANDWIDTH;
	c->pages = PAGES_4K;
	c->trials = 3;
	c->max_trials = 3;
	c->step_ms = 0.2;
	BANDWIDTH_SETTINGS(c)->min_size = 4096;
	BANDWIDTH_SETTINGS(c)->max_size = 16384;
}

/* The run folder's files, the folder and the scratch root, removed. */
static void remove_run(const char *root)
{
	static const char *const files[] = { "report.txt", "results.csv", "system.json",
					     "report.html" };
	char path[512];

	for (unsigned i = 0; i < sizeof files / sizeof *files; i++) {
		snprintf(path, sizeof path, "%s/%s", plat_run_folder(), files[i]);
		unlink(path);
	}
	rmdir(plat_run_folder());
	rmdir(root);
}

static void test_probe(void)
{
	static const char *const ops[] = { "read", "write", "copy", "ntwrite" };
	char root[] = "/tmp/memprobe-test-bandwidth-XXXXXX", variant[32];
	unsigned usable = stream_sets_enabled(), missing = 0, insane = 0, sets = 0;
	struct config c;
	int rc;

	CHECK(mkdtemp(root) != NULL, "a scratch results root");
	host_set_results_root(root);
	small_config(&c);
	BANDWIDTH_SETTINGS(&c)->sets = BANDWIDTH_ALL;
	rc = run_probe(&c);
	CHECK(rc == 0, "probe_bandwidth succeeds from 4 KiB to 16 KiB, 4 KiB pages");

	for (unsigned s = 0; s < stream_set_count; s++) {
		if (!(usable & (1u << s)))
			continue;
		sets++;
		for (unsigned op = 0; op < 4; op++)
			for (unsigned k = 0; k < SIZES; k++) {
				snprintf(variant, sizeof variant, "%s_%s", ops[op], stream_sets[s].name);
				missing += count(variant, sizes_kib[k] * 1024) != 1;
			}
	}
	for (int i = 0; i < row_count; i++) {
		const struct row *r = &rows[i];
		/* Unrounded here: they agree but for float rounding. */
		int sane = r->is_bandwidth && r->page_size == 4096 && r->trials >= 3 &&
			r->trials <= 3 && r->ns > 0 && r->gb_per_s > 0 && r->bytes_per_cycle > 0 &&
			fabs(r->gb_per_s * r->ns - 64) < 1e-9 &&
			fabs(r->bytes_per_cycle * r->cycles - 64) < 1e-9;
		if (!sane) {
			insane++;
			printf("# insane row: %s %llu: %g ns %g cycles %g GB/s %g B/cycle %u trials\n",
			       r->variant, r->working_set, r->ns, r->cycles, r->gb_per_s,
			       r->bytes_per_cycle, r->trials);
		}
	}
	CHECK(missing == 0 && row_count == (int)(sets * 4 * SIZES),
	      "one row per usable set, operation and size (%d rows, %u missing)", row_count, missing);
	CHECK(insane == 0, "every row: ns and cycles per 64-byte line, gb_per_s = 64 / ns, "
	      "bytes_per_cycle = 64 / cycles (%u not)", insane);

	/* The default: the widest set alone, 4 operations at one size. */
	BANDWIDTH_SETTINGS(&c)->sets = BANDWIDTH_WIDEST;
	BANDWIDTH_SETTINGS(&c)->min_size = BANDWIDTH_SETTINGS(&c)->max_size = 8192;
	rc = run_probe(&c);
	{
		unsigned widest = 0, widest_rows = 0;
		char suffix[16];

		for (unsigned s = 0; s < stream_set_count; s++)
			if (usable & (1u << s))
				widest = s;
		snprintf(suffix, sizeof suffix, "_%s", stream_sets[widest].name);
		for (int i = 0; i < row_count; i++) {
			size_t n = strlen(rows[i].variant), m = strlen(suffix);
			widest_rows += n > m && !strcmp(rows[i].variant + n - m, suffix);
		}
		CHECK(rc == 0 && row_count == 4 && widest_rows == 4,
		      "bandwidth.sets=widest: the four operations with %s alone (%d rows)",
		      stream_sets[widest].name, row_count);
	}

	BANDWIDTH_SETTINGS(&c)->min_size = 5000;
	BANDWIDTH_SETTINGS(&c)->max_size = 5100;
	CHECK(probe_bandwidth(&c) != 0, "a range between two sweep sizes measures nothing and fails");

	remove_run(root);
}

/* max_size = auto: the profile's grid, then one point in memory, 4 x the
   largest claimed cache, where the grid stops short of it (quick's 8 MiB
   on a 32 MiB L3: 128 MiB); none past quick's 1 GiB cap, none with a
   max_size given or nothing claimed, none where the grid reaches it. */
static void test_grid_plan(void)
{
	struct bandwidth_settings s = { 4096, 0, BANDWIDTH_WIDEST, 1, 1 };
	struct bandwidth_grid g;
	const uint64_t mib = 1ull << 20;

	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 32 * mib, &g) && sweep_bytes(g.first) == 4096 &&
	      sweep_bytes(g.last) == 8 * mib && g.memory && sweep_bytes(g.memory) == 128 * mib &&
	      !g.capped, "quick, a 32 MiB L3: 4 KiB .. 8 MiB, then 128 MiB");
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 48 * mib, &g) &&
	      sweep_bytes(g.memory) == 256 * mib, "quick, a 48 MiB L3: memory's point at 256 MiB");
	CHECK(bandwidth_grid_plan(&s, PROFILE_FULL, 32 * mib, &g) &&
	      sweep_bytes(g.last) == 512 * mib && !g.memory && !g.capped,
	      "full, a 32 MiB L3: the grid to 512 MiB reaches memory itself");
	CHECK(bandwidth_grid_plan(&s, PROFILE_FULL, 256 * mib, &g) &&
	      sweep_bytes(g.last) == 512 * mib && sweep_bytes(g.memory) == 1024 * mib,
	      "full, a 256 MiB L3: 1 GiB after the grid");
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 300 * mib, &g) && g.memory && !g.capped &&
	      sweep_bytes(g.memory) == 1280 * mib,
	      "quick, Emerald Rapids' 300 MiB claim: memory's point at 1.25 GiB");
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 508 * mib, &g) && g.memory && !g.capped &&
	      sweep_bytes(g.memory) == 2048 * mib,
	      "quick, a 508 MiB claim: memory's point at 2 GiB, within the 2 GiB cap");
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 1024 * mib, &g) && !g.memory &&
	      g.capped == 4096 * mib, "quick, a 1 GiB claim: 4 GiB lies past the 2 GiB cap");
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 0, &g) && !g.memory && !g.capped &&
	      sweep_bytes(g.last) == 8 * mib, "nothing claimed: the grid alone");
	s.max_size = 1 * mib;
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 32 * mib, &g) && !g.memory &&
	      sweep_bytes(g.last) == 1 * mib, "max_size given: that grid alone");
	s.max_size = 0;
	s.min_size = 64 * mib;
	CHECK(bandwidth_grid_plan(&s, PROFILE_QUICK, 32 * mib, &g) &&
	      sweep_bytes(g.first) == 64 * mib && sweep_bytes(g.last) == 64 * mib &&
	      sweep_bytes(g.memory) == 128 * mib, "auto with min_size past 8 MiB starts there");
}

/* ---- All-core bandwidth (bandwidth.cores) ----------------------------- */

/* The parts and the aggregate, by hand: the parts never overlap or pass
   the working set, are whole units, and the figure counts every CPU's
   lines over the one window. */
static void test_gang_maths(void)
{
	CHECK(bandwidth_gang_part(4096, 2, 512) == 2048, "4 KiB over 2 CPUs: 2 KiB each");
	CHECK(bandwidth_gang_part(4096, 3, 512) == 1024,
	      "4 KiB over 3 CPUs in 512-byte blocks: 1 KiB each, rounded down, never over");
	CHECK(bandwidth_gang_part(6144, 4, 256) == 1536, "6 KiB over 4 CPUs: 1.5 KiB each");
	CHECK(bandwidth_gang_part(4096, 8, 1024) == 0,
	      "under one unit per CPU (copy's two AVX-512 blocks): 0, not measured");
	CHECK(bandwidth_gang_part(512ull << 20, 256, 1024) == 2ull << 20,
	      "512 MiB over 256 CPUs: 2 MiB each");
	CHECK(bandwidth_gang_part(4096, 0, 512) == 0 && bandwidth_gang_part(4096, 2, 0) == 0,
	      "no CPUs or no unit: 0, no division by zero");
	/* 2 CPUs x 64 lines x 10 passes in 1000 ns: 81.92 GB/s. */
	CHECK(fabs(bandwidth_gang_ns_per_line(1000, 2, 4096, 10) - 1000.0 / 1280) < 1e-12 &&
	      fabs(64 / bandwidth_gang_ns_per_line(1000, 2, 4096, 10) - 2 * 4096 * 10 / 1000.0) <
	      1e-9, "ns per line = window / every CPU's lines: 64 / it = total bytes / window");
	CHECK(bandwidth_gang_ns_per_line(1000, 2, 0, 10) == 0,
	      "no lines moved: 0, which no row is made of");
	/* A stretch past every cache: what the target takes at the rate
	   measured, in whole blocks, within one block and the part. */
	CHECK(bandwidth_stretch_bytes(250, 1000, 8u << 20, 1u << 30, 512) == 2u << 20,
	      "8 MiB in 1000 ticks, a 250-tick target: 2 MiB");
	CHECK(bandwidth_stretch_bytes(250, 1000, 1000000, 1u << 30, 512) == 249856,
	      "rounded down to whole 512-byte blocks: 249856");
	CHECK(bandwidth_stretch_bytes(1000, 10, 8u << 20, 64u << 20, 512) == 64u << 20,
	      "more than the part: the part");
	CHECK(bandwidth_stretch_bytes(1, 1000, 4096, 64u << 20, 512) == 512,
	      "less than a block: one block");
	CHECK(bandwidth_stretch_bytes(250, 0, 8u << 20, 64u << 20, 512) == 64u << 20,
	      "no ticks measured: the part, no division by zero");
}

/* bandwidth.one_core = yes (both profiles' default) beside cores = 2 at
   8 KiB: one core's four rows first, then the pair's; and beside a count
   above the CPUs there are, one core's rows alone and the probe failed. */
static void test_one_core_first(struct config *c, unsigned cpus, const char *set)
{
	char one[48], two[48];
	int rc;

	BANDWIDTH_SETTINGS(c)->one_core = 1;
	rc = run_probe(c);
	snprintf(one, sizeof one, "read_%s", set);
	snprintf(two, sizeof two, "read_%s_x2", set);
	CHECK(rc == 0 && row_count == 8 && count(one, 8192) == 1 && count(two, 8192) == 1 &&
	      !strstr(rows[0].variant, "_x") && !strstr(rows[3].variant, "_x") &&
	      strstr(rows[4].variant, "_x2"), "bandwidth.one_core: one core's four rows, then "
	      "the two CPUs' (%d rows)", row_count);
	if (cpus + 1 > CONFIG_CPUS_MAX)
		return;
	BANDWIDTH_SETTINGS(c)->cores = cpus + 1;
	rc = run_probe(c);
	CHECK(rc != 0 && row_count == 4 && count(one, 8192) == 1,
	      "bandwidth.one_core beside more CPUs than there are: one core's rows, the probe "
	      "failed (%d rows)", row_count);
}

/* bandwidth.cores through the host platform (bandwidth.one_core = no:
   the CPUs together alone): every CPU streams, one row per operation and
   size with the CPU count in the variant and the parts together as the
   working set; a count above the CPUs is refused. */
static void test_gang_probe(void)
{
	static const char *const ops[] = { "read", "write", "copy", "ntwrite" };
	char root[] = "/tmp/memprobe-test-bandwidth-gang-XXXXXX", variant[48];
	unsigned cpus = plat_cpu_count(), usable = stream_sets_enabled(), widest = 0;
	unsigned missing = 0, insane = 0;
	struct config c;
	int rc;

	CHECK(mkdtemp(root) != NULL, "a scratch results root");
	host_set_results_root(root);
	small_config(&c);
	BANDWIDTH_SETTINGS(&c)->one_core = 0;
	if (cpus + 1 <= CONFIG_CPUS_MAX) {
		BANDWIDTH_SETTINGS(&c)->cores = cpus + 1;
		rc = run_probe(&c);
		CHECK(rc != 0 && row_count == 0, "bandwidth.cores = %u with %u CPUs: refused, "
		      "no row", cpus + 1, cpus);
	}
	if (cpus < 2) {
		printf("# one CPU here: the all-core rows cannot be measured on this machine\n");
		goto done;
	}
	for (unsigned s = 0; s < stream_set_count; s++)
		if (usable & (1u << s))
			widest = s;
	BANDWIDTH_SETTINGS(&c)->cores = BANDWIDTH_CORES_ALL;
	rc = run_probe(&c);
	CHECK(rc == 0, "bandwidth.cores = all on %u CPUs succeeds", cpus);
	for (unsigned op = 0; op < 4; op++)
		for (unsigned k = 0; k < SIZES; k++) {
			unsigned unit = stream_sets[widest].block_bytes * (op == 2 ? 2 : 1);
			uint64_t part = bandwidth_gang_part(sizes_kib[k] * 1024, cpus, unit);

			/* The grid's powers of two and its top; no midpoint. */
			int midpoint = (sizes_kib[k] & (sizes_kib[k] - 1)) && k + 1 < SIZES;

			snprintf(variant, sizeof variant, "%s_%s_x%u", ops[op],
				 stream_sets[widest].name, cpus);
			missing += part && count(variant, part * cpus) != (midpoint ? 0 : 1);
		}
	for (int i = 0; i < row_count; i++) {
		const struct row *r = &rows[i];
		int sane = r->is_bandwidth && r->page_size == 4096 && r->trials == 3 &&
			r->ns > 0 && r->gb_per_s > 0 && fabs(r->gb_per_s * r->ns - 64) < 1e-9 &&
			fabs(r->bytes_per_cycle * r->cycles - 64) < 1e-9 &&
			r->working_set <= 16384 && r->working_set % cpus == 0;
		insane += !sane;
	}
	CHECK(missing == 0 && row_count > 0 && row_count <= (int)(4 * SIZES),
	      "one row per operation and power of two each CPU gets a part of (no "
	      "midpoint), named _x%u, the parts together as the working set (%d rows, %u "
	      "wrong)", cpus, row_count,
	      missing);
	CHECK(insane == 0, "every all-core row: gb_per_s = 64 / ns, bytes_per_cycle = 64 / "
	      "cycles, a working set shared evenly (%u not)", insane);

	BANDWIDTH_SETTINGS(&c)->cores = 2;
	BANDWIDTH_SETTINGS(&c)->min_size = BANDWIDTH_SETTINGS(&c)->max_size = 8192;
	rc = run_probe(&c);
	snprintf(variant, sizeof variant, "read_%s_x2", stream_sets[widest].name);
	CHECK(rc == 0 && row_count == 4 && count(variant, 8192) == 1,
	      "bandwidth.cores = 2: the four operations on CPUs 0 and 1 (%d rows)", row_count);
	test_one_core_first(&c, cpus, stream_sets[widest].name);
done:
	remove_run(root);
}

int main(void)
{
	test_set_choice();
	test_kernels();
	test_probe();
	test_grid_plan();
	test_gang_maths();
	test_gang_probe();
	CHECK(report_table_misfits() == 0,
	      "every report table row gave each column its cell (report_table_misfits)");
	return check_summary();
}
