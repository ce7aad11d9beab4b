#ifndef STROKES_CEVDEV_SHIMS_H
#define STROKES_CEVDEV_SHIMS_H

#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <stdint.h>

/*
 * What Swift cannot import from <linux/input.h> on its own. Every symbol is prefixed cevdev_.
 * Only the Evdev module may import this module.
 */

/*
 * input_event's time fields are macros (`input_event_sec` expands to `time.tv_sec` or to `__sec`
 * depending on the ABI, see uapi/linux/input.h), so Swift sees no member of that name.
 */
static inline int64_t cevdev_event_sec(const struct input_event *ev) { return (int64_t)ev->input_event_sec; }
static inline int64_t cevdev_event_usec(const struct input_event *ev) { return (int64_t)ev->input_event_usec; }

/* EVIOCGABS/EVIOCGRAB are function-like ioctl macros, which Swift does not import. */
static inline int cevdev_eviocgabs(int fd, unsigned int axis, struct input_absinfo *out) {
    return ioctl(fd, EVIOCGABS(axis), out);
}
static inline int cevdev_eviocgrab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, grab); }

/* UI_SET_PHYS on a uinput descriptor before the device is created (ioctl is variadic, which Swift
   cannot call; libevdev 1.13 sets no phys itself, and the kernel has no UI_SET_UNIQ). */
static inline int cevdev_uinput_set_phys(int fd, const char *phys) { return ioctl(fd, UI_SET_PHYS, phys); }

/* The kernel's limits, as plain constants Swift can read. */
static inline int cevdev_abs_max(void) { return ABS_MAX; }
static inline int cevdev_key_max(void) { return KEY_MAX; }

#endif
