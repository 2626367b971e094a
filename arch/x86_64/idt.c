/* The app's IDT: 32 interrupt gates onto the guard's vectors. */

#include "arch/x86_64/guard.h"
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

void idt_build(struct descriptor_pointer *idtr)
{
	uint16_t cs = read_cs();

	for (unsigned v = 0; v < IDT_VECTORS; v++) {
		uint64_t target = (uint64_t)(guard_vectors + v * STUB_BYTES);
		idt[v] = (struct idt_gate){
			.offset_low = (uint16_t)target,
			.selector = cs,
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

/* ---- arch/guard.h ---------------------------------------------------------
 * Entering: cli (belt and braces under the firmware's TPL_HIGH_LEVEL), the
 * firmware's IDT kept, lidt(app): from here an exception lands in the guard,
 * not in the firmware's handler. Leaving loads the firmware's IDT again. */

void guard_state_words(char *buf, size_t size)
{
	mp_strlcpy(buf, "the app's IDT and page tables", size);
}

const char arch_pc_name[] = "RIP";
const char arch_address_name[] = "CR2";

static struct descriptor_pointer app_idt;
static int app_idt_built;

_Static_assert(sizeof(struct descriptor_pointer) <= sizeof(struct guard_saved),
	       "struct guard_saved holds an IDTR");

/* idt_build only fills a static table with the guard's stub addresses and
   the current code segment, so building it on first use is safe at any
   point, and a guarded call can never load an empty IDT (whose first
   exception would be a triple fault: a machine reset). */
void guard_enter(struct guard_saved *s)
{
	struct descriptor_pointer fw;

	irq_disable();
	sidt(&fw);
	__builtin_memcpy(s->word, &fw, sizeof fw);
	if (!app_idt_built) {
		idt_build(&app_idt);
		app_idt_built = 1;
	}
	lidt(&app_idt);
}

void guard_leave(const struct guard_saved *s)
{
	struct descriptor_pointer fw;

	__builtin_memcpy(&fw, s->word, sizeof fw);
	lidt(&fw);
}

void guard_last(struct arch_fault *f)
{
	f->vector = (unsigned)guard_last_fault.vector;
	f->error_code = guard_last_fault.error_code;
	f->pc = guard_last_fault.rip;
	f->address = guard_last_fault.cr2;
	f->has_address = 1;
}
