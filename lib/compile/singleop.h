/* SPDX-License-Identifier: MIT */
/*
 * Single-operator models: CANN's op descriptions (an op type such as
 * "MatMulV2", its input and output tensor descriptions and its
 * attributes) compiled into one-op .om files. atc --singleop writes them
 * from a JSON list; libacl's aclopCompile builds the same image in
 * memory, and aclopExecuteV2 finds a loaded one by its key: a canonical
 * text of the description stored in the file (OM_SEC_OP_KEY).
 */
#ifndef VNPU_ATC_SINGLEOP_H
#define VNPU_ATC_SINGLEOP_H

#include <stddef.h>
#include <stdint.h>

#define SOP_MAX_IO	16
#define SOP_MAX_RANK	8
#define SOP_MAX_ATTRS	32
#define SOP_KEY_MAX	4096

struct sop_tensor {
	int dtype;			/* aclDataType */
	int format;			/* aclFormat */
	int rank;
	int64_t dims[SOP_MAX_RANK];
	/*
	 * A constant input's values (CANN's "is_const"/"const_value", or
	 * aclSetTensorConst): small int vectors only, such as Slice's
	 * offsets and size. nconst 0: not a constant. Part of the key.
	 */
	int nconst;
	int64_t cval[SOP_MAX_RANK];
};

/* Attribute kinds, named as CANN's JSON names them. */
enum sop_attr_kind {
	SOP_BOOL, SOP_INT, SOP_FLOAT, SOP_STRING, SOP_DTYPE,
	SOP_LIST_BOOL, SOP_LIST_INT, SOP_LIST_FLOAT, SOP_LIST_STRING,
	SOP_LIST_DTYPE, SOP_LIST_LIST_INT,
};

struct sop_attr {
	char *name;
	int kind;			/* enum sop_attr_kind */
	int64_t i;			/* BOOL, INT, DTYPE */
	float f;
	char *s;
	int64_t *ints;			/* LIST_BOOL/INT/DTYPE; LIST_LIST_INT flat */
	float *floats;
	char **strs;
	int *lens;			/* LIST_LIST_INT: length of each list */
	int count;			/* of the list (lists for LIST_LIST_INT) */
};

struct sop_desc {
	char type[64];
	int nin, nout;
	struct sop_tensor in[SOP_MAX_IO], out[SOP_MAX_IO];
	struct sop_attr attrs[SOP_MAX_ATTRS];
	int nattrs;
};

/* Error statuses of sop_compile (0 is success). */
#define SOP_EUNSUPPORTED	(-2)	/* unknown op type or attribute value */
#define SOP_EINVAL		(-1)	/* a description that cannot be right */
#define SOP_ENOMEM		(-3)

/*
 * The canonical key of d: op type, every tensor (dtype, format, dims)
 * and the attributes sorted by name with exact values. Two descriptions
 * name the same compiled op exactly when their keys are equal. Returns
 * the length, or -1 when buf is too small.
 */
int sop_key(const struct sop_desc *d, char *buf, size_t len);

/* Find attribute name of d, or NULL. */
const struct sop_attr *sop_attr(const struct sop_desc *d, const char *name);
void sop_desc_free(struct sop_desc *d);

/*
 * Compile d into a single-op .om image (*img malloc'ed, the key
 * included). Returns 0 or an SOP_E* status with a message in err.
 */
int sop_compile(const struct sop_desc *d, uint8_t **img, size_t *len,
		char *err, size_t errlen);

/* Whether CANN op type t is one sop_compile knows. */
int sop_known(const char *type);

/* atc --singleop=ops.json --output=dir: one .om per description. */
int sop_compile_json(const char *json_path, const char *out_dir, int verbose);

#endif /* VNPU_ATC_SINGLEOP_H */
