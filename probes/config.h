/* Configuration: what to run and how, from a key = value file beside the app
 * and from load options (or argv on Linux), the latter overriding the former.
 * docs/CONFIG.md lists every key with its default.
 */
#ifndef MEMPROBE_CONFIG_H
#define MEMPROBE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "probes/probe_registry.h"

enum profile { PROFILE_QUICK, PROFILE_FULL };
enum end_action { END_OFF, END_REBOOT, END_RETURN, END_WAIT };

/* Each probe's index in run order (PROBE_ID_LATENCY, ...) and its bit of
   config.probes (PROBE_LATENCY, ...), from the registry's generated list
   (probes/probe.h). */
#define PROBE_ID_(id, name, order) PROBE_ID_##id,
enum probe_id { PROBE_REGISTRY(PROBE_ID_) PROBE_COUNT };
#undef PROBE_ID_
#define PROBE_BIT_(id, name, order) PROBE_##id = 1u << PROBE_ID_##id,
enum probe_bit { PROBE_REGISTRY(PROBE_BIT_) };
#undef PROBE_BIT_

/* Which profiles run a probe when the probes key does not name it. */
#define PROBE_IN_QUICK 1u
#define PROBE_IN_FULL 2u

/* The part of a probe's registry row (struct probe_def, probes/probe.h)
   that the configuration reads. */
struct probe_config {
	const char *name;         /* its word in the probes key, its report section */
	unsigned profiles;        /* PROBE_IN_* bits; 0: only when named */
};

/* Every probe's configuration part, in run order (index = PROBE_ID_*),
   defined with the rows (probes/registry.c). */
extern const struct probe_config *const probe_configs[PROBE_COUNT];

/* tlb.max_pages = 0: the sweep's top is the larger of this and four times
   the largest TLB CPUID claims for the page size, capped by memory. */
#define TLB_AUTO_PAGES 16384u
/* max_size = auto: the latency sweep's top is the larger of this (per
   profile) and four times the largest cache CPUID claims, so the last
   cache's edge has a plateau of memory past it; capped by
   latency.max_buffer and by memory. Without a claim it is this. */
#define LATENCY_TOP_QUICK (8ull << 20)
#define LATENCY_TOP_FULL (512ull << 20)
/* Highest tlb.min_pages / tlb.max_pages: 2^24 pages (64 GiB of 4 KiB pages,
   far past any TLB's reach). */
#define TLB_PAGES_MAX (1u << 24)

/* Highest later.table, later.block, later.stride. Word indices are 32-bit,
   as in the seed, and the delay's divisions work on the index with its top
   bit set (later.c, DIVIDE_PAIR): so indices stay below 2^31 and the table
   below 8 GiB. */
#define LATER_TABLE_BYTES_MAX (8ull << 30)

/* c2c.cpus holds logical CPUs 0 .. CONFIG_CPUS_MAX - 1 (platform.h's
   PLAT_CPUS_MAX), as a bit set; "all" is every bit. */
#define CONFIG_CPUS_MAX 256u
#define CONFIG_CPU_WORDS (CONFIG_CPUS_MAX / 64u)

/* loaded.mix: what the loaders do to each line of their buffers. */
enum load_mix { LOAD_READ, LOAD_READ_WRITE };

/* clock.reference: what measures the counter's rate (bare metal). */
/* upload.url's longest value, NUL included. */
#define CONFIG_URL_MAX 200

enum clock_reference { CLOCK_REF_AUTO, CLOCK_REF_PM_TIMER, CLOCK_REF_HPET, CLOCK_REF_STALL };

/* numa.node = auto: the boot processor's own proximity domain. */
#define NUMA_NODE_AUTO 0xffffffffu

/* config.bandwidth_sets: which of the kernel sets the platform can run
   the bandwidth probe runs. */
enum bandwidth_sets { BANDWIDTH_WIDEST, BANDWIDTH_ALL };

/* bandwidth.cores = all: every CPU the platform can give a role. */
#define BANDWIDTH_CORES_ALL 0u

/* Bits of config.pages. */
#define PAGES_4K (1u << 0)
#define PAGES_2M (1u << 1)
#define PAGES_1G (1u << 2)
/* AArch64's 16 KiB and 64 KiB granules and their blocks (docs/PAGING.md);
   every other machine refuses them by name when asked. */
#define PAGES_16K (1u << 3)
#define PAGES_32M (1u << 4)
#define PAGES_64K (1u << 5)
#define PAGES_512M (1u << 6)

/* The page sizes the `pages` key names, smallest first: the word, the bit,
   the shift. The key's words (probes/config.c) and the run order
   (probes/page_sizes.c) both come from this one list. */
#define PAGE_SIZE_LIST(X) \
	X(4k, PAGES_4K, 12) X(16k, PAGES_16K, 14) X(64k, PAGES_64K, 16) \
	X(2m, PAGES_2M, 21) X(32m, PAGES_32M, 25) X(512m, PAGES_512M, 29) \
	X(1g, PAGES_1G, 30)

struct config {
	enum profile profile;
	unsigned probes;          /* PROBE_* bits, in the order of the bits */
	unsigned pages;           /* PAGES_* bits */
	uint64_t min_size;        /* latency sweep: smallest working set, bytes */
	uint64_t max_size;        /* latency sweep: largest working set, bytes; 0
				     (auto): the larger of the profile's LATENCY_TOP_*
				     and 4x the largest cache CPUID claims */
	uint64_t latency_max_buffer; /* latency: the largest buffer of any page
				     size, bytes: the sweep stops within it */
	unsigned trials;          /* latency: minimum trials per size */
	unsigned max_trials;      /* latency: trials at most per size */
	double precision;         /* stop rule: best three within this fraction */
	double step_ms;           /* latency: target duration of one trial */

	unsigned tlb_min_pages;   /* tlb: fewest pages of the sweep */
	unsigned tlb_max_pages;   /* tlb: most pages; 0: the larger of
				     TLB_AUTO_PAGES and 4x the largest TLB CPUID claims */
	uint64_t tlb_max_buffer;  /* tlb: the largest buffer of any page size, bytes */

	uint64_t bandwidth_min_size;  /* bandwidth sweep: smallest working set, bytes */
	uint64_t bandwidth_max_size;  /* bandwidth sweep: largest working set, bytes */
	unsigned bandwidth_sets;      /* enum bandwidth_sets */
	unsigned bandwidth_cores;     /* CPUs streaming together, or BANDWIDTH_CORES_ALL */

	unsigned locality_rows, locality_cols, locality_reps;

	uint64_t later_table;     /* bytes */
	uint64_t later_block;     /* bytes */
	uint64_t later_stride;    /* bytes */
	uint64_t later_steps;     /* accesses per run */
	double later_precision;
	unsigned later_min_repeat, later_max_repeat;

	uint64_t cost_reps;       /* calls per trial */
	unsigned cost_trials;

	uint64_t c2c_cpus[CONFIG_CPU_WORDS];  /* c2c: the CPUs whose pairs are measured */
	unsigned c2c_test_late;   /* test-only: this CPU's c2c role overruns the deadline
				     (0: none) */
	double cpus_deadline_ms;  /* c2c, loaded: the most one multi-CPU run may take */

	uint64_t loaded_size;     /* loaded: the chase's working set, bytes */
	uint64_t loaded_load_size;  /* loaded: each loader's buffer, bytes */
	enum load_mix loaded_mix;
	unsigned loaded_loaders;  /* loaded: most loaders; 0: every other CPU */

	unsigned geometry_max_lines; /* geometry: most lines per set swept; 0: 4 x the
				     claimed ways + 4 */

	unsigned fault_vector;    /* PROBE_FAULT: which exception to raise */
	unsigned fault_cpu;       /* PROBE_FAULT: on which logical CPU (0: in a timed
				     section on the boot CPU; else in that CPU's role) */
	unsigned numa_node;       /* proximity domain for buffers, or NUMA_NODE_AUTO */
	unsigned numa_special;    /* 1: EFI_MEMORY_SP memory (HBM, CXL) may hold buffers */
	unsigned paging_test_pool; /* test-only, bare metal: the page-table pool's
				     tables (0: sized by need, the rows' holds) */
	unsigned clock_reference; /* enum clock_reference */
	/* upload.url: where result files are sent (http://host[:port]/path or
	   tftp://host/path); "" (the word off): nowhere. */
	char upload_url[CONFIG_URL_MAX];
	enum end_action end;
	int end_set;              /* 1 when "end" was given, else platform default */
};

struct config_error {
	char text[256];           /* "memprobe.cfg:3: key 'trials': not a number" */
};

/* The defaults of a profile. */
void config_defaults(struct config *c, enum profile p);

/* Applies sources in order (later ones override earlier ones). Each source is
   text of key = value lines ('#' comments; load options may separate pairs
   with spaces instead of newlines), with a name for messages. The profile key
   is resolved first across all sources, so its defaults never override an
   explicit key. Returns 0, or -1 with *err naming source, line and key. */
struct config_source {
	const char *name;         /* "\\EFI\\BOOT\\memprobe.cfg", "load options" */
	const char *text;
	size_t len;
	int one_line;             /* 1: pairs separated by blanks, not lines */
};
int config_load(struct config *c, const struct config_source *src, int nsrc,
		struct config_error *err);

/* The effective configuration as canonical key = value lines, for the report
   and system.json; returns the length as mp_snprintf does. */
int config_describe(const struct config *c, char *buf, size_t size);

/* Whether two configurations mean the same run: key by key through the key
   table (so padding bytes never count), the end action only where end_set
   says it was given. The tests hold config_describe -> config_load to it. */
int config_equal(const struct config *a, const struct config *b);

#endif
