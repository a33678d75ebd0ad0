/*
 * The wire values of CloudFormation's statuses, as the engine stores them and the API reports
 * them (StackStatus, ResourceStatus, ChangeSetStatus, ExecutionStatus, ChangeSetType, OnFailure
 * in cloudformation-2010-05-15.smithy.json), and the stable states of a stack: those in which it
 * takes a new operation. One place, so a status is never spelled twice.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_STATUS_H
#define FLOE_CLOUDFORMATION_STACK_STATUS_H

#include <stdbool.h>

/* StackStatus (and ResourceStatus, which shares most of them) */
#define FLOE_CREATE_IN_PROGRESS "CREATE_IN_PROGRESS"
#define FLOE_CREATE_COMPLETE "CREATE_COMPLETE"
#define FLOE_CREATE_FAILED "CREATE_FAILED"
#define FLOE_ROLLBACK_IN_PROGRESS "ROLLBACK_IN_PROGRESS"
#define FLOE_ROLLBACK_COMPLETE "ROLLBACK_COMPLETE"
#define FLOE_ROLLBACK_FAILED "ROLLBACK_FAILED"
#define FLOE_DELETE_IN_PROGRESS "DELETE_IN_PROGRESS"
#define FLOE_DELETE_COMPLETE "DELETE_COMPLETE"
#define FLOE_DELETE_FAILED "DELETE_FAILED"
#define FLOE_DELETE_SKIPPED "DELETE_SKIPPED"
#define FLOE_UPDATE_IN_PROGRESS "UPDATE_IN_PROGRESS"
#define FLOE_UPDATE_COMPLETE_CLEANUP_IN_PROGRESS "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"
#define FLOE_UPDATE_COMPLETE "UPDATE_COMPLETE"
#define FLOE_UPDATE_FAILED "UPDATE_FAILED"
#define FLOE_UPDATE_ROLLBACK_IN_PROGRESS "UPDATE_ROLLBACK_IN_PROGRESS"
#define FLOE_UPDATE_ROLLBACK_FAILED "UPDATE_ROLLBACK_FAILED"
#define FLOE_UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"
#define FLOE_UPDATE_ROLLBACK_COMPLETE "UPDATE_ROLLBACK_COMPLETE"
#define FLOE_REVIEW_IN_PROGRESS "REVIEW_IN_PROGRESS"

/* ChangeSetStatus */
#define FLOE_CHANGE_SET_CREATE_PENDING "CREATE_PENDING"
#define FLOE_CHANGE_SET_CREATE_IN_PROGRESS "CREATE_IN_PROGRESS"
#define FLOE_CHANGE_SET_CREATE_COMPLETE "CREATE_COMPLETE"
#define FLOE_CHANGE_SET_FAILED "FAILED"

/* ExecutionStatus */
#define FLOE_EXECUTION_UNAVAILABLE "UNAVAILABLE"
#define FLOE_EXECUTION_AVAILABLE "AVAILABLE"
#define FLOE_EXECUTION_IN_PROGRESS "EXECUTE_IN_PROGRESS"
#define FLOE_EXECUTION_COMPLETE "EXECUTE_COMPLETE"
#define FLOE_EXECUTION_FAILED "EXECUTE_FAILED"

/* ChangeSetType */
#define FLOE_CHANGE_SET_TYPE_CREATE "CREATE"
#define FLOE_CHANGE_SET_TYPE_UPDATE "UPDATE"

/* OnFailure (and CreateChangeSet's OnStackFailure) */
#define FLOE_ON_FAILURE_ROLLBACK "ROLLBACK"
#define FLOE_ON_FAILURE_DELETE "DELETE"
#define FLOE_ON_FAILURE_DO_NOTHING "DO_NOTHING"

/* DeletionPolicy and UpdateReplacePolicy, as stored */
#define FLOE_POLICY_DELETE "Delete"
#define FLOE_POLICY_RETAIN "Retain"
#define FLOE_POLICY_RETAIN_EXCEPT_ON_CREATE "RetainExceptOnCreate"

/** The resource type of the stack itself in its events. */
#define FLOE_STACK_RESOURCE_TYPE "AWS::CloudFormation::Stack"

/* AWS's exact reason for a change set that changes nothing: `aws cloudformation deploy` reads it
 * to print "No changes to deploy". */
#define FLOE_CHANGE_SET_NO_CHANGES                                                                            \
    "The submitted information didn't contain changes. Submit different information to create a change set."

/** True when `status` is a stack status that ends in _IN_PROGRESS. */
bool floe_stack_status_is_in_progress(const char *status);

/** True when a stack in `status` can be updated (CREATE_COMPLETE, UPDATE_COMPLETE,
 * UPDATE_ROLLBACK_COMPLETE), as AWS allows. */
bool floe_stack_status_is_updatable(const char *status);

#endif
