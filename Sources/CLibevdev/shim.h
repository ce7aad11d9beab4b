#ifndef STROKES_CLIBEVDEV_SHIM_H
#define STROKES_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#endif
