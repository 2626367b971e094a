/* memprobe on Linux, the program's entry: a desk command (analyze, compare,
 * fleet) when the first word names one, else a run (host_main). The desk
 * commands live here, apart from the platform, so that only this program
 * links SQLite (fleet --db) and the platform's tests never do.
 *
 *   memprobe [--out DIR] [--config FILE] [key=value ...]
 *   memprobe analyze|compare|fleet ...
 */

#include <string.h>

#include "desk/analyze.h"
#include "desk/compare.h"
#include "desk/fleet.h"
#include "host/host.h"

/* ---- Constants ------------------------------------------------------- */

/* The desk commands' lines of --help, under the run's. */
static const char desk_usage[] =
	"       memprobe analyze RUN_FOLDER|results.csv|curve.txt [--out DIR]\n"
	"                        [--claims FILE|none|this-cpu]\n"
	"       memprobe compare RUN_A RUN_B [RUN_C ...] [--out DIR]\n"
	"       memprobe fleet DIR... [--out OUT] [--db FILE] [--all] [--threshold PCT]\n";

/* ---- Public Functions ------------------------------------------------ */

int main(int argc, char **argv)
{
	if (host_standard_streams() != 0)
		return 2;   /* not even stderr may be there to say so */
	if (argc > 1 && !strcmp(argv[1], "analyze"))
		return analyze_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return compare_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "fleet"))
		return fleet_main(argc - 1, argv + 1);
	return host_main(argc, argv, desk_usage);
}
