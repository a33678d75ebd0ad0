/*
 * The stack engine: one thread, off the event loop, that takes queued stack work (cfn_work) in
 * order and carries each stack to a stable state, creating, updating and deleting its resources,
 * and computes the changes of new change sets. Clients poll for the result (DescribeStacks,
 * DescribeStackEvents, DescribeChangeSet), as they do on AWS.
 *
 * The thread never opens SQLite: every read and write of the state, and every S3 Tables change,
 * is a step it runs on the first worker's thread through the background door (background.h),
 * in the stack's account and region.
 *
 * Restart: the queue is durable. Work that was running when the server stopped is taken again
 * when it starts; a stack caught in CREATE_IN_PROGRESS or UPDATE_IN_PROGRESS fails cleanly (its
 * creation rolls back, its update rolls back) with the reason "The server restarted during the
 * operation.", and a stack caught rolling back, cleaning up or deleting resumes where it stopped
 * (every step is idempotent: a resource already gone counts as deleted). See stack_run.c.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_THREAD_H
#define FLOE_CLOUDFORMATION_STACK_THREAD_H

#include "background/background.h"

typedef struct floe_stack_engine floe_stack_engine_t;

/**
 * Starts the engine's thread over the door `bg` (the first worker's). Returns the engine, which
 * floe_stack_engine_stop releases, or NULL (logged) when the thread cannot start. One engine per
 * process.
 */
floe_stack_engine_t *floe_stack_engine_start(floe_background_t *bg);

/**
 * Stops the engine: call on the serving thread after floe_background_stop (which makes the
 * engine's steps fail at once, so it stops between steps); joins its thread and frees it. The work
 * it was doing stays queued for the next start. NULL is ignored.
 */
void floe_stack_engine_stop(floe_stack_engine_t *engine);

/** Wakes the engine: new work is queued (the engine also looks every second by itself). */
void floe_stack_engine_kick(void);

#endif
