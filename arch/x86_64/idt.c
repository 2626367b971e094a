/* The app's IDT (32 interrupt gates onto the guard's vectors) and the
 * guarded state's entry and exit, with the app's GDT and TSS (gdt.h). */

#include "arch/x86_64/guard.h"
#include "arch/x86_64/gdt.h"
#include "lib/fmt.h"

#define IDT_VECTORS 32
#define GATE_INTERRUPT_PRESENT 0x8e   /* P=1, DPL=0, 64-bit interrupt gate */
#define STUB_BYTES 16

struct __attribute__((packed)) idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
};

extern const char guard_vectors[];

/* Interrupt gates (not trap gates) so IF stays clear inside a handler.
   Vectors past 31 lie beyond the limit: with IF clear no device interrupt
   can arrive, and a stray INT n then raises #GP, which the guard catches. */
static struct idt_gate idt[IDT_VECTORS] __attribute__((aligned(16)));

/* The stack each vector switches to: #DF and #MC their own when the TSS
   holds them, so a double fault that the stack caused still arrives. */
static uint8_t gate_ist(unsigned vector, int uses_tss)
{
	if (!uses_tss)
		return 0;
	if (vector == 8)
		return IST_DOUBLE_FAULT;
	if (vector == 18)
		return IST_MACHINE_CHECK;
	return 0;
}

void idt_build(struct descriptor_pointer *idtr, uint16_t cs, int uses_tss)
{
	for (unsigned v = 0; v < IDT_VECTORS; v++) {
		uint64_t target = (uint64_t)(guard_vectors + v * STUB_BYTES);
		idt[v] = (struct idt_gate){
			.offset_low = (uint16_t)target,
			.selector = cs,
			.ist = gate_ist(v, uses_tss),
			.type_attr = GATE_INTERRUPT_PRESENT,
			.offset_mid = (uint16_t)(target >> 16),
			.offset_high = (uint32_t)(target >> 32),
		};
	}
	idtr->limit = sizeof idt - 1;
	idtr->base = (uint64_t)idt;
}

const char *exception_name(unsigned vector)
{
	static const char *const names[IDT_VECTORS] = {
		"#DE divide error", "#DB debug", "NMI", "#BP breakpoint",
		"#OF overflow", "#BR bound range", "#UD invalid opcode",
		"#NM device not available", "#DF double fault",
		"coprocessor segment overrun", "#TS invalid TSS",
		"#NP segment not present", "#SS stack fault",
		"#GP general protection", "#PF page fault", "reserved (15)",
		"#MF x87 floating point", "#AC alignment check",
		"#MC machine check", "#XM SIMD floating point",
		"#VE virtualisation", "#CP control protection",
	};

	if (vector < IDT_VECTORS && names[vector])
		return names[vector];
	return "reserved vector";
}

/* ---- Arch/guard.h ----------------------------------------------------- */
/* Entering: cli (belt and braces under the firmware's TPL_HIGH_LEVEL), the
 * firmware's GDT and IDT kept, lgdt(app) (the same selectors mean the same
 * segments in both, gdt.h), ltr(app TSS) where the firmware had none,
 * lidt(app): from here an exception lands in the guard, not in the
 * firmware's handler, and reads only the app's memory. Leaving loads the
 * firmware's IDT and GDT again; a TR of the app's stays, as the firmware
 * had none to give back and consults none. */

void guard_state_words(char *buf, size_t size)
{
	mp_strlcpy(buf, "the app's IDT and page tables", size);
}

const char arch_pc_name[] = "RIP";
const char arch_address_name[] = "CR2";

/* What guard_enter changed: the firmware's IDTR, GDTR and GS base. */
struct x86_guard_saved {
	struct descriptor_pointer idtr, gdtr;
	uint64_t gs_base;
};

_Static_assert(sizeof(struct x86_guard_saved) <= sizeof(struct guard_saved),
	       "struct guard_saved holds an IDTR, a GDTR and a GS base");
_Static_assert(offsetof(struct guard_context, saved_rsp) == 0 &&
	       offsetof(struct guard_context, fault) == 8 &&
	       offsetof(struct guard_fault, cr2) == 24, "guard.S's CTX_ offsets");

extern const char guard_text[], guard_text_end[], guard_data[], guard_data_end[];

static struct descriptor_pointer app_idt;
static int app_idt_built;
static struct cpu_tables boot_cpu_tables;
static char summary[256];

/* The tables are built on first use, on the CPU that uses them, from its
   own selectors; the IDT is built with the first CPU's, so that every gate
   names a selector that CPU's GDT defines (a guarded call can never load an
   empty IDT, whose first exception would be a triple fault). */
void guard_enter_cpu(void *cpu_tables, struct guard_saved *s)
{
	struct cpu_tables *t = cpu_tables;
	struct x86_guard_saved *x = (struct x86_guard_saved *)s->word;

	irq_disable();
	sidt(&x->idtr);
	sgdt(&x->gdtr);
	/* This CPU's vectors find its own guard at %gs:0 (guard.S). */
	x->gs_base = rdmsr(MSR_IA32_GS_BASE);
	t->guard.saved_rsp = 0;
	wrmsr(MSR_IA32_GS_BASE, (uint64_t)(uintptr_t)&t->guard);
	if (!t->built) {
		struct cpu_selectors sel = { read_cs(), read_ss(), read_ds(), read_es(), read_tr() };
		gdt_build(t, &sel);
	}
	if (!app_idt_built) {
		idt_build(&app_idt, read_cs(), t->uses_tss);
		app_idt_built = 1;
	}
	if (t->uses_own_gdt) {
		struct descriptor_pointer gdtr = { sizeof t->gdt - 1, (uint64_t)(uintptr_t)t->gdt };
		lgdt(&gdtr);
	}
	if (t->uses_tss) {
		/* LTR marks the descriptor busy and refuses a busy one: it was
		   busy since the last entry. */
		gdt_tss((uint64_t)(uintptr_t)&t->tss, sizeof t->tss - 1, TSS_TYPE_AVAILABLE,
			&t->gdt[GDT_TSS_INDEX]);
		load_tr(GDT_TSS_SELECTOR);
	}
	lidt(&app_idt);
}

void guard_enter(struct guard_saved *s)
{
	guard_enter_cpu(&boot_cpu_tables, s);
}

size_t guard_cpu_tables_bytes(void)
{
	return sizeof(struct cpu_tables);
}

void guard_leave(const struct guard_saved *s)
{
	const struct x86_guard_saved *x = (const struct x86_guard_saved *)s->word;

	lidt(&x->idtr);
	lgdt(&x->gdtr);
	wrmsr(MSR_IA32_GS_BASE, x->gs_base);
}

size_t guard_ranges(struct guard_range *out, size_t max)
{
	struct descriptor_pointer fw_gdt;
	const struct guard_range all[] = {
		{ "exception vectors' code", (uint64_t)(uintptr_t)guard_text,
		  (uint64_t)(guard_text_end - guard_text) },
		{ "exception vectors' data", (uint64_t)(uintptr_t)guard_data,
		  (uint64_t)(guard_data_end - guard_data) },
		{ "IDT", app_idt.base, (uint64_t)app_idt.limit + 1 },
		{ "GDT, TSS and #DF/#MC stacks", (uint64_t)(uintptr_t)&boot_cpu_tables,
		  sizeof boot_cpu_tables },
		{ "the firmware's GDT", 0, 0 },
	};
	size_t n = sizeof all / sizeof *all, i;

	for (i = 0; i < n && i < max; i++)
		out[i] = all[i];
	/* Exception delivery reads the firmware's GDT only where the app's
	   could not replace it. */
	if (i == n) {
		if (boot_cpu_tables.uses_own_gdt)
			return n - 1;
		sgdt(&fw_gdt);
		out[n - 1].base = fw_gdt.base;
		out[n - 1].length = (uint64_t)fw_gdt.limit + 1;
	}
	return i;
}

const char *guard_tables_summary(void)
{
	const struct cpu_tables *t = &boot_cpu_tables;

	if (!t->built)
		mp_snprintf(summary, sizeof summary, "not entered yet");
	else if (!t->uses_own_gdt)
		mp_snprintf(summary, sizeof summary, "the app's IDT on the firmware's GDT (%s)",
			    t->problem);
	else if (!t->uses_tss)
		mp_snprintf(summary, sizeof summary, "the app's IDT and GDT; no TSS of the app's "
			    "(%s)", t->problem);
	else
		mp_snprintf(summary, sizeof summary, "the app's IDT, GDT and TSS (code selector "
			    "0x%x, TSS 0x%x): #DF and #MC on stacks of their own",
			    (unsigned)idt[0].selector, (unsigned)GDT_TSS_SELECTOR);
	return summary;
}

void guard_last_cpu(const void *cpu_tables, struct arch_fault *f)
{
	const struct guard_fault *g = &((const struct cpu_tables *)cpu_tables)->guard.fault;

	f->vector = (unsigned)g->vector;
	f->error_code = g->error_code;
	f->pc = g->rip;
	f->address = g->cr2;
	f->has_address = 1;
}

void guard_last(struct arch_fault *f)
{
	guard_last_cpu(&boot_cpu_tables, f);
}
