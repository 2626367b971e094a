/* `memprobe compare RUN_A RUN_B [RUN_C ...] [--out DIR]`: run folders from
 * any machines and platforms laid side by side: per probe a table of each
 * run's figures with the ratio to the first run, each run's cache and TLB
 * levels, and an overlay chart per probe (compare.svg for latency). Prints
 * the tables; with --out, writes compare.html and the charts into DIR.
 */
#ifndef MEMPROBE_COMPARE_H
#define MEMPROBE_COMPARE_H

/* argv[0] is "compare". Exit status: 0 compared, 2 a usage error or a run
   folder that cannot be read (the message names the folder and what is
   missing). */
int compare_main(int argc, char **argv);

#endif
