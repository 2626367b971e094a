/* Every probe, once, in the order a run runs them. config.c parses the
 * probes key against this list, run.c runs from it, config.h makes the
 * PROBE_* bits of config.probes from it and probe.h declares the run
 * functions from it.
 *
 *   X(ID, name, bit, in_defaults)
 *
 *   ID           PROBE_<ID> is the probe's bit in config.probes
 *   name         its word in the probes key, and its section in the report;
 *                its run function is int probe_<name>(const struct config *c)
 *   bit          0 .. PROBE_COUNT - 1, each once (config.c checks it); the
 *                words are listed in error messages, and config_describe
 *                prints them, in the order of their bits
 *   in_defaults  1: run by both profiles unless the probes key says otherwise
 *
 * fault is test-only (it faults on purpose): never a default. It runs second:
 * after latency, so that a fatal fault (a machine check) shows the rows
 * written before it kept, and before every other probe, so that those show
 * the run going on past an ordinary fault. c2c and loaded, the probes that
 * use other CPUs, run in the full profile (config_defaults.c) and where the
 * probes key names them; so does geometry, whose sweeps of lines per set
 * are many short chases.
 *
 * Adding a probe: its own file with probe_<name>, one row here, its keys in
 * config.h, config.c and config_defaults.c, and docs/CONFIG.md.
 */
#ifndef MEMPROBE_PROBE_LIST_H
#define MEMPROBE_PROBE_LIST_H

#define PROBE_LIST(X) \
	X(LATENCY,  latency,  0, 1) \
	X(FAULT,    fault,    5, 0) \
	X(TLB,      tlb,      1, 1) \
	X(LOCALITY, locality, 2, 1) \
	X(LATER,    later,    3, 1) \
	X(BANDWIDTH, bandwidth, 6, 1) \
	X(COST,     cost,     4, 1) \
	X(C2C,      c2c,      7, 0) \
	X(LOADED,   loaded,   8, 0) \
	X(GEOMETRY, geometry, 9, 0)

#endif
