/* Who the CPU says it is: vendor, brand string, family/model/stepping, the
 * features memprobe depends on, read from CPUID.
 */
#ifndef MEMPROBE_CPUINFO_H
#define MEMPROBE_CPUINFO_H

/* struct cpuinfo itself is plain data (lib/machine.h), so whoever
   describes the system turns it into JSON without knowing CPUID. */
#include "lib/machine.h"

void cpuinfo_read(struct cpuinfo *ci);

/* The vendor behind a CPUID leaf 0 vendor string. Hygon (Dhyana, licensed
   Zen) has a value of its own: it follows AMD's CPUID leaves and MSRs, but
   whether a given AMD rule holds for it is each caller's decision. */
enum cpu_vendor {
	CPU_VENDOR_OTHER,         /* VIA, Zhaoxin, an emulator's own, ... */
	CPU_VENDOR_INTEL,         /* "GenuineIntel" */
	CPU_VENDOR_AMD,           /* "AuthenticAMD" */
	CPU_VENDOR_HYGON,         /* "HygonGenuine" */
};

/* The one place the vendor strings are compared: pass cpuinfo.vendor (or
   any NUL-terminated leaf 0 string). */
enum cpu_vendor cpuinfo_vendor(const char *vendor_string);

#endif
