/* A run asked to stop: SIGINT, SIGTERM and SIGHUP on Linux (host.h).
 *
 * The handler only notes the signal. The run meets it at its next safe
 * point: the series of trials in progress ends after its current trial
 * (trials_stop says "signal"), plat_timed and plat_cpus_run refuse every
 * section from then on, the probe that was running returns with the rows
 * it has written, and the run driver stops
 * as after a fatal fault (plat_fatal), closing every file: results.csv,
 * report.txt, report.html with its verdict and </html>, and system.json
 * with stopped_by naming the signal. A second signal ends the process at
 * once, as the default action would have; but one within a second of the
 * first is the same request said twice: timeout(1) signals its child and
 * then its whole process group, so the child hears the one signal twice.
 */

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host/host.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

static const struct {
	int number;
	const char *name;
	/* What the handler writes: formatting is not async-signal-safe. */
	const char *said;
	/* plat_fatal's text: the report's RUN STOPPED line. */
	const char *fatal;
} stop_signals[] = {
	{ SIGINT, "SIGINT",
	  "\nmemprobe: SIGINT: stopping after the current trial; a second signal "
	  "ends the run at once\n",
	  "SIGINT (signal 2) asked the run to stop: the probe that was running stopped after "
	  "its current trial" },
	{ SIGTERM, "SIGTERM",
	  "\nmemprobe: SIGTERM: stopping after the current trial; a second signal "
	  "ends the run at once\n",
	  "SIGTERM (signal 15) asked the run to stop: the probe that was running stopped after "
	  "its current trial" },
	{ SIGHUP, "SIGHUP",
	  "\nmemprobe: SIGHUP: stopping after the current trial; a second signal "
	  "ends the run at once\n",
	  "SIGHUP (signal 1) asked the run to stop: the probe that was running stopped after "
	  "its current trial" },
};
#define STOP_SIGNAL_COUNT (sizeof stop_signals / sizeof *stop_signals)

/* A signal this soon after the first is its echo, not a second request. */
#define ECHO_NS 1000000000ll

/* ---- Private Data ----------------------------------------------------- */

/* 1 + the index in stop_signals of the first signal; 0 while none came. */
static volatile sig_atomic_t stop_index;
/* When the first came (CLOCK_MONOTONIC, ns); written before stop_index. */
static volatile long long stop_ns;

/* ---- Private Functions ------------------------------------------------ */

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);   /* async-signal-safe */
	return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

static void on_stop_signal(int sig)
{
	size_t i;

	if (stop_index && now_ns() - stop_ns < ECHO_NS)
		return;
	if (stop_index) {
		/* The second: what the signal would have done without us. */
		for (i = 0; i < STOP_SIGNAL_COUNT; i++)
			signal(stop_signals[i].number, SIG_DFL);
		raise(sig);
		_exit(128 + sig);
	}
	for (i = 0; i < STOP_SIGNAL_COUNT; i++)
		if (stop_signals[i].number == sig) {
			ssize_t ignored = write(STDERR_FILENO, stop_signals[i].said,
						strlen(stop_signals[i].said));
			(void)ignored;
			stop_ns = now_ns();
			stop_index = (sig_atomic_t)(i + 1);
		}
}

/* ---- Public Functions ------------------------------------------------- */

void host_stop_on_signals(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	/* A write to a result file interrupted by the signal goes on. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < STOP_SIGNAL_COUNT; i++)
		sigaddset(&sa.sa_mask, stop_signals[i].number);
	for (i = 0; i < STOP_SIGNAL_COUNT; i++)
		sigaction(stop_signals[i].number, &sa, NULL);
}

const char *plat_stop_signal(void)
{
	return stop_index ? stop_signals[stop_index - 1].name : NULL;
}

/* The kernel takes machine checks and double faults itself: a process
   never meets one as a fault it could report. What stops a Linux run is a
   signal asking it to. */
const char *plat_fatal(void)
{
	return stop_index ? stop_signals[stop_index - 1].fatal : NULL;
}
