// SPDX-License-Identifier: MIT
/* The unsupported-op report: every node, grouped, in one message. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "atc_test_util.h"
#include "kselftest_harness.h"

TEST(lists_every_unsupported_node)
{
	struct ir_graph g = { .opset = 13 };
	char msg[512] = "";
	int n;

	tg_input(&g, "x", F32, 4, DIMS(1, 3, 8, 8));
	NODE(&g, "nms_1", "Bernoulli", "x", "->", "a");
	NODE(&g, "relu", "Relu", "x", "->", "b");
	NODE(&g, "loop_0", "Loop", "x", "->", "c");
	NODE(&g, "nms_2", "Bernoulli", "x", "->", "d");
	n = NODE(&g, "up", "Resize", "x", "->", "e");
	ir_set_attr_int(&g.nodes[n], "mode", 0);
	((struct ir_attr *)ir_attr(&g.nodes[n], "mode"))->kind = IR_ATTR_STRING;
	((struct ir_attr *)ir_attr(&g.nodes[n], "mode"))->s = strdup("area");
	n = NODE(&g, "custom", "Relu", "x", "->", "f");
	free(g.nodes[n].domain);
	g.nodes[n].domain = strdup("com.microsoft");
	EXPECT_EQ(5, ir_check_supported(&g, false, msg, sizeof(msg)));
	EXPECT_STREQ("atc: unsupported operators: Bernoulli (nodes: nms_1, nms_2); "
		     "Loop (nodes: loop_0); Resize mode=area (nodes: up); "
		     "Relu (domain com.microsoft) (nodes: custom)", msg);
	ir_free(&g);
}

TEST(supported_graph_and_fold_only_ops)
{
	struct ir_graph g = { .opset = 13 };
	char msg[512] = "x";

	tg_input(&g, "x", F32, 2, DIMS(2, 3));
	NODE(&g, "r", "Relu", "x", "->", "y");
	NODE(&g, "s", "Shape", "x", "->", "z");
	EXPECT_EQ(0, ir_check_supported(&g, false, msg, sizeof(msg)));
	EXPECT_STREQ("", msg);
	EXPECT_EQ(1, ir_check_supported(&g, true, msg, sizeof(msg)));
	EXPECT_STREQ("atc: unsupported operators: Shape (not constant after folding) (nodes: s)", msg);
	ir_free(&g);
}

TEST(table_is_sorted_and_unique)
{
	size_t i;

	for (i = 1; i < ir_nops; i++)
		EXPECT_GT(0, strcmp(ir_ops[i - 1].op_type, ir_ops[i].op_type))
			TH_LOG("%s", ir_ops[i].op_type);
	EXPECT_NE(NULL, ir_op_find("Conv"));
	EXPECT_EQ(NULL, ir_op_find("Loop"));
}

TEST_HARNESS_MAIN
