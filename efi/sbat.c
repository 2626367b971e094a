/* The SBAT section: the generation lines that shim and firmware with SBAT
 * support check before running a signed image, so that a vulnerable
 * release can be revoked by generation instead of by hash. The first line
 * is the format's own; the second is memprobe's, whose generation number
 * rises only when a release must be revoked for Secure Boot's sake.
 * docs/BUILD.md, "Secure Boot", says how the image is signed.
 */

__attribute__((section(".sbat"), used))
static const char sbat[] =
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	"memprobe,1,memprobe,memprobe," MEMPROBE_VERSION ",docs/BUILD.md\n";
