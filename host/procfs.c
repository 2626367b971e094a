/* Small readers for /proc and /sys, shared by the host platform files. */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/host.h"

int host_read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0 || size == 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	return 0;
}

int host_read_u64(const char *path, uint64_t *value)
{
	char text[64], *end;

	if (host_read_text(path, text, sizeof text) != 0)
		return -1;
	*value = strtoull(text, &end, 10);
	return end == text ? -1 : 0;
}

uint64_t host_meminfo_bytes(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "re");
	size_t field_len = strlen(field);
	char line[256];
	uint64_t kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, field, field_len) == 0 && line[field_len] == ':') {
			kib = strtoull(line + field_len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kib * 1024;
}

int host_read_policy(const char *path, char *buf, size_t size)
{
	char text[256], *open_bracket, *close_bracket;

	if (host_read_text(path, text, sizeof text) != 0)
		return -1;
	open_bracket = strchr(text, '[');
	close_bracket = open_bracket ? strchr(open_bracket, ']') : NULL;
	if (!close_bracket) {
		snprintf(buf, size, "%s", text);
		return 0;
	}
	*close_bracket = '\0';
	snprintf(buf, size, "%s", open_bracket + 1);
	return 0;
}

void host_hugetlb_pages(unsigned page_shift, uint64_t *reserved, uint64_t *free_pages)
{
	char path[128];
	unsigned long long kib = (1ull << page_shift) / 1024;

	*reserved = *free_pages = 0;
	snprintf(path, sizeof path, "/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages", kib);
	if (host_read_u64(path, reserved) != 0)
		*reserved = 0;
	snprintf(path, sizeof path, "/sys/kernel/mm/hugepages/hugepages-%llukB/free_hugepages", kib);
	if (host_read_u64(path, free_pages) != 0)
		*free_pages = 0;
}
