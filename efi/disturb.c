/* NMI and SMI counts on bare metal (see disturb.h). */

#include "efi/disturb.h"
#include "efi/fw.h"
#include "efi/guarded.h"
#include "arch/disturb.h"
#include "lib/fmt.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

/* The PI specification's EFI_CPU_ARCH_PROTOCOL (vol. 2, DXE), which
   gnu-efi does not define: only the member this file calls is typed, the
   others keep their places as plain pointers. */
typedef void (EFIAPI *cpu_interrupt_handler)(INTN type, void *context);

struct cpu_arch_protocol {
	void *flush_data_cache, *enable_interrupt, *disable_interrupt,
		*get_interrupt_state, *init;
	EFI_STATUS (EFIAPI *register_interrupt_handler)(struct cpu_arch_protocol *self,
							INTN type, cpu_interrupt_handler handler);
};

static EFI_GUID cpu_arch_guid = { 0x26baccb1, 0x6f42, 0x11d4,
				  { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };

/* ---- Private Data ----------------------------------------------------- */

static struct cpu_arch_protocol *cpu_arch;
static int nmi_handler_registered;
static int nmi_type = -1;     /* the protocol's type for an NMI; -1: no NMI here */
/* NMIs the firmware handed to this app's handler, outside timed sections. */
static uint64_t nmi_outside;
static int smi_counted;
static uint64_t smi_at_start;
static char nmi_how[160], smi_how[128];

/* ---- Private Functions ------------------------------------------------ */

/* Called by the firmware's exception entry with the NMI acknowledged; its
   return resumes the interrupted code. */
static void EFIAPI on_nmi(INTN type, void *context)
{
	(void)type;
	(void)context;
	__atomic_add_fetch(&nmi_outside, 1, __ATOMIC_RELAXED);
}

static void register_nmi_handler(void)
{
	EFI_STATUS s;

	nmi_type = disturb_nmi_type(nmi_how, sizeof nmi_how);
	if (nmi_type < 0)
		return;
	s = uefi_call_wrapper(fw_bs->LocateProtocol, 3, &cpu_arch_guid, NULL, (void **)&cpu_arch);
	if (s != EFI_SUCCESS) {
		mp_snprintf(nmi_how, sizeof nmi_how, "counted in timed sections only: the firmware "
			    "has no CPU architectural protocol (%s), so an NMI outside them meets "
			    "the firmware's own handler", fw_status_text(s));
		return;
	}
	s = uefi_call_wrapper(cpu_arch->register_interrupt_handler, 3, cpu_arch,
			      (INTN)nmi_type, on_nmi);
	if (s != EFI_SUCCESS) {
		mp_snprintf(nmi_how, sizeof nmi_how, "counted in timed sections only: the firmware "
			    "refused an NMI handler (%s)", fw_status_text(s));
		return;
	}
	nmi_handler_registered = 1;
	mp_snprintf(nmi_how, sizeof nmi_how, "counted: the guard's vector in timed sections, a "
		    "handler registered with the firmware outside them");
}

/* ---- Public Functions ------------------------------------------------- */

void disturb_init(void)
{
	register_nmi_handler();
	smi_counted = disturb_smi_init(&fw_cpu, guarded_run, smi_how, sizeof smi_how);
	if (smi_counted)
		smi_at_start = disturb_smi_count();
}

void disturb_release(void)
{
	if (!nmi_handler_registered)
		return;
	uefi_call_wrapper(cpu_arch->register_interrupt_handler, 3, cpu_arch,
			  (INTN)nmi_type, (cpu_interrupt_handler)NULL);
	nmi_handler_registered = 0;
}

void plat_disturbances(struct plat_disturbances *d)
{
	d->nmi = disturb_nmi_count() + __atomic_load_n(&nmi_outside, __ATOMIC_RELAXED);
	d->nmi_counted = nmi_type >= 0;
	d->nmi_how = nmi_how[0] ? nmi_how : "counted in timed sections (the guard's vector)";
	d->smi_counted = smi_counted;
	d->smi = smi_counted ? disturb_smi_count() - smi_at_start : 0;
	d->smi_how = smi_how;
	/* Timed sections run with interrupts off: nothing preempts them. */
	d->preemptions = 0;
	d->preemptions_counted = 0;
}
