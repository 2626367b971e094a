/* The Linux platform: run folders never reuse a name, files reach the disk,
 * faults inside a timed section are survived and described, buffers say
 * what the kernel really gave, and the clock is self-consistent.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "host/host.h"
#include "core/platform.h"
#include "arch/x86_64/raise.h"

static void write_through(void *arg)
{
	*(volatile int *)arg = 42;
}

static void null_store(void *arg)
{
	(void)arg;
	*(volatile int *)(uintptr_t)8 = 1;
}

static void invalid_opcode(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");
}

/* In assembly: a C division by zero is undefined, and UBSan would stop it
   before the CPU ever raised #DE. */
static void divide_by_zero(void *arg)
{
	unsigned zero = *(unsigned *)arg, q = 7, r = 0;

	__asm__ volatile("divl %2" : "+a"(q), "+d"(r) : "r"(zero));
}

static void raise_vector(void *arg)
{
	raise_exception(*(const unsigned *)arg);
}

static void test_timed(void)
{
	static unsigned double_fault = 8, machine_check = 18;
	struct plat_fault fault;
	int value = 0;
	unsigned zero = 0;

	CHECK(plat_timed(write_through, &value, &fault) == 0 && value == 42,
	      "a clean section runs and returns 0");

	memset(&fault, 0, sizeof fault);
	CHECK(plat_timed(null_store, NULL, &fault) == -1, "a store to address 8 is caught");
	CHECK(fault.vector == 14 && fault.has_address && fault.address == 8 && (fault.error_code & 2),
	      "as a #PF on a write to 0x8 (vector %u, cr2 0x%llx, error 0x%llx)", fault.vector,
	      (unsigned long long)fault.address, (unsigned long long)fault.error_code);
	CHECK(strstr(fault.text, "#PF") != NULL, "the text names it: %s", fault.text);
	CHECK(fault.pc >= (uintptr_t)null_store && fault.pc < (uintptr_t)null_store + 64,
	      "rip points into the faulting function");

	CHECK(plat_timed(invalid_opcode, NULL, &fault) == -1 && fault.vector == 6,
	      "ud2 is caught as #UD (vector %u)", fault.vector);
	CHECK(plat_timed(divide_by_zero, &zero, &fault) == -1 && fault.vector == 0,
	      "a division by zero is caught as #DE (vector %u)", fault.vector);

	/* The fatal raisers meet Linux's own handling: a push onto an unmapped
	   stack is a SIGSEGV caught on the alternate stack, INT 18 from user
	   mode a #GP; neither is fatal to a process. */
	CHECK(plat_timed(raise_vector, &double_fault, &fault) == -1 && fault.vector == 14 &&
	      !fault.fatal && fault.address == RAISE_UNMAPPED_ADDRESS + RAISE_STACK_OFFSET - 8,
	      "the #DF raiser is a #PF under Linux (vector %u, address 0x%llx)", fault.vector,
	      (unsigned long long)fault.address);
	CHECK(plat_timed(raise_vector, &machine_check, &fault) == -1 && fault.vector == 13 &&
	      !fault.fatal, "INT 18 from user mode is a #GP (vector %u)", fault.vector);
	CHECK(plat_fatal() == NULL, "nothing is fatal under Linux");

	value = 0;
	CHECK(plat_timed(write_through, &value, &fault) == 0 && value == 42,
	      "after five faults a section still runs normally");
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void test_files(void)
{
	char root[] = "/tmp/memprobe-test-host-XXXXXX", path[512], text[64];
	int h, fd;
	ssize_t n;

	CHECK(mkdtemp(root) != NULL, "a scratch root");
	/* A later run must take a number above every existing one. */
	snprintf(path, sizeof path, "%s/run-0007", root);
	mkdir(path, 0755);
	host_set_results_root(root);
	snprintf(path, sizeof path, "%s/run-0008", root);
	CHECK(strcmp(plat_run_folder(), path) == 0, "next free number after run-0007: %s",
	      plat_run_folder());
	CHECK(is_dir(path), "the run folder exists");

	h = plat_file_open("a.txt");
	CHECK(h >= 0, "a file opens in the run folder");
	CHECK(plat_file_write(h, "hello ", 6) == 0 && plat_file_write(h, "world\n", 6) == 0,
	      "two appends");
	CHECK(plat_file_flush(h) == 0, "flush succeeds");
	snprintf(path, sizeof path, "%s/run-0008/a.txt", root);
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, text, sizeof text - 1) : -1;
	text[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	CHECK(strcmp(text, "hello world\n") == 0, "flushed bytes are in the file: '%s'", text);
	CHECK(plat_file_open("a.txt") == -1, "a file of the run is never opened over");
	/* What results_close needs to put the card first: read back, rename,
	   delete. */
	char back[16], moved[512];
	int other = plat_file_open("c.txt");
	CHECK(plat_file_read(h, 6, back, 5) == 5 && !memcmp(back, "world", 5),
	      "written bytes read back from an offset");
	CHECK(plat_file_read(h, 12, back, 4) == 0, "nothing past the end");
	CHECK(other >= 0 && plat_file_rename(h, "c.txt") == -1 && access(path, F_OK) == 0,
	      "a rename never goes over another file of the run");
	snprintf(moved, sizeof moved, "%s/run-0008/d.txt", root);
	CHECK(plat_file_rename(h, "d.txt") == 0 && access(moved, F_OK) == 0 &&
	      access(path, F_OK) != 0, "renamed, a.txt is d.txt now");
	CHECK(plat_file_write(h, "!", 1) == 0 && plat_file_read(h, 12, back, 4) == 1 &&
	      back[0] == '!', "the handle stays open under the new name");
	CHECK(plat_file_delete(h) == 0 && access(moved, F_OK) != 0, "deleted, and closed");
	CHECK(plat_file_delete(other) == 0, "c.txt deleted too");

	/* A second run in the same root gets the next folder. */
	host_set_results_root(root);
	snprintf(path, sizeof path, "%s/run-0009", root);
	CHECK(strcmp(plat_run_folder(), path) == 0, "a second run takes run-0009 (%s)", plat_run_folder());
	rmdir(path);
	snprintf(path, sizeof path, "%s/run-0008", root);
	rmdir(path);
	snprintf(path, sizeof path, "%s/run-0007", root);
	rmdir(path);
	rmdir(root);

	host_set_results_root("/proc/memprobe-cannot-be-here");
	CHECK(strncmp(plat_run_folder(), "no files:", 9) == 0, "an unwritable root says so: %s",
	      plat_run_folder());
	CHECK(plat_file_open("b.txt") == -1, "and opens no file");
}

static off_t size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* A full volume, as write() meets it under a file size limit: the write
   that failed is taken back (the file keeps its whole writes), a file
   with none is removed, and plat_file_delete removes a file at once. */
static void test_full_volume(void)
{
	char root[] = "/tmp/memprobe-test-full-XXXXXX", path[512], big[3000];
	struct rlimit old, small = { 4096, 4096 };
	int kept, none, dropped;

	CHECK(mkdtemp(root) != NULL, "a scratch root");
	host_set_results_root(root);
	memset(big, 'r', sizeof big);
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	setrlimit(RLIMIT_FSIZE, &small);
	kept = plat_file_open("kept.csv");
	int first = plat_file_write(kept, big, sizeof big);
	int second = plat_file_write(kept, big, sizeof big);
	none = plat_file_open("none.json");
	char huge[5000];
	memset(huge, 'j', sizeof huge);
	int only = plat_file_write(none, huge, sizeof huge);
	dropped = plat_file_open("dropped.svg");
	int partial = plat_file_write(dropped, big, 100);
	setrlimit(RLIMIT_FSIZE, &old);

	CHECK(first == 0 && second == -1, "the second 3000-byte write crosses the 4 KiB limit");
	snprintf(path, sizeof path, "%s/kept.csv", plat_run_folder());
	CHECK(size_of(path) == 3000, "the cut write is taken back: the file keeps its one whole "
	      "write (%lld bytes)", (long long)size_of(path));
	snprintf(path, sizeof path, "%s/none.json", plat_run_folder());
	CHECK(only == -1 && size_of(path) == -1, "a file whose only write was cut is removed, "
	      "not left empty or half-written");
	CHECK(partial == 0, "a small write still fits");
	plat_file_delete(dropped);
	snprintf(path, sizeof path, "%s/dropped.svg", plat_run_folder());
	CHECK(size_of(path) == -1, "plat_file_delete removes the file");
	CHECK(!plat_files_complete(), "the run's files are incomplete, for the verdict");
	plat_file_close(kept);
	plat_file_close(none);
	snprintf(path, sizeof path, "%s/kept.csv", plat_run_folder());
	unlink(path);
	rmdir(plat_run_folder());
	rmdir(root);
}

/* --out's refusals, and the check made before the first probe. */
static void test_results_root(void)
{
	char why[256], longer[5000];

	CHECK(host_results_root_refusal("", why, sizeof why) &&
	      strstr(why, "an empty path names no folder"), "--out \"\" is refused (%s)", why);
	memset(longer, 'd', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	CHECK(host_results_root_refusal(longer, why, sizeof why) &&
	      strstr(why, "a path of 4999 bytes is too long"), "an --out past PATH_MAX is refused "
	      "(%s)", why);
	CHECK(host_results_root_refusal("/tmp/ok", why, sizeof why) == NULL, "a plain path is not");
	host_set_results_root(longer);
	CHECK(strstr(plat_run_folder(), "no files: --out: a path of 4999 bytes") != NULL,
	      "set anyway, it is never shortened into another folder: %s", plat_run_folder());
	CHECK(host_check_results_root(0, why, sizeof why) == -1, "and the check refuses it too");
	host_set_results_root("/proc");
	CHECK(host_check_results_root(0, why, sizeof why) == -1 &&
	      strstr(why, "--out /proc: cannot write a file there"), "/proc takes no file (%s)", why);
	host_set_results_root("/tmp");
	CHECK(host_check_results_root(0, why, sizeof why) == 0, "/tmp takes a run (%s)", why);
	CHECK(host_check_results_root(UINT64_MAX, why, sizeof why) == 1 &&
	      strstr(why, "this run's files take about"), "a run larger than the room left is "
	      "warned about, not refused (%s)", why);
}

/* After a 256 MiB buffer of 4 KiB pages was handed back: the next, smaller
   one of that page size is the same mapping (what was written there is still there), checked as one region of its
   own size (the rest no longer readable, so smaps cannot count it); a
   larger one is a new mapping, checked whole; and what the platform
   offers still counts the kept memory. */
static void test_kept_buffer(void)
{
	struct plat_buffer small, large, held;
	char why[160], present[64];
	void *kept_at;

	CHECK(plat_buffer_get(&held, 256u << 20, PAGE_SHIFT_4K, why, sizeof why) == 0,
	      "the 256 MiB buffer again (%s)", why);
	kept_at = held.base;
	((char *)held.base)[100] = 0x5a;
	plat_buffer_put(&held);
	CHECK(plat_buffer_max(PAGE_SHIFT_4K) >= (256u << 20),
	      "the kept 256 MiB still counts as free");
	CHECK(plat_buffer_get(&small, 96u << 20, PAGE_SHIFT_4K, why, sizeof why) == 0,
	      "a 96 MiB buffer (%s)", why);
	snprintf(present, sizeof present, "pagemap: %u of %u present", 24576u, 24576u);
	CHECK(small.base == kept_at && ((char *)small.base)[100] == 0x5a && small.verified_ok &&
	      strstr(small.verified, present),
	      "the kept mapping's first 96 MiB, checked as 24576 pages of its own: %s",
	      small.verified);
	CHECK(plat_buffer_get(&large, 288u << 20, PAGE_SHIFT_4K, why, sizeof why) == 0,
	      "a 288 MiB buffer beside it (%s)", why);
	snprintf(present, sizeof present, "pagemap: %u of %u present", 73728u, 73728u);
	CHECK(large.base != kept_at && large.verified_ok && strstr(large.verified, present),
	      "a new mapping, every page of it checked: %s", large.verified);
	plat_buffer_put(&small);
	((char *)large.base)[100] = 0x6b;
	plat_buffer_put(&large);
	CHECK(plat_buffer_get(&held, 200u << 20, PAGE_SHIFT_4K, why, sizeof why) == 0 &&
	      ((char *)held.base)[100] == 0x6b, "of two handed back the larger is kept (%s)", why);
	plat_buffer_put(&held);
}

static void test_buffers(void)
{
	struct plat_buffer b;
	char why[160];

	CHECK(plat_buffer_max(PAGE_SHIFT_4K) >= (64u << 20), "at least 64 MiB of 4 KiB pages on offer");
	CHECK(plat_buffer_get(&b, (8u << 20) + 100, PAGE_SHIFT_4K, why, sizeof why) == 0,
	      "an 8 MiB + 100 B buffer of 4 KiB pages (%s)", why);
	CHECK(b.bytes == (8u << 20) + 4096 && b.page_shift == PAGE_SHIFT_4K,
	      "rounded up to whole pages (%zu)", b.bytes);
	CHECK(b.verified_ok && strstr(b.verified, "4 KiB pages for 100%"),
	      "verified as 4 KiB pages: %s", b.verified);
	memset(b.base, 0xa5, b.bytes);
	/* A flush writes back before it evicts: what was written stays, over
	   a range that starts and ends inside lines. */
	((unsigned char *)b.base)[4099] = 0x5a;
	plat_data_flush((char *)b.base + 4097, (1u << 20) - 3);
	plat_data_flush(b.base, 0);
	CHECK(((unsigned char *)b.base)[4099] == 0x5a && ((unsigned char *)b.base)[4096] == 0xa5 &&
	      ((unsigned char *)b.base)[(1u << 20) + 4095] == 0xa5,
	      "the flushed lines read back as written");
	plat_buffer_put(&b);

	if (plat_buffer_max(PAGE_SHIFT_2M) >= (16u << 20)) {
		CHECK(plat_buffer_get(&b, 16u << 20, PAGE_SHIFT_2M, why, sizeof why) == 0 ||
		      strstr(why, "refused"), "a 16 MiB buffer of 2 MiB pages, or a plain refusal (%s)", why);
		if (b.base) {
			CHECK((uintptr_t)b.base % (2u << 20) == 0, "2 MiB-aligned");
			CHECK(strstr(b.verified, "2 MiB pages for") != NULL, "the check reports it: %s",
			      b.verified);
			CHECK(!b.verified_ok || strstr(b.verified, "100%"),
			      "verified_ok only when every page is 2 MiB");
			plat_buffer_put(&b);
		}
	}

	/* 256 MiB: large enough to be faulted in by a thread per CPU (at least
	   64 MiB a share); a share left untouched would leave pages missing
	   from pagemap, and the buffer unverified. */
	if (plat_buffer_max(PAGE_SHIFT_4K) >= (512u << 20)) {
		char present[64];

		CHECK(plat_buffer_get(&b, 256u << 20, PAGE_SHIFT_4K, why, sizeof why) == 0,
		      "a 256 MiB buffer of 4 KiB pages (%s)", why);
		snprintf(present, sizeof present, "pagemap: %u of %u present", 65536u, 65536u);
		CHECK(b.base && b.verified_ok && strstr(b.verified, present),
		      "every one of its 65536 pages touched, whatever thread touched it: %s",
		      b.verified);
		plat_buffer_put(&b);
		test_kept_buffer();
	}

	memset(&b, 0, sizeof b);
	if (plat_buffer_max(PAGE_SHIFT_1G) == 0) {
		CHECK(plat_buffer_get(&b, 1u << 30, PAGE_SHIFT_1G, why, sizeof why) == -1 && !b.base,
		      "no 1 GiB pool: refused plainly (%s)", why);
		CHECK(strstr(why, "1 GiB") != NULL, "and the reason names the size");
	}
	CHECK(plat_buffer_get(&b, (size_t)1 << 46, PAGE_SHIFT_4K, why, sizeof why) == -1,
	      "64 TiB is refused (%s)", why);
}

static void test_clock(void)
{
	const struct plat_clock *clk = plat_clock();
	struct timespec pause = { 0, 50000000 };
	uint64_t t0, t1;
	double ms;

	CHECK(clk->counter && strcmp(clk->counter, "TSC") == 0,
	      "the clock names its counter, the TSC (%s)", clk->counter ? clk->counter : "NULL");
	CHECK(clk->ticks_per_s > 100000000ull && clk->ticks_per_s < 10000000000ull,
	      "TSC rate is plausible (%llu Hz)", (unsigned long long)clk->ticks_per_s);
	CHECK(clk->core_hz > 100000000ull && clk->core_hz < 10000000000ull,
	      "core clock is plausible (%llu Hz)", (unsigned long long)clk->core_hz);
	CHECK(clk->source && strstr(clk->source, "TSC"), "source says how: %s", clk->source);
	CHECK(clk->core_source && strstr(clk->core_source, "add"), "core source says how: %s",
	      clk->core_source);
	t0 = plat_ticks();
	nanosleep(&pause, NULL);
	t1 = plat_ticks();
	ms = (double)(t1 - t0) * 1e3 / (double)clk->ticks_per_s;
	CHECK(ms > 49 && ms < 80, "a 50 ms sleep reads about 50 ms of ticks (%.2f)", ms);
	CHECK(plat_elapsed_ms() >= 50, "elapsed time counts from the start (%llu ms)",
	      (unsigned long long)plat_elapsed_ms());
}

int main(void)
{
	test_timed();
	test_files();
	test_full_volume();
	test_results_root();
	test_buffers();
	test_clock();
	return check_summary();
}
