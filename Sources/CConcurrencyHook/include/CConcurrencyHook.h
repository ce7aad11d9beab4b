#ifndef STROKES_CCONCURRENCY_HOOK_H
#define STROKES_CCONCURRENCY_HOOK_H

/*
 * The Swift runtime's hook for enqueueing global (non-actor) jobs, `swift_task_enqueueGlobal_hook`
 * (swift/stdlib/public/Concurrency/GlobalExecutor.cpp). NIO installs its event loops there after
 * finding the variable with dlsym, which fails in a binary linked with --static-swift-stdlib: the
 * variable is hidden there, so only a reference at link time reaches it. Only the `strokes`
 * executable's main.swift imports this module.
 */
void **cconcurrency_enqueue_global_hook(void);

#endif
