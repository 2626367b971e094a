/* A plain HTTP/1.1 PUT client over sockets, for upload.url on Linux (see
 * host_http_put in host.h). One connection per request, Connection: close,
 * every wait bounded: nothing here can hang a run.
 */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "host/host.h"
#include "core/platform.h"

/* ---- Constants -------------------------------------------------------- */

/* Each blocking send, receive or connect wait lasts at most this long
   before the deadline and the give-up hook are asked again: a signal
   ends a request within it. */
#define SLICE_MS 100

/* ---- Private Types ---------------------------------------------------- */

/* When a request must be over, and whether to give it up sooner. */
struct limits {
	uint64_t deadline_ms;     /* on plat_elapsed_ms's clock */
	int (*give_up)(void);     /* nonzero: stop now (may be NULL) */
};

/* ---- Private Functions ------------------------------------------------ */

/* 0 while the request may go on; else -1 with why saying what ended it. */
static int over(const struct limits *lim, char *why, size_t size)
{
	if (lim->give_up && lim->give_up()) {
		snprintf(why, size, "given up: the run was asked to stop");
		return -1;
	}
	if (plat_elapsed_ms() >= lim->deadline_ms) {
		snprintf(why, size, "no answer within the time allowed");
		return -1;
	}
	return 0;
}

static int fail(char *why, size_t size, const char *what, int err)
{
	snprintf(why, size, "%s: %s", what, strerror(err));
	return -1;
}

/* A connected socket, or -1: the connect waits until the limits say. */
static int connect_to(const char *host, unsigned port, const struct limits *lim, char *why,
		      size_t size)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	char service[16];
	struct timeval tv = { 0, SLICE_MS * 1000 };
	int fd, rc, err = 0;
	socklen_t len = sizeof err;
	struct pollfd p;

	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(service, sizeof service, "%u", port);
	rc = getaddrinfo(host, service, &hints, &res);
	if (rc != 0 || !res) {
		snprintf(why, size, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		freeaddrinfo(res);
		return fail(why, size, "socket", errno);
	}
	rc = connect(fd, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	if (rc != 0 && errno != EINPROGRESS) {
		err = errno;
		close(fd);
		snprintf(why, size, "connecting to %s:%u: %s", host, port, strerror(err));
		return -1;
	}
	while (rc != 0) {
		char ended[96];

		p.fd = fd;
		p.events = POLLOUT;
		rc = poll(&p, 1, SLICE_MS);
		if (rc == 0 && over(lim, ended, sizeof ended) != 0) {
			close(fd);
			snprintf(why, size, "connecting to %s:%u: %s", host, port, ended);
			return -1;
		}
		if (rc == 0 || (rc < 0 && errno == EINTR)) {
			rc = -1;
			continue;
		}
		if (rc < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err) {
			close(fd);
			snprintf(why, size, "connecting to %s:%u: %s", host, port,
				 strerror(err ? err : errno));
			return -1;
		}
		rc = 0;
	}
	/* Blocking from here, every send and receive a slice at most. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return fd;
}

/* 0, or -1 with why. */
static int send_all(int fd, const void *data, size_t len, const struct limits *lim, char *why,
		    size_t size)
{
	const char *p = data;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (over(lim, why, size) != 0)
				return -1;
			continue;
		}
		if (n <= 0)
			return fail(why, size, "sending the request", n < 0 ? errno : EPIPE);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* One request; its status code, or -1 with why. The status line is kept
   in why for the caller's message either way. */
static int request(const char *method, const char *host, unsigned port, const char *path,
		   const void *data, size_t len, const struct limits *lim, char *why, size_t size)
{
	char head[1024], answer[512], ended[96] = "";
	size_t got = 0;
	int fd, n, code = -1;
	char *eol;

	n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s:%u\r\nUser-Agent: memprobe\r\n"
		     "Content-Type: application/octet-stream\r\nContent-Length: %zu\r\n"
		     "Connection: close\r\n\r\n", method, path, host, port, len);
	if (n < 0 || (size_t)n >= sizeof head) {
		snprintf(why, size, "the request's path is too long");
		return -1;
	}
	fd = connect_to(host, port, lim, why, size);
	if (fd < 0)
		return -1;
	if (send_all(fd, head, (size_t)n, lim, why, size) != 0 ||
	    (len && send_all(fd, data, len, lim, why, size) != 0)) {
		close(fd);
		return -1;
	}
	/* The status line is all we need; the server closes after it. */
	while (got + 1 < sizeof answer && !memchr(answer, '\n', got)) {
		ssize_t r = recv(fd, answer + got, sizeof answer - 1 - got, 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (over(lim, ended, sizeof ended) != 0)
				break;
			continue;
		}
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	answer[got] = '\0';
	eol = strpbrk(answer, "\r\n");
	if (eol)
		*eol = '\0';
	if (strncmp(answer, "HTTP/1.", 7) != 0 || sscanf(answer + 8, " %3d", &code) != 1) {
		snprintf(why, size, "%s %s: no HTTP answer (%s)", method, path,
			 ended[0] ? ended : got ? "not HTTP" : "the connection closed");
		return -1;
	}
	snprintf(why, size, "%s %s: %s", method, path, answer);
	return code;
}

/* ---- Public Functions ------------------------------------------------- */

int host_http_put(const char *host, unsigned port, const char *path, const void *data,
		  size_t len, uint64_t deadline_ms, int (*give_up)(void), char *why, size_t why_size)
{
	const struct limits lim = { deadline_ms, give_up };
	int code = request("PUT", host, port, path, data, len, &lim, why, why_size);

	if (code == 409 || code == 404 || code == 500) {
		/* Each collection above the file, outermost first; one that is
		   there already answers 405, which is fine. */
		char dir[1024];
		for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
			char ignored[256];
			size_t n = (size_t)(p - path) + 1;
			if (n >= sizeof dir)
				break;
			memcpy(dir, path, n);
			dir[n] = '\0';
			request("MKCOL", host, port, dir, "", 0, &lim, ignored, sizeof ignored);
		}
		code = request("PUT", host, port, path, data, len, &lim, why, why_size);
	}
	if (code >= 200 && code < 300) {
		why[0] = '\0';
		return 0;
	}
	return -1;
}
