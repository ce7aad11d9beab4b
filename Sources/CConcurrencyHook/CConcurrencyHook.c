#include "CConcurrencyHook.h"

extern void *swift_task_enqueueGlobal_hook;

void **cconcurrency_enqueue_global_hook(void) { return &swift_task_enqueueGlobal_hook; }
