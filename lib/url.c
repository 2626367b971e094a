/* URLs for upload.url (see url.h). */

#include "lib/url.h"
#include "lib/fmt.h"

/* ---- Private Functions ------------------------------------------------ */

static int refuse(char *why, size_t size, const char *text)
{
	if (why && size)
		mp_strlcpy(why, text, size);
	return -1;
}

/* ---- Public Functions ------------------------------------------------- */

int url_parse(const char *text, struct url *u, char *why, size_t why_size)
{
	const char *p = text, *host, *end;
	size_t n;

	mp_memset(u, 0, sizeof *u);
	if (mp_strncmp(p, "http://", 7) == 0) {
		mp_strlcpy(u->scheme, "http", sizeof u->scheme);
		u->port = 80;
	} else if (mp_strncmp(p, "tftp://", 7) == 0) {
		mp_strlcpy(u->scheme, "tftp", sizeof u->scheme);
		u->port = 69;
	} else {
		return refuse(why, why_size, "not an http:// or tftp:// URL");
	}
	host = p + 7;
	for (end = host; *end && *end != '/'; end++)
		if (*end == '@')
			return refuse(why, why_size, "user information (user:password@) is not taken: "
				      "the request carries no credentials, and the URL would show them");
	for (end = host; *end; end++)
		if (*end == '?' || *end == '#')
			return refuse(why, why_size, *end == '?' ?
				      "a query (?...) is not taken: each file's name goes after the "
				      "path, so every file would land on one name" :
				      "a fragment (#...) is not taken: it never reaches the server");
	for (end = host; *end && *end != ':' && *end != '/'; end++)
		if (!((*end >= 'a' && *end <= 'z') || (*end >= 'A' && *end <= 'Z') ||
		      (*end >= '0' && *end <= '9') || *end == '-' || *end == '.'))
			return refuse(why, why_size, "the host holds a character other than "
				      "letters, digits, '-' and '.' (IPv6 literals are not taken)");
	n = (size_t)(end - host);
	if (n == 0)
		return refuse(why, why_size, "no host");
	if (n >= sizeof u->host)
		return refuse(why, why_size, "the host name is too long");
	mp_memcpy(u->host, host, n);
	u->host[n] = '\0';
	if (*end == ':') {
		unsigned long port = 0;
		const char *d = end + 1;
		for (; *d >= '0' && *d <= '9' && port <= 65535; d++)
			port = port * 10 + (unsigned long)(*d - '0');
		if (d == end + 1 || port == 0 || port > 65535 || (*d && *d != '/'))
			return refuse(why, why_size, "the port is not a number from 1 to 65535");
		u->port = (unsigned)port;
		end = d;
	}
	if (!*end) {
		mp_strlcpy(u->path, "/", sizeof u->path);
		return 0;
	}
	n = mp_strlen(end);
	while (n > 1 && end[n - 1] == '/')
		n--;
	if (n >= sizeof u->path)
		return refuse(why, why_size, "the path is too long");
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)end[i] <= ' ' || (unsigned char)end[i] >= 0x7f)
			return refuse(why, why_size, "the path holds a blank or a byte outside "
				      "printable ASCII");
	mp_memcpy(u->path, end, n);
	u->path[n] = '\0';
	return 0;
}

int url_ipv4(const char *host, unsigned char ip[4])
{
	unsigned part = 0, digits = 0, dots = 0;

	for (const char *p = host;; p++) {
		if (*p >= '0' && *p <= '9') {
			part = part * 10 + (unsigned)(*p - '0');
			if (++digits > 3 || part > 255)
				return 0;
		} else if ((*p == '.' || !*p) && digits) {
			if (dots > 3)
				return 0;
			ip[dots] = (unsigned char)part;
			if (!*p)
				return dots == 3;
			dots++;
			part = digits = 0;
		} else {
			return 0;
		}
	}
}
