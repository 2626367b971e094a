/* The PI specification's EFI_MP_SERVICES_PROTOCOL (PI 1.2+, volume 2,
 * "MP Services Protocol"), which gnu-efi does not define: the firmware's
 * way to run a procedure on the other CPUs. Only the members memprobe
 * calls are typed; the layout is the specification's.
 */
#ifndef MEMPROBE_MP_SERVICES_H
#define MEMPROBE_MP_SERVICES_H

#include <efi.h>

#define MP_SERVICES_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

/* EFI_PROCESSOR_INFORMATION.StatusFlag bits. */
#define MP_PROCESSOR_AS_BSP  0x1u
#define MP_PROCESSOR_ENABLED 0x2u
#define MP_PROCESSOR_HEALTHY 0x4u

struct mp_processor_information {
	UINT64 processor_id;          /* the CPU id: the APIC ID on x86, MPIDR on AArch64 */
	UINT32 status_flag;
	UINT32 package, core, thread; /* EFI_CPU_PHYSICAL_LOCATION */
	/* PI 1.7's extended location follows only when asked for with
	   CPU_V2_EXTENDED_TOPOLOGY; room for it, never read. */
	UINT32 extended[6];
};

typedef VOID (EFIAPI *mp_ap_procedure)(VOID *argument);

struct mp_services {
	EFI_STATUS (EFIAPI *get_number_of_processors)(struct mp_services *self, UINTN *total,
						       UINTN *enabled);
	EFI_STATUS (EFIAPI *get_processor_info)(struct mp_services *self, UINTN number,
						 struct mp_processor_information *info);
	VOID *startup_all_aps;
	EFI_STATUS (EFIAPI *startup_this_ap)(struct mp_services *self, mp_ap_procedure procedure,
					      UINTN number, EFI_EVENT wait_event,
					      UINTN timeout_us, VOID *argument, BOOLEAN *finished);
	VOID *switch_bsp;
	VOID *enable_disable_ap;
	EFI_STATUS (EFIAPI *who_am_i)(struct mp_services *self, UINTN *number);
};

#endif
