/* An http:// or tftp:// URL taken apart: scheme, host, port, path. Pure;
 * no percent-decoding (the path is sent as it was written). */
#ifndef MEMPROBE_LIB_URL_H
#define MEMPROBE_LIB_URL_H

#include <stddef.h>

#define URL_HOST_MAX 128
#define URL_PATH_MAX 256

struct url {
	char scheme[8];           /* "http" or "tftp" */
	char host[URL_HOST_MAX];  /* a name or a dotted IPv4 address */
	unsigned port;            /* the one given, else 80 (http) or 69 (tftp) */
	char path[URL_PATH_MAX];  /* begins with '/', no trailing '/' unless it is "/" */
};

/* 0, or -1 with why filled. */
int url_parse(const char *text, struct url *u, char *why, size_t why_size);

/* 1 when host is a dotted IPv4 address; its four bytes into ip. */
int url_ipv4(const char *host, unsigned char ip[4]);

#endif
