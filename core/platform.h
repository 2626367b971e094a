/* The platform interface: everything a probe may ask of the machine under it.
 *
 * Two platforms implement it: efi/ (bare metal, the app's own page tables,
 * interrupts off while timing) and host/ (Linux, mmap with huge-page advice).
 * Probe code includes this header and nothing platform-specific, so a figure
 * measured on Linux and one measured on bare metal come from the same lines.
 *
 * Freestanding: no libc here, so the EFI build needs none.
 */
#ifndef MEMPROBE_PLATFORM_H
#define MEMPROBE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* Page sizes by their shift, so "1 << shift" is the size in bytes. */
#define PAGE_SHIFT_4K 12u
#define PAGE_SHIFT_2M 21u
#define PAGE_SHIFT_1G 30u

/* ---- Timebase --------------------------------------------------------- */

/* Integers only: efi/ and arch/ are built without SSE, and fill these. */
struct plat_clock {
	const char *counter;      /* which counter plat_ticks() reads: "TSC" */
	uint64_t ticks_per_s;     /* plat_ticks() units per second */
	uint32_t uncertainty_ppm; /* of ticks_per_s */
	const char *source;       /* how ticks_per_s was obtained, one line */
	int invariant;            /* 1: ticks run at a fixed rate in all P/C-states */
	const char *invariant_source; /* what says so: "CPUID 8000_0007h EDX[8]" */
	uint64_t core_hz;         /* core cycles per second, dependent-add calibrated */
	const char *core_source;  /* how core_hz was obtained */
};

/* A monotonic counter readable in a few cycles (TSC on both platforms). */
uint64_t plat_ticks(void);
const struct plat_clock *plat_clock(void);

/* The core clock, in Hz, that the cycles of the figures being written are
   converted with (0: unknown). Where the CPU's own cycle count is readable
   (x86: APERF/MPERF) it is read around every timed section, and this is
   the clock measured over the last one; elsewhere it is the add-chain
   clock that plat_core_clock_refresh measured last. */
uint64_t plat_core_hz(void);
/* Called before each probe: without a readable cycle count the add-chain
   clock is measured again now, so a clock that moved since start-up is
   followed. how[] says which method applies, for the report. */
void plat_core_clock_refresh(char *how, size_t size);

/* ---- Buffers with a page size this program chose ---------------------- */

struct plat_buffer {
	void *base;               /* aligned to 1 << page_shift */
	size_t bytes;             /* a multiple of 1 << page_shift */
	unsigned page_shift;
	/* The outcome of checking the mapping after the fact, e.g.
	   "pages verified: 256 x 2 MiB, WB" or "kernel gave 4 KiB pages". */
	char verified[128];
	int verified_ok;          /* 1 only if every page has the asked size */
	/* How far the platform vouches that virtually adjacent bytes are
	   physically adjacent, from any address aligned to it: the whole
	   buffer on bare metal (identity-mapped), one verified page on Linux
	   (in guest-physical memory only, under a hypervisor). 0: not known,
	   read as a 4 KiB page. The geometry probe needs it over a cache's
	   way span. */
	uint64_t contiguous_bytes;
	void *plat_private;
};

/* 0 on success, why[] then empty. On failure the buffer is untouched and
   why[] says what was impossible, in words fit for the report (no 1 GiB
   pages, too little memory). */
int plat_buffer_get(struct plat_buffer *b, size_t bytes, unsigned page_shift,
		    char *why, size_t why_len);
/* Hands b back and empties it. The platform may keep the memory for the
   next buffer of that page size (the Linux build keeps large ones mapped,
   host/buffer.c), which comes back checked as a new one; nothing written
   to b is promised to a later buffer. */
void plat_buffer_put(struct plat_buffer *b);
/* Writes back and evicts [base, base + bytes) of a buffer from every
   cache (arch/cpu.h's cpu_data_flush), so that each of its lines next
   loaded comes from memory. */
void plat_data_flush(void *base, size_t bytes);
/* 1 when this platform's architecture has pages of 1 << page_shift bytes
   at all (x86-64: 4 KiB, 2 MiB, 1 GiB; AArch64 its granules and blocks
   too); else 0 with why[] naming the size and those it has. The `pages`
   key refuses any other size by name when the configuration is read;
   whether this CPU and its firmware or kernel give one is learnt at run
   time (plat_buffer_max). */
int plat_page_size_architected(unsigned page_shift, char *why, size_t why_len);
/* The largest buffer plat_buffer_get could give now with this page size;
   0 when the page size is unavailable. */
size_t plat_buffer_max(unsigned page_shift);

/* Untimed scratch memory (permutation orders and the like). NULL on failure. */
void *plat_alloc(size_t bytes);
void plat_free(void *p, size_t bytes);

/* ---- Code buffers (the ifetch probe) ---------------------------------- */

/* The instruction set code written at run time must use: lib/machine.h's
   MACHINE_ISA_*. */
unsigned plat_code_isa(void);
/* Makes the code just written into b (a plat_buffer_get buffer, written
   through b->base) runnable at b->base, with what this CPU needs before
   freshly written code runs (AArch64: clean to the point of unification,
   invalidate the instruction cache, synchronise). Linux: the buffer
   becomes read and execute only (W^X). b->verified gains how the code is
   mapped. 0, or -1 with why[] (the buffer then stays writable). */
int plat_code_seal(struct plat_buffer *b, char *why, size_t why_len);
/* Makes b writable again for the next code (Linux: no longer executable).
   0, or -1 with why[]. */
int plat_code_unseal(struct plat_buffer *b, char *why, size_t why_len);

/* ---- Timed sections --------------------------------------------------- */

struct plat_fault {
	unsigned vector;          /* 0 #DE, 6 #UD, 13 #GP, 14 #PF, ... */
	uint64_t error_code;      /* what the CPU reported with it (x86: the pushed code) */
	uint64_t pc;              /* the faulting instruction (x86: RIP) */
	uint64_t address;         /* the data address reported, when has_address (x86: CR2) */
	int has_address;
	int fatal;                /* a machine check or double fault: plat_fatal says more */
	char text[256];           /* a one-line description for the report */
};

/* Runs fn(arg) as a timed section: on bare metal at TPL_HIGH_LEVEL, with
   interrupts off, the app's IDT and page tables loaded. Returns 0, or -1 when
   fn faulted: the machine state is restored, *fault says what happened and
   the caller carries on with the next probe. After a fatal fault (a machine
   check or a double fault) every later call returns -1 without running fn. */
int plat_timed(void (*fn)(void *arg), void *arg, struct plat_fault *fault);
/* NULL, or the fatal fault that stopped the run, with what the CPU
   recorded of it (x86 #MC: the machine-check banks): no probe may run
   after it. */
const char *plat_fatal(void);
/* NULL, or the name of the signal ("SIGINT", "SIGTERM", "SIGHUP") that
   asked the run to stop (Linux; bare metal has none). From then on
   plat_fatal says so too and every timed section and plat_cpus_run is
   refused, so the run stops as after a fatal fault, keeping every row;
   its verdict is "stopped" and system.json's stopped_by is this name. */
const char *plat_stop_signal(void);
/* One line for the report header: what a timed section runs with (interrupts
   off and the app's own tables on bare metal; under Linux interrupts and
   preemption stay on, which only a platform can say). */
const char *plat_timed_conditions(void);

/* ---- Streaming kernels (the bandwidth probe) -------------------------- */

struct stream_kernels;

/* The architecture's kernel sets (lib/stream.h), narrowest first, and what
   may run of them. */
struct plat_stream_sets {
	const struct stream_kernels *sets;
	unsigned count;
	unsigned offered;         /* bit i: the CPU has sets[i]'s instructions */
	unsigned usable;          /* bit i: sets[i] may run inside plat_timed_wide */
	char why_not[192];        /* why an offered set is not usable, or "" */
};
void plat_stream_sets(struct plat_stream_sets *out);

/* plat_timed with the register state of every usable set on: on bare metal
   it is enabled after interrupts go off and restored before they come back
   (docs/PAGING.md); under Linux the kernel has it on already. */
int plat_timed_wide(void (*fn)(void *arg), void *arg, struct plat_fault *fault);

/* The sets (bits as plat_stream_sets' usable) whose register state is on
   for the calling CPU now: inside a plat_cpus_run_wide role, what that CPU
   may run. A role checks it before streaming, since on bare metal a
   fault on another CPU is not caught. */
unsigned plat_stream_sets_here(void);

/* ---- Disturbances ----------------------------------------------------- */

/* Events from outside that stall a timed section without the probe's
   knowledge (on bare metal NMIs, which cli cannot keep out, and SMIs, which
   the firmware takes behind everyone's back). Counts since the run began;
   readable inside a timed section, so a probe reads them around each trial
   and discards a trial during which one moved (core/trials.h). */
struct plat_disturbances {
	uint64_t nmi, smi;
	int nmi_counted, smi_counted;   /* 0: this platform cannot count that kind */
	const char *nmi_how, *smi_how;  /* how each is counted, or why it is not */
	/* The calling thread's involuntary context switches (Linux: getrusage's
	   ru_nivcsw), where a timed section can be preempted at all; bare
	   metal times with interrupts off and counts none. Not a reason to
	   discard a trial (trials.h looks at NMIs and SMIs): a probe that
	   marks single batches says how many came during them. */
	uint64_t preemptions;
	int preemptions_counted;
};
void plat_disturbances(struct plat_disturbances *d);

/* Test-only: raises exception `vector` (0 #DE, 6 #UD, 13 #GP, 14 #PF, 18 #MC,
   8 #DF) from inside a timed section, to prove the guard reports it and the
   run goes on (or, for #MC and #DF, stops with every file kept). */
void plat_raise_fault(unsigned vector);

/* ---- Other CPUs ------------------------------------------------------- */

/* Logical CPUs are numbered 0 .. plat_cpu_count() - 1; 0 is the one the run
   runs on (the bootstrap processor on bare metal). At most PLAT_CPUS_MAX. */
#define PLAT_CPUS_MAX 256u

/* How many logical CPUs a role may run on; 1 when the others cannot be
   reached (plat_cpus_conditions says why). */
unsigned plat_cpu_count(void);
/* One line for the report: how roles run on the other CPUs (bare metal:
   MP services, interrupts off, the app's tables; Linux: threads pinned by
   sched_setaffinity, pinning and interrupts the OS's), or why there are none. */
const char *plat_cpus_conditions(void);

/* One CPU's part in a plat_cpus_run. */
struct plat_role {
	unsigned cpu;             /* logical CPU; each at most once per run */
	void (*fn)(void *arg);    /* runs once every role's CPU is at the start line */
	void *arg;
	int missed;               /* out: 1 when the CPU did not finish its role by
				     the deadline (or never reached the start line),
				     or its role faulted (plat_cpu_fault) */
};

/* Runs every role at once, role i on logical CPU roles[i].cpu, each in the
   platform's timed state (bare metal: interrupts off, the app's IDT and
   tables, on every CPU). No role starts before every CPU has reached the
   start line (the shared start flag); when one has not by the deadline, no
   role starts. deadline_ms bounds the whole run, from the call. Returns 0
   when every role finished in time; 1 when some missed or faulted (their
   `missed` set: the run goes on without them, and a CPU that missed is
   refused from then on, since it may still be running); -1 when nothing
   ran, why[] saying why (a CPU out of range, or refused). A fault in the
   role of the calling CPU (logical 0) is not caught. */
int plat_cpus_run(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		  char *why, size_t why_len);
/* Whether the last role on logical CPU `cpu` raised a CPU exception,
   caught on that CPU (bare metal: each AP has a fault guard of its own):
   1 with *fault saying what, its vector and address, else 0. The
   platform has reported it with the CPU; the role counts as missed, the
   CPU went back to the firmware and gets no more roles this run. */
int plat_cpu_fault(unsigned cpu, struct plat_fault *fault);
/* plat_cpus_run with the register state of every usable streaming set on
   for each role, on every CPU (bare metal: turned on after each CPU enters
   the timed state and restored before it leaves, as plat_timed_wide does;
   under Linux the kernel has it on already). */
int plat_cpus_run_wide(struct plat_role *roles, unsigned n, uint64_t deadline_ms,
		       char *why, size_t why_len);

/* ---- Output ----------------------------------------------------------- */

/* Text for the console (and for the debug log where the platform has one). */
void plat_console(const char *text);
/* 1 when the console can take a carriage return back to a line's start and
   be drawn over (a terminal; the firmware's screen), so a status line can
   update in place; 0 for a log or a pipe, which gets whole lines only. */
int plat_console_redraws(void);

/* Files of the current run folder. A handle is >= 0; -1 means no file (the
   reason was already reported once by the platform). Appends go straight
   through: after plat_file_flush returns 0 the bytes are on the medium. */
int plat_file_open(const char *name);
int plat_file_write(int handle, const char *data, size_t len);
int plat_file_flush(int handle);
void plat_file_close(int handle);
/* Reads back what was written to an open file: up to len bytes from offset.
   Returns the count read (0 at the end), or -1. Used once writing is done
   (the position for later writes is left unspecified). */
long plat_file_read(int handle, uint64_t offset, char *buf, size_t len);
/* Renames an open file of the run folder, never over another file: 0 or -1.
   The handle stays open under the new name. */
int plat_file_rename(int handle, const char *new_name);
/* Cuts an open file back to its first size bytes (no more than it holds);
   the next write goes at the new end: 0 or -1. How report.html keeps its
   closing tail written between sections and writes each new one over it
   (results/results.c). */
int plat_file_cut(int handle, uint64_t size);
/* Deletes an open file and closes its handle: 0 or -1 (the handle is
   closed either way). Also how a document cut by a failed write (a chart)
   becomes no file rather than a broken one. */
int plat_file_delete(int handle);
/* Where the run's files go, or why there are none (for the report header). */
const char *plat_run_folder(void);
/* 1 when the run folder exists and every file of it was created, written
   and flushed whole so far. Results not on the medium are results lost:
   the run's verdict counts this on both platforms, and the page says the
   same verdict as the console and the exit status. */
int plat_files_complete(void);
/* The bytes the run's files may still take now: the volume's free space,
   or what the in-memory store may still hold; UINT64_MAX when that is not
   known. How results/ sizes the room it keeps back for the closing files
   (results.c, "reserve"). */
uint64_t plat_files_room(void);

/* Milliseconds since the run started, for progress lines. */
uint64_t plat_elapsed_ms(void);

/* The platform's own members of system.json (firmware, paging, memory map,
   or kernel and page policy on Linux), and the CPU with its claims. */
struct json;
void plat_describe(struct json *j);

/* What the CPU claims about its caches and TLBs (lib/machine.h), read now:
   the analysis holds its measured levels against these. */
struct cache_claims;
void plat_cache_claims(struct cache_claims *out);

/* ---- Upload (results/upload.c) ---------------------------------------- */

/* Whether this platform can send files to url (upload.url, an http://
   URL that results/upload.c has already taken apart): 0, or -1 with why,
   said at start-up; the run then goes on with the volume and the
   console. */
int plat_upload_open(const char *url, char *why, size_t why_size);
/* The run's folder name on the server: "run-20261201T231300Z" from the
   clock, else the local run folder's name. */
void plat_upload_run_name(char *buf, size_t size);
/* Sends the run folder's file `name`, whole, to file_url: 0 once the
   server took it, 1 when the file is no longer there (renamed or deleted
   since), or -1 with why. */
int plat_upload_put(const char *file_url, const char *name, char *why, size_t why_size);

/* The machine's identity as the platform finds it, read each call
   (core/identity.h reads it once and keeps it): its SMBIOS tables into
   *info (lib/smbios.h; not present says why), and the first NIC's MAC
   into mac, 1 when one was found, else 0 (bare metal: the NIC that
   booted the app, else the first one; Linux: the first interface in name
   order that is a device, else any with a non-zero MAC). */
struct smbios_info;
void plat_smbios_read(struct smbios_info *info);
int plat_mac_read(uint8_t mac[6]);

#endif
