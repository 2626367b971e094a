/* TLB levels from the tlb probe's rows: synthetic Zen 3-like curves held
 * against Zen 3's recorded CPUID, the control's part in telling a cache step
 * from a TLB step, noise, a sweep that ends on a climb, the hypervisor
 * observations, the JSON members and tlb.svg; and a real recording of this
 * project's Emerald Rapids VM (tests/data/emr-vm-tlb.csv).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "recorded.h"
#include "read_back.h"
#include "sink.h"
#include "desk/analyze.h"
#include "analysis/analysis.h"
#include "results/csvread.h"
#include "lib/json.h"
#include "core/platform.h"

#define GHZ 2.95

/* The tlb probe's grid: 8, 12, 16, 24, ... up to 16384 pages. */
static size_t grid(uint64_t *out, uint64_t top)
{
	size_t n = 0;

	for (uint64_t p = 8; p <= top; p = (p & (p - 1)) == 0 ? p / 2 * 3 : p / 3 * 4)
		out[n++] = p;
	return n;
}

/* A Zen 3-like core in cycles: L1 hit 4, L2 12, L3 46; an L1 DTLB of 64
   entries whose miss (an L2 TLB hit) adds 7; an L2 TLB of 2048 whose miss
   (a walk) adds 50. The chase's N lines fit L1 to 512 and L2 to 8192, like
   the control's. `half` reads the point at exactly each TLB's entries
   half-way up: the chase's own stack and code pages take entries too, so a
   TLB filled exactly by the chase already misses. */
static double caches(uint64_t lines)
{
	return lines <= 512 ? 4.0 : lines <= 8192 ? 12.0 : 46.0;
}

static double chase_model(uint64_t pages, int half)
{
	double c = caches(pages);

	if (pages > 64 || (half && pages == 64))
		c += pages == 64 ? 3.5 : 7.0;
	if (pages > 2048 || (half && pages == 2048))
		c += pages == 2048 ? 25.0 : 50.0;
	return c;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static void add_row(struct analysis *a, const char *variant, unsigned shift, uint64_t ws,
		    double cycles)
{
	struct result_row r = { .probe = "tlb", .variant = variant, .page_shift = shift,
				.working_set_bytes = ws, .ns = cycles / GHZ, .cycles = cycles,
				.trials = 3, .spread = 0.01, .pages_verified = "pages verified: test",
				.timer = "test" };

	analysis_add_row(a, &r);
}

/* Rows of a 4 KiB-page run; noise: each figure gains up to this fraction. */
static void zen3_rows(struct analysis *a, double noise, int half, int control)
{
	uint64_t n[64];
	size_t count = grid(n, 16384);

	for (size_t k = 0; k < count; k++) {
		add_row(a, "chase", PAGE_SHIFT_4K, n[k] << 12,
			chase_model(n[k], half) * (1.0 + noise * uniform()));
		if (control)
			add_row(a, "control", PAGE_SHIFT_4K, n[k] * 64,
				caches(n[k]) * (1.0 + noise * uniform()));
	}
}

static const struct cache_claims *zen3_claims(void)
{
	static struct cache_claims claims;
	size_t len;
	char *text = read_all("tests/data/zen3-vm-cpuid.json", &len);

	CHECK(claims_from_system_json(text, len, &claims) == 0 && claims.ntlbs > 4,
	      "Zen 3's recorded CPUID decodes with its TLBs (%u)", claims.ntlbs);
	free(text);
	return &claims;
}

/* The n-th TLB level, in order, or NULL. */
static const struct level *tlb_level(const struct analysis *a, size_t n, size_t *index)
{
	for (size_t i = 0; i < a->h.nlevels; i++)
		if (a->h.level[i].kind == LEVEL_TLB && n-- == 0) {
			if (index)
				*index = i;
			return &a->h.level[i];
		}
	return NULL;
}

static size_t tlb_count(const struct analysis *a)
{
	size_t n = 0;

	while (tlb_level(a, n, NULL))
		n++;
	return n;
}

static void take(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

static void expect_zen3(const struct analysis *a, const char *what)
{
	size_t i1 = 0, i2 = 0;
	const struct level *l1 = tlb_level(a, 0, &i1), *l2 = tlb_level(a, 1, &i2);

	CHECK(tlb_count(a) == 2, "%s: two TLB levels, none at the caches' 512 and 8192 (%zu)",
	      what, tlb_count(a));
	CHECK(l1 && l1->entries == 64 && l1->size_bytes == 256 * 1024 &&
	      a->check[i1].verdict == VERDICT_AGREES && !strcmp(l1->name, "L1 DTLB"),
	      "%s: L1 DTLB 64 entries, 256 KiB reach, agrees (%llu, %s)", what,
	      l1 ? (unsigned long long)l1->entries : 0ull, l1 ? l1->name : "-");
	CHECK(l2 && l2->entries == 2048 && l2->size_bytes == 8ull << 20 &&
	      a->check[i2].verdict == VERDICT_AGREES && !strcmp(l2->name, "L2 TLB"),
	      "%s: L2 TLB 2048 entries, 8 MiB reach, agrees (%llu, %s)", what,
	      l2 ? (unsigned long long)l2->entries : 0ull, l2 ? l2->name : "-");
	CHECK(l1 && fabs(l1->cycles - 4.0) < 0.8 && fabs(l1->increase_cycles - 7.0) < 1.5,
	      "%s: within the L1 DTLB 4 cycles, its miss adds 7 (%.2f, %+.2f)", what,
	      l1 ? l1->cycles : 0, l1 ? l1->increase_cycles : 0);
	CHECK(l2 && fabs(l2->cycles - 19.0) < 2.5 && fabs(l2->increase_cycles - 50.0) < 8.0,
	      "%s: within the L2 TLB 19 cycles (L2 cache + L1 DTLB miss), a walk adds 50 "
	      "(%.2f, %+.2f)", what, l2 ? l2->cycles : 0, l2 ? l2->increase_cycles : 0);
}

static void test_zen3_shapes(void)
{
	static struct analysis a;
	const struct cache_claims *claims = zen3_claims();

	analysis_init(&a);
	zen3_rows(&a, 0, 0, 1);
	analysis_set_claims(&a, claims, "test");
	analysis_compute(&a);
	expect_zen3(&a, "sharp steps");

	analysis_init(&a);
	zen3_rows(&a, 0, 1, 1);
	analysis_set_claims(&a, claims, "test");
	analysis_compute(&a);
	expect_zen3(&a, "the exact-capacity point half-way up");

	for (int seed = 1; seed <= 5; seed++) {
		char what[48];
		rng = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
		analysis_init(&a);
		zen3_rows(&a, 0.08, seed & 1, 1);
		analysis_set_claims(&a, claims, "test");
		analysis_compute(&a);
		snprintf(what, sizeof what, "8%% noise, seed %d", seed);
		expect_zen3(&a, what);
	}
}

/* Without the control every step of the chase counts, the caches' too:
   that is what the control is for. */
static void test_control_decides(void)
{
	static struct analysis a;

	analysis_init(&a);
	zen3_rows(&a, 0, 0, 0);
	analysis_compute(&a);
	CHECK(tlb_count(&a) == 4, "without control rows the caches' steps at 512 and 8192 "
	      "read as levels too (%zu levels)", tlb_count(&a));

	/* A step the control shows as well is the caches', however large. */
	analysis_init(&a);
	for (uint64_t n = 8; n <= 4096; n *= 2) {
		double c = n <= 256 ? 4.0 : 40.0;
		add_row(&a, "chase", PAGE_SHIFT_4K, n << 12, c);
		add_row(&a, "control", PAGE_SHIFT_4K, n * 64, c);
	}
	analysis_compute(&a);
	CHECK(tlb_count(&a) == 0, "a 10x step the control shares is no TLB level (%zu)",
	      tlb_count(&a));
}

/* The control comes from the largest page size that measured each count:
   a 4 KiB control past 64 pages of lines would carry its own TLB misses. */
static void test_control_from_large_pages(void)
{
	static struct analysis a;
	uint64_t n[64];
	size_t count = grid(n, 16384);
	const struct level *l;

	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		/* The 4 KiB control past 4096 lines (64 pages) misses the L1
		   DTLB itself; the 2 MiB one does not. */
		add_row(&a, "chase", PAGE_SHIFT_4K, n[k] << 12, chase_model(n[k], 0));
		add_row(&a, "control", PAGE_SHIFT_4K, n[k] * 64,
			caches(n[k]) + (n[k] > 4096 ? 7.0 : 0.0));
		add_row(&a, "control", PAGE_SHIFT_2M, n[k] * 64, caches(n[k]));
	}
	analysis_compute(&a);
	l = tlb_level(&a, 1, NULL);
	CHECK(l && l->entries == 2048 && fabs(l->increase_cycles - 50.0) < 1.0,
	      "the walk's cost is judged against the 2 MiB control (%+.2f)",
	      l ? l->increase_cycles : 0);
}

static void test_open_end_and_report(void)
{
	static struct analysis a;
	static struct sink report;
	uint64_t n[64];
	size_t count = grid(n, 3072);

	/* A sweep cut at 3072 pages, past the L2 TLB's edge by two points
	   still climbing: no plateau past it, so no level, but the report says
	   the reach lies beyond, with its lower bound. */
	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		double c = chase_model(n[k], 0) + (n[k] > 2048 ? 40.0 * (double)n[k] / 3072 : 0);
		add_row(&a, "chase", PAGE_SHIFT_2M, n[k] << 21, n[k] <= 1536 ? 11 : c);
		add_row(&a, "control", PAGE_SHIFT_2M, n[k] * 64, 4.0);
	}
	analysis_compute(&a);
	report.len = 0;
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "2 MiB pages: the TLB share still climbs at the sweep's end, "
		     "3072 pages") && strstr(report.buf, "its entries are at least 1536"),
	      "a sweep ending on a climb says its level lies past the end, at least 1536 entries");
	CHECK(strstr(report.buf, "no latency rows: cache levels not read") &&
	      strstr(report.buf, "TLB levels, read from the tlb probe"),
	      "tlb rows alone make a report: no cache levels, a TLB table");
}

/* The quick sweep of a Zen 3 VM: it stops at 4096 pages, twice the L2
   TLB's 2048 entries, and past that edge the walks leave the caches, so
   the chase keeps climbing (here a fifth more each point) and no plateau
   forms above it. The jump into the climb is the L2 TLB's edge all the
   same. */
static void test_step_into_climb(void)
{
	static struct analysis a;
	uint64_t n[64];
	size_t count = grid(n, 4096);

	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		double c = chase_model(n[k], 0);
		if (n[k] > 2048)
			c *= 1.0 + 0.2 * ((double)k + 1.0 - (double)count);   /* 3072: 0.8x of 4096's */
		add_row(&a, "chase", PAGE_SHIFT_4K, n[k] << 12, c);
		add_row(&a, "control", PAGE_SHIFT_4K, n[k] * 64, caches(n[k]));
	}
	analysis_set_claims(&a, zen3_claims(), "test");
	analysis_compute(&a);
	{
		size_t i2 = 0;
		const struct level *l2 = tlb_level(&a, 1, &i2);
		CHECK(l2 && l2->entries == 2048 && a.check[i2].verdict == VERDICT_AGREES &&
		      !strcmp(l2->name, "L2 TLB"),
		      "a sweep ending on a climb past the edge still names the L2 TLB, 2048 entries, "
		      "agrees (%llu)", l2 ? (unsigned long long)l2->entries : 0ull);
	}
	/* Without the jump (a slow climb of a tenth a point) nothing is
	   named: a climb alone is no edge. */
	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		double c = 19.0 * (n[k] > 1024 ? 1.0 + 0.1 * ((double)k + 5.0 - (double)count) : 1.0);
		add_row(&a, "chase", PAGE_SHIFT_4K, n[k] << 12, n[k] <= 64 ? 12.0 : c > 19.0 ? c : 19.0);
		add_row(&a, "control", PAGE_SHIFT_4K, n[k] * 64, 4.0);
	}
	analysis_compute(&a);
	CHECK(tlb_level(&a, 1, 0) == 0, "a climb of under 1.3x a point names no second level");
}

static void test_hypervisor_signs(void)
{
	static struct analysis a;
	static struct cache_claims claims;
	static struct sink report;
	uint64_t n[64];
	size_t count = grid(n, 16384);

	/* 2 MiB pages whose first plateau already pays an L1 DTLB miss, under
	   a hypervisor. Zen 3's claims give 2 MiB pages the same entries as
	   4 KiB ones, so the entries alone are no sign here. */
	claims = *zen3_claims();
	claims.hypervisor = 1;
	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		add_row(&a, "chase", PAGE_SHIFT_4K, n[k] << 12, chase_model(n[k], 0));
		add_row(&a, "control", PAGE_SHIFT_4K, n[k] * 64, caches(n[k]));
		add_row(&a, "chase", PAGE_SHIFT_2M, n[k] << 21, chase_model(n[k], 0) + 7.0 *
			(n[k] <= 64));
		add_row(&a, "control", PAGE_SHIFT_2M, n[k] * 64, caches(n[k]));
	}
	analysis_set_claims(&a, &claims, "test");
	analysis_compute(&a);
	CHECK(a.host_page_signs == 1 && strstr(a.host_pages, "2 MiB pages: even 8 pages read"),
	      "2 MiB pages already past an L1 DTLB miss at 8 pages: one sign, named (%u)",
	      a.host_page_signs);
	report.len = 0;
	analysis_print(&a, to_text, &report);
	CHECK(strstr(report.buf, "the host's pages may cap the reach"), "the report says so");

	/* The same data on bare metal: no hypervisor, no such line. */
	claims.hypervisor = 0;
	analysis_set_claims(&a, &claims, "test");
	analysis_compute(&a);
	CHECK(a.host_page_signs == 0, "without a hypervisor nothing is said of host pages");

	/* Large pages behaving as large pages: no sign either. */
	claims.hypervisor = 1;
	analysis_init(&a);
	for (size_t k = 0; k < count; k++) {
		add_row(&a, "chase", PAGE_SHIFT_4K, n[k] << 12, chase_model(n[k], 0));
		add_row(&a, "control", PAGE_SHIFT_4K, n[k] * 64, caches(n[k]));
		add_row(&a, "chase", PAGE_SHIFT_2M, n[k] << 21, chase_model(n[k], 0) - 20.0 *
			(n[k] > 2048));
		add_row(&a, "control", PAGE_SHIFT_2M, n[k] * 64, caches(n[k]));
	}
	analysis_set_claims(&a, &claims, "test");
	analysis_compute(&a);
	CHECK(a.host_page_signs == 0, "2 MiB pages with a cheaper walk and the 4 KiB first "
	      "plateau: no sign (%u: %s)", a.host_page_signs, a.host_pages);
}

static void test_json_and_svg(void)
{
	static struct analysis a;
	static char buf[65536];
	static struct sink svg;
	struct json j;
	const struct cache_claims *claims = zen3_claims();

	analysis_init(&a);
	zen3_rows(&a, 0, 0, 1);
	analysis_set_claims(&a, claims, "test");
	analysis_compute(&a);
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	analysis_json(&j, &a);
	json_object_end(&j);
	CHECK(!j.overflow && j.depth == 0, "hierarchy JSON complete");
	FILE *f = fopen("/tmp/memprobe-test-tlb-levels.json", "w");
	if (f) {
		fwrite(buf, 1, j.len, f);
		fclose(f);
	}
	CHECK(system("python3 -c '\n"
		     "import json\n"
		     "d = json.load(open(\"/tmp/memprobe-test-tlb-levels.json\"))\n"
		     "t = [l for l in d[\"levels\"] if l[\"kind\"] == \"tlb\"]\n"
		     "assert [l[\"entries\"] for l in t] == [64, 2048], t\n"
		     "for l in t:\n"
		     "    assert l[\"page_size\"] == 4096 and l[\"size_bytes\"] == l[\"entries\"] * 4096\n"
		     "    assert l[\"cycles\"] > 0 and l[\"increase_cycles\"] > 0 and l[\"verdict\"] == \"agrees\"\n"
		     "    assert \"TLB\" in l[\"claim\"] and l[\"claim_source\"].startswith(\"CPUID\")\n"
		     "assert d[\"tlb_curves\"][0][\"page_counts\"] == 23 and d[\"tlb_curves\"][0][\"control_points\"] == 23\n"
		     "'") == 0,
	      "system.json's hierarchy: tlb levels with page_size, entries, size_bytes (the reach), "
	      "cycles, increase_cycles, the claim with its source and verdict; the tlb curves listed");
	remove("/tmp/memprobe-test-tlb-levels.json");

	svg.len = 0;
	CHECK(analysis_write_tlb_svg(&a, to_sink, &svg) == 0, "tlb.svg written");
	CHECK(count_text(svg.buf, "<polyline class=\"curve\"") == 1 &&
	      strstr(svg.buf, "<title>4 KiB pages</title>"), "one curve, for the one page size");
	CHECK(strstr(svg.buf, ">L1 DTLB 64 entries</text>") &&
	      strstr(svg.buf, ">L2 TLB 2048 entries</text>"), "both TLB edges marked and labelled");
	CHECK(strstr(svg.buf, "pages touched (log2 scale)") &&
	      strstr(svg.buf, "core cycles per load"), "axes: pages touched, cycles per load");
	f = fopen("/tmp/memprobe-test-tlb.svg", "w");
	if (f) {
		fwrite(svg.buf, 1, svg.len, f);
		fclose(f);
	}
	CHECK(system("xmllint --noout /tmp/memprobe-test-tlb.svg") == 0, "xmllint accepts tlb.svg");
	remove("/tmp/memprobe-test-tlb.svg");
}

/* A recorded results.csv into a (initialized first): 0 when it read. */
static int read_recorded(const char *path, struct analysis *a)
{
	analysis_init(a);
	return read_rows(path, take, a);
}

/* This project's Emerald Rapids VM (Golden Cove cores: a 96-entry L1 DTLB
   for 4 KiB loads, a 2048-entry STLB). Its hypervisor leaves leaf 18h
   empty: the claims are the TLBs Intel documents for the model, and the
   levels agree with them. */
static void test_recording(void)
{
	static struct analysis a;
	static struct cache_claims claims;
	size_t i1 = 0, i2 = 0;
	const struct level *l1, *l2;

	CHECK(read_recorded("tests/data/emr-vm-tlb.csv", &a) == 0 && a.tlb.rows == 84,
	      "the recording reads back: 84 tlb rows (%u)", a.tlb.rows);
	CHECK(read_claims("tests/data/emr-vm-cpuid.json", &claims) == 0 && claims.ntlbs == 5 &&
	      claims.hypervisor && claims.tlb[0].entries == 96 && claims.tlb[4].entries == 2048 &&
	      strstr(claims.tlb[0].source, "documentation"),
	      "its CPUID: under a hypervisor, leaf 18h empty: the TLBs Intel documents for "
	      "model 207 (data 96 and 32, instruction 256 and 32, STLB 2048), said to come "
	      "from the documentation");
	analysis_set_claims(&a, &claims, "tests/data/emr-vm-cpuid.json");
	analysis_compute(&a);
	l1 = tlb_level(&a, 0, &i1);
	l2 = tlb_level(&a, 1, &i2);
	CHECK(l1 && l1->page_shift == PAGE_SHIFT_4K && l1->entries >= 64 && l1->entries <= 128,
	      "4 KiB pages: a first TLB level at 64-128 entries (%llu)",
	      l1 ? (unsigned long long)l1->entries : 0ull);
	CHECK(l2 && l2->page_shift == PAGE_SHIFT_4K && l2->entries >= 1536 && l2->entries <= 3072,
	      "4 KiB pages: a second at 1536-3072 entries (%llu)",
	      l2 ? (unsigned long long)l2->entries : 0ull);
	CHECK(l1 && l2 && l1->increase_cycles > 0 && l2->increase_cycles > l1->increase_cycles,
	      "each miss costs cycles, a walk more than an STLB hit (%+.2f, %+.2f)",
	      l1 ? l1->increase_cycles : 0, l2 ? l2->increase_cycles : 0);
	CHECK(l1 && l2 && a.check[i1].verdict == VERDICT_AGREES && l1->entries == 96 &&
	      a.check[i2].verdict == VERDICT_AGREES && l2->entries == 2048 &&
	      !strcmp(l1->name, "L1 DTLB") && !strcmp(l2->name, "L2 TLB"),
	      "L1 DTLB 96 and L2 TLB 2048 agree with the documented TLBs (%s %llu, %s %llu)",
	      l1 ? l1->name : "-", l1 ? (unsigned long long)l1->entries : 0ull,
	      l2 ? l2->name : "-", l2 ? (unsigned long long)l2->entries : 0ull);
	CHECK(a.host_page_signs >= 1, "2 MiB guest pages that start past an L1 DTLB miss are "
	      "named as a sign of smaller host pages (%u)", a.host_page_signs);
}

/* A full-profile run on that VM (2026-12-05): the 2 MiB chase rose from
   4.0 ns at 768 pages to 9.0 at 832, its one line a page filling the 48
   KiB L1d at 768 lines (the control rose from 1.8 to 5.9 there), while
   the TLB's own share, the chase less the control, climbed from 7 cycles
   at 768 pages to 37 by 1536, half way between 1024 and 1152. The level
   is placed on that share: 1024 entries, not the L1d's 768. */
static void test_control_shares_step(void)
{
	static struct analysis a;
	static struct cache_claims claims;
	size_t i = 0, n = 0, at = 0;
	const struct level *l, *big = NULL;

	CHECK(read_recorded("tests/data/emr-vm-tlb-full-1.csv", &a) == 0 && a.tlb.rows > 100,
	      "the full run's tlb rows read back (%u)", a.tlb.rows);
	CHECK(read_claims("tests/data/emr-vm-cpuid.json", &claims) == 0, "its claims read back");
	analysis_set_claims(&a, &claims, "tests/data/emr-vm-cpuid.json");
	analysis_compute(&a);
	while ((l = tlb_level(&a, n++, &i)))
		if (l->page_shift == PAGE_SHIFT_2M && l->entries > 32) {
			big = l;
			at = i;
		}
	CHECK(big && big->entries >= 1024 && big->entries <= 1152 && big->below_bytes >> 21 >= 1024,
	      "2 MiB pages: the step the L1d shares is placed on the TLB's share, 1024 .. 1152 "
	      "pages (%llu, from %llu)", big ? (unsigned long long)big->entries : 0ull,
	      big ? (unsigned long long)(big->below_bytes >> 21) : 0ull);
	/* The one claim of its place, the STLB's 2048 (the L1 DTLB's 32
	   agreeing below, nothing above): held against it, and differing. */
	CHECK(big && a.check[at].tlb && a.check[at].tlb->entries == 2048 &&
	      a.check[at].verdict == VERDICT_DIFFERS && !strcmp(big->name, "L2 TLB"),
	      "2 MiB pages: the level is held against the 2048-entry STLB, named L2 TLB, "
	      "differing (%u, %s, %s)", a.check[at].tlb ? a.check[at].tlb->entries : 0u,
	      verdict_name(a.check[at].verdict), big ? big->name : "-");
}

/* A full run on this project's Emerald Rapids VM (tests/data/emr-vm-full-2.csv):
   its 2 MiB pages' first level held 32 entries at +7.4 cycles (4 KiB
   pages: 96 at +6.8), so the TLB holds 2 MiB entries; their last edge
   then added 19.3 ns against 4 KiB pages' 12.7, a nested walk per large
   page. Read as a sign of the host's small pages, it joined the L3 share
   (8.5 .. 16 MiB) into memory, and the card said "L3 not seen". */
static void test_own_large_entries(void)
{
	static struct analysis a;
	static struct cache_claims claims;
	size_t caches = 0;

	CHECK(read_recorded("tests/data/emr-vm-full-2.csv", &a) == 0 && a.tlb.rows > 100,
	      "emr-vm-full-2.csv reads back (%u tlb rows)", a.tlb.rows);
	CHECK(read_claims("tests/data/emr-vm-cpuid.json", &claims) == 0, "its claims read back");
	analysis_set_claims(&a, &claims, "tests/data/emr-vm-cpuid.json");
	analysis_compute(&a);
	for (size_t i = 0; i < a.h.nlevels; i++)
		caches += a.h.level[i].kind == LEVEL_CACHE || a.h.level[i].kind == LEVEL_EDGE;
	CHECK(a.host_page_signs == 0 && caches == 3 && !a.h.climb.bytes,
	      "no sign of the host's small pages, three caches, no climb joined to memory "
	      "(%u signs: %s; %zu caches)", a.host_page_signs, a.host_pages, caches);
}

/* Five quick runs in a row on this project's Emerald Rapids VM, whose 2
   MiB sweep ends at 1024 pages: each read 4.5 to 5 ns to 512 pages, then
   climbed to 6 .. 11 at 768 and 14 .. 17 at 1024 (the full sweep's step,
   test_control_shares_step, is at 1024 .. 1152). A jump within an octave
   of the sweep's end that no claim brackets is no level: every run names
   the same levels, 96 and 2048 entries of 4 KiB pages and 32 of 2 MiB
   pages, and leaves the rest to its report's open end. A sixth, a day
   later, refined its jump to 480 .. 512 pages (4.8 to 7.2 ns, then 9.3 at
   768 and 17.0 at 1024), just an octave from the end, and was carded
   "L2 TLB 2 MiB 480 ... differs" until the sweep had to run more than an
   octave past a jump (analysis/tlb_levels.c, climb_measured). */
static void test_jump_at_sweep_end(void)
{
	static struct analysis a;
	static struct cache_claims claims;

	CHECK(read_claims("tests/data/emr-vm-cpuid.json", &claims) == 0, "its claims read back");
	for (int run = 1; run <= 6; run++) {
		char path[64];
		size_t i = 0, n = 0, small = 0, large = 0, other = 0;
		const struct level *l;

		snprintf(path, sizeof path, "tests/data/emr-vm-quick-tlb-%d.csv", run);
		CHECK(read_recorded(path, &a) == 0 && a.tlb.rows > 100, "%s reads back (%u rows)",
		      path, a.tlb.rows);
		analysis_set_claims(&a, &claims, "tests/data/emr-vm-cpuid.json");
		analysis_compute(&a);
		while ((l = tlb_level(&a, n++, &i))) {
			if (l->walk)
				continue;
			if (l->page_shift == PAGE_SHIFT_2M && l->entries == 32)
				large++;
			else if (l->page_shift == PAGE_SHIFT_4K &&
				 (l->entries == 96 || l->entries == 2048))
				small++;
			else
				other++;
		}
		CHECK(small == 2 && large == 1 && other == 0,
		      "%s: TLB levels 96 and 2048 (4 KiB), 32 (2 MiB), no other (%zu, %zu, %zu)",
		      path, small, large, other);
	}
}

/* The five Zen 4 runs (test_budget_pair says what each shows). */
static const char *const runs[] = { "tests/data/zen4-vm-tlb-full.csv",
				    "tests/data/zen4-vm-tlb-long.csv",
				    "tests/data/zen4-vm-tlb-again.csv",
				    "tests/data/zen4-vm-tlb-loaded.csv",
				    "tests/data/zen4-vm-tlb-quick.csv" };

/* The first TLB level of a page size in a, or NULL. */
static const struct level *first_tlb_of(const struct analysis *a, unsigned shift, size_t *index)
{
	for (size_t n = 0; tlb_level(a, n, index); n++)
		if (tlb_level(a, n, index)->page_shift == shift)
			return tlb_level(a, n, index);
	return NULL;
}

/* Two full-profile tlb sweeps of a Zen 4 VM (EPYC family 19h model 11h: L1
   DTLB 72 entries, L2 TLB 3072), one at the profile's budget and one at 4x
   it, recorded one after the other at load 2.7-5: in the first, 64 pages
   read part way up (1.91 ns between 1.13 and 3.0) and 72 was not measured,
   so its crossing fell between 60 and 64; in the second 72 fit and 80
   missed. Both readings allow the claimed 72, and both runs must name the
   level the same: L1 DTLB 72 (4 KiB and 2 MiB pages), L2 TLB 3072. A
   third run at the budget, later (load 2-2.6), stalled inside two steps:
   2 MiB pages read 1.7-1.9 ns at 64 and 72 between 1.1 and 13, 4 KiB
   pages 11 ns at 2816 and 3072 between 6 and 24; the stalls are no
   levels of their own, and it names the same. So does a fourth, at load
   5.6-5.9, whose 4 KiB curve stepped again at 6144 pages, past every
   claimed TLB: the page walks leaving the caches; and a quick-profile
   run (load 2.2-2.5) whose L2 TLB stalled at 2816 and 3072 pages (12-14
   ns between 6 and a climb from 20 at 4096) with no plateau past it. */
static void test_budget_pair(void)
{
	static struct analysis a;
	static struct cache_claims claims;
	size_t len;
	char *text = read_all("tests/data/zen4-vm-cpuid.json", &len);

	CHECK(claims_from_system_json(text, len, &claims) == 0 && claims.ntlbs >= 4 &&
	      tlb_claimed_largest(&claims, PAGE_SHIFT_4K) &&
	      !strcmp(tlb_claimed_largest(&claims, PAGE_SHIFT_4K)->source, "CPUID 8000_0006h"),
	      "Zen 4's recorded CPUID decodes with its TLBs, plausible, so CPUID's own (%u)",
	      claims.ntlbs);
	free(text);
	for (size_t r = 0; r < 5; r++) {
		struct csv_summary sum;
		size_t i4 = 0, i2 = 0, is = 0;
		const struct level *l4, *l2m, *stlb;

		text = read_all(runs[r], &len);
		analysis_init(&a);
		CHECK(results_csv_read(text, len, take, &a, &sum) == 0 && a.tlb.rows > 60,
		      "%s reads back (%u tlb rows)", runs[r], a.tlb.rows);
		free(text);
		analysis_set_claims(&a, &claims, "tests/data/zen4-vm-cpuid.json");
		analysis_compute(&a);
		l4 = first_tlb_of(&a, PAGE_SHIFT_4K, &i4);
		l2m = first_tlb_of(&a, PAGE_SHIFT_2M, &i2);
		stlb = tlb_level(&a, 1, &is);
		CHECK(l4 && !strcmp(l4->name, "L1 DTLB") && l4->entries == 72 &&
		      a.check[i4].verdict == VERDICT_AGREES,
		      "%s: 4 KiB pages: L1 DTLB 72 entries, agrees (%s %llu)", runs[r],
		      l4 ? l4->name : "-", l4 ? (unsigned long long)l4->entries : 0ull);
		CHECK(stlb && stlb->page_shift == PAGE_SHIFT_4K && !strcmp(stlb->name, "L2 TLB") &&
		      stlb->entries == 3072 && a.check[is].verdict == VERDICT_AGREES,
		      "%s: 4 KiB pages: L2 TLB 3072 entries, agrees (%s %llu)", runs[r],
		      stlb ? stlb->name : "-", stlb ? (unsigned long long)stlb->entries : 0ull);
		CHECK(l2m && !strcmp(l2m->name, "L1 DTLB") && l2m->entries == 72 &&
		      a.check[i2].verdict == VERDICT_AGREES,
		      "%s: 2 MiB pages: L1 DTLB 72 entries, agrees (%s %llu)", runs[r],
		      l2m ? l2m->name : "-", l2m ? (unsigned long long)l2m->entries : 0ull);
		{
			/* Past the L2 TLB the loaded run stepped again (6144
			   pages), the others did not: no TLB level of 4 KiB
			   pages past 3072 but the page walks, named so. */
			unsigned past = 0, walks = 0;
			for (size_t k = 0; tlb_level(&a, k, NULL); k++) {
				const struct level *l = tlb_level(&a, k, NULL);
				if (l->page_shift != PAGE_SHIFT_4K || l->entries <= 3072)
					continue;
				past++;
				walks += l->walk && !strcmp(l->name, "walks");
			}
			CHECK(past == walks && (r != 3 || walks == 1),
			      "%s: every 4 KiB step past the L2 TLB is the walks' (%u of %u)",
			      runs[r], walks, past);
		}
	}
}

/* The same five Zen 4 runs read without claims (a CPU whose CPUID states
   no TLB, or a hypervisor's wrong ones): the walks are told from the curve
   alone. The loaded run's step at 6144 pages comes out of a climb (its
   lower stretch, 3072 .. 5632 pages, spans less than an octave): walks;
   the L1 DTLB and the L2 TLB, each with a plateau of octaves below its
   edge, stay levels in every run; system.json lists the walks apart. */
static void test_walks_without_claims(void)
{
	static struct analysis a;
	static char json_text[65536];

	for (size_t r = 0; r < 5; r++) {
		struct csv_summary sum;
		struct json j;
		size_t len;
		char *text = read_all(runs[r], &len);
		unsigned levels4k = 0, walks = 0, big = 0;
		const char *w;

		analysis_init(&a);
		CHECK(results_csv_read(text, len, take, &a, &sum) == 0, "%s reads back", runs[r]);
		free(text);
		analysis_compute(&a);
		for (size_t k = 0; tlb_level(&a, k, NULL); k++) {
			const struct level *l = tlb_level(&a, k, NULL);
			if (l->page_shift != PAGE_SHIFT_4K)
				continue;
			walks += l->walk != NULL;
			levels4k += !l->walk;
			big += !l->walk && l->entries >= 1536 && l->entries <= 4096;
		}
		CHECK(levels4k == 2 && big == 1 && walks == (r == 3),
		      "%s, no claims: two 4 KiB TLB levels, the second at 1536-4096 entries, and "
		      "walks only in the loaded run (%u levels, %u walks)", runs[r], levels4k, walks);
		json_init(&j, json_text, sizeof json_text);
		json_object_begin(&j, 0);
		analysis_json(&j, &a);
		json_object_end(&j);
		w = strstr(json_text, "\"walks\"");
		CHECK(!j.overflow && w && (r != 3 || (strstr(w, "\"pages\":6144") &&
						      strstr(w, "climb"))) &&
		      !strstr(json_text, "\"name\":\"walks\""),
		      "%s: system.json's walks apart, none among the levels (%.160s)", runs[r],
		      w ? w : "no walks member");
	}
}

/* One 4 KiB curve alone (a run stopped before its 2 MiB curve), with Zen 3's
   claims and an edge whose range, 6 .. 12 MiB, holds the L2 TLB's 8 MiB
   reach and no cache's claim: it is shown as the next cache level, L3, so
   it is never held against the TLB's claim (it once printed "agrees"). */
static void test_edge_not_against_tlb(void)
{
	static struct analysis a;
	static const struct { uint64_t kib; double ns; } pts[] = {
		{ 4, 1.3 }, { 8, 1.3 }, { 16, 1.3 }, { 32, 1.3 }, { 48, 4 }, { 64, 4 },
		{ 128, 4 }, { 256, 4 }, { 512, 4.2 }, { 1024, 15 }, { 2048, 15 }, { 4096, 15 },
		{ 6144, 15.5 }, { 12288, 150 }, { 16384, 150 }, { 32768, 152 }, { 65536, 155 },
	};
	size_t found = 0;

	analysis_init(&a);
	analysis_set_claims(&a, zen3_claims(), "tests/data/zen3-vm-cpuid.json");
	for (size_t i = 0; i < sizeof pts / sizeof *pts; i++) {
		struct result_row row = { .probe = "latency", .variant = "chase", .page_shift = 12,
					  .working_set_bytes = pts[i].kib * 1024, .ns = pts[i].ns };
		analysis_add_row(&a, &row);
	}
	analysis_compute(&a);
	for (size_t i = 0; i < a.h.nlevels; i++) {
		const struct level *l = &a.h.level[i];
		if (l->kind != LEVEL_EDGE || l->range_lo > (8ull << 20) || l->range_hi < (8ull << 20))
			continue;
		found++;
		CHECK(!a.check[i].tlb && a.check[i].verdict != VERDICT_AGREES,
		      "the edge %s at %llu KiB (holding the L2 TLB's 8 MiB reach) is not held "
		      "against the TLB's claim (%s)", l->name,
		      (unsigned long long)(l->size_bytes >> 10), verdict_name(a.check[i].verdict));
	}
	CHECK(found == 1, "one unattributed edge holds 8 MiB (%zu)", found);
}

/* Three quick runs of the Zen 5 VM, whose CPUID (the hypervisor's) claims
   a 128-entry L2 TLB beside a 96-entry L1, which no core has: the decode
   takes AMD's documented 4096 for the L2 DTLB instead (cpu_caches.c), and
   the level whose range holds it ends the TLBs. Each run names a 96-entry
   L1 DTLB and one more 4 KiB level whose range holds 4096, and no other 4
   KiB TLB level; the third run's step at 12288 pages, out of a climb (6144
   .. 8192 pages at 66 ns, 82 at 12288), is the walks'. */
static void test_zen5_walks(void)
{
	static const char *const zen5[] = { "tests/data/zen5-vm-quick-1.csv",
					     "tests/data/zen5-vm-quick-2.csv",
					     "tests/data/zen5-vm-quick-3.csv" };
	static struct analysis a;
	static struct cache_claims claims;
	size_t len;
	char *text = read_all("tests/data/zen5-vm-cpuid.json", &len);

	CHECK(claims_from_system_json(text, len, &claims) == 0 &&
	      tlb_claimed_entries(&claims, PAGE_SHIFT_4K) == 4096,
	      "Zen 5's recorded CPUID, implausible, gives way to the documented 4096 entries "
	      "for 4 KiB pages");
	free(text);
	for (size_t r = 0; r < 3; r++) {
		struct csv_summary sum;
		unsigned l1 = 0, l2 = 0, other = 0, walks = 0;

		text = read_all(zen5[r], &len);
		analysis_init(&a);
		CHECK(results_csv_read(text, len, take, &a, &sum) == 0, "%s reads back", zen5[r]);
		free(text);
		analysis_set_claims(&a, &claims, "tests/data/zen5-vm-cpuid.json");
		analysis_compute(&a);
		for (size_t k = 0; tlb_level(&a, k, NULL); k++) {
			const struct level *l = tlb_level(&a, k, NULL);
			if (l->page_shift != PAGE_SHIFT_4K)
				continue;
			if (l->walk)
				walks++;
			else if (l->entries == 96)
				l1++;
			else if ((l->range_lo >> 12) <= 4096 && (l->range_hi >> 12) >= 4096)
				l2++;
			else
				other++;
		}
		CHECK(l1 == 1 && l2 == 1 && other == 0 && walks == (r == 2),
		      "%s: 4 KiB TLB levels L1 DTLB 96 and one holding 4096, no other; walks %u "
		      "(%u, %u, %u)", zen5[r], walks, l1, l2, other);
	}
}

int main(void)
{
	test_zen3_shapes();
	test_control_decides();
	test_control_from_large_pages();
	test_open_end_and_report();
	test_step_into_climb();
	test_hypervisor_signs();
	test_json_and_svg();
	test_recording();
	test_control_shares_step();
	test_own_large_entries();
	test_jump_at_sweep_end();
	test_budget_pair();
	test_walks_without_claims();
	test_edge_not_against_tlb();
	test_zen5_walks();
	return check_summary();
}
