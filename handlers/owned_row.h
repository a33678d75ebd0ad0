/*
 * The owned-row steps moved into the catalog (catalog/owned_row.h). This header stays only so the
 * handlers that still run their own SQL keep building until their SQL moves too; new code includes
 * "catalog/owned_row.h" from catalog files.
 */
#ifndef FLOE_OWNED_ROW_H
#define FLOE_OWNED_ROW_H

#include "catalog/owned_row.h"

#endif
