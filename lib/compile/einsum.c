// SPDX-License-Identifier: MIT
/*
 * Einsum equations: numpy's notation as ONNX defines it. Spaces are
 * ignored; without "->" the output is the ellipsis dims followed by the
 * labels that appear once, in ASCII order. Ellipsis dims align from the
 * right across operands and broadcast (size 1 against n); a label
 * repeated within one operand reads its diagonal.
 */
#include <stdio.h>
#include <string.h>

#include "einsum.h"

#define EINSUM_ELL	52

static int label_of(char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return 26 + (c - 'A');
	return -1;
}

/* Labels of one term (ellipsis as -1 once); count, or -1 if malformed. */
static int read_term(const char *s, size_t n, int *labs, int max)
{
	int k = 0;
	bool ell = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (ell || i + 2 >= n + 0 || s[i + 1] != '.' ||
			    s[i + 2] != '.')
				return -1;
			ell = true;
			i += 2;
			if (k >= max)
				return -1;
			labs[k++] = -1;
			continue;
		}
		if (label_of(s[i]) < 0 || k >= max)
			return -1;
		labs[k++] = label_of(s[i]);
	}
	return k;
}

/* Expand a term's ellipsis to its labels; dims of the term, or -1. */
static int expand(const int *labs, int k, int rank, int maxell, int *out)
{
	int i, r = 0, explicit = 0, ell, q;

	for (i = 0; i < k; i++)
		explicit += labs[i] >= 0;
	ell = rank - explicit;
	if (ell < 0 || (ell > 0 && explicit == k) || ell > maxell)
		return -1;
	for (i = 0; i < k; i++) {
		if (labs[i] >= 0) {
			out[r++] = labs[i];
			continue;
		}
		for (q = 0; q < ell; q++)
			out[r++] = EINSUM_ELL + (maxell - ell) + q;
	}
	return r;
}

static int add_label(struct einsum *e, int l)
{
	int i;

	for (i = 0; i < e->nall; i++)
		if (e->all[i] == l)
			return 0;
	if (e->nall >= IR_MAX_RANK)
		return -1;
	e->all[e->nall++] = l;
	return 0;
}

int einsum_parse(const char *eq, int nops, const struct ir_tensor *const *ops,
		 struct einsum *e, char *msg, size_t len)
{
	char s[256];
	int terms[EINSUM_MAX_OPS][IR_MAX_RANK + 1], nt[EINSUM_MAX_OPS];
	int outl[IR_MAX_RANK + 1], no = -1, count[EINSUM_LABELS] = { 0 };
	int maxell = 0, i, d, k = 0;
	const char *arrow, *p;
	size_t j;

	memset(e, 0, sizeof(*e));
	if (!eq || nops < 1 || nops > EINSUM_MAX_OPS)
		return snprintf(msg, len, "needs an equation and 1 to %d inputs",
				EINSUM_MAX_OPS), -1;
	for (j = 0; eq[j]; j++)
		if (eq[j] != ' ' && k + 1 < (int)sizeof(s))
			s[k++] = eq[j];
	s[k] = '\0';
	arrow = strstr(s, "->");
	p = s;
	for (i = 0; i < nops; i++) {
		const char *end = strchr(p, ',');

		if (i + 1 == nops || !end || (arrow && end > arrow))
			end = arrow ? arrow : s + k;
		if (i + 1 < nops && *end != ',')
			return snprintf(msg, len, "equation '%s' has fewer terms than the %d inputs",
					eq, nops), -1;
		if (i + 1 == nops && memchr(p, ',', (size_t)(end - p)))
			return snprintf(msg, len, "equation '%s' has more terms than the %d inputs",
					eq, nops), -1;
		nt[i] = read_term(p, (size_t)(end - p), terms[i], IR_MAX_RANK + 1);
		if (nt[i] < 0)
			return snprintf(msg, len, "malformed term in '%s'", eq), -1;
		p = end + 1;
	}
	if ((arrow && p - 1 != arrow) || (!arrow && p - 1 != s + k))
		return snprintf(msg, len, "equation '%s' has more terms than the %d inputs",
				eq, nops), -1;
	if (arrow) {
		no = read_term(arrow + 2, strlen(arrow + 2), outl, IR_MAX_RANK + 1);
		if (no < 0)
			return snprintf(msg, len, "malformed output in '%s'", eq), -1;
	}
	for (i = 0; i < nops; i++) {
		int explicit = 0;

		for (d = 0; d < nt[i]; d++)
			explicit += terms[i][d] >= 0;
		if (ops[i]->rank - explicit > maxell)
			maxell = ops[i]->rank - explicit;
	}
	e->nops = nops;
	for (i = 0; i < EINSUM_LABELS; i++)
		e->size[i] = -1;
	for (i = 0; i < nops; i++) {
		e->rank[i] = expand(terms[i], nt[i], ops[i]->rank, maxell, e->lab[i]);
		if (e->rank[i] != ops[i]->rank)
			return snprintf(msg, len, "term %d of '%s' does not match rank %d",
					i, eq, ops[i]->rank), -1;
		for (d = 0; d < e->rank[i]; d++) {
			int l = e->lab[i][d];
			int64_t sz = ops[i]->dims[d], *have = &e->size[l];

			count[l]++;
			if (*have < 0 || *have == sz)
				*have = sz;
			else if (l >= EINSUM_ELL && (sz == 1 || *have == 1))
				*have = sz > *have ? sz : *have;	/* broadcast */
			else
				return snprintf(msg, len, "label '%c' has sizes %lld and %lld",
						l < 26 ? 'a' + l : 'A' + l - 26,
						(long long)*have, (long long)sz), -1;
		}
	}
	if (arrow) {
		int explicit = 0, has_ell = 0;

		for (i = 0; i < no; i++) {
			explicit += outl[i] >= 0;
			has_ell |= outl[i] < 0;
		}
		no = expand(outl, no, explicit + (has_ell ? maxell : 0), maxell,
			    e->out);
		if (no < 0)
			return snprintf(msg, len, "malformed output in '%s'", eq), -1;
		for (i = 0; i < no; i++) {
			if (!count[e->out[i]])
				return snprintf(msg, len, "output label of '%s' is in no input",
						eq), -1;
			for (d = 0; d < i; d++)
				if (e->out[d] == e->out[i])
					return snprintf(msg, len, "output label repeated in '%s'",
							eq), -1;
		}
		e->nout = no;
	} else {
		for (i = 0; i < maxell; i++)
			e->out[e->nout++] = EINSUM_ELL + i;
		for (i = 26; i < 52; i++)	/* ASCII: upper case first */
			if (count[i] == 1 && e->nout < IR_MAX_RANK)
				e->out[e->nout++] = i;
		for (i = 0; i < 26; i++)
			if (count[i] == 1 && e->nout < IR_MAX_RANK)
				e->out[e->nout++] = i;
	}
	for (i = 0; i < e->nout; i++)
		add_label(e, e->out[i]);
	for (i = 0; i < nops; i++)
		for (d = 0; d < e->rank[i]; d++)
			if (add_label(e, e->lab[i][d]))
				return snprintf(msg, len, "'%s' has more than %d labels",
						eq, IR_MAX_RANK), -1;
	return 0;
}
