/* The FAT volume the app was loaded from: where its configuration sits and
 * where its results go.
 */
#ifndef MEMPROBE_VOLUME_H
#define MEMPROBE_VOLUME_H

#include <stddef.h>
#include <efi.h>

/* Opens the root of the boot volume; also learns the app's own folder and
   its load options. 0, or -1 with the reason in volume_error(). */
int volume_open(void);
EFI_FILE_HANDLE volume_root(void);
const char *volume_error(void);

/* The app's folder as the firmware loaded it ("\EFI\BOOT"), in ASCII
   (volume_wide makes a file name of it for Open()). */
const char *volume_app_dir(void);

/* Reads a whole file below the root: 0 with *len, 1 when it does not exist,
   -1 on another error (message in volume_error()). At most max bytes: a
   longer file is an error. */
int volume_read(const CHAR16 *path, char *buf, size_t max, size_t *len);

/* The load options as ASCII with the image path the shell puts first
   removed; "" when there are none or they are not text. */
const char *volume_load_options(void);

/* UCS-2 from ASCII, for file names. */
void volume_wide(CHAR16 *dst, size_t count, const char *src);

#endif
