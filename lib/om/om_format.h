/* SPDX-License-Identifier: MIT */
/*
 * The vnpu offline model (.om): what atc writes and aclmdlLoad* reads.
 * Documentation/om-format.md describes every field; this header is the
 * definition both sides compile against.
 *
 * A file is a header, a section table and the sections' payloads. Every
 * integer is little-endian; every structure has a fixed size, natural
 * alignment and no implicit padding. Nodes are already in the driver's
 * task form (an operator, its tensors and its attribute block), so a
 * loader only checks them and fills in device addresses.
 *
 * Where a tensor lives:
 *  - OM_LOC_ARENA: activation memory, @offset into the arena of one
 *    execution (sized by the variant's plan);
 *  - OM_LOC_WEIGHT: @offset into the weights section, loaded to device
 *    memory once per model;
 *  - OM_LOC_INPUT / OM_LOC_OUTPUT: @offset into the caller's buffer of
 *    input or output @index, bound per execution.
 */
#ifndef VNPU_MDL_OM_FORMAT_H
#define VNPU_MDL_OM_FORMAT_H

#include <stdint.h>

#define OM_MAGIC		0x4d4f4e56u	/* "VNOM" read as bytes */
#define OM_VERSION_MAJOR	1
/* 1: the optional AIPP section (older loaders skip it) */
#define OM_VERSION_MINOR	1
#define OM_MAX_RANK		8	/* DRM_VNPU_MAX_RANK */
#define OM_MAX_NODE_TENSORS	16	/* DRM_VNPU_MAX_TENSORS */
#define OM_MAX_IO		32	/* inputs, and outputs, of a model */
#define OM_MAX_VARIANTS		32	/* dynamic batch sizes */
#define OM_WEIGHT_ALIGN		64
#define OM_NAME_MAX		256	/* bytes of a name, NUL included */

struct om_header {
	uint32_t magic;			/* OM_MAGIC */
	uint16_t version_major;		/* OM_VERSION_MAJOR: must match */
	uint16_t version_minor;		/* newer minors only add sections */
	uint32_t header_size;		/* sizeof(struct om_header) */
	uint32_t section_count;		/* entries of the table that follows */
	uint64_t file_size;		/* bytes of the whole file */
	uint32_t flags;			/* zero */
	uint32_t header_crc;		/* CRC-32 of the header and table, this field as 0 */
	char producer[32];		/* NUL-terminated, e.g. "vnpu atc 0.13" */
};

enum om_section_type {
	OM_SEC_STRINGS = 1,	/* NUL-terminated names; offset 0 is "" */
	OM_SEC_TENSORS = 2,	/* struct om_tensor[] */
	OM_SEC_NODES = 3,	/* struct om_node[] */
	OM_SEC_IO = 4,		/* struct om_io[]: the inputs, then the outputs */
	OM_SEC_WEIGHTS = 5,	/* raw bytes, each weight OM_WEIGHT_ALIGN-aligned */
	OM_SEC_VARIANTS = 6,	/* struct om_variant[]: at least one */
	OM_SEC_VARIANT_DIMS = 7,	/* struct om_dims[]: per variant, per io */
	/*
	 * Optional: a single-op model's key (atc --singleop, aclopCompile),
	 * one NUL-terminated text of at most OM_OP_KEY_MAX bytes that
	 * aclopExecuteV2 matches its op description against.
	 */
	OM_SEC_OP_KEY = 16,
	/*
	 * Optional (minor 1): struct om_aipp[], the inputs that feed a
	 * model's first layer through an AIPP task (atc --insert_op_conf).
	 */
	OM_SEC_AIPP = 17,
};

#define OM_OP_KEY_MAX		4096

struct om_section {
	uint32_t type;		/* enum om_section_type; unknown types are skipped */
	uint32_t count;		/* records (bytes for STRINGS and WEIGHTS) */
	uint64_t offset;	/* from the start of the file, 8-byte aligned */
	uint64_t size;		/* bytes; records * record size for tables */
	uint32_t crc;		/* CRC-32 (IEEE, as zlib's) of the payload */
	uint32_t reserved;	/* zero */
};

enum om_loc {
	OM_LOC_ARENA = 0,
	OM_LOC_WEIGHT = 1,
	OM_LOC_INPUT = 2,
	OM_LOC_OUTPUT = 3,
};

/* A view a task reads or writes: where it is and its layout. */
struct om_tensor {
	uint32_t loc;			/* enum om_loc */
	uint32_t index;			/* input or output index; else 0 */
	uint64_t offset;		/* bytes from the start of the location */
	uint32_t dtype;			/* DRM_VNPU_DTYPE_* (aclDataType) */
	uint32_t rank;			/* 0 .. OM_MAX_RANK */
	int64_t shape[OM_MAX_RANK];	/* entries past rank are zero */
	int64_t strides[OM_MAX_RANK];	/* elements; entries past rank zero */
	uint32_t name;			/* STRINGS offset; 0 for none */
	uint32_t reserved;		/* zero */
};

/*
 * One task: a DRM_VNPU_TASK_KERNEL (op != 0), a copy (op == 0) or a host
 * ("AI CPU") operator (op has OM_OP_HOST set).
 */
struct om_node {
	uint32_t op;			/* enum drm_vnpu_op, or OM_OP_COPY */
	uint32_t num_inputs;
	uint32_t num_outputs;		/* inputs + outputs <= OM_MAX_NODE_TENSORS */
	uint32_t has_attrs;		/* 0 or 1: attrs are passed to the driver */
	uint32_t tensors[OM_MAX_NODE_TENSORS];	/* TENSORS indices; unused 0 */
	uint32_t name;			/* STRINGS: the ONNX node it came from */
	uint32_t reserved;		/* zero */
	int64_t ints[24];		/* struct drm_vnpu_op_attrs, field for field */
	uint32_t floats[8];
};

/* A contiguous byte copy (one input, one output, same size): a Reshape
 * whose input and output cannot share memory. */
#define OM_OP_COPY		0

/*
 * A host node: op is OM_OP_HOST | enum aicpu_op (lib/aicpu/aicpu_ops.h).
 * Driver operators are small numbers, so the two never collide. A host
 * node has attributes (has_attrs 1; ints[AICPU_ATTR_IN/OUT] say which of
 * the ONNX operator's optional tensors it lists), and every tensor of it
 * is dense (row-major strides): the runtime copies the bytes to and from
 * the host around the call (Documentation/aicpu.md).
 */
#define OM_OP_HOST		0x80000000u

/* A model input or output as aclmdlGetDesc reports it (largest variant). */
struct om_io {
	uint32_t name;			/* STRINGS offset */
	uint32_t dtype;			/* aclDataType */
	uint32_t format;		/* aclFormat */
	uint32_t rank;
	int64_t dims[OM_MAX_RANK];
	uint64_t size;			/* bytes of the buffer the caller passes */
	uint32_t flags;			/* OM_IO_* */
	uint32_t reserved;		/* zero */
};

#define OM_IO_BATCHED		(1u << 0)	/* dim 0 follows the batch size */
/*
 * The record is an output. IO lists every input first, then every output;
 * this flag is where the outputs start (the loader needs the split to
 * number the binding slots, and nothing else in the file gives it).
 */
#define OM_IO_OUTPUT		(1u << 1)
/*
 * An output whose dims depend on the data (NonZero, Unique, ...): the
 * record's dims are an upper bound, sizing the buffer; a host node writes
 * the real ones each execution. Only host nodes may touch it.
 */
#define OM_IO_DYNAMIC		(1u << 2)

/*
 * String tensors (ACL_STRING, host nodes only). A string tensor's buffer
 * holds one struct om_string_head per element, row-major, followed by
 * the text they point at; offsets count from the start of the buffer
 * (the first head), so a buffer can be copied or moved whole. A writer
 * puts a NUL after each string (not counted in len); a reader does not
 * rely on it. The dtype has no fixed element size: atc and the loader
 * give every element OM_STRING_ELEM_BYTES of the buffer (its head and,
 * on average, 240 bytes of text), which sizes io records, arena buffers
 * and copies like any dense tensor (Documentation/om-format.md).
 */
#define OM_DTYPE_STRING		13	/* ACL_STRING */
#define OM_STRING_ELEM_BYTES	256

struct om_string_head {
	int64_t offset;			/* bytes from the buffer's start */
	int64_t len;			/* bytes of text, NUL not counted */
};

/* One compiled batch size: a run of nodes and its activation plan. */
struct om_variant {
	uint32_t batch;			/* 0: the model has no dynamic batch */
	uint32_t first_node;		/* NODES index */
	uint32_t node_count;		/* >= 1 */
	uint32_t reserved;		/* zero */
	uint64_t arena_size;		/* bytes of one execution's activations */
	uint64_t naive_size;		/* one buffer per tensor (for reports) */
	uint64_t lower_bound;		/* most bytes live at one moment */
};

/* Dims of one input or output in one variant: variant-major, io-minor. */
struct om_dims {
	uint32_t rank;
	uint32_t reserved;		/* zero */
	int64_t dims[OM_MAX_RANK];
};

/*
 * AIPP (CANN's AI preprocessing) of one model input: atc made the input an
 * image (UINT8 [N, bytes]) and put a DRM_VNPU_OP_AIPP task in front of
 * the layer that read it. Static: the parameters are in the record (and
 * baked into WEIGHTS for the task). Dynamic: another input, named
 * ascend_dynamic_aipp_data (UINT8 [N, OM_AIPP_PARAMS_SIZE]), carries one
 * parameter block per image each execution (aclmdlSetInputAIPP).
 */
#define OM_AIPP_STATIC		1
#define OM_AIPP_DYNAMIC		2
#define OM_AIPP_NO_INPUT	0xffffffffu
/* sizeof(struct drm_vnpu_aipp_params), padded in the record to 160 */
#define OM_AIPP_PARAMS_SIZE	156
#define OM_AIPP_DYNAMIC_NAME	"ascend_dynamic_aipp_data"

struct om_aipp {
	uint32_t mode;			/* OM_AIPP_STATIC or OM_AIPP_DYNAMIC */
	uint32_t input;			/* the image input (IO index) */
	uint32_t params_input;		/* dynamic: the parameters' input;
					 * static: OM_AIPP_NO_INPUT */
	uint32_t out_dtype;		/* the layer's input: FLOAT or FLOAT16 */
	uint32_t out_rank;		/* 4: N, C, H, W */
	uint32_t reserved;		/* zero */
	int64_t out_dims[OM_MAX_RANK];	/* largest variant; zero past rank */
	uint8_t params[160];		/* static: struct drm_vnpu_aipp_params,
					 * then zeros; dynamic: zeros */
};

#endif /* VNPU_MDL_OM_FORMAT_H */
