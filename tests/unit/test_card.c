/* The card (run/card.c): built from a synthetic analysis whose levels,
 * claims, bandwidth and rows are set by hand, so every figure on it is
 * known; its text held to 80 columns and 30 lines; its JSON and figures;
 * then a whole run through the host platform, whose run folder must hold
 * summary.txt, a report.txt and report.html that begin with it, and a
 * system.json with its summary member.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "read_back.h"
#include "host/host.h"
#include "lib/json.h"
#include "lib/json_read.h"
#include "run/card.h"
#include "desk/analyze.h"
#include "desk/curve_read.h"
#include "results/csvread.h"
#include "probes/geometry.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/probe.h"
#include "run/run.h"

#define KIB 1024ull
#define MIB (1024ull * 1024ull)

/* The configuration read as the EFI app reads it. */
static const struct config_platform metal = { 1, plat_page_size_architected };

static struct analysis a;
static struct card_rows rows;
static struct card card;
static char text[CARD_TEXT_MAX];
static char text_buf_card[CARD_TEXT_MAX];

static struct level *add_level(enum level_kind kind, const char *name, unsigned page_shift,
			       uint64_t size, uint64_t below, uint64_t next, double ns)
{
	struct level *l = &a.h.level[a.h.nlevels++];

	memset(l, 0, sizeof *l);
	l->kind = kind;
	snprintf(l->name, sizeof l->name, "%s", name);
	l->page_shift = page_shift;
	l->size_bytes = size;
	l->below_bytes = below;
	l->next_bytes = next;
	l->ns = ns;
	l->cycles = ns * 4;
	l->method = kind == LEVEL_TOP ? METHOD_NONE : METHOD_SHARP;
	l->range_lo = size;
	l->range_hi = next;
	if (kind == LEVEL_TLB) {
		l->entries = size >> page_shift;
		l->increase_ns = 2;
		l->increase_cycles = 8;
	}
	return l;
}

static void check_claim(size_t i, enum verdict v, const struct cache_desc *c,
			const struct tlb_desc *t)
{
	a.check[i] = (struct level_check){ v, c, t };
}

static void add_point(unsigned tlb, unsigned page_shift, uint64_t bytes, double ns,
		      double spread)
{
	struct result_row row = { 0 };

	row.probe = tlb ? "tlb" : "latency";
	row.variant = "chase";
	row.page_shift = page_shift;
	row.working_set_bytes = bytes;
	row.ns = ns;
	row.spread = spread;
	card_rows_add(&rows, &row);
}

static void add_bandwidth(const char *variant, double gb_scale)
{
	struct bandwidth_series *s = &a.bw.series[a.bw.nseries++];

	snprintf(s->variant, sizeof s->variant, "%s", variant);
	s->page_shift = 21;
	for (uint64_t b = 4 * KIB; b <= 256 * MIB; b *= 2) {
		double gb = b <= 32 * KIB ? 200 : b <= 1 * MIB ? 100 : b <= 32 * MIB ? 50 : 20;
		s->bytes[s->n] = (double)b;
		s->gb_per_s[s->n] = gb * gb_scale;
		s->ns[s->n] = 64 / gb;
		s->cycles[s->n] = 64 / gb * 4;
		s->n++;
	}
}

/* A Zen 4-like machine under KVM: L1 48 KiB, a smeared L2 of
   1 MiB, L3 32 MiB, memory at 95 ns; three TLB levels; bandwidth on one
   core and two; three c2c pairs; two NMIs. */
static void synthetic(void)
{
	struct level *l;

	memset(&a, 0, sizeof a);
	memset(&rows, 0, sizeof rows);
	a.ncurves = 2;
	a.tlb.n = 2;
	a.have_claims = 1;
	a.claims.hypervisor = 1;
	strcpy(a.claims.hypervisor_id, "KVMKVMKVM");
	a.claims.cache[0] = (struct cache_desc){ 1, CACHE_DATA, 48 * KIB, 12, 0, 64, 64, 1, "t" };
	a.claims.cache[1] = (struct cache_desc){ 2, CACHE_UNIFIED, 1 * MIB, 16, 0, 64, 1024, 1, "t" };
	a.claims.cache[2] = (struct cache_desc){ 3, CACHE_UNIFIED, 32 * MIB, 16, 0, 64, 0, 2, "t" };
	a.claims.ncaches = 3;
	a.claims.tlb[0] = (struct tlb_desc){ 1, TLB_DATA, TLB_PAGE_4K | TLB_PAGE_2M, 96, 0, 0, "t", 0 };
	a.claims.tlb[1] = (struct tlb_desc){ 2, TLB_DATA, TLB_PAGE_4K, 2048, 16, 0, "t", 0 };
	a.claims.ntlbs = 2;

	add_level(LEVEL_CACHE, "L1", 12, 48 * KIB, 48 * KIB, 64 * KIB, 1.0);
	check_claim(0, VERDICT_AGREES, &a.claims.cache[0], 0);
	l = add_level(LEVEL_CACHE, "L2", 12, 1 * MIB, 768 * KIB, 1536 * KIB, 3.5);
	l->smeared = 1;
	l->method = METHOD_PLACEMENT_FIT;
	l->range_lo = 768 * KIB;
	l->range_hi = 1536 * KIB;
	check_claim(1, VERDICT_AGREES, &a.claims.cache[1], 0);
	add_level(LEVEL_CACHE, "L3", 12, 32 * MIB, 32 * MIB, 48 * MIB, 12.25);
	check_claim(2, VERDICT_AGREES, &a.claims.cache[2], 0);
	add_level(LEVEL_TOP, "memory", 12, 64 * MIB, 64 * MIB, 512 * MIB, 95.0);
	/* The top's curve: 4 KiB pages, memory from 64 MiB; 96 ns at 64 MiB
	   (inside four times the 32 MiB L3) is never memory's. */
	curve_init(&a.curve[0], 12);
	curve_add(&a.curve[0], 32 * MIB, 12.25, 49);
	curve_add(&a.curve[0], 64 * MIB, 60.0, 240);
	for (uint64_t b = 128 * MIB; b <= 512 * MIB; b *= 2)
		curve_add(&a.curve[0], b, b == 256 * MIB ? 95.0 : 94.0 + (double)(b >> 29), 380);
	curve_init(&a.curve[1], 21);
	l = add_level(LEVEL_TLB, "L1 DTLB", 12, 96 * 4 * KIB, 96 * 4 * KIB, 128 * 4 * KIB, 1.0);
	/* Its readings allowed 64 .. 128 entries; the claim named it. */
	l->method = METHOD_CROSSING;
	l->range_lo = 64 * 4 * KIB;
	l->named_by_claim = 1;
	check_claim(4, VERDICT_AGREES, 0, &a.claims.tlb[0]);
	add_level(LEVEL_TLB, "L2 TLB", 12, 2048 * 4 * KIB, 2048 * 4 * KIB, 3072 * 4 * KIB, 1.2);
	check_claim(5, VERDICT_AGREES, 0, &a.claims.tlb[1]);
	add_level(LEVEL_TLB, "TLB", 21, 64 * 2 * MIB, 64 * 2 * MIB, 96 * 2 * MIB, 1.1);
	check_claim(6, VERDICT_DIFFERS, 0, 0);
	a.computed = 1;

	add_bandwidth("read_avx2", 1);
	add_bandwidth("read_avx2_x2", 1.8);
	add_bandwidth("write_avx2", 0.5);
	snprintf(a.bw.levels_from, sizeof a.bw.levels_from, "read_avx2");

	add_point(0, 12, 32 * KIB, 1.0, 0.01);
	add_point(0, 12, 48 * KIB, 1.0, 0.01);
	for (uint64_t b = 4 * KIB; b <= 16 * KIB; b *= 2)
		add_point(0, 12, b, 1.0, 0.01);
	add_point(0, 12, 64 * KIB, 3.0, 0.02);
	/* Noisy: L2's plateau is 64 KiB and 768 KiB, whose median 3.3 ns its
	   trials could move to 3.78. */
	add_point(0, 12, 768 * KIB, 3.6, 0.25);
	add_point(0, 12, 1536 * KIB, 11.0, 0.03);
	add_point(1, 12, 96 * 4 * KIB, 1.0, 0.01);
	add_point(1, 12, 128 * 4 * KIB, 3.0, 0.01);
	for (int i = 0; i < 3; i++) {
		struct result_row row = { 0 };
		row.probe = "c2c";
		row.variant = "pingpong";
		row.ns = 40 + 10 * i;
		row.spread = 0.01;
		card_rows_add(&rows, &row);
	}
}

/* Lines of the text, the widest, and whether each ends in a newline. */
static void measure(const char *t, int *lines, int *widest, int *ended)
{
	int w = 0;

	*lines = *widest = 0;
	*ended = 1;
	for (const char *p = t; *p; p++) {
		if (*p == '\n') {
			(*lines)++;
			w = 0;
			continue;
		}
		if (++w > *widest)
			*widest = w;
	}
	if (*t && t[strlen(t) - 1] != '\n')
		*ended = 0;
}

/* The line that begins with prefix, or NULL. */
static const char *line_of(const char *t, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = t; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, n))
			return p;
	return NULL;
}

/* Whether needle stands in the line that l begins (up to its newline). */
static int in_line(const char *l, const char *needle)
{
	const char *at = l ? strstr(l, needle) : NULL, *end = l ? strchr(l, '\n') : NULL;

	return at && (!end || at < end);
}

/* The text from p up to end (NULL: its end), its lines joined back with
   one blank in place of each line break and the indent after it. */
static void join_lines(const char *p, const char *end, char *out, size_t size)
{
	size_t n = 0;

	out[0] = 0;
	for (; p && *p && (!end || p < end) && n + 1 < size; p++) {
		if (*p == '\n') {
			while (p[1] == ' ')
				p++;
			out[n++] = ' ';
			continue;
		}
		out[n++] = *p;
	}
	out[n] = 0;
}

/* The whole trust text, lines joined back with blanks. */
static void trust_text(const char *t, char *out, size_t size)
{
	join_lines(line_of(t, "trust: "), NULL, out, size);
}

static void test_synthetic_card(void)
{
	static char trust[2048];
	const char *l;
	int lines, widest, ended;

	synthetic();
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1, .nmi = 2, .nmi_counted = 1,
						       .smi_counted = 1, .trials_discarded = 3 });
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	CHECK(lines <= CARD_LINES && widest <= CARD_COLUMNS && ended,
	      "at most 30 lines (%d) of at most 80 columns (%d), each ended", lines, widest);
	CHECK(!strncmp(text, "== summary", 10), "it opens with its heading");
	l = line_of(text, "L1 ");
	CHECK(l && strstr(l, "48 KiB") && strstr(l, "1.00") && strstr(l, "4.0") &&
	      strstr(l, "200.0") && strstr(l, "agrees"),
	      "L1: 48 KiB, 1.00 ns, 4.0 cycles, 200 GB/s read within it, agrees with its claim");
	l = line_of(text, "L2 ");
	CHECK(l && strstr(l, "~1 MiB") && strstr(l, "100.0") && strstr(l, "*"),
	      "L2: ~1 MiB (smeared), 100 GB/s, marked noisy (its deciding point spread 25%%)");
	l = line_of(text, "L3 ");
	CHECK(l && strstr(l, "32 MiB") && strstr(l, "12.25") && strstr(l, "50.0"),
	      "L3: 32 MiB, 12.25 ns, 50 GB/s");
	CHECK(l && strstr(l, "12.50"), "bytes per cycle: 64 B over the line's 5.12 cycles");
	l = line_of(text, "L2 TLB ");
	CHECK(l && strstr(l, "4 KiB") && strstr(l, "2048") && strstr(l, "8 MiB") &&
	      strstr(l, "8.0") && strstr(l, "agrees"),
	      "L2 TLB, 4 KiB pages: 2048 entries, 8 MiB reach, 8 cycles a miss, agrees");
	l = line_of(text, "TLB        2 MiB");
	CHECK(in_line(l, "2 MiB") && in_line(l, "8.0           -  differs") && !in_line(l, "96"),
	      "the 2 MiB TLB level that no claim matched shows no claim (not the 96 of the "
	      "L1 DTLB, another level's), and differs");
	l = line_of(text, "memory   latency ");
	CHECK(l && strstr(l, "95.00 ns") && strstr(l, "380.0 cycles") &&
	      strstr(l, "(from 128 MiB, 4 KiB pages)"),
	      "memory: 95 ns, 380 cycles, the median from 128 MiB (4 x the 32 MiB L3) on, not "
	      "the plateau's 64 MiB, its curve's pages named");
	l = line_of(text, "memory   read ");
	CHECK(l && strstr(l, "20.0 GB/s one core") && strstr(l, "36.0 GB/s 2 cores") &&
	      strstr(l, "from 128 MiB"), "memory read: one core and both, from 128 MiB on");
	l = line_of(text, "c2c ");
	CHECK(l && strstr(l, "40.0 / 50.0 / 60.0 ns") && strstr(l, "3 pairs"),
	      "c2c: min / median / max of three pairs");
	trust_text(text, trust, sizeof trust);
	CHECK(strstr(trust, "* another run may read it over 10% otherwise: its trials, "
		     "placement, a guest's share or a climb of walks could move it (1 figure)"),
	      "trust: the star in words, one figure marked");
	CHECK(!in_line(line_of(text, "L1 "), "*") && !in_line(line_of(text, "c2c "), "*") &&
	      in_line(line_of(text, "L2 "), "agrees *"),
	      "L1 and c2c, whose trials agree, carry no star; L2 does");
	a.bw.series[0].n = a.bw.series[1].n = 12;   /* the sweep ends at 8 MiB */
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	CHECK(line_of(text, "memory   read not measured: the sweep stopped at 8 MiB, inside the "
		      "caches\n") && !strstr(text, "50.0 GB/s") && card.read_cached,
	      "a bandwidth sweep ending inside the caches: no memory figure, and says why");
	synthetic();
	CHECK(strstr(trust, "L2 768K-1.5M (fit)"), "trust: the smeared L2's range and method");
	l = line_of(text, "L1 DTLB ");
	CHECK(l && strstr(l, "~96") && strstr(trust, "L1 DTLB 4K 64-128 entries (crossing, claimed)"),
	      "a level named by its claim: ~96 entries, its range and claimed on the trust line");
	CHECK(strstr(trust, "NMIs seen: 2, SMIs: 0"), "trust: the NMIs and SMIs counted");
	CHECK(strstr(trust, "under a hypervisor"), "trust: under a hypervisor");
	CHECK(!strncmp(text, "== summary", 10) && !strstr(text, "emulated") &&
	      !strstr(text, "EMULATED"), "KVM: no word of an emulator");

	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	trust_text(text, trust, sizeof trust);
	CHECK(strstr(trust, "under a hypervisor") && !strstr(trust, "NMIs"),
	      "no run: a hypervisor, no NMI count");
}

/* Under QEMU's emulator the card's first line says so, before any figure,
   and no level agrees with or differs from its claim: each says emulated
   (analysis_verdict, which the report's tables and system.json's hierarchy
   show too). */
static void test_emulated(void)
{
	int lines, widest, ended;

	synthetic();
	strcpy(a.claims.hypervisor_id, "TCGTCGTCGTCG");
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1 });
	card_format(&card, text, sizeof text);
	measure(text, &lines, &widest, &ended);
	CHECK(!strncmp(text, "EMULATED CPU (QEMU TCG): timings are the emulator's; `make host` "
		       "gives real ones\n== summary", 91),
	      "the first line names the emulated CPU and make host, the heading next");
	CHECK(lines <= CARD_LINES && widest <= CARD_COLUMNS, "still 30 lines (%d) of 80 (%d)",
	      lines, widest);
	CHECK(!strstr(text, "agrees") && !strstr(text, "differs") &&
	      strstr(line_of(text, "L1 "), "emulated") && strstr(line_of(text, "TLB "), "emulated"),
	      "every claimed level's verdict: emulated");
	CHECK(card.emulated && analysis_verdict(&a, 0) == VERDICT_EMULATED &&
	      a.check[0].verdict == VERDICT_AGREES,
	      "the analysis keeps what the readings said, and shows emulated");
	for (size_t i = 0; i < a.h.nlevels; i++)
		if (a.h.level[i].kind == LEVEL_TLB)
			a.check[i].verdict = VERDICT_NO_CLAIM;
	card_build(&card, &a, &rows, 0);
	CHECK(card.tlb[0].verdict == VERDICT_NO_CLAIM, "a level with no claim stays without one");
}

/* A claimed cache level no step was read as gets a row of its own under
   the levels read, "not seen" with its claim, and system.json's
   caches_not_seen; none where every claimed level was read, or on an
   emulated CPU. */
static void test_unread_claim(void)
{
	static char buf[65536];
	struct json j;
	const char *row;
	int lines, widest, ended;

	synthetic();
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1 });
	CHECK(card.nunread == 0, "every claimed level read: no row not seen (%zu)", card.nunread);
	/* The L3 not read: what lies past L2 is the top, "beyond L2". */
	a.h.level[2] = a.h.level[3];
	a.check[2] = a.check[3];
	for (size_t i = 3; i + 1 < a.h.nlevels; i++) {
		a.h.level[i] = a.h.level[i + 1];
		a.check[i] = a.check[i + 1];
	}
	a.h.nlevels--;
	strcpy(a.h.level[2].name, "beyond L2");
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1 });
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	row = line_of(text, "L3 ");
	CHECK(card.ncaches == 2 && card.nunread == 1 && !strcmp(card.unread[0].name, "L3") &&
	      card.unread[0].claim_bytes == 32 * MIB,
	      "the L3 claimed and not read: one row not seen, with its 32 MiB claim (%zu)",
	      card.nunread);
	CHECK(in_line(row, "32 MiB") && in_line(row, "not seen") && !in_line(row, "agrees") &&
	      row > line_of(text, "L2 "), "its row under L2: the claim and 'not seen'");
	CHECK(lines <= CARD_LINES && widest <= CARD_COLUMNS, "the card still fits (%d lines, %d "
	      "columns)", lines, widest);
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	card_json(&j, &card, text);
	json_object_end(&j);
	CHECK(strstr(buf, "\"caches_not_seen\":[{\"name\":\"L3\",\"claim_bytes\":33554432}]") != 0,
	      "system.json's summary says so: caches_not_seen");
	strcpy(a.claims.hypervisor_id, "TCGTCGTCGTCG");
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1 });
	CHECK(card.nunread == 0, "an emulated CPU's claims: no row not seen");
}

/* Whether the card's figures (compare's and fleet's rows) hold one named so. */
static int has_figure(const char *name)
{
	struct card_figure fig[CARD_MAX_FIGURES];
	size_t n = card_figures(&card, fig, CARD_MAX_FIGURES);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(fig[i].name, name))
			return 1;
	return 0;
}

/* Memory's figures come from four times the largest cache on, claimed or
   found; a sweep that stopped short says so instead of a figure, flags it
   cached in system.json, and gives compare and fleet no memory row. */
static void test_memory_floor(void)
{
	static char buf[32768];
	struct json j;
	char got[64];

	synthetic();
	card_build(&card, &a, &rows, 0);
	CHECK(analysis_memory_floor(&a) == 128 * MIB && card.memory_floor == 128 * MIB &&
	      !card.top_cached && card.top_from_bytes == 128 * MIB &&
	      card.top_to_bytes == 512 * MIB && has_figure("memory ns") &&
	      has_figure("memory read GB/s, one core"), "floor 4 x 32 MiB: memory from 128 MiB");

	a.curve[0].n = 2;   /* the latency sweep stopped at 64 MiB */
	a.bw.series[0].n = a.bw.series[1].n = 12;   /* bandwidth at 8 MiB */
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	CHECK(line_of(text, "memory   latency not measured: the sweep stopped at 64 MiB, inside "
		      "the caches\n") && !strstr(text, "95.00") && card.top_cached,
	      "a latency sweep stopped at 64 MiB: not measured, and why");
	CHECK(!has_figure("memory ns") && !has_figure("memory read GB/s, one core") &&
	      !has_figure("memory read GB/s, all cores"),
	      "no cached figure among compare's and fleet's memory rows");
	json_init(&j, buf, sizeof buf);
	json_object_begin(&j, 0);
	card_json(&j, &card, text);
	json_object_end(&j);
	CHECK(json_get_scalar(buf, j.len, "top.cached", got, sizeof got) == 0 &&
	      !strcmp(got, "true") &&
	      json_get_scalar(buf, j.len, "memory_read.cached", got, sizeof got) == 0 &&
	      !strcmp(got, "true") &&
	      json_get_scalar(buf, j.len, "memory_read.from_bytes", got, sizeof got) == 0 &&
	      !strcmp(got, "8388608") &&
	      json_get_scalar(buf, j.len, "top.memory_floor_bytes", got, sizeof got) == 0 &&
	      !strcmp(got, "134217728"), "system.json: both flagged cached, the floor given");

	synthetic();
	add_level(LEVEL_CACHE, "L4", 12, 64 * MIB, 64 * MIB, 128 * MIB, 60.0);
	card_build(&card, &a, &rows, 0);
	CHECK(card.memory_floor == 256 * MIB && card.top_from_bytes == 256 * MIB &&
	      card.read_from_bytes == 256 * MIB,
	      "a level found past the claims (64 MiB) raises the floor to 256 MiB");
	a.have_claims = 0;
	a.h.nlevels = 0;
	add_level(LEVEL_EDGE, "L1", 12, 1 * MIB, 1 * MIB, 2 * MIB, 3.0);
	add_level(LEVEL_TOP, "memory", 12, 2 * MIB, 2 * MIB, 512 * MIB, 95.0);
	CHECK(analysis_memory_floor(&a) == 4 * MIB, "no claims: the largest edge found, 4 x 1 MiB");
	a.h.nlevels = 0;
	add_level(LEVEL_TOP, "whole sweep", 12, 32 * MIB, 32 * MIB, 512 * MIB, 95.0);
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	CHECK(analysis_memory_floor(&a) == 0 && card.top_cached && card.read_cached &&
	      line_of(text, "no edge  the whole sweep") &&
	      line_of(text, "read     20.0 GB/s one core at 256 MiB: no cache known") &&
	      !has_figure("memory read GB/s, one core"),
	      "no claim and no level: no size is known to be memory");
}

/* A VM's usable L3, read at 4 MiB with memory from 4 MiB on, named 32 MiB
   by its claim (its range reached it): the card's bandwidth within it is
   taken below half the size its readings named, never from memory's
   points up to half the claim's. */
static void test_claimed_level_bandwidth(void)
{
	const char *l;

	synthetic();
	for (size_t i = 0; i < a.bw.nseries; i++)
		for (size_t k = 0; k < a.bw.series[i].n; k++)
			if (a.bw.series[i].bytes[k] >= 4.0 * MIB)
				a.bw.series[i].gb_per_s[k] = 20.0;
	a.h.level[2].named_by_claim = 1;
	a.h.level[2].read_bytes = 4 * MIB;
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	l = line_of(text, "L3 ");
	CHECK(l && !strncmp(l + 12, "~32 MiB   12.25   49.0    50.0", 30),
	      "an L3 named by its claim: ~32 MiB, its bandwidth from 2 MiB (50 GB/s), not "
	      "memory's 20 (%.80s)", l ? l : "-");
}

/* The star: only where the trials that decided a level could move its
   size or latency by more than 10%. */
static void test_noise_marks(void)
{
	static char json_text[16384];
	struct json j;
	const char *l, *c2c, *noisy;

	/* Four more points on L2's plateau; one of them had two trials
	   preempted (spread 4000%): the median of five does not move. */
	synthetic();
	for (int k = 0; k < 4; k++)
		add_point(0, 12, (128 + 128 * k) * KIB, 3.4, k ? 0.01 : 40);
	card_build(&card, &a, &rows, 0);
	CHECK(!card.cache[1].noisy && !card.noisy,
	      "one disturbed point among L2's plateau of six: no star (%d)", card.cache[1].noisy);

	/* L1's last point inside, 48 KiB at 1.0 ns, with trials as far as
	   1.9 ns: past the half height to L2 (1.87 ns), so the edge could
	   stand at 32 KiB, 33% from 48. With no claim to name it, the size
	   moves with the edge. */
	synthetic();
	check_claim(0, VERDICT_NO_CLAIM, 0, 0);
	rows.pt[1].spread = 0.9;
	card_build(&card, &a, &rows, 0);
	CHECK(card.cache[0].noisy, "L1's deciding point could carry its edge a grid step, no "
	      "claim: star");
	/* With its claim, 48 KiB: 48 still lies between the last size that
	   could fit (32) and the first past it read missing (64), so the size
	   stays the claim's (analysis.c, name_by_claim), and 1.9 ns is far
	   from missing (L2's 3.5 less 15 %). */
	synthetic();
	rows.pt[1].spread = 0.9;
	card_build(&card, &a, &rows, 0);
	CHECK(!card.cache[0].noisy, "the same with its claim of 48 KiB, which the range still "
	      "holds: no star");
	/* The same, with a refined point at 46 KiB: the edge moves 4%. */
	synthetic();
	check_claim(0, VERDICT_NO_CLAIM, 0, 0);
	rows.pt[0].bytes = 46 * KIB;
	rows.pt[1].spread = 0.9;
	card_build(&card, &a, &rows, 0);
	CHECK(!card.cache[0].noisy, "the same trials with a point at 46 KiB move it 4%%: no star");

	/* 768 KiB measured again (revisited): 3.6 ns, then 7.0, past the
	   half height to L3 (6.55 ns): L2's size could read 768 KiB. */
	synthetic();
	rows.pt[6].spread = 0.01;
	add_point(0, 12, 768 * KIB, 7.0, 0.01);
	CHECK(rows.npt == 10 && rows.pt[6].ns == 3.6 && rows.pt[6].ns_hi == 7.0,
	      "a size's second row joins its point: the least reading, and the greatest");
	card_build(&card, &a, &rows, 0);
	CHECK(card.cache[1].noisy, "a size read 3.6 and 7.0 ns decides L2's edge: star");

	/* c2c: the median pair's trials could move it 20%. */
	synthetic();
	rows.c2c_spread[0] = rows.c2c_spread[1] = 0.3;
	rows.c2c_spread[2] = 0;
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	l = line_of(text, "c2c ");
	CHECK(card.c2c_noisy && in_line(l, "3 pairs *"), "c2c that could move 20%%: starred");
	json_init(&j, json_text, sizeof json_text);
	json_object_begin(&j, 0);
	card_json(&j, &card, text);
	json_object_end(&j);
	c2c = strstr(json_text, "\"c2c\"");
	noisy = c2c ? strstr(c2c, "\"noisy\"") : 0;
	CHECK(noisy && noisy < strchr(c2c, '}') && strstr(noisy, "true") <= noisy + 9,
	      "summary.c2c says noisy: true (%.120s)", c2c ? c2c : "none");
}

/* The card (as formatted into text) as system.json's summary member,
   {"summary": {...}}, into buf through j. */
static void summary_json(struct json *j, char *buf, size_t size)
{
	json_init(j, buf, size);
	json_object_begin(j, 0);
	json_object_begin(j, "summary");
	card_json(j, &card, text);
	json_object_end(j);
	json_object_end(j);
}

/* Disagreement shown: a VM's L3 read at 6 MiB by the latency curve
   (range 4-8 MiB), at 16 MiB by the bandwidth curve, claimed 32 MiB: the
   card says uncertain and names the three; where the bandwidth edge
   stands within the latency range the claim alone differs. */
static void test_uncertain(void)
{
	static char trust[2048];
	struct level *l3, *bw;
	const char *l;

	synthetic();
	l3 = &a.h.level[2];
	l3->size_bytes = 6 * MIB;
	l3->below_bytes = l3->range_lo = 4 * MIB;
	l3->next_bytes = l3->range_hi = 8 * MIB;
	l3->smeared = 1;
	check_claim(2, VERDICT_DIFFERS, &a.claims.cache[2], 0);
	a.bw.h.nlevels = 0;
	bw = &a.bw.h.level[a.bw.h.nlevels++];
	*bw = a.h.level[0];   /* L1 seen by both */
	bw = &a.bw.h.level[a.bw.h.nlevels++];
	*bw = (struct level){ .kind = LEVEL_CACHE, .size_bytes = 16 * MIB, .range_lo = 12 * MIB,
			      .range_hi = 24 * MIB };
	a.bw.h.attributed = 1;
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	trust_text(text, trust, sizeof trust);
	l = line_of(text, "L3 ");
	CHECK(in_line(l, "uncertain") && card.uncertain == 1 && card.cache[2].bw_edge_bytes == 16 * MIB,
	      "L3: latency 6 MiB, bandwidth 16 MiB, claim 32 MiB: uncertain (%.79s)", l ? l : "-");
	CHECK(strstr(trust, "L3 uncertain: latency edge 4M-8M, bandwidth edge 16M, claim 32M"),
	      "the trust line names the candidates: %s", trust);
	CHECK(in_line(line_of(text, "L1 "), "agrees"), "L1, where both edges stand, still agrees");
	{
		static char json_text[16384];
		struct json j;
		char got[32];

		summary_json(&j, json_text, sizeof json_text);
		CHECK(json_get_scalar(json_text, j.len, "summary.trust.uncertain_levels", got,
				      sizeof got) == 0 && !strcmp(got, "1") &&
		      strstr(json_text, "\"verdict\":\"uncertain\"") &&
		      strstr(json_text, "\"bandwidth_edge_bytes\":16777216"),
		      "summary: L3's verdict uncertain, its bandwidth edge, one uncertain level");
	}

	bw->size_bytes = 8 * MIB;
	bw->range_lo = 6 * MIB;
	bw->range_hi = 12 * MIB;
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	l = line_of(text, "L3 ");
	CHECK(in_line(l, "differs") && !in_line(l, "uncertain") && !card.uncertain,
	      "bandwidth at 8 MiB, inside the latency range: the two agree and the claim "
	      "differs (%.79s)", l ? l : "-");
}

/* Each results row of a recording into the analysis and the card's rows,
   as memprobe compare rebuilds a card. */
static void take_row(const struct result_row *row, void *ctx)
{
	const char *leave_out = ctx;

	if (leave_out && !strcmp(row->probe, leave_out))
		return;
	analysis_add_row(&a, row);
	card_rows_add(&rows, row);
}

/* The claims recorded in a tests/data CPUID file (system.json's form), in
   *claims; 0 when it reads and decodes. */
static int recorded_claims(const char *json, struct cache_claims *claims)
{
	static char buf[8192];
	size_t len = read_file(json, buf, sizeof buf);

	return len > 0 ? claims_from_system_json(buf, len, claims) : -1;
}

/* The card of a recorded run (tests/data), built as a run builds it, with
   the rows of probe leave_out (NULL: none) left out. */
static void recorded_card_without(const char *csv, const struct cache_claims *claims,
				  const char *leave_out, struct card *out)
{
	static char buf[1 << 18];
	struct csv_summary sum;
	size_t len = read_file(csv, buf, sizeof buf);

	analysis_init(&a);
	memset(&rows, 0, sizeof rows);
	CHECK(len > 0 && results_csv_read(buf, len, take_row, (void *)leave_out, &sum) == 0,
	      "%s reads back", csv);
	analysis_set_claims(&a, claims, "tests/data/zen5-vm-cpuid.json");
	analysis_compute(&a);
	card_build(out, &a, &rows, 0);
}

/* The card of a recorded run (tests/data), built as a run builds it. */
static void recorded_card(const char *csv, const struct cache_claims *claims, struct card *out)
{
	recorded_card_without(csv, claims, 0, out);
}

/* The same level on another card (a cache by name; a TLB by name and
   pages), its ns through *ns; 0 when it has none. */
static int level_ns(const struct card *c, const char *name, unsigned page_shift, int tlb,
		    double *ns)
{
	for (size_t i = 0; !tlb && i < c->ncaches; i++)
		if (!strcmp(c->cache[i].name, name))
			return *ns = c->cache[i].ns, 1;
	for (size_t i = 0; tlb && i < c->ntlbs; i++)
		if (!strcmp(c->tlb[i].name, name) && c->tlb[i].page_shift == page_shift)
			return *ns = c->tlb[i].miss_ns, 1;
	return 0;
}

/* Whether the same level on another card is starred (level_ns's match). */
static int level_starred(const struct card *c, const char *name, unsigned page_shift, int tlb)
{
	for (size_t i = 0; !tlb && i < c->ncaches; i++)
		if (!strcmp(c->cache[i].name, name))
			return c->cache[i].noisy;
	for (size_t i = 0; tlb && i < c->ntlbs; i++)
		if (!strcmp(c->tlb[i].name, name) && c->tlb[i].page_shift == page_shift)
			return c->tlb[i].noisy;
	return 0;
}

/* Every level the first card leaves unstarred reads within 10% on the
   second (a cache its latency, a TLB its miss cost), or with `both` only
   those the second leaves unstarred too; returns how many were
   compared. */
static unsigned unstarred_hold_when(const struct card *c1, const struct card *c2,
				    const char *what, int both)
{
	unsigned n = 0;
	double other;

	for (size_t i = 0; i < c1->ncaches; i++) {
		const struct card_cache *k = &c1->cache[i];
		if (k->noisy || !level_ns(c2, k->name, 0, 0, &other) ||
		    (both && level_starred(c2, k->name, 0, 0)))
			continue;
		n++;
		CHECK(fabs(other / k->ns - 1) <= 0.10, "%s: %s, unstarred, %.2f ns; the other run "
		      "%.2f", what, k->name, k->ns, other);
	}
	for (size_t i = 0; i < c1->ntlbs; i++) {
		const struct card_tlb *t = &c1->tlb[i];
		if (t->noisy || !level_ns(c2, t->name, t->page_shift, 1, &other) ||
		    (both && level_starred(c2, t->name, t->page_shift, 1)))
			continue;
		n++;
		CHECK(fabs(other / t->miss_ns - 1) <= 0.10, "%s: %s %u, unstarred, misses %.2f ns; "
		      "the other run %.2f", what, t->name, t->page_shift, t->miss_ns, other);
	}
	return n;
}

static unsigned unstarred_hold(const struct card *c1, const struct card *c2, const char *what)
{
	return unstarred_hold_when(c1, c2, what, 0);
}

/* Two quick latency,tlb runs on this project's Zen 5 VM (EPYC family 1Ah,
   2 vCPUs, load 8-11 from other builds: most points' best three trials
   lay far apart, so most levels carry a star). Whatever is not starred
   must read the same in the other run; neither card shows a walk or a
   claim that is not its level's. */
static void test_recorded_zen5(void)
{
	static struct card c1, c2;
	static struct cache_claims claims;
	unsigned compared;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0 && claims.ntlbs >= 4,
	      "Zen 5's recorded CPUID decodes with its TLBs (%u)", claims.ntlbs);
	recorded_card("tests/data/zen5-vm-quick-1.csv", &claims, &c1);
	recorded_card("tests/data/zen5-vm-quick-2.csv", &claims, &c2);
	compared = unstarred_hold(&c1, &c2, "run 1") + unstarred_hold(&c2, &c1, "run 2");
	printf("# Zen 5 recordings: %u and %u of %zu and %zu levels starred, %u unstarred compared\n",
	       c1.noisy, c2.noisy, c1.ncaches + c1.ntlbs, c2.ncaches + c2.ntlbs, compared);
	CHECK(compared >= 1, "at least one unstarred level to compare (%u)", compared);
	card_format(&c1, text, sizeof text);
	CHECK(line_of(text, "cache ") && !strstr(text, "GB/s") && !strstr(text, "B/cycle") &&
	      !strstr(text, " ways "), "latency and tlb rows only: no GB/s, B/cycle or ways "
	      "column, rather than '-' throughout");
	for (int r = 0; r < 2; r++) {
		const struct card *c = r ? &c2 : &c1;
		unsigned l1 = 0;
		for (size_t i = 0; i < c->ntlbs; i++) {
			const struct card_tlb *t = &c->tlb[i];
			CHECK(strcmp(t->name, "walks") != 0, "run %d: no walks on the card", r + 1);
			CHECK(t->claim_entries == 0 || t->verdict == VERDICT_AGREES,
			      "run %d: %s %llu shows a claim only where it is this level's (%u)", r + 1,
			      t->name, (unsigned long long)t->entries, t->claim_entries);
			l1 += !strcmp(t->name, "L1 DTLB") && t->entries == 96;
		}
		CHECK(l1 == 2, "run %d: L1 DTLB 96 with 4 KiB and 2 MiB pages (%u)", r + 1, l1);
	}
}

/* A quiet quick run of the Zen 5 VM (tests/data/zen5-vm-quick-4.csv): with
   2 MiB pages memory read 153 ns from 9 to 128 MiB, then climbed without a
   plateau to 449 ns at 2 GiB (nested walks: the host backs the guest's
   large pages with small ones), while the 4 KiB curve paused at 322-337 ns
   at 704 MiB-1 GiB. That pause was carded as "L4 ~256 MiB" before the
   climbing curve counted as having judged it: three caches, no fourth,
   and memory's figure from 4x the claimed 508 MiB L3 or past. */
static void test_recorded_zen5_climb(void)
{
	static struct card c;
	static struct cache_claims claims;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0,
	      "Zen 5's recorded CPUID decodes");
	recorded_card("tests/data/zen5-vm-quick-4.csv", &claims, &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[0].name, "L1") && !strcmp(c.cache[1].name, "L2") &&
	      !strcmp(c.cache[2].name, "L3"),
	      "L1, L2 and L3 and no level past them (%zu caches, the last %s)", c.ncaches,
	      c.ncaches ? c.cache[c.ncaches - 1].name : "-");
	CHECK(c.have_top && !c.top_cached && c.top_from_bytes >= 4ull * 508 * 1024 * 1024,
	      "memory from 4x the claimed L3 or past (%llu)", (unsigned long long)c.top_from_bytes);
}

/* Whether card c has a TLB level of these pages whose entries are n, or
   whose range holds n; its index through *at. */
static int has_tlb(const struct card *c, unsigned page_shift, uint64_t n, size_t *at)
{
	for (size_t i = 0; i < c->ntlbs; i++) {
		const struct card_tlb *t = &c->tlb[i];

		if (t->page_shift == page_shift &&
		    (t->entries == n || (t->range_lo <= n && n <= t->range_hi)))
			return *at = i, 1;
	}
	return 0;
}

/* Six quick runs of the Zen 5 VM on a quiet machine, three back to back on
   each of two days (load 0 to 1.3: tests/data/zen5-vm-quick-4..6.csv and
   -7..9.csv). Each names L1 48 KiB, L2 1 MiB, an L3, the 96-entry L1 DTLB
   with both page sizes and a 4 KiB level whose range holds 4096 entries,
   and no other TLB row: the 2 MiB L1 DTLB's misses cost 59-81 cycles, a
   walk, so the 2 MiB step at 384-768 pages past it is the walks'
   (analysis.c, misses_walk_below), once "TLB ~512/768" on two cards of
   three. What this VM moves from run to run is starred from each run's
   own data: its L3 (14.9-18.5 ns: a guest's last cache, differing from
   its claim), memory (371-478 ns at 2 GiB, on a curve that climbs past
   the plateau the analysis read above the L3), the 4 KiB L2 TLB's and the
   2 MiB L1 DTLB's misses (walks through the host's small pages: +13 to
   +56 and +17 to +31 ns). Every figure both runs of a same-day pair
   leave unstarred reads within 10 % of the other: L1, L2 and the 4 KiB
   L1 DTLB's miss. Four or five of seven figures are starred: this VM
   moves that many (the Emerald Rapids runs below, two of six). */
/* Whether two cards name the same levels, each with an equal size or
   overlapping ranges (a TLB's in entries). */
static int same_levels(const struct card *x, const struct card *y)
{
	if (x->ncaches != y->ncaches || x->ntlbs != y->ntlbs)
		return 0;
	for (size_t i = 0; i < x->ncaches; i++) {
		const struct card_cache *p = &x->cache[i], *q = &y->cache[i];

		if (strcmp(p->name, q->name) || (p->size_bytes != q->size_bytes &&
		    (p->range_hi < q->range_lo || q->range_hi < p->range_lo)))
			return 0;
	}
	for (size_t i = 0; i < x->ntlbs; i++) {
		const struct card_tlb *p = &x->tlb[i], *q = &y->tlb[i];

		if (strcmp(p->name, q->name) || p->page_shift != q->page_shift ||
		    (p->entries != q->entries &&
		     (p->range_hi < q->range_lo || q->range_hi < p->range_lo)))
			return 0;
	}
	return 1;
}

static void test_recorded_zen5_quiet(void)
{
	static const char *const runs[] = {
		"tests/data/zen5-vm-quick-4.csv", "tests/data/zen5-vm-quick-5.csv",
		"tests/data/zen5-vm-quick-6.csv", "tests/data/zen5-vm-quick-7.csv",
		"tests/data/zen5-vm-quick-8.csv", "tests/data/zen5-vm-quick-9.csv",
	};
	enum { RUNS = sizeof runs / sizeof *runs, PER_DAY = 3 };
	static struct card c[RUNS];
	static struct cache_claims claims;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0,
	      "Zen 5's recorded CPUID decodes");
	for (int r = 0; r < RUNS; r++) {
		size_t l1_4k, l1_2m, l2;

		recorded_card(runs[r], &claims, &c[r]);
		CHECK(c[r].ncaches == 3 && !strcmp(c[r].cache[0].name, "L1") &&
		      c[r].cache[0].size_bytes == 48 * 1024 && !strcmp(c[r].cache[1].name, "L2") &&
		      c[r].cache[1].size_bytes == 1024 * 1024 && !strcmp(c[r].cache[2].name, "L3"),
		      "%s: L1 48 KiB, L2 1 MiB and an L3 (%zu caches)", runs[r], c[r].ncaches);
		CHECK(has_tlb(&c[r], 12, 96, &l1_4k) && has_tlb(&c[r], 21, 96, &l1_2m) &&
		      has_tlb(&c[r], 12, 4096, &l2) && c[r].ntlbs == 3,
		      "%s: L1 DTLB 96 with 4 KiB and 2 MiB pages, a 4 KiB level holding 4096, "
		      "and no other TLB row (%zu rows)", runs[r], c[r].ntlbs);
		CHECK(c[r].tlb[l2].noisy && c[r].tlb[l1_2m].noisy,
		      "%s: the 4 KiB L2 TLB's miss (+%.1f ns) and the 2 MiB L1 DTLB's (+%.1f ns), "
		      "walks through the host's small pages, starred", runs[r],
		      c[r].tlb[l2].miss_ns, c[r].tlb[l1_2m].miss_ns);
		CHECK(c[r].cache[2].noisy && c[r].top_noisy && !c[r].top_cached,
		      "%s: the L3 (%.2f ns) and memory (%.1f ns), which move between runs, "
		      "starred", runs[r], c[r].cache[2].ns, c[r].top_ns);
		CHECK(c[r].cache[2].guest_share && c[r].cache[2].verdict == VERDICT_DIFFERS &&
		      c[r].cache[2].range_hi == c[r].cache[2].claim_bytes &&
		      c[r].cache[2].range_lo <= c[r].cache[2].size_bytes &&
		      c[r].cache[2].edge_hi < c[r].cache[2].claim_bytes,
		      "%s: the L3, a guest's share, ranges from its reading up to its claim "
		      "(%llu KiB .. %llu MiB), and still differs", runs[r],
		      (unsigned long long)(c[r].cache[2].range_lo >> 10),
		      (unsigned long long)(c[r].cache[2].range_hi >> 20));
	}
	for (int r = 0; r < RUNS; r++)
		for (int o = r + 1; o < RUNS; o++)
			CHECK(same_levels(&c[r], &c[o]), "%s and %s name the same levels, each size "
			      "equal or the ranges overlapping", runs[r], runs[o]);
	for (int r = 0; r < RUNS; r++)
		for (int o = r / PER_DAY * PER_DAY; o < (r / PER_DAY + 1) * PER_DAY; o++)
			if (o != r)
				CHECK(unstarred_hold_when(&c[r], &c[o], runs[r], 1) >= 1,
				      "%s: an unstarred figure to hold against %s", runs[r], runs[o]);
}

/* The card of a recorded Zen 5 VM run, with that VM's recorded claims;
   the analysis stays in `a` until the next card. */
static void zen5_card(const char *csv, struct card *out)
{
	static struct cache_claims claims;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0,
	      "Zen 5's recorded CPUID decodes");
	recorded_card(csv, &claims, out);
}

/* A full run of the Zen 5 VM whose 2 MiB curve read memory at 171 ns
   from 10 to 128 MiB, 11x its L3, then 395 ns past 512 MiB: the step at
   128 MiB, smeared over 10 MiB .. 1.25 GiB across the 16 MiB its 4 KiB
   TLBs reach, was joined to the L3 as the guest's share, and the L3's
   range then held the 508 MiB claim: "L3 ~508 MiB agrees". Numbered past
   every claimed cache, out of a plateau 11x the level below it, it is
   memory's climb (join_walk_climb). */
static void test_recorded_straddling_climb(void)
{
	static struct card c;

	zen5_card("tests/data/zen5-vm-full-1.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") &&
	      c.cache[2].size_bytes < 16u << 20 && c.cache[2].verdict == VERDICT_DIFFERS,
	      "L1, L2 and an L3 under 16 MiB, differing from the 508 MiB claim (%zu caches, "
	      "the last %s of %llu KiB, verdict %s)", c.ncaches,
	      c.ncaches ? c.cache[c.ncaches - 1].name : "-",
	      c.ncaches ? (unsigned long long)(c.cache[c.ncaches - 1].size_bytes >> 10) : 0ull,
	      c.ncaches ? verdict_name(c.cache[c.ncaches - 1].verdict) : "-");
	CHECK(a.h.climb.bytes >= 64u << 20 && a.h.climb.to_ns > a.h.climb.from_ns * 2 &&
	      a.h.njoined == 0,
	      "the step at %llu MiB is memory's climb, not a share joined to the L3 (%zu joined)",
	      (unsigned long long)(a.h.climb.bytes >> 20), a.h.njoined);
}

/* A quiet quick run of the Zen 5 VM whose 2 MiB curve read 150-186 ns
   from 3 to 44 MiB and 403-473 ns from 256 MiB: the host's walks climbing,
   once carded "L4 ~128 MiB". Past the 24 MiB its 4 KiB TLBs reach, out of a
   plateau 10x its L3, the step joins memory (join_walk_climb), said in
   the report, and memory's figure is starred as a climb. */
static void test_recorded_walk_climb(void)
{
	size_t at;
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-quick-10.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") &&
	      c.cache[2].size_bytes < 16u << 20,
	      "a climb of walks: L1, L2 and an L3 under 16 MiB, no L4 (%zu caches, the last "
	      "%s)", c.ncaches, c.ncaches ? c.cache[c.ncaches - 1].name : "-");
	CHECK(a.h.climb.bytes >= 32u << 20 && a.h.climb.bytes <= 512u << 20 &&
	      a.h.climb.range_lo > a.h.climb.tlb_reach && a.h.climb.to_ns > a.h.climb.from_ns,
	      "the step kept as memory's climb: at %llu MiB, past the %llu MiB reach, %.0f to "
	      "%.0f ns", (unsigned long long)(a.h.climb.bytes >> 20),
	      (unsigned long long)(a.h.climb.tlb_reach >> 20), a.h.climb.from_ns,
	      a.h.climb.to_ns);
	CHECK(c.top_noisy && !c.top_cached && !strcmp(c.top_name, "memory"),
	      "memory's line, from the floor, starred as a climb (%.1f ns)", c.top_ns);
	CHECK(has_tlb(&c, 12, 96, &at) && has_tlb(&c, 21, 96, &at) && has_tlb(&c, 12, 4096, &at),
	      "the TLB rows stay: L1 DTLB 96 with both page sizes, a 4 KiB level whose range "
	      "holds 4096");
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(same_levels(&c, &quiet), "the same levels as the quiet run before it (quick-9), "
	      "each size equal or the ranges overlapping");
}

/* A quiet quick run of the Zen 5 VM whose L3 share moved within the run
   (the 2 MiB curve read 39.8, 47.0 and 121 ns at 6 MiB), carded "L3 ~4
   MiB" (2.5 .. 8 MiB) and "L4 ~8 MiB" (7.25 .. 8 MiB) before a level whose
   range lies within the range of the level below joined it. */
static void test_recorded_contained_step(void)
{
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-quick-11.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") &&
	      c.cache[2].range_lo <= 4u << 20 && c.cache[2].edge_hi >= 8u << 20,
	      "a moving share: L1, L2 and one L3 whose range holds 4 .. 8 MiB, no L4 (%zu "
	      "caches, the last %s)", c.ncaches, c.ncaches ? c.cache[c.ncaches - 1].name : "-");
	CHECK(a.h.njoined == 1 && a.h.joined[0].range_lo >= a.h.level[2].range_lo &&
	      a.h.joined[0].range_hi <= a.h.level[2].range_hi,
	      "the step within L3's range kept as joined (%zu, at %llu KiB)", a.h.njoined,
	      a.h.njoined ? (unsigned long long)(a.h.joined[0].bytes >> 10) : 0ull);
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(same_levels(&c, &quiet), "the same levels as quick-9, each size equal or the "
	      "ranges overlapping");
}

/* A quiet quick run of the Zen 5 VM whose L2 step smeared over 384 KiB to
   1.5 MiB with noisy points around it (a 704 KiB point's spread 146 %),
   while its fit's range holds the 1 MiB claim by far: the crossing may
   move, the size read (the claim) may not, and neither the L2 nor the
   4 KiB L1 DTLB, whose miss each section's clock now measures, is starred
   (size_held_by_claim). */
static void test_recorded_size_held_by_claim(void)
{
	size_t at;
	static struct card c;

	zen5_card("tests/data/zen5-vm-quick-12.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[1].name, "L2") &&
	      c.cache[1].size_bytes == 1u << 20 && c.cache[1].verdict == VERDICT_AGREES &&
	      c.cache[1].range_lo * 1.1 <= c.cache[1].size_bytes &&
	      c.cache[1].size_bytes * 1.1 <= c.cache[1].range_hi,
	      "L2 1 MiB, agreeing, inside its range with room (%llu .. %llu KiB)",
	      (unsigned long long)(c.cache[1].range_lo >> 10),
	      (unsigned long long)(c.cache[1].range_hi >> 10));
	CHECK(!c.cache[1].noisy, "the L2, whose size the claim holds, is not starred (%.2f ns)",
	      c.cache[1].ns);
	CHECK(!c.cache[0].noisy && has_tlb(&c, 12, 96, &at) && !c.tlb[at].noisy &&
	      c.tlb[at].miss_cycles > 6 && c.tlb[at].miss_cycles < 8.5,
	      "L1 and the 4 KiB L1 DTLB (+%.2f cycles a miss) are not starred",
	      has_tlb(&c, 12, 96, &at) ? c.tlb[at].miss_cycles : 0);
	CHECK(c.cache[2].noisy && c.top_noisy, "the guest's L3 and memory stay starred");
}

/* A quiet quick run of the Zen 5 VM whose L2-to-L3 climb paused at 12.2 ns
   (1.25 .. 1.4 MiB) and whose L3 share ended at 6.25 .. 7 MiB: carded "L3
   ~2 MiB" and "L4 ~7 MiB" past CPUID's three cache levels, where the
   other runs read one L3. Under a hypervisor the step past the last
   claimed cache, inside its 508 MiB claim, joins the L3 (join_past_claims). */
static void test_recorded_past_claims(void)
{
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-quick-13.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") &&
	      c.cache[2].range_lo <= 6u << 20 && c.cache[2].edge_hi >= 7u << 20,
	      "one L3 whose range holds where the share ended, 6.25 .. 7 MiB, no L4 (%zu "
	      "caches, the last %s)", c.ncaches, c.ncaches ? c.cache[c.ncaches - 1].name : "-");
	/* The 7 MiB step stands less than twice over what the pause at
	   12.2 ns reached before it: a pause itself (edges.c,
	   pause_between), or, read as a level, joined past the claims. */
	CHECK(a.h.njoined == 0 ||
	      (a.h.njoined == 1 && a.h.joined[0].past_claims &&
	       a.h.joined[0].bytes >= 6u << 20 && a.h.joined[0].bytes <= 8u << 20),
	      "the 7 MiB step no level (%zu joined)", a.h.njoined);
	CHECK(c.cache[2].noisy && c.cache[2].verdict == VERDICT_DIFFERS,
	      "the L3, a guest's share, starred and differing from its claim");
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(same_levels(&c, &quiet), "the same levels as quick-9, each size equal or the "
	      "ranges overlapping");
}

/* A quiet quick run of the Zen 5 VM whose guest's share of the L3 was
   small and moved: its 4 KiB curve read 12.0 ns over 1.1-4 MiB and stepped
   at 6 MiB, its 2 MiB curve, a few seconds later, 15.9 ns over 1.4-2 MiB
   (4.2x its L2) and 144 ns from 3.3 MiB. That short plateau 4x over the
   L2 was taken for memory entered in a climb: the card had no L3 and the
   detailed table read "beyond L2 from 1408 KiB" at 15.9 ns. No memory
   answers that fast (edges.c, MEMORY_MIN_NS). */
static void test_recorded_small_share(void)
{
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-quick-15.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") &&
	      c.cache[2].size_bytes >= 2u << 20 && c.cache[2].size_bytes <= 8u << 20 &&
	      c.cache[2].ns > 10 && c.cache[2].ns < 20,
	      "L1, L2 and an L3 of 2 .. 8 MiB at 10 .. 20 ns (%zu caches, the last %s of %llu "
	      "KiB, %.2f ns)", c.ncaches, c.ncaches ? c.cache[c.ncaches - 1].name : "-",
	      c.ncaches ? (unsigned long long)(c.cache[c.ncaches - 1].size_bytes >> 10) : 0ull,
	      c.ncaches ? c.cache[c.ncaches - 1].ns : 0);
	CHECK(c.cache[2].noisy && c.cache[2].verdict == VERDICT_DIFFERS,
	      "that L3, a guest's share, starred and differing from its claim");
	CHECK(!strcmp(c.top_name, "memory") && !c.top_cached && c.top_ns > 100,
	      "memory's line, at %.1f ns (%s)", c.top_ns, c.top_name);
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(same_levels(&c, &quiet), "the same levels as quick-9, each size equal or the "
	      "ranges overlapping");
}

/* A latency and mlp quick run of the Zen 5 VM, with no tlb probe: its 4
   KiB curve climbed from 186 ns at 64 MiB to 441 at 2 GiB, once carded "L4
   ~512 MiB" (176 MiB .. 1.25 GiB, 178 ns). With no tlb rows to show the
   host's pages, a level past every claimed cache and past the claims' 4
   KiB TLB reach, 4x over the level below, joins memory as a climb
   (climb_reach). Its 2 MiB curve stepped out of L1 at 40 .. 44 KiB,
   minutes after its 4 KiB curve had held 48 KiB: the L1 read 40 KiB, and
   is starred (curves_disagree). */
static void test_recorded_latency_only_climb(void)
{
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-latency-mlp-1.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[2].name, "L3") && c.ntlbs == 0,
	      "L1, L2 and L3, no L4 and no TLB row (%zu caches, the last %s)", c.ncaches,
	      c.ncaches ? c.cache[c.ncaches - 1].name : "-");
	CHECK(a.h.climb.bytes >= 128u << 20 && a.h.climb.reach_claimed &&
	      a.h.climb.range_lo > a.h.climb.tlb_reach,
	      "the step kept as memory's climb past the claims' reach (at %llu MiB)",
	      (unsigned long long)(a.h.climb.bytes >> 20));
	CHECK(c.cache[0].size_bytes < 48u << 10 && c.cache[0].noisy,
	      "the L1, read at %llu KiB by one curve where the other held 48 KiB, starred",
	      (unsigned long long)(c.cache[0].size_bytes >> 10));
	CHECK(!c.cache[1].noisy && c.cache[1].size_bytes == 1u << 20,
	      "the L2, 1 MiB as in every run, not starred");
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(!strcmp(quiet.cache[0].name, "L1") && !quiet.cache[0].noisy,
	      "quick-9's L1, both curves stepping at 48 .. 52 KiB, not starred");
}

/* The last of five quick runs back to back on the Zen 5 VM, both of whose
   curves stepped out of L1 smeared over 28 to 44 KiB (a sibling thread's
   share of the core's 48 KiB L1): L1 read 32 KiB. A guest's cache level
   whose range lies below its claim is a share of it, as the last level's
   is (guest_share): starred, its range up to the claim. */
static void test_recorded_l1_share(void)
{
	static struct card c, quiet;

	zen5_card("tests/data/zen5-vm-quick-14.csv", &c);
	CHECK(c.ncaches == 3 && !strcmp(c.cache[0].name, "L1") &&
	      c.cache[0].size_bytes < 48u << 10 && c.cache[0].verdict == VERDICT_DIFFERS,
	      "L1 read under its 48 KiB claim (%llu KiB), differing",
	      (unsigned long long)(c.cache[0].size_bytes >> 10));
	CHECK(c.cache[0].guest_share && c.cache[0].noisy &&
	      c.cache[0].range_hi == c.cache[0].claim_bytes,
	      "that L1, a guest's share, starred and ranging up to its claim (%llu KiB)",
	      (unsigned long long)(c.cache[0].range_hi >> 10));
	CHECK(!c.cache[1].guest_share && c.cache[1].verdict == VERDICT_AGREES,
	      "the L2, agreeing, no share");
	zen5_card("tests/data/zen5-vm-quick-9.csv", &quiet);
	CHECK(same_levels(&c, &quiet), "the same levels as quick-9, each size equal or the "
	      "ranges overlapping");
	CHECK(!quiet.cache[0].guest_share && !quiet.cache[0].noisy,
	      "quick-9's L1, agreeing at 48 KiB, neither a share nor starred");
}

/* The placement sign alone, with the hypervisor taken out of the claims
   (so a guest's last cache stars nothing): quiet run 4's L3 read a third
   faster on its 4 KiB curve than on its 2 MiB curve at the same sizes,
   and is starred; run 5's two curves agree, and its L3 is not. */
static void test_recorded_placement(void)
{
	static struct card c;
	static struct cache_claims claims;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0,
	      "Zen 5's recorded CPUID decodes");
	claims.hypervisor = 0;
	recorded_card("tests/data/zen5-vm-quick-4.csv", &claims, &c);
	CHECK(c.ncaches == 3 && c.cache[2].noisy,
	      "run 4: the L3 its page sizes read a third apart, starred (%.2f ns)",
	      c.ncaches == 3 ? c.cache[2].ns : 0);
	recorded_card("tests/data/zen5-vm-quick-5.csv", &claims, &c);
	CHECK(c.ncaches == 3 && !c.cache[2].noisy,
	      "run 5: the L3 its page sizes read alike, no star (%.2f ns)",
	      c.ncaches == 3 ? c.cache[2].ns : 0);
}

/* A core clock that moved between the two curves is not placement: the
   Emerald Rapids VM's quick run (tests/data/emr-vm-quick-clock.csv) read
   its L1 over a tenth faster in ns on its 4 KiB curve than on its 2 MiB
   one, the same in cycles, and an L1 indexed within a 4 KiB page cannot
   be placed; the card starred it while placement_moves read ns. */
static void test_clock_not_placement(void)
{
	static struct card c;
	static struct cache_claims claims;
	double q_ns, q_cycles;

	CHECK(recorded_claims("tests/data/emr-vm-cpuid.json", &claims) == 0,
	      "the Emerald Rapids VM's CPUID decodes");
	recorded_card("tests/data/emr-vm-quick-clock.csv", &claims, &c);
	q_ns = a.ncurves == 2 ? curves_ratio(&a.curve[0], &a.curve[1], 4 * KIB, 32 * KIB, 0) : 0;
	q_cycles = a.ncurves == 2 ? curves_cycles_ratio(&a.curve[0], &a.curve[1], 4 * KIB,
							32 * KIB) : 0;
	CHECK(a.ncurves == 2 && a.curve[0].page_shift == 12 && q_ns > 0 && q_ns * 1.1 < 1 &&
	      q_cycles > 0.95 && q_cycles < 1.05,
	      "the L1's sizes read %.2fx in ns, %.2fx in cycles, 4 KiB pages over 2 MiB", q_ns,
	      q_cycles);
	CHECK(c.ncaches == 3 && c.cache[0].size_bytes == 48 * KIB && !c.cache[0].noisy,
	      "its L1, 48 KiB, carries no star (%zu caches, %llu bytes, noisy %d)", c.ncaches,
	      c.ncaches ? (unsigned long long)c.cache[0].size_bytes : 0ull,
	      c.ncaches ? c.cache[0].noisy : -1);
}

/* A claim at the end of its smeared step's range holds the size when the
   points between the claim and the crossing could not read as fitting:
   the Emerald Rapids VM's quick run (tests/data/emr-vm-quick-dtlb.csv)
   read its L1 DTLBs' steps from their claims, 96 and 32 entries, up over
   points a third and more over the level with spreads of a few percent;
   the card starred both for the crossing, which their names never take. */
static void test_claim_at_range_end(void)
{
	static struct card c;
	static struct cache_claims claims;
	unsigned at_end = 0, starred = 0;

	CHECK(recorded_claims("tests/data/emr-vm-cpuid.json", &claims) == 0,
	      "the Emerald Rapids VM's CPUID decodes");
	recorded_card("tests/data/emr-vm-quick-dtlb.csv", &claims, &c);
	for (size_t i = 0; i < c.ntlbs; i++)
		if (!strcmp(c.tlb[i].name, "L1 DTLB")) {
			at_end += c.tlb[i].entries == c.tlb[i].range_lo &&
				  c.tlb[i].entries == c.tlb[i].claim_entries &&
				  c.tlb[i].verdict == VERDICT_AGREES;
			starred += c.tlb[i].noisy;
		}
	CHECK(at_end == 2 && starred == 0, "both L1 DTLBs named by their claims at their "
	      "ranges' low ends (%u of 2), neither starred (%u)", at_end, starred);
}

/* Two quick latency,tlb runs back to back on the lent Emerald Rapids
   machine (tests/data/emr-dev-quick-1..2.csv, its CPUID in
   emr-dev-cpuid.json: leaf 4's caches, leaf 18h empty, so the TLBs
   Intel documents for model 207): each card names L1 48 KiB and L2 2 MiB
   agreeing, an L3, the 96-entry L1 DTLB and the 2048-entry STLB with
   4 KiB pages and the 32-entry L1 DTLB with 2 MiB pages, each agreeing;
   no walk on either card, at most a third of the levels starred, and
   memory from 4x the 300 MiB L3 claim or past. A second CPU kind's
   recording: what was tuned on the Zen VMs must hold here too. */
static void test_recorded_emr(void)
{
	static const char *const runs[] = { "tests/data/emr-dev-quick-1.csv",
					     "tests/data/emr-dev-quick-2.csv" };
	static struct card c;
	static struct cache_claims claims;

	CHECK(recorded_claims("tests/data/emr-dev-cpuid.json", &claims) == 0 && claims.ncaches >= 4,
	      "the Emerald Rapids machine's CPUID decodes (%u caches)", claims.ncaches);
	for (int r = 0; r < 2; r++) {
		size_t at, levels;

		recorded_card(runs[r], &claims, &c);
		levels = c.ncaches + c.ntlbs;
		CHECK(c.ncaches == 3 && !strcmp(c.cache[0].name, "L1") &&
		      c.cache[0].size_bytes == 48 * 1024 && c.cache[0].verdict == VERDICT_AGREES &&
		      !strcmp(c.cache[1].name, "L2") && c.cache[1].size_bytes == 2 * 1024 * 1024 &&
		      c.cache[1].verdict == VERDICT_AGREES && !strcmp(c.cache[2].name, "L3"),
		      "%s: L1 48 KiB and L2 2 MiB agreeing, an L3 (%zu caches)", runs[r], c.ncaches);
		CHECK(has_tlb(&c, 12, 96, &at) && c.tlb[at].verdict == VERDICT_AGREES &&
		      has_tlb(&c, 12, 2048, &at) && c.tlb[at].verdict == VERDICT_AGREES &&
		      has_tlb(&c, 21, 32, &at) && c.tlb[at].verdict == VERDICT_AGREES && c.ntlbs == 3,
		      "%s: L1 DTLB 96 and STLB 2048 with 4 KiB pages, L1 DTLB 32 with 2 MiB, each "
		      "agreeing, and no other TLB row (%zu)", runs[r], c.ntlbs);
		CHECK(3 * c.noisy <= levels, "%s: %u of %zu levels starred, at most a third", runs[r],
		      c.noisy, levels);
		CHECK(c.have_top && !c.top_cached && c.top_from_bytes >= 4ull * 300 * 1024 * 1024,
		      "%s: memory from 4x the claimed 300 MiB L3 or past (%llu)", runs[r],
		      (unsigned long long)c.top_from_bytes);
		CHECK(!c.top_noisy, "%s: memory (%.1f ns at 2 GiB), as flat as the plateau past "
		      "the L3, unstarred", runs[r], c.top_ns);
	}
}

/* The quiet Zen 5 runs and the Emerald Rapids ones with their tlb rows
   left out, as `probes=latency` alone records them. On the Zen 5 VM the
   two latency curves place the L3's step apart (run 5: 4 KiB pages at
   8 MiB, 2 MiB pages at 12 MiB) and then read within a few % of each
   other: such a step is the caches', not a TLB's (hierarchy_find's
   keeps_above), where it was carded as "TLB 4 KiB 2048" and "131072".
   Emerald Rapids' 4 KiB curve stays 14-28 % over the 2 MiB one past its
   step, a TLB's, and keeps it. */
static void test_recorded_latency_alone(void)
{
	static const char *const zen5[] = { "tests/data/zen5-vm-quick-4.csv",
					     "tests/data/zen5-vm-quick-5.csv",
					     "tests/data/zen5-vm-quick-6.csv" };
	static const char *const emr[] = { "tests/data/emr-dev-quick-1.csv",
					    "tests/data/emr-dev-quick-2.csv" };
	static struct card c;
	static struct cache_claims claims;
	size_t at, unshared = 0;

	CHECK(recorded_claims("tests/data/zen5-vm-cpuid.json", &claims) == 0,
	      "Zen 5's recorded CPUID decodes");
	for (int r = 0; r < 3; r++) {
		int stray = 0;

		recorded_card_without(zen5[r], &claims, "tlb", &c);
		for (size_t i = 0; i < a.h.nlevels; i++)
			stray += a.h.level[i].kind == LEVEL_TLB &&
				 a.h.level[i].range_hi < (96ull << 12);
		stray += has_tlb(&c, 12, 2048, &at) || has_tlb(&c, 12, 131072, &at);
		unshared += a.h.nunshared;
		CHECK(c.ncaches == 3 && !stray,
		      "%s, latency alone: L1, L2 and L3, and no 4 KiB TLB level at 2048 or 131072 "
		      "entries (%zu caches, %zu TLB rows)", zen5[r], c.ncaches, c.ntlbs);
	}
	CHECK(unshared >= 2, "  the steps one curve showed alone are kept as the caches' (%zu)",
	      unshared);
	CHECK(recorded_claims("tests/data/emr-dev-cpuid.json", &claims) == 0,
	      "Emerald Rapids' CPUID decodes");
	recorded_card_without(emr[1], &claims, "tlb", &c);
	CHECK(c.ncaches == 3 && a.h.nunshared == 0 && c.ntlbs >= 1,
	      "%s, latency alone: the 4 KiB step its curve keeps above the 2 MiB one stays a "
	      "TLB's (%zu TLB rows, %zu set aside)", emr[1], c.ntlbs, a.h.nunshared);
	/* The Emerald Rapids VM, latency alone (tests/data/emr-vm-latency-only.csv):
	   its curves read the VM's L3 share apart and left a 4 KiB step at
	   7680 pages, +151 cycles, carded as "TLB 7680 differs". Past the
	   documented 2048-entry STLB it is the walks', off the card. */
	CHECK(recorded_claims("tests/data/emr-vm-cpuid.json", &claims) == 0 && claims.hypervisor,
	      "the Emerald Rapids VM's CPUID decodes, under a hypervisor");
	recorded_card("tests/data/emr-vm-latency-only.csv", &claims, &c);
	{
		int walks = 0;

		for (size_t i = 0; i < a.h.nlevels; i++)
			walks += a.h.level[i].kind == LEVEL_TLB && a.h.level[i].walk &&
				 (a.h.level[i].range_lo >> 12) > 2048 &&
				 strstr(a.h.level[i].walk, "a claim no hypervisor made");
		CHECK(c.ncaches == 3 && c.ntlbs == 0 && walks == 1,
		      "emr-vm-latency-only.csv: L1, L2, L3, no TLB row on the card, and the step "
		      "past the documented 2048 entries a walk (%zu TLB rows, %d walks)", c.ntlbs,
		      walks);
	}
	/* A second (tests/data/emr-vm-latency-only-2.csv): the L3 share's
	   step at 10 .. 11 MiB with 4 KiB pages, at 20 .. 22 MiB with 2 MiB
	   pages. The 2 MiB one, 12 pages, under half the documented 32-entry L1
	   DTLB, was carded "TLB 2 MiB ~12 ... differs" with "L3 not seen";
	   no TLB of those pages reads so few entries, so it is the L3's. */
	recorded_card("tests/data/emr-vm-latency-only-2.csv", &claims, &c);
	{
		size_t l3 = 0, small_tlb = 0;

		for (size_t i = 0; i < a.h.nlevels; i++) {
			const struct level *l = &a.h.level[i];

			l3 += (l->kind == LEVEL_CACHE || l->kind == LEVEL_EDGE) &&
			      !strcmp(l->name, "L3") && l->size_bytes >= 8 * MIB &&
			      l->size_bytes <= 32 * MIB;
			small_tlb += l->kind == LEVEL_TLB && l->page_shift == 21 &&
				     l->entries < 32;
		}
		for (size_t i = 0; i < a.h.nlevels; i++)
			if (a.h.level[i].kind == LEVEL_TLB && a.h.level[i].page_shift == 12)
				CHECK(a.h.level[i].increase_cycles < 150,
				      "emr-vm-latency-only-2.csv: the 4 KiB step's miss is what stays "
				      "past it, not the +237 cycles its rise held with the L3 share's "
				      "(+%.1f)", a.h.level[i].increase_cycles);
		CHECK(c.ncaches == 3 && l3 == 1 && small_tlb == 0,
		      "emr-vm-latency-only-2.csv: L1, L2 and an L3 of 8 to 32 MiB, no 2 MiB TLB "
		      "under 32 entries (%zu caches, %zu L3, %zu small TLBs)", c.ncaches, l3,
		      small_tlb);
	}
	/* A third (-3.csv): its 4 KiB curve smeared the L1's step from 32 KiB
	   (2.25 ns there, 2.96 at 36, 5.65 at 44) while the 2 MiB curve
	   stepped at 48 to 52 KiB. 8 pages is under the 96-entry L1 DTLB, so
	   no TLB's; but no cache level either: a step the curves placed apart,
	   and the L1 stays 48 KiB. */
	recorded_card("tests/data/emr-vm-latency-only-3.csv", &claims, &c);
	CHECK(c.ncaches == 3 && a.h.nlevels && a.h.level[0].size_bytes == 48 * KIB &&
	      a.h.nunshared == 1 && a.h.unshared[0].page_shift == 12 &&
	      a.h.unshared[0].bytes < 48 * KIB && a.h.unshared[0].tlb_floor == 48,
	      "emr-vm-latency-only-3.csv: three caches, L1 48 KiB, the 4 KiB curve's smeared "
	      "step set aside (%zu caches, L1 %llu, %zu set aside)", c.ncaches,
	      a.h.nlevels ? (unsigned long long)a.h.level[0].size_bytes : 0ull, a.h.nunshared);
}

static void test_too_many_levels(void)
{
	int lines, widest, ended;

	synthetic();
	a.h.nlevels = 0;
	for (int i = 0; i < 8; i++) {
		char name[8];
		snprintf(name, sizeof name, "L%d", (i + 1) % 10);
		add_level(LEVEL_CACHE, name, 12, (16 * KIB) << (2 * i), 0, 0, 1 + i);
	}
	for (int i = 0; i < 12; i++)
		add_level(LEVEL_TLB, "a very long TLB name", 12, (64 * KIB) << i, 0, 0, 1);
	for (size_t i = 0; i < a.h.nlevels; i++)
		a.h.level[i].smeared = 1;   /* a long trust line */
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1, .nfailed = 2,
						 .failed = { "probe0: failed", "probe1: failed" } });
	CHECK(card.ncaches == 8 && card.ntlbs == 12, "every level is on the card (8 + 12)");
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	CHECK(lines == CARD_LINES && widest <= CARD_COLUMNS,
	      "20 levels: still %d lines (%d) of at most 80 columns (%d)", CARD_LINES, lines,
	      widest);
	CHECK(strstr(text, "more levels than the card holds: report.txt lists them"),
	      "the levels left off are counted");
	CHECK(line_of(text, "a very l ") != NULL, "a long name is cut to its column");
}

static void test_empty_card(void)
{
	card_build(&card, 0, 0, &(struct card_run){ .known = 1 });
	card_format(&card, text, sizeof text);
	CHECK(strstr(text, "no latency or tlb rows"), "no rows: the card says nothing was measured");
	CHECK(strstr(text, "NMIs and SMIs not counted"), "and still the trust line");
}

/* A probe that failed is a line of its own with its reason, cut to the
   card's width; a run with none has no such line. */
static void test_failed_probe(void)
{
	struct card_run run = { .known = 1, .nfailed = 1 };

	snprintf(run.failed[0], sizeof run.failed[0], "bandwidth: no 512 MiB buffer with 4 KiB "
		 "pages: pages NOT mapped");
	card_build(&card, 0, 0, &run);
	card_format(&card, text, sizeof text);
	CHECK(line_of(text, "FAILED   bandwidth: no 512 MiB buffer with 4 KiB pages: pages NOT "
		      "mapped\n") != NULL, "the failed probe and its reason, a line of its own");
	card_build(&card, 0, 0, &(struct card_run){ .known = 1 });
	card_format(&card, text, sizeof text);
	CHECK(strstr(text, "FAILED") == NULL, "no failed probe, no FAILED line");
}

/* A full profile's card: many bottom lines (here four two-line FAILED
   lines and two-line CPU and machine lines) still leave every level on
   it, the trust lines cut to their fewest with " ..." between words; and
   when even the levels do not fit, a table with no row shown loses its
   heading (a full run showed "TLB pages entries ..." over no row). */
static void test_crowded_card(void)
{
	struct card_run run = { .known = 1, .nfailed = 4 };
	int lines, widest, ended;
	const char *trust;

	for (unsigned i = 0; i < 4; i++)
		snprintf(run.failed[i], sizeof run.failed[0], "probe%u: a reason long enough to "
			 "go on over a second line of the card, as real reasons do", i);
	synthetic();
	card_build(&card, &a, &rows, &run);
	snprintf(card.cpu, sizeof card.cpu, "cpu      AMD EPYC 9R45 96-Core Processor with a long "
		 "brand string (family 26 model 2 stepping 1)");
	snprintf(card.machine, sizeof card.machine, "machine  Acme Servers RackOne R1 with a "
		 "long product name, 2 DIMMs 32 GiB DDR5 4800 MT/s");
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	CHECK(lines <= CARD_LINES && widest <= CARD_COLUMNS && !strstr(text, "more levels"),
	      "a crowded card keeps every level (%zu caches, %zu TLBs) in %d lines", card.ncaches,
	      card.ntlbs, lines);
	/* A full profile's lines instead of the failures: the busy and
	   instruction lines, whose compact forms make room. */
	run.nfailed = 2;
	card_build(&card, &a, &rows, &run);
	snprintf(card.cpu, sizeof card.cpu, "cpu      AMD EPYC 7763 64-Core Processor (family 25 "
		 "model 1 stepping 1)");
	snprintf(card.machine, sizeof card.machine, "machine  no SMBIOS: this kernel exports none");
	card.have_top = 1;
	card.ifetch.have_l1i = 1;
	card.ifetch.l1i = (struct ifetch_level){ .count = 32768, .miss_cycles = 1.9,
						 .claim = 32768, .verdict = VERDICT_AGREES };
	card.ifetch.fetch_page_shift = 12;
	card.ifetch.fetch_l1i_bytes_per_cycle = 27;
	card.ifetch.fetch_l2_bytes_per_cycle = 16;
	card.busy = (struct card_busy){ .have_loaded = 1, .loaded_shift = 12, .idle_ns = 353,
					.nmix = 6, .have_tails = 1, .tails_shift = 12,
					.tails_bytes = 1ull << 30, .p50_ns = 240, .p99_ns = 365 };
	for (unsigned m = 0; m < 6; m++) {
		static const char *const mixes[] = { "read", "read3_write1", "read2_write1",
						     "read1_write1", "write", "write_nt" };
		snprintf(card.busy.mix[m].mix, sizeof card.busy.mix[m].mix, "%s", mixes[m]);
		card.busy.mix[m].ns = 313 + m;
		card.busy.mix[m].gb_per_s = 10.5 + m;
	}
	card.ifetch.ntlbs = 3;
	for (unsigned i = 0; i < 3; i++)
		card.ifetch.tlb[i] = (struct ifetch_level){ .page_shift = i < 2 ? 12 : 21,
			.number = i < 2 ? i + 1 : 1, .count = i == 1 ? 192 : 64, .miss_cycles = 1.5,
			.claim = 64, .verdict = i == 1 ? VERDICT_DIFFERS : VERDICT_AGREES };
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	CHECK(lines <= CARD_LINES && widest <= CARD_COLUMNS && !strstr(text, "more levels"),
	      "with loaded and ITLB lines too, every level stays (%d lines)", lines);
	CHECK(line_of(text, "loaded   p50 idle 353 ns; busiest: read 313 ns at 10.5 GB/s, write "
		      "317 at 14.5\n") && line_of(text, "ITLB 4K  64 entries (256K), miss "
		      "+1.5 cycles; claim 64, agrees (+1)\n") && line_of(text, "ITLB 2M  64 entries"),
	      "in their compact forms: loaded's reads and writes alone, each page size's first "
	      "ITLB step and how many more");
	trust = strstr(text, "trust: ");
	CHECK(trust && lines == CARD_LINES && strstr(trust, " ...\n") &&
	      strlen(strstr(trust, " ...\n")) == 5, "its trust lines fill what is left, the "
	      "last ending in \" ...\"");
	card.ntlbs = 8;   /* the same TLBs over again: more than fit */
	card.ncaches = 3;
	run.nfailed = 4;
	card_format(&card, text, sizeof text);
	measure(text, &lines, &widest, &ended);
	CHECK(lines <= CARD_LINES && strstr(text, "more levels than the card holds"),
	      "more levels than fit: counted (%d lines)", lines);
	CHECK(!strstr(text, "TLB        pages") || line_of(text, "L1 DTLB"),
	      "no table heading without a row under it");
}

/* A line longer than the card goes on over more lines, cut between words
   (issue 31: loaded's reason was cut mid-word at 80 columns). */
static void test_wrapped_line(void)
{
	static const char reason[] = "loaded: no 32 MiB buffer with 4 KiB pages: pages NOT "
		"mapped: out of page-table memory";
	struct card_run run = { .known = 1, .nfailed = 1 };
	char joined[sizeof text];
	const char *first, *second;
	int lines, widest, ended, whole;

	snprintf(run.failed[0], sizeof run.failed[0], "%s", reason);
	card_build(&card, 0, 0, &run);
	card_format(&card, text, sizeof text);
	printf("%s", text);
	measure(text, &lines, &widest, &ended);
	first = line_of(text, "FAILED   loaded: ");
	second = first ? strchr(first, '\n') + 1 : NULL;
	CHECK(widest <= CARD_COLUMNS && first && second && !strncmp(second, "         ", 9) &&
	      second[9] != ' ', "the 94-character FAILED line goes on under the second column "
	      "(widest %d)", widest);
	/* Every line ends at a word's end and the next starts at a word's
	   start: joined with one blank, the reason is whole again. */
	whole = strstr(text, " \n") == NULL;
	join_lines(first, second ? second + strcspn(second, "\n") : NULL, joined, sizeof joined);
	CHECK(whole && !strcmp(joined + 9, reason), "no word is cut: joined back, the reason "
	      "reads whole (\"%s\")", joined);
}

static void test_json_and_figures(void)
{
	static char buf[32768];
	struct card_figure fig[CARD_MAX_FIGURES];
	struct json j;
	size_t at, n;
	char got[96];

	synthetic();
	strcpy(a.claims.hypervisor_id, "TCGTCGTCGTCG");
	card_build(&card, &a, &rows, &(struct card_run){ .known = 1, .nmi = 2, .nmi_counted = 1,
						       .smi_counted = 1 });
	card_format(&card, text, sizeof text);
	summary_json(&j, buf, sizeof buf);
	CHECK(!j.overflow && json_check(buf, j.len, &at) == 0, "summary is well-formed JSON");
	CHECK(json_get_string(buf, j.len, "summary.lines.0", got, sizeof got) == 0 &&
	      !strncmp(got, "EMULATED CPU", 12) &&
	      json_get_string(buf, j.len, "summary.lines.1", got, sizeof got) == 0 &&
	      !strncmp(got, "== summary", 10), "its lines are the card's, the emulated CPU's first");
	CHECK(json_get_string(buf, j.len, "summary.top.name", got, sizeof got) == 0 &&
	      !strcmp(got, "memory"), "summary.top.name is memory");
	CHECK(strstr(buf, "\"emulated\": true") || strstr(buf, "\"emulated\":true"),
	      "summary.trust.emulated");
	CHECK(strstr(buf, "\"size_bytes\": 1048576") || strstr(buf, "\"size_bytes\":1048576"),
	      "L2's size as data");
	CHECK(json_get_scalar(buf, j.len, "summary.caches.0.claim_bytes", got, sizeof got) == 0 &&
	      !strcmp(got, "49152") && strstr(buf, "\"claim_entries\"") && !strstr(buf, "cpuid"),
	      "each level's claim as data, under claim_bytes and claim_entries (L1: %s)", got);
	CHECK(strstr(text, " claim  verdict\n") != NULL, "the card's tables head the claim column "
	      "\"claim\", whichever registers made it");
	n = card_figures(&card, fig, CARD_MAX_FIGURES);
	int have_l1 = 0, have_stlb = 0, have_c2c = 0;
	for (size_t i = 0; i < n; i++) {
		have_l1 |= !strcmp(fig[i].name, "L1 KiB") && fig[i].value == 48;
		have_stlb |= !strcmp(fig[i].name, "L2 TLB 4 KiB entries") && fig[i].value == 2048;
		have_c2c |= !strcmp(fig[i].name, "c2c median ns") && fig[i].value == 50;
	}
	CHECK(have_l1 && have_stlb && have_c2c, "figures by name: L1 KiB 48, L2 TLB 4 KiB "
	      "entries 2048, c2c median ns 50 (%zu figures)", n);
}

/* A whole run through the host platform: latency and tlb, small sizes. */
static void test_run_folder(void)
{
	static char summary[8192], report[1 << 20], page[1 << 21], sys_json[1 << 17];
	char root[] = "/tmp/memprobe-test-card-XXXXXX", path[4200], got[96];
	static const char cfg[] = "profile = quick\nprobes = latency,tlb\npages = 4k,2m\n"
				  "max_size = 1M\n";
	struct config_source src = { "test", cfg, sizeof cfg - 1, 0 };
	struct config_error err;
	static struct config c;
	size_t at, len;
	const char *p;

	if (!mkdtemp(root) || config_load(&c, &src, 1, &metal, &err)) {
		CHECK(0, "a run folder and the configuration");
		return;
	}
	host_set_results_root(root);
	CHECK(memprobe_run(&c) == 0, "the run succeeds");
	snprintf(path, sizeof path, "%s/summary.txt", plat_run_folder());
	CHECK(read_file(path, summary, sizeof summary) > 0, "summary.txt is in the run folder");
	snprintf(path, sizeof path, "%s/report.txt", plat_run_folder());
	read_file(path, report, sizeof report);
	CHECK(summary[0] && !strncmp(report, summary, strlen(summary)),
	      "report.txt begins with the card");
	p = strstr(report + strlen(summary), "\ncompiler: ");
	CHECK(p && strstr(p, summary), "and then the console's text, the card last in it");
	CHECK(strstr(summary, "\nL1 "), "the card names L1");
	snprintf(path, sizeof path, "%s/report.html", plat_run_folder());
	read_file(path, page, sizeof page);
	p = strstr(page, "<section");
	CHECK(p && !strncmp(p, "<section id=\"summary\">", 22) && strstr(page, "<h2>") > p,
	      "report.html's first section, before any heading, is id=\"summary\"");
	CHECK(p && strstr(p, "== summary: the memory hierarchy") &&
	      strstr(p, "== summary") < strstr(page, "<h2>system summary</h2>"),
	      "it holds the card");
	snprintf(path, sizeof path, "%s/report.draft.txt", plat_run_folder());
	CHECK(read_file(path, got, sizeof got) == 0, "no draft is left");
	snprintf(path, sizeof path, "%s/system.json", plat_run_folder());
	len = read_file(path, sys_json, sizeof sys_json);
	CHECK(json_check(sys_json, len, &at) == 0 &&
	      json_get_string(sys_json, len, "summary.lines", got, sizeof got) != 0 &&
	      strstr(sys_json, "\"summary\"") && strstr(sys_json, "\"trust\""),
	      "system.json has a summary member with its trust");
	snprintf(path, sizeof path, "rm -rf '%s'", root);
	if (system(path) != 0)
		printf("(could not remove %s)\n", root);
}

/* The ways column: the geometry probe's L1d and L2 ways into the card's L1
   and L2; a level it could not measure stays "-". */
static void test_ways_column(void)
{
	static struct geometry_results g;
	const char *l;
	int lines, widest, ended;

	synthetic();
	card_build(&card, &a, &rows, 0);
	memset(&g, 0, sizeof g);
	g.ran = 1;
	g.nlevels = 2;
	strcpy(g.level[0].name, "L1d");
	g.level[0].ways.measured = 12;
	strcpy(g.level[1].name, "L2");
	g.level[1].ways.verdict = GEOMETRY_NOT_MEASURABLE;
	card_add_geometry(&card, &g);
	card_format(&card, text, sizeof text);
	measure(text, &lines, &widest, &ended);
	CHECK(strstr(text, " ways ") && widest <= CARD_COLUMNS,
	      "the cache table has a ways column, still within 80 columns (%d)", widest);
	l = line_of(text, "L1 ");
	CHECK(l && strstr(l, " 12 ") && card.cache[0].ways == 12, "L1: 12 ways measured");
	l = line_of(text, "L2 ");
	CHECK(l && card.cache[1].ways == 0 && strstr(l, "  - "), "L2: not measurable, '-'");
}

/* No level with its ways measured (a run without the geometry probe):
   no ways column, rather than "-" throughout. */
static void test_no_ways_column(void)
{
	synthetic();
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	CHECK(line_of(text, "cache ") && !strstr(text, " ways ") && !strstr(text, "    -    "),
	      "no ways measured: no ways column, no '-' column");
}

/* Every line of the text within CARD_COLUMNS, and the text with each line
   break a blank and every run of blanks one blank holding want: nothing
   cut, no word split. */
static int wrapped_whole(const char *t, const char *want)
{
	static char joined[CARD_TEXT_MAX];
	int lines, widest, ended;
	size_t n = 0;

	measure(t, &lines, &widest, &ended);
	for (const char *p = t; *p && n + 1 < sizeof joined; p++) {
		char c = *p == '\n' ? ' ' : *p;

		if (c != ' ' || !n || joined[n - 1] != ' ')
			joined[n++] = c;
	}
	joined[n] = 0;
	return widest <= CARD_COLUMNS && ended && strstr(joined, want) != NULL;
}

/* A figure of the geometry probe's: measured (0: not), claimed, verdict. */
static void geometry_figure_of(struct geometry_figure *f, uint64_t measured, uint64_t claimed)
{
	f->measured = measured;
	f->claimed = claimed;
	f->verdict = !measured ? GEOMETRY_NOT_MEASURABLE : geometry_hold(measured, claimed);
	snprintf(f->why, sizeof f->why, measured ? "read %llu" : "not measurable here: noise",
		 (unsigned long long)measured);
}

/* The geometry line: line size, each cache level's ways x sets, a claim
   beside each figure that differs, what the measured figures say of the
   claims, then what was not measurable; the same figures in system.json's
   summary.geometry. */
static void test_geometry_line(void)
{
	static struct geometry_results g;
	static char buf[32768];
	struct json j;
	size_t at;
	char got[96];
	const char *l;
	int lines, widest, ended;

	synthetic();
	card_build(&card, &a, &rows, 0);
	card_format(&card, text, sizeof text);
	CHECK(!line_of(text, "geometry"), "no geometry run: no geometry line");
	memset(&g, 0, sizeof g);
	g.ran = 1;
	g.nlevels = 2;
	geometry_figure_of(&g.line, 64, 64);
	strcpy(g.level[0].name, "L1d");
	geometry_figure_of(&g.level[0].ways, 12, 12);
	geometry_figure_of(&g.level[0].sets, 64, 64);
	strcpy(g.level[1].name, "L2");
	geometry_figure_of(&g.level[1].ways, 0, 16);
	geometry_figure_of(&g.level[1].sets, 0, 2048);
	card_add_geometry(&card, &g);
	card_format(&card, text, sizeof text);
	l = line_of(text, "geometry");
	CHECK(l && strstr(l, "geometry line 64 B, L1d 12 ways x 64 sets; as claimed; not "
			  "measurable: L2"), "EMR's reading: %.80s", l ? l : "(none)");
	geometry_figure_of(&g.line, 0, 64);
	geometry_figure_of(&g.level[0].ways, 8, 12);
	geometry_figure_of(&g.level[1].ways, 16, 16);
	geometry_figure_of(&g.level[1].sets, 1024, 2048);
	card_add_geometry(&card, &g);
	card_format(&card, text, sizeof text);
	measure(text, &lines, &widest, &ended);
	CHECK(wrapped_whole(text, "geometry L1d 8 ways (claim 12) x 64 sets, L2 16 ways x 1024 "
			    "sets (claim 2048); 2 differ from the claims; not measurable: line "
			    "size"),
	      "a differing figure carries its claim, wrapped whole within 80 columns (%d)",
	      widest);
	summary_json(&j, buf, sizeof buf);
	CHECK(!j.overflow && json_check(buf, j.len, &at) == 0 &&
	      json_get_scalar(buf, j.len, "summary.geometry.caches.0.ways.measured", got,
			      sizeof got) == 0 && !strcmp(got, "8") &&
	      json_get_scalar(buf, j.len, "summary.geometry.caches.0.ways.claimed", got,
			      sizeof got) == 0 && !strcmp(got, "12") &&
	      json_get_string(buf, j.len, "summary.geometry.caches.0.ways.verdict", got,
			      sizeof got) == 0 && !strcmp(got, "differs"),
	      "summary.geometry: L1d 8 ways measured, 12 claimed, differs");
	CHECK(json_get_scalar(buf, j.len, "summary.geometry.line_bytes.measured", got,
			      sizeof got) != 0 &&
	      json_get_string(buf, j.len, "summary.geometry.line_bytes.verdict", got,
			      sizeof got) == 0 && !strcmp(got, "not measurable") &&
	      json_get_string(buf, j.len, "summary.geometry.line_bytes.how", got,
			      sizeof got) == 0 && strstr(got, "noise"),
	      "a line size not measured has no figure, its verdict and why");
	geometry_figure_of(&g.level[0].ways, 0, 12);
	geometry_figure_of(&g.level[0].sets, 0, 64);
	geometry_figure_of(&g.level[1].ways, 0, 16);
	geometry_figure_of(&g.level[1].sets, 0, 2048);
	card_add_geometry(&card, &g);
	card_format(&card, text, sizeof text);
	l = line_of(text, "geometry");
	CHECK(l && !strncmp(l, "geometry not measurable: line size, L1d, L2\n", 44),
	      "nothing measured: one list of what was not (%.60s)", l ? l : "(none)");
	geometry_figure_of(&g.level[0].ways, 8, 12);
	geometry_figure_of(&g.level[0].sets, 64, 64);
	geometry_figure_of(&g.level[1].ways, 16, 16);
	geometry_figure_of(&g.level[1].sets, 1024, 2048);
	card_add_geometry(&card, &g);
	card.emulated = 1;
	card_format(&card, text, sizeof text);
	l = line_of(text, "geometry");
	CHECK(l && wrapped_whole(text, "geometry L1d 8 ways x 64 sets, L2 16 ways x 1024 sets; "
				 "emulated; not measurable: line size"),
	      "under TCG the line says emulated, with no claim or differs");
}

/* The machine and CPU lines, as long as a platform gives them (issue 34:
   "No " was the machine line's last word on the card): each goes on over
   more lines under the second column, no word cut, none past 80. */
static void test_long_lines(void)
{
	static const char machine[] = "machine  no SMBIOS: this kernel exports none "
		"(/sys/firmware/dmi/tables/DMI: No such file or directory)";
	static const char cpu[] = "cpu      AMD EPYC 9R45 96-Core Processor with a very long "
		"brand string (AuthenticAMD family 26 model 2 stepping 1)";
	const char *l;

	synthetic();
	card_build(&card, &a, &rows, 0);
	snprintf(card.machine, sizeof card.machine, "%s", machine);
	snprintf(card.cpu, sizeof card.cpu, "%s", cpu);
	card_format(&card, text, sizeof text);
	printf("%s", text);
	CHECK(wrapped_whole(text, "(/sys/firmware/dmi/tables/DMI: No such file or directory)"),
	      "the machine line whole, wrapped within 80 columns");
	CHECK(wrapped_whole(text, "(AuthenticAMD family 26 model 2 stepping 1)"),
	      "the CPU line whole, wrapped within 80 columns");
	l = line_of(text, "cpu      AMD EPYC");
	CHECK(l && line_of(text, "machine  no SMBIOS") > l, "the CPU on a line of its own, "
	      "above the machine");
	l = l ? strchr(l, '\n') + 1 : NULL;
	CHECK(l && !strncmp(l, "         ", 9) && l[9] != ' ', "its rest under the second column");
}

/* The busy lines: loaded's idle point and each mix's busiest point (the
   most GB/s drawn, whatever its order), at the largest page size only, as
   the memory line's latency (the 4 KiB rows come first in a run, and a
   4 KiB chase's walks are no memory's); memory's tail from the tails
   probe's largest working set, at the largest page size too. */
static void test_busy_lines(void)
{
	static struct card_rows rows;
	static struct card card;
	static char text[CARD_TEXT_MAX];
	struct card_figure fig[CARD_MAX_FIGURES];
	const struct { const char *probe, *variant; unsigned shift; uint64_t bytes; double ns, gb; }
	in[] = {
		{ "loaded", "idle", 12, 32 << 20, 210, 0 },       /* smaller pages: left out */
		{ "loaded", "read", 12, 32 << 20, 260, 20 },
		{ "loaded", "idle", 21, 32 << 20, 100, 0 },
		{ "loaded", "read", 21, 32 << 20, 101, 0.01 },
		{ "loaded", "read", 21, 32 << 20, 180, 15.5 },
		{ "loaded", "read", 21, 32 << 20, 150, 9 },
		{ "loaded", "write", 21, 32 << 20, 140, 7.25 },
		{ "loaded", "read1_write1", 21, 32 << 20, 160, 12 },
		{ "loaded", "write_nt", 21, 32 << 20, 150, 11 },
		{ "tails", "p50", 12, 256 << 20, 190, 0 },        /* smaller pages: left out */
		{ "tails", "p99", 12, 256 << 20, 999, 0 },
		{ "tails", "p50", 21, 16 << 10, 1.2, 0 },
		{ "tails", "p99", 21, 16 << 10, 1.5, 0 },
		{ "tails", "p50", 21, 128 << 20, 95, 0 },
		{ "tails", "p99", 21, 128 << 20, 240, 0 },
		{ "loaded", "read", 12, 32 << 20, 90, 30 },       /* after the larger: left out */
	};
	double p99 = 0, idle = 0, read_ns = 0, read_gb = 0;
	size_t n;
	const char *l;

	memset(&rows, 0, sizeof rows);
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		struct result_row row = { 0 };
		row.probe = in[i].probe;
		row.variant = in[i].variant;
		row.page_shift = in[i].shift;
		row.working_set_bytes = in[i].bytes;
		row.ns = in[i].ns;
		if (!strcmp(in[i].probe, "loaded"))
			row.load_gb_per_s = (struct optional_real){ in[i].gb, 1 };
		card_rows_add(&rows, &row);
	}
	card_build(&card, NULL, &rows, NULL);
	card_format(&card, text, sizeof text);
	l = line_of(text, "loaded ");
	CHECK(in_line(l, "p50 idle 100 ns (2M pages)") && wrapped_whole(text, " read 180 ns at 15.5 GB/s,") &&
	      !strstr(text, " 90 at") && !strstr(text, "260"), "loaded: idle 100 ns, read's busiest "
	      "point 180 ns at 15.5 GB/s, from the 2 MiB rows alone (%.160s)", l ? l : "none");
	CHECK(wrapped_whole(text, " write 140 at 7.2,"), "loaded: write's point on the card");
	CHECK(wrapped_whole(text, " 1:1 160 at 12.0,") && wrapped_whole(text, " nt write 150 at 11.0"),
	      "loaded: the mixes named short, reads to writes and non-temporal");
	l = line_of(text, "tails ");
	CHECK(in_line(l, "memory p99 240.0 ns, p50 95.0 ns (128 MiB, 2 MiB pages)"),
	      "tails: memory's p99 and p50 from the largest working set (%.100s)", l ? l : "none");
	n = card_figures(&card, fig, CARD_MAX_FIGURES);
	for (size_t i = 0; i < n; i++) {
		p99 = !strcmp(fig[i].name, "memory p99 ns") ? fig[i].value : p99;
		idle = !strcmp(fig[i].name, "loaded idle ns") ? fig[i].value : idle;
		read_ns = !strcmp(fig[i].name, "loaded read ns at most GB/s") ? fig[i].value : read_ns;
		read_gb = !strcmp(fig[i].name, "loaded read most GB/s") ? fig[i].value : read_gb;
	}
	CHECK(p99 == 240 && idle == 100 && read_ns == 180 && read_gb == 15.5, "figures for compare "
	      "and fleet: memory p99 240, loaded idle 100, read 180 ns at 15.5 GB/s");
}

/* A tails working set under the memory floor (4 x the 32 MiB L3 claimed:
   128 MiB), as a tails.max_buffer under it leaves, is no memory's: the
   line says so, system.json's summary.tails says cached, and compare and
   fleet get no "memory p99 ns". At the floor it is memory's. */
static void test_tails_under_floor(void)
{
	static char buf[32768];
	struct card_figure fig[CARD_MAX_FIGURES];
	struct json j;
	size_t n, memory_p99;
	char got[16];
	const char *l;

	for (int at_floor = 0; at_floor < 2; at_floor++) {
		uint64_t bytes = at_floor ? 128ull << 20 : 64ull << 20;

		synthetic();
		for (int v = 0; v < 2; v++) {
			struct result_row row = { 0 };

			row.probe = "tails";
			row.variant = v ? "p99" : "p50";
			row.page_shift = 21;
			row.working_set_bytes = bytes;
			row.ns = v ? 180 : 110;
			card_rows_add(&rows, &row);
		}
		card_build(&card, &a, &rows, 0);
		card_format(&card, text, sizeof text);
		l = line_of(text, "tails ");
		summary_json(&j, buf, sizeof buf);
		n = card_figures(&card, fig, CARD_MAX_FIGURES);
		memory_p99 = 0;
		for (size_t i = 0; i < n; i++)
			memory_p99 += !strcmp(fig[i].name, "memory p99 ns");
		if (!at_floor)
			CHECK(l && wrapped_whole(text, "tails p99 180.0 ns, p50 110.0 ns at 64 MiB (2 "
						 "MiB pages): under 4 x the largest cache (128 "
						 "MiB), not memory's") &&
			      json_get_scalar(buf, j.len, "summary.tails.cached", got,
					      sizeof got) == 0 && !strcmp(got, "true") &&
			      !memory_p99, "64 MiB under a 128 MiB floor: not memory's, cached, no "
			      "memory p99 figure (%.80s)", l ? l : "none");
		else
			CHECK(in_line(l, "memory p99 180.0 ns, p50 110.0 ns (128 MiB, 2 MiB pages)") &&
			      json_get_scalar(buf, j.len, "summary.tails.cached", got,
					      sizeof got) == 0 && !strcmp(got, "false") &&
			      memory_p99 == 1, "at the floor: memory's p99 and p50 (%.80s)",
			      l ? l : "none");
	}
}

/* An ITLB step that read half its claim (one SMT thread's share) says
   "(half)" on its line and what that means on the trust line. */
static void test_itlb_half(void)
{
	static struct card card;
	static char text[8192];

	memset(&card, 0, sizeof card);
	card.ifetch.ntlbs = 1;
	card.ifetch.tlb[0] = (struct ifetch_level){ .page_shift = 12, .number = 1, .count = 128,
		.next_count = 192, .miss_cycles = 13.8, .claim = 256, .verdict = VERDICT_DIFFERS,
		.half_claim = 1 };
	card_format(&card, text, sizeof text);
	printf("%s", text);
	CHECK(line_of(text, "ITLB 4K  128 entries (512K), miss +13.8 cycles; claim 256, differs "
		      "(half)\n") && strstr(text, "ITLB half: the claim's half, one thread's share"),
	      "a half share is marked on its line and said on the trust line");
	card.ifetch.tlb[0].half_claim = 0;
	card_format(&card, text, sizeof text);
	CHECK(!strstr(text, "half"), "a step that is not half says nothing of halves");
	/* Read again on CPU 1, where the run's own chain read half. */
	card.ifetch.tlb[0] = (struct ifetch_level){ .page_shift = 12, .number = 1, .count = 256,
		.next_count = 384, .miss_cycles = 12.3, .claim = 256, .verdict = VERDICT_AGREES,
		.read_again = 1, .cpu = 1, .own_count = 128 };
	card_format(&card, text, sizeof text);
	printf("%s", text);
	CHECK(line_of(text, "ITLB 4K  256 entries (1M), miss +12.3 cycles; claim 256, agrees on "
		      "CPU 1\n") && strstr(text, "ITLB on CPU n: read again there, the run's") &&
	      !strstr(text, "ITLB half"),
	      "a step read again on another CPU names it on its line and says why on the trust "
	      "line");
}

/* The chase rows' clocks: a host whose clock moves within a run moves every
   ns figure with it while the cycles hold, which no level's trials see.
   Recorded: the device machine's first quick run (clocks 2.75 to 2.79 GHz
   over the middle 80% of its rows) says nothing of the clock; its second
   (2.56 to 2.88 GHz) and an Emerald Rapids VM run (2.42 to 2.60) say it on
   the trust line and in system.json. */
static void test_clock_moved(void)
{
	static const struct { const char *csv; int moved; double lo, hi; } runs[] = {
		{ "tests/data/emr-dev-quick-1.csv", 0, 2.74, 2.80 },
		{ "tests/data/emr-dev-quick-2.csv", 1, 2.55, 2.89 },
		{ "tests/data/emr-vm-quick-tlb-5.csv", 1, 2.41, 2.61 },
		{ "tests/data/emr-vm-quick-tlb-4.csv", 0, 2.46, 2.56 },
	};
	static struct cache_claims claims;
	static struct card c;
	static char json[1 << 16];
	char trust[2048];
	struct json j;

	CHECK(recorded_claims("tests/data/emr-dev-cpuid.json", &claims) == 0,
	      "the Emerald Rapids machine's CPUID decodes");
	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
		recorded_card(runs[r].csv, &claims, &c);
		card_format(&c, text, sizeof text);
		trust_text(text, trust, sizeof trust);
		CHECK(c.clock_moved == runs[r].moved && c.clock_p10_ghz > runs[r].lo &&
		      c.clock_p90_ghz < runs[r].hi && c.clock_p10_ghz < c.clock_p90_ghz,
		      "%s: its chases' clocks %.3f-%.3f GHz, %s", runs[r].csv, c.clock_p10_ghz,
		      c.clock_p90_ghz, runs[r].moved ? "moved" : "steady");
		CHECK(!strstr(trust, "the core's clock read") == !runs[r].moved,
		      "%s: the trust line %s the clock (%.200s)", runs[r].csv,
		      runs[r].moved ? "names" : "says nothing of", trust);
		json_init(&j, json, sizeof json);
		json_object_begin(&j, 0);
		card_json(&j, &c, text);
		json_object_end(&j);
		CHECK(!j.overflow && strstr(json, runs[r].moved ? "\"clock_moved\":true" :
					    "\"clock_moved\":false") &&
		      strstr(json, "\"clock_p10_ghz\":2.") && strstr(json, "\"clock_p90_ghz\":2."),
		      "%s: system.json's trust carries the clock's percentiles and whether it "
		      "moved", runs[r].csv);
	}
	c.clock_moved = 1;
	c.clock_p10_ghz = 2.75;
	c.clock_p90_ghz = 3.15;
	card_format(&c, text, sizeof text);
	trust_text(text, trust, sizeof trust);
	CHECK(strstr(trust, "the core's clock read 2.75-3.15 GHz over the chases (their middle "
		     "80%): ns move with it, cycles do not") != 0, "the words (%.300s)", trust);
}

static void take_curve_row(const struct result_row *row, void *ctx)
{
	analysis_add_row(ctx, row);
}

/* A claim one curve's first edge stepped over (lmbench's stride reads on
   the Emerald Rapids VM: the one edge at 2 MiB is L2's, L1's step hidden
   by the prefetchers) is a "not seen" line above that edge's, in level
   order. */
static void test_stepped_over_in_order(void)
{
	static struct cache_claims claims;
	static struct card c;
	struct curve_read_summary sum;
	size_t len = 0;
	char *text = read_all("tests/data/other-lmbench-lat_mem_rd-emr-2.txt", &len);
	const char *l1, *l2;

	analysis_init(&a);
	CHECK(text && curve_read(text, len, take_curve_row, &a, &sum) == 0 &&
	      recorded_claims("tests/data/emr-vm-cpuid.json", &claims) == 0,
	      "the stride curve and the VM's claims read");
	free(text);
	analysis_set_claims(&a, &claims, "tests/data/emr-vm-cpuid.json");
	analysis_compute(&a);
	card_build(&c, &a, NULL, NULL);
	card_format(&c, text_buf_card, sizeof text_buf_card);
	l1 = line_of(text_buf_card, "L1 ");
	l2 = line_of(text_buf_card, "L2 ");
	CHECK(l1 && l2 && l1 < l2 && in_line(l1, "not seen") && in_line(l2, "agrees"),
	      "L1 not seen, then L2 agreeing, in that order:\n%s", text_buf_card);
}

int main(void)
{
	test_no_ways_column();
	test_itlb_half();
	test_clock_moved();
	test_stepped_over_in_order();
	test_long_lines();
	test_synthetic_card();
	test_emulated();
	test_unread_claim();
	test_memory_floor();
	test_claimed_level_bandwidth();
	test_noise_marks();
	test_uncertain();
	test_recorded_zen5();
	test_recorded_zen5_climb();
	test_recorded_zen5_quiet();
	test_recorded_walk_climb();
	test_recorded_straddling_climb();
	test_recorded_contained_step();
	test_recorded_size_held_by_claim();
	test_recorded_past_claims();
	test_recorded_latency_only_climb();
	test_recorded_l1_share();
	test_recorded_small_share();
	test_recorded_emr();
	test_recorded_latency_alone();
	test_recorded_placement();
	test_clock_not_placement();
	test_claim_at_range_end();
	test_ways_column();
	test_geometry_line();
	test_too_many_levels();
	test_empty_card();
	test_failed_probe();
	test_crowded_card();
	test_wrapped_line();
	test_json_and_figures();
	test_busy_lines();
	test_tails_under_floor();
	test_run_folder();
	return check_summary();
}
