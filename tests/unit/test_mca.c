/* The machine-check decoding (arch/x86_64/mca.c): MCG_STATUS and each valid
   bank named bit by bit, every "nothing to show" case said as such, and
   which vectors stop a run. */

#include <string.h>

#include "check.h"
#include "arch/guard.h"
#include "arch/x86_64/mca.h"

static char text[1024];

/* A guard under which every MSR read raises #GP (a hypervisor that hides
   the machine-check registers): fn never runs. */
static int refuse_all(void (*fn)(void *), void *arg)
{
	(void)fn;
	(void)arg;
	return -1;
}

static void test_real_machine_check(void)
{
	struct mca_record r = {
		.supported = 1, .readable = 1, .banks = 22, .valid = 2,
		.mcg_status = MCG_STATUS_MCIP | MCG_STATUS_EIPV,
		.shown = {
			/* An uncorrected memory read error with its address. */
			{ 4, MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | MCI_STATUS_ADDRV |
			     MCI_STATUS_PCC | 0x009full, 0x12345000 },
			/* A corrected one that overflowed, no address. */
			{ 7, MCI_STATUS_VAL | MCI_STATUS_OVER | 0x0135ull, 0 },
		},
	};

	mca_format(&r, text, sizeof text);
	CHECK(strstr(text, "MCG_STATUS 0x6 (MCIP set, RIPV clear, EIPV set), 22 banks, 2 with a "
		      "valid error") == text, "MCG_STATUS named bit by bit: %s", text);
	CHECK(strstr(text, "; bank 4: MCi_STATUS 0xb60000000000009f (valid, uncorrected, "
		      "signalling enabled, processor context corrupt, MCA error code 0x009f), "
		      "MCi_ADDR 0x12345000") != NULL, "an uncorrected bank with its address");
	CHECK(strstr(text, "; bank 7: MCi_STATUS 0xc000000000000135 (valid, overflow: an earlier "
		      "error was lost, corrected, MCA error code 0x0135)") != NULL,
	      "a corrected, overflowed bank without an address");
	CHECK(strstr(text, "not shown") == NULL, "nothing left out with two banks");
}

static void test_many_banks(void)
{
	struct mca_record r = { .supported = 1, .readable = 1, .banks = 32, .valid = 6,
				.banks_unreadable = 3, .mcg_status = MCG_STATUS_MCIP | MCG_STATUS_RIPV };

	for (unsigned i = 0; i < MCA_BANKS_SHOWN; i++)
		r.shown[i] = (struct mca_bank){ i, MCI_STATUS_VAL | MCI_STATUS_UC, 0 };
	mca_format(&r, text, sizeof text);
	CHECK(strstr(text, "32 banks (3 unreadable), 6 with a valid error") != NULL,
	      "unreadable banks counted: %s", text);
	CHECK(strstr(text, "; 2 more not shown") != NULL, "the banks past the shown ones are counted");
	CHECK(strstr(text, "bank 3:") && !strstr(text, "bank 4:"), "only the first four are named");
}

static void test_nothing_to_show(void)
{
	struct mca_record quiet = { .supported = 1, .readable = 1, .banks = 10 };
	struct mca_record absent = { 0 }, hidden = { .supported = 1 };

	mca_format(&quiet, text, sizeof text);
	CHECK(strcmp(text, "MCG_STATUS 0x0 (MCIP clear: the CPU signalled no machine check, the "
		     "vector was raised by software, RIPV clear, EIPV clear), 10 banks, none holds "
		     "a valid error") == 0, "a software #MC says so: %s", text);
	mca_format(&absent, text, sizeof text);
	CHECK(strstr(text, "no machine-check architecture") != NULL, "no MCA: %s", text);
	mca_format(&hidden, text, sizeof text);
	CHECK(strstr(text, "unreadable (#GP") != NULL, "hidden registers: %s", text);
	mca_read(refuse_all, &hidden);
	CHECK(hidden.readable == 0 && hidden.valid == 0 && hidden.banks == 0,
	      "a read that faults leaves nothing claimed");
}

static void test_small_buffer(void)
{
	struct mca_record r = { .supported = 1, .readable = 1, .banks = 10, .valid = 1,
				.shown = { { 1, MCI_STATUS_VAL, 0 } } };
	char small[24];

	memset(small, 'x', sizeof small);
	mca_format(&r, small, sizeof small);
	CHECK(strlen(small) == sizeof small - 1, "a short buffer is cut and terminated");
}

static void test_fatal_vectors(void)
{
	unsigned fatal = 0;

	for (unsigned v = 0; v < 32; v++)
		fatal += (unsigned)exception_fatal(v);
	CHECK(exception_fatal(8) && exception_fatal(18) && fatal == 2,
	      "exactly #DF (8) and #MC (18) stop a run");
}

int main(void)
{
	test_real_machine_check();
	test_many_banks();
	test_nothing_to_show();
	test_small_buffer();
	test_fatal_vectors();
	return check_summary();
}
