/* SPDX-License-Identifier: MIT */
/* lib/dump's own state, shared by its files (dump.h is the layer's face). */
#ifndef VNPU_DUMP_DUMP_INT_H
#define VNPU_DUMP_DUMP_INT_H

#include <limits.h>
#include <pthread.h>

#include "acl/acl_dump.h"
#include "dump.h"

#define DUMP_PATH_MAX	513	/* CANN: dump_path at most 512 bytes */
#define DUMP_MAX_STEPS	100

/* A dump_list entry: a model (NULL: none named) and its layers (0: all). */
struct dump_entry {
	char *model;
	char **layers;
	uint32_t nlayers;
};

struct dump_cfg {
	bool on;			/* tensors are dumped */
	bool other;			/* exception/overflow keys: accepted only */
	char path[PATH_MAX];		/* dump_path, resolved */
	uint32_t mode;			/* DUMP_INPUT | DUMP_OUTPUT */
	bool op_switch;			/* single operators too */
	bool stats;			/* dump_data "stats" */
	int level;			/* 0 op, 1 kernel, 2 all */
	struct dump_entry *list;
	uint32_t nlist;
	uint64_t (*steps)[2];		/* dump_step ranges; none: all */
	uint32_t nsteps;
	char stamp[16];			/* the run folder's name */
};

struct dump_state {
	bool init;			/* aclmdlInitDump, not yet finalized */
	bool from_acl;			/* aclInit's acl.json configured dump */
	struct dump_cfg cfg;
	uint64_t seq;			/* single-op dumps written */
	int32_t (*cb)(const acldumpChunk *, int32_t);
	int32_t cb_flag;
};

extern pthread_mutex_t dump_lock;
extern struct dump_state dump_st;

void dump_cfg_clear(struct dump_cfg *c);
/*
 * Read file's "dump" object into c: 0 (an empty file, no "dump" or an
 * empty one leave c off), ACL_ERROR_INVALID_FILE or
 * ACL_ERROR_INVALID_DUMP_CONFIG with a sentence in why.
 */
int dump_cfg_load_file(struct dump_cfg *c, const char *file, char *why,
		       size_t len);
void dump_args_reset(void);
/* A model selection's dump path and run folder. */
const char *dump_sel_path(const struct dump_sel *s, const char **stamp);

#endif /* VNPU_DUMP_DUMP_INT_H */
