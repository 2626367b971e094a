/* Walking RSDP -> XSDT (or RSDT) -> a table: the FADT for the PM timer,
 * the HPET, the SRAT. */

#include "efi/acpi.h"
#include "efi/fw.h"
#include "lib/fmt.h"

static EFI_GUID acpi20_guid = { 0x8868e871, 0xe4f1, 0x11d3, { 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
static EFI_GUID acpi10_guid = { 0xeb9d2d30, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };

#define SDT_HEADER_BYTES 36
#define FADT_PM_TMR_BLK 76
#define FADT_FLAGS 112
#define FADT_X_PM_TMR_BLK 208
#define FADT_TMR_VAL_EXT (1u << 8)
#define FADT_HW_REDUCED_ACPI (1u << 20)
#define GAS_SYSTEM_MEMORY 0
#define GAS_SYSTEM_IO 1
#define HPET_BASE_GAS 40          /* the HPET table's Base Address, a GAS */
#define HPET_TABLE_BYTES 56

static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static int guid_equal(const EFI_GUID *a, const EFI_GUID *b)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)b;

	for (unsigned i = 0; i < sizeof *a; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

static const uint8_t *find_rsdp(void)
{
	const uint8_t *v1 = NULL;

	for (UINTN i = 0; i < fw_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &fw_st->ConfigurationTable[i];
		if (guid_equal(&t->VendorGuid, &acpi20_guid))
			return t->VendorTable;
		if (guid_equal(&t->VendorGuid, &acpi10_guid))
			v1 = t->VendorTable;
	}
	return v1;
}

/* A table through the XSDT when the RSDP has one, else the RSDT. A table
   whose signature or length is wrong is not walked: a corrupt length would
   send the loop through arbitrary memory. */
static const uint8_t *find_sdt(const uint8_t *rsdp, const char *signature)
{
	int x = rsdp[15] >= 2 && get64(rsdp + 24);
	const uint8_t *sdt = x ? (const uint8_t *)(uintptr_t)get64(rsdp + 24)
			       : (const uint8_t *)(uintptr_t)get32(rsdp + 16);
	unsigned entry = x ? 8 : 4;
	uint32_t length, count;

	if (!sdt || mp_strncmp((const char *)sdt, x ? "XSDT" : "RSDT", 4) != 0)
		return NULL;
	length = get32(sdt + 4);
	if (length < SDT_HEADER_BYTES || length > (1u << 20))
		return NULL;
	count = (length - SDT_HEADER_BYTES) / entry;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *p = sdt + SDT_HEADER_BYTES + i * entry;
		const uint8_t *t = (const uint8_t *)(uintptr_t)(x ? get64(p) : get32(p));
		if (t && mp_strncmp((const char *)t, signature, 4) == 0)
			return t;
	}
	return NULL;
}

const uint8_t *acpi_find_table(const char *signature)
{
	const uint8_t *rsdp = find_rsdp();

	if (!rsdp || mp_strncmp((const char *)rsdp, "RSD PTR ", 8) != 0)
		return NULL;
	return find_sdt(rsdp, signature);
}

int acpi_find_pm_timer(struct acpi_pm_timer *t)
{
	const uint8_t *fadt = acpi_find_table("FACP");
	uint32_t length, flags;

	t->port = 0;
	if (!fadt)
		return -1;
	length = get32(fadt + 4);
	flags = length >= FADT_FLAGS + 4 ? get32(fadt + FADT_FLAGS) : 0;
	/* A hardware-reduced ACPI platform has no PM timer, whatever the
	   (then meaningless) timer block fields hold. */
	if (flags & FADT_HW_REDUCED_ACPI)
		return -1;
	t->bits = (flags & FADT_TMR_VAL_EXT) ? 32 : 24;
	/* The extended block wins when present and in I/O space. */
	if (length >= FADT_X_PM_TMR_BLK + 12 && fadt[FADT_X_PM_TMR_BLK] == GAS_SYSTEM_IO &&
	    get64(fadt + FADT_X_PM_TMR_BLK + 4))
		t->port = (uint16_t)get64(fadt + FADT_X_PM_TMR_BLK + 4);
	else if (length >= FADT_PM_TMR_BLK + 4)
		t->port = (uint16_t)get32(fadt + FADT_PM_TMR_BLK);
	return t->port ? 0 : -1;
}

int acpi_find_hpet(struct acpi_hpet *h)
{
	const uint8_t *hpet = acpi_find_table("HPET");

	h->base = 0;
	if (!hpet || get32(hpet + 4) < HPET_TABLE_BYTES || hpet[HPET_BASE_GAS] != GAS_SYSTEM_MEMORY)
		return -1;
	h->base = get64(hpet + HPET_BASE_GAS + 4);
	return h->base ? 0 : -1;
}
