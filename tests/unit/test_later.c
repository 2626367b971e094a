/* The latency meter: its tables (one cycle, randomised within blocks, blocks
 * in order), its delay classes and parameter rules, then the probe itself
 * through the host platform, where netto must come out below brutto.
 */

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "probe_rows.h"
#include "probes/later.h"
#include "core/probe.h"

#define UNTOUCHED 0xa5a5a5a5u

/* Walks the table from word 0 and records the slot of each step; 0 when
   the walk is one cycle through every slot exactly once. */
static int walk_cycle(const uint32_t *table, uint64_t table_bytes, uint64_t stride,
		      uint32_t *visit)
{
	uint64_t slots = table_bytes / stride, words_per_slot = stride / 4;
	unsigned char *seen = calloc(slots, 1);
	uint32_t word = 0;
	int ok = 1;

	for (uint64_t i = 0; i < slots && ok; i++) {
		uint64_t slot = word / words_per_slot;
		if (word % words_per_slot != 0 || slot >= slots || seen[slot]) {
			ok = 0;
			break;
		}
		seen[slot] = 1;
		visit[i] = (uint32_t)slot;
		word = table[word];
	}
	free(seen);
	return ok && word == 0 ? 0 : -1;
}

/* Checks the block structure of a walk: rotated to start where block 0 is
   entered, each run of slots_per_block visits stays in one block, and the
   blocks come in address order. Returns how many blocks were visited in
   plain ascending order inside, or -1 when the structure is broken. */
static int check_blocks(const uint32_t *visit, uint64_t slots, uint64_t per_block)
{
	uint64_t start = 0;
	int ascending_blocks = 0;

	while (start < slots && !(visit[start] / per_block == 0 &&
	       visit[(start + slots - 1) % slots] / per_block != 0))
		start++;
	if (slots > per_block && start == slots)
		return -1;
	if (slots == per_block)
		start = 0;
	for (uint64_t b = 0; b < slots / per_block; b++) {
		int ascending = 1;
		for (uint64_t k = 0; k < per_block; k++) {
			uint32_t slot = visit[(start + b * per_block + k) % slots];
			if (slot / per_block != b)
				return -1;
			if (k && slot < visit[(start + b * per_block + k - 1) % slots])
				ascending = 0;
		}
		ascending_blocks += ascending;
	}
	return ascending_blocks;
}

static void test_buildtab(uint64_t table_bytes, uint64_t block, uint64_t stride)
{
	uint64_t words = table_bytes / 4, slots = table_bytes / stride;
	uint64_t per_block = block / stride, untouched = 0;
	uint32_t *table = malloc(table_bytes), *order = malloc(per_block * 4);
	uint32_t *visit = malloc(slots * 4);
	int ascending;

	for (uint64_t w = 0; w < words; w++)
		table[w] = UNTOUCHED;
	later_buildtab(table, table_bytes, block, stride, order, 42);
	CHECK(walk_cycle(table, table_bytes, stride, visit) == 0,
	      "table %llu, block %llu, stride %llu: one cycle, every slot once",
	      (unsigned long long)table_bytes, (unsigned long long)block,
	      (unsigned long long)stride);
	ascending = check_blocks(visit, slots, per_block);
	CHECK(ascending >= 0, "  block by block in address order, each block's "
	      "slots together");
	if (per_block >= 8)
		CHECK(ascending == 0, "  no block walked in plain address order "
		      "(%d of %llu were)", ascending,
		      (unsigned long long)(slots / per_block));
	for (uint64_t w = 0; w < words; w++)
		untouched += (w % (stride / 4) != 0) && table[w] == UNTOUCHED;
	CHECK(untouched == words - slots, "  only the slots' first words written");
	free(table);
	free(order);
	free(visit);
}

static void test_linear_table(void)
{
	uint32_t table[256], order[1];
	int linear = 1;

	later_buildtab(table, sizeof table, 64, 64, order, 7);
	for (unsigned s = 0; s < 16; s++)
		linear &= table[s * 16] == ((s + 1) % 16) * 16;
	CHECK(linear, "block == stride: the line-by-line walk, last slot back to 0");
}

static void test_seeds(void)
{
	uint32_t a[4096], b[4096], c[4096], order[64];

	later_buildtab(a, sizeof a, 4096, 64, order, 1);
	later_buildtab(b, sizeof b, 4096, 64, order, 1);
	later_buildtab(c, sizeof c, 4096, 64, order, 2);
	CHECK(memcmp(a, b, sizeof a) == 0, "one seed, one table");
	CHECK(memcmp(a, c, sizeof a) != 0, "another seed, another order");
}

static void test_delay_pairs(void)
{
	static const struct { uint64_t factor; unsigned pairs; } cases[] = {
		{ 0, 1 }, { 1, 1 }, { 2, 2 }, { 3, 4 }, { 4, 4 }, { 5, 8 }, { 8, 8 },
		{ 9, 16 }, { 16, 16 }, { 17, 64 }, { 64, 64 }, { 65, 0 }, { 1000, 0 },
	};

	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
		CHECK(later_delay_pairs(cases[i].factor) == cases[i].pairs,
		      "delay factor %llu: %u division pair(s)",
		      (unsigned long long)cases[i].factor, cases[i].pairs);
}

static struct config small_config(void)
{
	struct config c;

	memset(&c, 0, sizeof c);
	c.pages = PAGES_4K | PAGES_2M;
	LATER_SETTINGS(&c)->table = 8u << 20;
	LATER_SETTINGS(&c)->block = 64u << 10;
	LATER_SETTINGS(&c)->stride = 64;
	LATER_SETTINGS(&c)->steps = 200000;
	LATER_SETTINGS(&c)->precision = 0.05;
	LATER_SETTINGS(&c)->min_repeat = 3;
	LATER_SETTINGS(&c)->max_repeat = 10;
	return c;
}

static void expect_refused(struct config c, const char *key, const char *what)
{
	char why[200] = "";

	CHECK(later_check_params(&c, why, sizeof why) == -1 && strstr(why, key) == why,
	      "%s is refused, naming %s (\"%s\")", what, key, why);
}

static void test_params(void)
{
	struct config c = small_config(), bad;
	char why[200];

	CHECK(later_check_params(&c, why, sizeof why) == 0, "the test's parameters pass");
	bad = c; LATER_SETTINGS(&bad)->stride = 6;
	expect_refused(bad, "later.stride", "a stride that is no multiple of 4");
	bad = c; LATER_SETTINGS(&bad)->stride = 0;
	expect_refused(bad, "later.stride", "a zero stride");
	bad = c; LATER_SETTINGS(&bad)->block = 96;
	expect_refused(bad, "later.block", "a block that is no multiple of the stride");
	bad = c; LATER_SETTINGS(&bad)->block = 32;
	expect_refused(bad, "later.block", "a block below the stride");
	bad = c; LATER_SETTINGS(&bad)->table = (8u << 20) + 4096;
	expect_refused(bad, "later.table", "a table that is no multiple of the block");
	bad = c; LATER_SETTINGS(&bad)->table = 32ull << 30;
	expect_refused(bad, "later.table", "a table past 32-bit word indices");
	bad = c; LATER_SETTINGS(&bad)->steps = 0;
	expect_refused(bad, "later.steps", "zero steps");
	bad = c; LATER_SETTINGS(&bad)->precision = 0;
	expect_refused(bad, "later.precision", "zero precision");
	bad = c; LATER_SETTINGS(&bad)->min_repeat = 11;
	expect_refused(bad, "later.min_repeat", "a minimum above the maximum");
}

static void test_probe(void)
{
	static const unsigned shifts[] = { PAGE_SHIFT_4K, PAGE_SHIFT_2M };
	static struct probe_rows rows;
	struct config c = small_config();

	CHECK(probe_rows_run(probe_later, &c, &rows) == 0, "results.csv read back");
	CHECK(rows.rc == 0, "the probe succeeded");
	for (unsigned i = 0; i < 2; i++) {
		uint64_t page = 1ull << shifts[i];
		const struct csv_row *tara = probe_rows_find(&rows, "tara", page, 8u << 20);
		const struct csv_row *brutto = probe_rows_find(&rows, "brutto", page, 8u << 20);
		const struct csv_row *netto = probe_rows_find(&rows, "netto", page, 8u << 20);

		if (!tara && !brutto && !netto && plat_buffer_max(shifts[i]) == 0) {
			printf("# %llu-byte pages unavailable here: skipped, as the "
			       "probe does\n", (unsigned long long)page);
			continue;
		}
		CHECK(probe_row_sane(tara) && probe_row_sane(brutto) &&
		      probe_row_sane(netto), "%llu-byte pages: tara, brutto and "
		      "netto present, positive and finite", (unsigned long long)page);
		if (!tara || !brutto || !netto)
			continue;
		CHECK(netto->ns < brutto->ns, "  netto below brutto (%.2f < %.2f ns)",
		      netto->ns, brutto->ns);
		CHECK(netto->ns > brutto->ns - tara->ns - 0.01 &&
		      netto->ns < brutto->ns - tara->ns + 0.01,
		      "  netto = brutto - tara (%.3f = %.3f - %.3f)", netto->ns,
		      brutto->ns, tara->ns);
		CHECK(tara->trials >= 3 && tara->trials <= 10 && brutto->trials >= 3 &&
		      brutto->trials <= 10, "  between 3 and 10 runs each (%u, %u)",
		      tara->trials, brutto->trials);
		CHECK(strcmp(tara->stopped_by, "") && strcmp(brutto->stopped_by, "") &&
		      !strcmp(netto->stopped_by, brutto->stopped_by),
		      "  each row names the limit that ended its runs (%s, %s, %s)",
		      tara->stopped_by, brutto->stopped_by, netto->stopped_by);
	}
}

static void test_probe_refuses_bad_params(void)
{
	static struct probe_rows rows;
	struct config c = small_config();

	LATER_SETTINGS(&c)->block = 100;
	CHECK(probe_rows_run(probe_later, &c, &rows) == 0 && rows.rc == -1 &&
	      rows.count == 0, "bad parameters: the probe fails and writes no row");
}

int main(void)
{
	test_buildtab(64u << 10, 4096, 64);
	test_buildtab(1u << 20, 64u << 10, 64);
	test_buildtab(4096, 4096, 64);
	test_buildtab(4096, 64, 16);
	test_buildtab(12288, 3072, 192);
	test_buildtab(2048, 16, 4);
	test_linear_table();
	test_seeds();
	test_delay_pairs();
	test_params();
	test_probe_refuses_bad_params();
	test_probe();
	return check_summary();
}
