#ifndef STROKES_CLIBEVDEV_SHIM_H
#define STROKES_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>

/* UI_SET_PHYS on a uinput descriptor before the device is created (ioctl is variadic, which
   Swift cannot call; libevdev 1.13 sets no phys itself). 0 or -1 with errno. */
static inline int strokes_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }
#endif
