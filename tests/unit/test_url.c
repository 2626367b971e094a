/* upload.url's parts (lib/url.c): scheme, host, port and path, the
 * defaults, trailing slashes, and what is refused. */
#include <string.h>

#include "check.h"
#include "lib/url.h"

static void refused(const char *text, const char *words)
{
	struct url u;
	char why[128] = "";

	CHECK(url_parse(text, &u, why, sizeof why) == -1 && strstr(why, words),
	      "'%s' refused: %s", text, why);
}

int main(void)
{
	struct url u;
	char why[128];
	unsigned char ip[4];

	CHECK(url_parse("http://10.0.2.2:8080/fleet/", &u, why, sizeof why) == 0 &&
	      strcmp(u.scheme, "http") == 0 && strcmp(u.host, "10.0.2.2") == 0 && u.port == 8080 &&
	      strcmp(u.path, "/fleet") == 0, "http with a port, trailing slash cut (%s:%u%s)",
	      u.host, u.port, u.path);
	CHECK(url_parse("http://dav.example.org", &u, why, sizeof why) == 0 && u.port == 80 &&
	      strcmp(u.path, "/") == 0, "http's default port 80, path /");
	CHECK(url_parse("tftp://boot-1/results//", &u, why, sizeof why) == 0 && u.port == 69 &&
	      strcmp(u.scheme, "tftp") == 0 && strcmp(u.path, "/results") == 0,
	      "tftp's default port 69 (%s)", u.path);
	CHECK(url_parse("http://h:65535/a/b/c.txt", &u, why, sizeof why) == 0 && u.port == 65535 &&
	      strcmp(u.path, "/a/b/c.txt") == 0, "the highest port");
	refused("https://h/x", "not an http");
	refused("http://", "no host");
	refused("http://:80/x", "no host");
	refused("http://h:0/x", "port");
	refused("http://h:65536/x", "port");
	refused("http://h:8x/x", "port");
	refused("http://h:99999/x", "port");
	refused("http://user:pass@h/x", "user information");
	refused("http://user@h:8080/x", "user information");
	refused("http://h/x?a=b", "a query");
	refused("http://h/x#top", "a fragment");
	refused("http://h:80#top", "a fragment");
	refused("http://[::1]:80/x", "IPv6");
	refused("http://user@h/x", "user information");
	refused("http://h/a b", "blank");
	CHECK(url_ipv4("10.0.2.2", ip) && ip[0] == 10 && ip[1] == 0 && ip[2] == 2 && ip[3] == 2,
	      "10.0.2.2 is an IPv4 address");
	CHECK(!url_ipv4("10.0.2", ip) && !url_ipv4("10.0.2.2.5", ip) && !url_ipv4("256.1.1.1", ip) &&
	      !url_ipv4("a.b.c.d", ip) && !url_ipv4("1..2.3", ip) && !url_ipv4("", ip),
	      "short, long, large, named and empty are not");
	return check_summary();
}
