/* Configuration: what to run and how, from a key = value file beside the app
 * and from load options (or argv on Linux), the latter overriding the former.
 * docs/CONFIG.md lists every key with its default.
 */
#ifndef MEMPROBE_CONFIG_H
#define MEMPROBE_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include "core/probe_registry.h"
#include "core/config_text.h"

enum profile { PROFILE_QUICK, PROFILE_FULL };
enum end_action { END_OFF, END_REBOOT, END_RETURN, END_WAIT };

/* Each probe's index in run order (PROBE_ID_LATENCY, ...) and its bit of
   config.probes (PROBE_LATENCY, ...), from the registry's generated list
   (core/probe.h). */
#define PROBE_ID_(id, name, order) PROBE_ID_##id,
enum probe_id { PROBE_REGISTRY(PROBE_ID_) PROBE_COUNT };
#undef PROBE_ID_
#define PROBE_BIT_(id, name, order) PROBE_##id = 1u << PROBE_ID_##id,
enum probe_bit { PROBE_REGISTRY(PROBE_BIT_) };
#undef PROBE_BIT_

/* Which profiles run a probe when the probes key does not name it. */
#define PROBE_IN_QUICK 1u
#define PROBE_IN_FULL 2u

/* The largest buffer any size key may ask for: 1 TiB, beyond any probe's. */
#define PROBE_BUFFER_MAX (1ull << 40)

/* The bytes of struct config a probe's settings may take: its row says
   their size, and the registry checks it at compile time. */
#define PROBE_SETTINGS_MAX 96

/* What a key's value is, and so how it is parsed, printed and compared. */
enum config_kind {
	KIND_PROFILE, KIND_PROBES, KIND_PAGES, KIND_SIZE, KIND_UINT, KIND_U64,
	KIND_FRACTION, KIND_MS, KIND_END, KIND_CPUS, KIND_NODE, KIND_YESNO,
	KIND_REFERENCE, KIND_CORES,
	KIND_WORD,                /* one word of the key's own list (config_key.words) */
	KIND_SIZE_AUTO,           /* a size, or the word auto (stored as 0) */
	KIND_URL,                 /* http:// or tftp:// URL, or off (stored as "") */
	KIND_COUNT
};

/* One word a key takes, and the value it stands for. */
struct config_word {
	const char *name;
	unsigned value;
};

/* One key. A probe's keys are named after it ("later.table" is its row's
   "table"), their offsets are in its settings, and each has its default
   per profile as the text a user would write, parsed as the key is. */
struct config_key {
	const char *name;
	enum config_kind kind;
	size_t offset;            /* of the field: in struct config, or a probe's settings */
	uint64_t min, max;        /* KIND_SIZE, KIND_UINT, KIND_U64, KIND_CORES, KIND_NODE */
	uint64_t multiple;        /* KIND_SIZE: the value must be a multiple */
	const char *quick, *full; /* a probe's key: its defaults; a general key: NULL */
	const struct config_word *words;  /* KIND_WORD: its words, ending in { 0, 0 } */
	const char *noun;         /* KIND_WORD: what an error calls one of its values */
	/* NULL where every platform runs the key; else why only bare metal
	   does, which a platform that is not refuses a value other than the
	   default with (config_platform.bare_metal). */
	const char *bare_metal_only;
};

/* A combination of a probe's settings that cannot be run: NULL when they
   can, else what is wrong with the probe's key *a (and *b, or NULL). */
typedef const char *(*probe_check_fn)(const void *settings, const char **a, const char **b);

/* The part of a probe's registry row (struct probe_def, core/probe.h)
   that the configuration reads. */
struct probe_config {
	const char *name;         /* its word in the probes key, its report section */
	unsigned profiles;        /* PROBE_IN_* bits; 0: only when named */
	const struct config_key *keys;  /* its keys, in the order they are printed */
	unsigned nkeys;
	size_t settings_bytes;    /* at most PROBE_SETTINGS_MAX */
	probe_check_fn check;     /* NULL: any combination of in-range values runs */
};

/* A row's keys, its settings' size (checked to fit) and its check:
   .config = { .name = ..., PROBE_KEYS(NAME_keys, struct NAME_settings, NAME_check) }. */
#define PROBE_KEYS(keys_, type, check_) \
	.keys = keys_, .nkeys = sizeof keys_ / sizeof keys_[0], \
	.settings_bytes = sizeof(type) + 0 * sizeof(struct { _Static_assert(sizeof(type) <= \
		PROBE_SETTINGS_MAX, "a probe's settings fit its block of struct config"); int x; }), \
	.check = check_
/* A key's field in a probe's settings. */
#define SETTING(type, field) __builtin_offsetof(type, field)

/* Every probe's configuration part, in run order (index = PROBE_ID_*),
   defined with the rows (core/registry.c). */
extern const struct probe_config *const probe_configs[PROBE_COUNT];

/* c2c.cpus holds logical CPUs 0 .. CONFIG_CPUS_MAX - 1 (platform.h's
   PLAT_CPUS_MAX), as a bit set; "all" is every bit. */
#define CONFIG_CPUS_MAX 256u
#define CONFIG_CPU_WORDS (CONFIG_CPUS_MAX / 64u)
/* A count of CPUs given as the word all (KIND_CORES): every CPU the
   platform can give a role. */
#define CONFIG_CPUS_ALL 0u

/* upload.url's longest value, NUL included. */
#define CONFIG_URL_MAX 200

/* clock.reference: what measures the counter's rate (bare metal). */
enum clock_reference { CLOCK_REF_AUTO, CLOCK_REF_PM_TIMER, CLOCK_REF_HPET, CLOCK_REF_STALL };

/* numa.node = auto: the boot processor's own proximity domain. */
#define NUMA_NODE_AUTO 0xffffffffu

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
   the shift. The key's words (core/config.c) and the run order
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
				     and 4x the largest cache the CPU claims */
	unsigned trials;          /* latency: minimum trials per size */
	unsigned max_trials;      /* latency: trials at most per size */
	double precision;         /* stop rule: best three within this fraction */
	double step_ms;           /* latency: target duration of one trial */
	double cpus_deadline_ms;  /* c2c, loaded: the most one multi-CPU run may take */

	unsigned numa_node;       /* proximity domain for buffers, or NUMA_NODE_AUTO */
	unsigned numa_special;    /* 1: EFI_MEMORY_SP memory (HBM, CXL) may hold buffers */
	unsigned paging_test_pool; /* test-only, bare metal: the page-table pool's
				     tables (0: sized by need, the rows' holds) */
	unsigned clock_reference; /* enum clock_reference */
	/* upload.url: where result files are sent (http://host[:port]/path or
	   tftp://host/path); "" (the word off): nowhere. */
	char upload_url[CONFIG_URL_MAX];
	/* quiet: the console shows only the opening line, progress, failures
	   and the card (report.txt keeps everything). */
	unsigned quiet;
	enum end_action end;
	int end_set;              /* 1 when "end" was given, else platform default */
	/* Each probe's settings, its block by PROBE_ID_*: the struct its own
	   file declares (struct later_settings, ...), read through
	   PROBE_SETTINGS, so a new probe's keys need no field here. */
	_Alignas(8) unsigned char probe_settings[PROBE_COUNT][PROBE_SETTINGS_MAX];
};

/* Probe `id`'s settings in c, as `type` (const when c is). */
#define PROBE_SETTINGS(type, c, id) \
	_Generic((c), const struct config *: (const type *)(const void *)(c)->probe_settings[id], \
		 struct config *: (type *)(void *)(c)->probe_settings[id])


/* The defaults of a profile: every key at its row's default text (the
   general keys' rows in config.c, each probe's in its registry row), the
   probes the rows say run in it. A default that does not parse is a bug
   in its row, which tests/unit/test_config.c holds every row to; such a
   key is left 0. */
void config_defaults(struct config *c, enum profile p);

/* What the configuration needs to know of the platform it is read on,
   passed in by the platform's entry rather than asked for, so the loader
   runs alike in a host test for either: whether it is bare metal (a key
   with a bare_metal_only reason is refused elsewhere unless left at its
   default), and which page sizes its architecture has at all (the pages
   key refuses the others by name; core/platform.h's
   plat_page_size_architected). */
struct config_platform {
	int bare_metal;
	int (*page_size_architected)(unsigned page_shift, char *why, size_t why_len);
};

/* Applies sources in order (later ones override earlier ones). Each source is
   text of key = value lines ('#' comments; load options may separate pairs
   with spaces instead of newlines), with a name for messages. The profile key
   is resolved first across all sources, so its defaults never override an
   explicit key. Returns 0, or -1 with *err naming source, line and key (a
   key this platform does not run: the key's own reason, alone). */
int config_load(struct config *c, const struct config_source *src, int nsrc,
		const struct config_platform *platform, struct config_error *err);

/* The effective configuration as canonical key = value lines, for the report
   and system.json; returns the length as mp_snprintf does. */
int config_describe(const struct config *c, char *buf, size_t size);

/* Every key, one a line under a header line: its name, what it takes
   (its words joined by '|', or its kind and range; "(bare metal only)"
   where only bare metal runs it), and its quick and full profiles'
   defaults ("-": unset, the platform's), in columns of which none holds
   two blanks in a row. The same flat list config_describe walks: the
   general keys, then each probe's registry row's. Returns the length as
   mp_snprintf does (`memprobe keys`, the man page, the completion). */
int config_keys_describe(char *buf, size_t size);

/* The key named name[0..len) (*exact 1), else the key nearest to it by
   edit distance, near enough to be what was meant (*exact 0), else NULL:
   the did-you-mean of an unknown key. */
const char *config_key_nearest(const char *name, size_t len, int *exact);

/* Whether two configurations mean the same run: key by key through the key
   table (so padding bytes never count), the end action only where end_set
   says it was given. The tests hold config_describe -> config_load to it. */
int config_equal(const struct config *a, const struct config *b);

#endif
