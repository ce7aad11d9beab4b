#include "CEvdevShims.h"

/* Layout assumptions the Swift side relies on: a 64-bit input_event is 24 bytes (uapi input.h). */
#if defined(__x86_64__) || defined(__aarch64__)
_Static_assert(sizeof(struct input_event) == 24, "input_event is 24 bytes on 64-bit Linux");
#endif
_Static_assert(sizeof(struct input_absinfo) == 6 * sizeof(int32_t), "input_absinfo is six __s32");
