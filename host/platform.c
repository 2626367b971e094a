/* The Linux platform: timer, scratch memory, console, elapsed time and the
 * fault guard around timed sections. Clock calibration, buffers, files and
 * the system description live in their own host/ files.
 */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "arch/counter.h"
#include "arch/guard.h"
#include "host/host.h"
#include "core/platform.h"

/* ---- Private Data ----------------------------------------------------- */

static const int guarded_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
#define GUARDED_COUNT (sizeof guarded_signals / sizeof *guarded_signals)

static sigjmp_buf guard_return;
static volatile sig_atomic_t guard_signal;
static struct plat_fault guard_fault;
/* A fault from a runaway recursion has no stack left to run a handler on. */
static char guard_stack[64 * 1024];

static struct timespec run_start;

/* ---- Private Functions ------------------------------------------------ */

__attribute__((constructor)) static void note_run_start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &run_start);
}

/* Runs on the faulting thread, synchronously: copying registers and jumping
   out is safe here; formatting the text waits until after the jump. */
static void on_fault(int sig, siginfo_t *info, void *context)
{
	const ucontext_t *uc = context;

	guard_signal = sig;
	guard_fault.vector = (unsigned)uc->uc_mcontext.gregs[REG_TRAPNO];
	guard_fault.error_code = (uint64_t)uc->uc_mcontext.gregs[REG_ERR];
	guard_fault.address = (uint64_t)(uintptr_t)info->si_addr;
	guard_fault.has_address = 1;
	guard_fault.pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	siglongjmp(guard_return, 1);
}

/* ---- Public Functions ------------------------------------------------- */

uint64_t plat_ticks(void)
{
	return counter_read();
}

void *plat_alloc(size_t bytes)
{
	return malloc(bytes);
}

void plat_free(void *p, size_t bytes)
{
	(void)bytes;
	free(p);
}

int host_standard_streams(void)
{
	int fd;

	signal(SIGPIPE, SIG_IGN);
	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* open takes the lowest free number: this one. */
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			return -1;
	}
	return 0;
}

/* A console that fails (a closed pipe: `| head -1`, a tee that was
   killed) is given up for good and said once on stderr; the run goes on
   and finishes its files, which are what it is for. SIGPIPE is ignored
   (host_standard_streams), so the failure is EPIPE here, not death. */
void plat_console(const char *text)
{
	static int console_lost;

	if (console_lost)
		return;
	if (fputs(text, stdout) >= 0 && fflush(stdout) == 0)
		return;
	console_lost = 1;
	fprintf(stderr, "memprobe: the console (standard output) failed: %s; the run goes on "
		"and writes its files\n", strerror(errno));
}

/* A terminal redraws; a pipe, a file or a terminal that says it cannot
   move its cursor (TERM=dumb) gets whole lines. */
int plat_console_redraws(void)
{
	const char *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && !(term && !strcmp(term, "dumb"));
}

uint64_t plat_elapsed_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - run_start.tv_sec) * 1000u +
	       (uint64_t)((now.tv_nsec - run_start.tv_nsec) / 1000000);
}

const char *plat_timed_conditions(void)
{
	return "timed sections run under Linux: interrupts and preemption cannot be "
	       "disabled here, so they stay on; the stop rule and best-of-trials "
	       "absorb what they add";
}

/* A process sees neither NMIs nor SMIs: both counts stay 0, and the report
   says they are not counted rather than that none arrived. Its thread's
   preemptions it does see. */
void plat_disturbances(struct plat_disturbances *d)
{
	struct rusage use;

	*d = (struct plat_disturbances){
		.nmi_how = "not counted: NMIs are invisible to a Linux process",
		.smi_how = "not counted: SMIs are invisible to a Linux process",
	};
	if (getrusage(RUSAGE_THREAD, &use) == 0) {
		d->preemptions = (uint64_t)use.ru_nivcsw;
		d->preemptions_counted = 1;
	}
}

/* Each fatal signal that a faulting probe can raise is caught for the length
   of fn and turned into a plat_fault, so the run reports it and goes on with
   the next probe instead of dying with every later figure unmeasured. */
int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault)
{
	struct sigaction guard, previous[GUARDED_COUNT];
	stack_t alt = { .ss_sp = guard_stack, .ss_size = sizeof guard_stack }, previous_alt;
	int faulted;
	size_t i;

	/* A run asked to stop (host/signals.c) starts no further section. */
	if (plat_stop_signal()) {
		memset(fault, 0, sizeof *fault);
		snprintf(fault->text, sizeof fault->text, "not run: %s asked the run to stop",
			 plat_stop_signal());
		return -1;
	}
	memset(&guard, 0, sizeof guard);
	guard.sa_sigaction = on_fault;
	guard.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&guard.sa_mask);
	sigaltstack(&alt, &previous_alt);
	for (i = 0; i < GUARDED_COUNT; i++)
		sigaction(guarded_signals[i], &guard, &previous[i]);

	guard_signal = 0;
	host_clock_section_begin();
	faulted = sigsetjmp(guard_return, 1) != 0;
	if (!faulted) {
		fn(arg);
		host_clock_section_end();
	}

	for (i = 0; i < GUARDED_COUNT; i++)
		sigaction(guarded_signals[i], &previous[i], NULL);
	sigaltstack(&previous_alt, NULL);
	if (!faulted)
		return 0;

	*fault = guard_fault;
	snprintf(fault->text, sizeof fault->text,
		 "%s (vector %u, %s), error code 0x%llx, address 0x%llx, rip 0x%llx",
		 strsignal(guard_signal), guard_fault.vector, exception_name(guard_fault.vector),
		 (unsigned long long)guard_fault.error_code,
		 (unsigned long long)guard_fault.address, (unsigned long long)guard_fault.pc);
	return -1;
}
