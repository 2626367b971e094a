/* `memprobe analyze path/to/results.csv [--out DIR]`: the hierarchy analysis
 * of a run read back from its results.csv (and the CPUID registers its
 * system.json recorded), printed, charted and laid out as report.html on
 * any Linux desk.
 */
#ifndef MEMPROBE_ANALYZE_H
#define MEMPROBE_ANALYZE_H

/* --claims' two words that name no file: no claims at all, and the
   claims of the CPU analyze runs on (a file so named: ./none). */
#define CLAIMS_NONE "none"
#define CLAIMS_THIS_CPU "this-cpu"

/* argv[0] is "analyze". Writes files only with --out DIR, never over one
   already there. Exit status: 0 analysed, 1 no latency rows in the file, 2
   a usage or file error (a file that is not a regular one, a system.json
   beside the CSV that cannot be read or is not well-formed). */
int analyze_main(int argc, char **argv);

/* The claims of a recorded run: the "cpuid_cache_leaves" strings of its
   system.json (cpu's, or a hierarchy section's cpuid) read with the JSON
   reader and decoded again by this architecture's decoder. 0, or -1 when
   the text is not well-formed JSON (a file cut short) or holds no such
   list of records. */
struct cache_claims;
int claims_from_system_json(const char *text, size_t len, struct cache_claims *out);

#endif
